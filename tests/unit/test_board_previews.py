"""What the board shows beyond the pieces: coordinates along the edges, empty spaces told apart by shape,
losses crossed out, this round's cuts patterned, and hover previews that are the engine's own results."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from types import SimpleNamespace

from cliplab.engine import new_game
from cliplab.games.click_crack.board import describe as click_crack_describe
from cliplab.games.click_crack.picture import CLICKABLE, click_action, click_previews
from cliplab.games.click_crack.rules import ClickCrack, position
from cliplab.games.clipcut_parks.board import cuts_from, describe, start_points, status_line
from cliplab.games.clipcut_parks.rules import ClipCutParks
from cliplab.games.paper_world.picture import PaperWorldPicture
from cliplab.games.swap_clops.picture import SwapClopsPicture
from cliplab.games.swap_clops_cards.picture import SwapClopsCardsPicture
from cliplab.grid import segment_points
from cliplab.ui import Board, Cell, Edge, Intent, Mark, Scene, render
from cliplab.ui.scene import Preview
from cliplab.ui.svg import COORDINATE_MARGIN, STYLE, UNIT, targets

SVG = "{http://www.w3.org/2000/svg}"

# Two positions found in seeded play: a walk that pushes a penguin along, and a break that drowns one.
PUSH = position(
    2,
    penguins=[(4, 0), (3, 0), (4, 4), (3, 5)],
    cracks=[
        *[((0, 0), (1, 0)), ((1, 0), (1, 1)), ((1, 4), (2, 4)), ((3, 0), (4, 0)), ((3, 2), (4, 2))],
        *[((3, 3), (4, 3)), ((4, 0), (4, 1)), ((4, 2), (4, 3))],
    ],
    gone=[(4, 0)],
    scores=[1, 0],
    phase="perform",
    round=9,
    tiles=[(("break", "W"), ("walk", "S")), (("break", "E"), ("break", "W"))],
    used=[[False, False], [False, False]],
    acting=0,
)
FALL = position(
    2,
    penguins=[(1, 1), (4, 1), (4, 4), (4, 5)],
    cracks=[
        *[((0, 0), (1, 0)), ((0, 1), (1, 1)), ((1, 0), (1, 1)), ((1, 1), (2, 1)), ((1, 4), (2, 4))],
        *[((2, 0), (3, 0)), ((2, 4), (3, 4)), ((3, 0), (4, 0)), ((3, 1), (4, 1)), ((3, 2), (3, 3))],
        *[((3, 2), (4, 2)), ((3, 3), (4, 3)), ((3, 4), (4, 4)), ((4, 0), (4, 1)), ((4, 2), (4, 3))],
    ],
    gone=[(4, 0), (4, 1), (4, 2), (4, 3), (4, 4)],
    scores=[3, 2],
    phase="perform",
    round=14,
    start_player=1,
    second_pass=True,
    tiles=[(("break", "S"), ("break", "S")), (("break", "N"), ("walk", "S"))],
    used=[[False, False], [False, True]],
    acting=1,
)


def parse(scene: Scene) -> ET.Element:
    return ET.fromstring(render(scene))


def coordinate_texts(root: ET.Element) -> list[tuple[str, float, float]]:
    return [
        (t.text or "", float(t.get("x") or 0), float(t.get("y") or 0))
        for t in root.iter(f"{SVG}text")
        if "cl-coord" in (t.get("class") or "")
    ]


def test_points_are_numbered_on_the_lattice_lines_and_cells_at_their_middles() -> None:
    points = coordinate_texts(parse(Scene((Board("b", "b", 2, 3, coordinates="points"),))))
    rows = [(text, y) for text, x, y in points if x < 0]
    cols = [(text, x) for text, x, y in points if x >= 0]
    assert rows == [("0", 0), ("1", UNIT), ("2", 2 * UNIT)]
    assert cols == [(str(c), c * UNIT) for c in range(4)]
    cells = coordinate_texts(parse(Scene((Board("b", "b", 2, 3, coordinates="cells"),))))
    assert [(text, y) for text, x, y in cells if x < 0] == [("0", UNIT / 2), ("1", 1.5 * UNIT)]
    assert coordinate_texts(parse(Scene((Board("b", "b", 2, 3),)))) == []


def test_a_numbered_board_moves_right_by_its_margin_and_the_picture_grows_to_hold_the_numbers() -> None:
    plain, numbered = (render(Scene((Board("b", "b", 5, 5, coordinates=kind),))) for kind in ("", "points"))
    assert 'translate(0 40)"' in plain and f'translate({int(COORDINATE_MARGIN["points"] * UNIT)} 40)"' in numbered

    def size(text: str) -> list[float]:
        return [float(v) for v in re.search(r'viewBox="([^"]+)"', text).group(1).split()]  # type: ignore[union-attr]

    grown = [b - a for a, b in zip(size(plain)[2:], size(numbered)[2:], strict=True)]
    assert grown == [COORDINATE_MARGIN["points"] * UNIT] * 2


def test_an_empty_space_has_a_dashed_outline_and_a_covered_one_none() -> None:
    board = Board("card", "card", 1, 2, cells=(Cell((0, 0), "sky", vacant=True), Cell((0, 1), "sky")))
    cells = [g for g in parse(Scene((board,))).iter(f"{SVG}g") if g.get("data-kind") == "cell"]
    outlines = [[r for r in g.iter(f"{SVG}rect") if r.get("class") == "cl-vacant"] for g in cells]
    assert [len(found) for found in outlines] == [1, 0]
    assert "stroke-dasharray" in STYLE.split(".cl-vacant{")[1].split("}")[0]


def test_a_lost_mark_is_crossed_out_so_it_reads_without_its_colour() -> None:
    marks = (Mark("point", (1, 1), style="lost"), Mark("cell", (0, 0), style="lost"), Mark("point", (2, 2)))
    root = parse(Scene((Board("b", "b", 3, 3, marks=marks),)))
    crosses = [p for p in root.iter(f"{SVG}path") if "cl-mark-lost" in (p.get("class") or "")]
    assert len(crosses) == 2


def test_this_rounds_cut_is_yellow_dashes_on_a_wide_dark_line() -> None:
    root = parse(Scene((Board("b", "b", 2, 2, edges=(Edge((0, 1), (1, 1), "highlight"),)),)))
    lines = [line.get("class") for line in root.iter(f"{SVG}line")]
    assert lines == ["cl-edge cl-edge-highlight-under", "cl-edge cl-edge-highlight"]
    assert "stroke-dasharray" in STYLE.split(".cl-edge-highlight{")[1].split("}")[0]


def test_a_preview_is_hidden_in_a_still_picture_and_carries_its_words() -> None:
    preview = Preview("point", (1, 1), (Mark("point", (1, 2), style="preview"),), note='walks "east"')
    root = parse(Scene((Board("b", "b", 2, 2, clickable=("point",), previews=(preview,)),)))
    group = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "cl-preview")
    assert group.get("data-for") == "point|1|1||" and group.get("data-note") == 'walks "east"'
    assert ".cl-scene .cl-preview{display:none}" in STYLE


def engine_result(game: ClickCrack, seat: int, preview: Preview, tile: tuple[str, str]) -> set[tuple[object, ...]]:
    """The marks a preview should show, read off the engine after the click it previews is made."""
    action = click_action(game, seat, Intent("floe", preview.kind, preview.at, preview.to), tile)
    after = game.clone()
    assert isinstance(after, ClickCrack)
    after.apply(action, seat)
    marks: set[tuple[object, ...]] = set()
    for was, now in zip(game.pos, after.pos, strict=True):
        if was is not None and now != was:
            marks.add(("point", now, None, "preview") if now is not None else ("point", was, None, "lost"))
    marks |= {("segment", *segment_points(c), "preview") for c in after.cracks - game.cracks}
    marks |= {("cell", at, None, "lost") for at in game.main - after.main}
    return marks


def test_click_crack_previews_are_what_the_engine_does_with_each_click() -> None:
    for game, tile, kinds in ((PUSH, ("walk", "S"), 2), (FALL, ("break", "N"), 3)):
        seat = game.to_move()[0]
        previews = click_previews(game.view(seat), seat, tile, CLICKABLE["perform"])
        assert previews, "a click that does something has a preview"
        for preview in previews:
            shown = {(m.kind, m.at, m.to, m.style) for m in preview.marks}
            assert shown == engine_result(game, seat, preview, tile), preview.note
        assert max(len({m.style for m in p.marks} | {m.kind for m in p.marks}) for p in previews) >= kinds


def test_the_walk_that_pushes_and_the_break_that_drowns_say_so() -> None:
    pushed = click_previews(PUSH.view(0), 0, ("walk", "S"), CLICKABLE["perform"])
    walk = next(p for p in pushed if p.kind == "point" and p.at == (3, 0))
    assert walk.note == "Walk S ↓ with penguin 1: penguin 0 to point 4,1; penguin 1 to point 4,0"
    drowned = click_previews(FALL.view(1), 1, ("break", "N"), CLICKABLE["perform"])
    crack = next(p for p in drowned if p.kind == "point" and p.at == (4, 4))
    assert "penguin 3 falls" in crack.note and "1 tile break off" in crack.note
    assert Mark("point", (4, 5), style="lost") in crack.marks


def test_no_previews_for_a_seat_that_is_not_to_move_or_while_placing() -> None:
    assert click_previews(PUSH.view(1), 1, ("break", "E"), CLICKABLE["perform"]) == ()
    placing = new_game("click_crack", players=2)
    assert click_previews(placing, 0, None, CLICKABLE["place"]) == ()


def test_clipcut_previews_free_exactly_the_squares_the_engine_cuts_free() -> None:
    game = new_game("clipcut_parks", players=1, seed=4)
    assert isinstance(game, ClipCutParks)
    freeing = 0
    for _ in range(12):  # the first cuts of a seeded game, each made as the first legal one
        if game.stage[0] not in ("cut", "bonus"):
            break
        for start in start_points(game, 0):
            sheet = describe(game.view(0), 0, start, interactive=True).boards[0]
            assert {p.at for p in sheet.previews} == set(cuts_from(game, 0, start))
            for preview in sheet.previews:
                after = game.clone()
                after.apply(cuts_from(game, 0, start)[preview.at], 0)
                freed = set() if after.stage[0] == "keep" else set(game.sheet[0] - after.sheet[0])
                assert {m.at for m in preview.marks if m.style == "lost"} == freed, preview.note
                freeing += bool(freed)
                assert ("frees 1 section" in preview.note) == (len(after.pending[0]) == len(game.pending[0]) + 1)
        game.apply(game.legal_actions(0)[0], 0)
    assert freeing, "some cut of the first round frees a section"


def test_the_status_warns_when_a_solo_round_is_the_last() -> None:
    game = new_game("clipcut_parks", players=1, seed=4)
    assert isinstance(game, ClipCutParks)
    assert "Last round" not in status_line(game, 0)
    ended = new_game("clipcut_parks", players=2, seed=4, round_limit=1)
    assert isinstance(ended, ClipCutParks)
    assert status_line(ended, 0).startswith("\u26a0 Last round")


def target_sizes(scene: Scene) -> list[float]:
    """Each kind of click target's smaller side in pixels at the scene's own scale: the circles and strips the
    widget lays over points and segments, and the cells of boards that take clicks on cells (a cell is its
    own target)."""
    sizes = []
    for board in scene.boards:
        hit = targets(board)
        if "point" in hit:
            sizes.append(2 * hit["point"])
        if "segment" in hit:
            sizes.append(min(UNIT, 2 * hit["segment"]))
    for board in parse(scene).iter(f"{SVG}g"):
        if board.get("class") != "cl-board" or "cell" not in (board.get("data-clickable") or "").split():
            continue
        for found in board.iter():
            if found.get("data-kind") == "cell":
                square = next(found.iter(f"{SVG}rect"))
                sizes.append(min(float(square.get("width") or 0), float(square.get("height") or 0)))
    return [size * scene.zoom for size in sizes]


def test_click_targets_of_every_grid_game_are_at_least_24_pixels_at_their_own_scale() -> None:
    floe = click_crack_describe(PUSH, clickable=("point", "segment"))
    sheet = describe(new_game("clipcut_parks", players=1, seed=4), 0, interactive=True)  # type: ignore[arg-type]
    table = SimpleNamespace(who=lambda seat: f"Player {seat}")  # all a picture asks of the table app here
    pictures = [("swap_clops", SwapClopsPicture), ("paper_world", PaperWorldPicture)]
    pictures += [("swap_clops_cards", SwapClopsCardsPicture)]
    acting = [picture(table).scene(new_game(game, players=4, seed=1), 0, True) for game, picture in pictures]
    for scene in (floe, sheet, *acting):
        sizes = target_sizes(scene)
        assert sizes, f"{scene.title}: no click targets"
        assert min(sizes) >= 24, f"{scene.title}: a target {min(sizes):.0f} pixels across"
    # Between the point targets at its ends, a line of the floe keeps 24 pixels of its own.
    assert (UNIT - 2 * targets(floe.boards[0])["point"]) * floe.zoom >= 24
