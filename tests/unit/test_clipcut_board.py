"""ClipCut Parks on screen without a browser: the scene describe() draws at each stage, the dashboard's
clicks and drops turning into actions, the engine's reasons for illegal tries, refused messages, the
hot-seat table (bots, undo, save and load) and the end screen."""

from __future__ import annotations

import functools
import json
import random
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import replace

import pytest

from cliplab.engine import Action, IllegalAction, State, from_json, new_game
from cliplab.games.clipcut_parks.board import (
    COLOUR_LOOK,
    REQUIREMENT_FILLS,
    card_ref,
    cut_between,
    cuts_from,
    describe,
    die_text,
    start_points,
)
from cliplab.games.clipcut_parks.explain import why_illegal
from cliplab.games.clipcut_parks.rules import (
    ClipCutParks,
    Crumple,
    Cut,
    Keep,
    Place,
    Score,
    card_of,
    sheet_of,
    tokens_spent,
)
from cliplab.grid import Transform, orient
from cliplab.ui import Intent, Scene, render
from cliplab.ui.glyphs import GLYPHS
from cliplab.ui.table import PERSON, HotSeatTable
from cliplab.ui.table_app import TableApp, decided_words

SVG = "{http://www.w3.org/2000/svg}"


def first_choice(game: ClipCutParks, seat: int = 0) -> Action:
    """Place the largest section where it first fits, else take the first legal action."""
    legal = game.legal_actions(seat)
    places = [a for a in legal if isinstance(a, Place)]
    if places:
        return max(places, key=lambda a: (len(game.sections[seat][a.section]), -places.index(a)))
    return legal[0]


def random_choice(game: ClipCutParks, seat: int, rng: random.Random) -> Action:
    """Any placement rather than a crumple, else any legal action: varied cuts free varied shapes."""
    legal = game.legal_actions(seat)
    places = [a for a in legal if isinstance(a, Place)]
    return rng.choice(places or legal)


def play_until(
    stop: Callable[[ClipCutParks], bool], players: int = 1, seeds: int = 60, randomly: bool = False, **options: object
):
    """The first seeded game (played by first_choice, or random_choice) that reaches a position where `stop` holds."""
    for seed in range(seeds):
        game = new_game("clipcut_parks", players=players, seed=seed, **options)
        assert isinstance(game, ClipCutParks)
        rng = random.Random(seed)
        while not game.is_over():
            if stop(game):
                return game
            seat = game.to_move()[0]
            game.apply(random_choice(game, seat, rng) if randomly else first_choice(game, seat), seat)
    pytest.skip("no seeded game reached that position")


STOPS: dict[str, Callable[[ClipCutParks], bool]] = {
    "keep": lambda g: g.stage[0] == "keep",
    "check": lambda g: g.stage[0] == "check",
}


@functools.cache
def _found(name: str) -> ClipCutParks:
    return play_until(STOPS[name], seeds=80)


def position(name: str) -> ClipCutParks:
    """A fresh copy of a position found once per test run ("keep": a tie of largest parts; "check": a
    choice of which completed card to score first)."""
    game = _found(name).clone()
    assert isinstance(game, ClipCutParks)
    return game


def fresh(seed: int = 3, players: int = 1, **options: object) -> ClipCutParks:
    game = new_game("clipcut_parks", players=players, seed=seed, **options)
    assert isinstance(game, ClipCutParks)
    return game


def marks_of(scene: Scene, board: str, style: str | None = None) -> list[tuple[str, tuple[int, int]]]:
    return [(m.kind, m.at) for m in scene.board(board).marks if style is None or m.style == style]


def started(seed: int = 3, **options: object) -> TableApp:
    app = TableApp("clipcut_parks", players=1, seed=seed)
    app.use(HotSeatTable.new("clipcut_parks", [PERSON], seed=seed, **options))
    return app


def at_table(game: ClipCutParks) -> TableApp:
    """The table app playing `game`, a person in every seat."""
    app = TableApp("clipcut_parks", players=game.players)
    app.use(HotSeatTable([PERSON] * game.players, game))
    return app


def notice(app: TableApp) -> str:
    return str(app.grid.widget.notice.get("text", ""))


# ----- describe(): the scene at each stage ---------------------------------------------------------------


def test_cutting_rings_the_legal_start_points_then_the_ends_of_cuts_from_the_chosen_one() -> None:
    game = fresh()
    scene = describe(game, interactive=True)
    sheet = scene.board("sheet")
    assert sheet.clickable == ("point",)
    starts = {(a.row, a.col) for a in game.legal_actions(0) if isinstance(a, Cut)}
    assert {at for kind, at in marks_of(scene, "sheet")} == starts and starts
    start = sorted(starts)[0]
    chosen = describe(game, start=start, interactive=True)
    # The other ends of the legal cuts through the chosen point, whichever end each is named from.
    ends = {a.points[-1] for a in game.legal_actions(0) if isinstance(a, Cut) and a.points[0] == start}
    ends |= {a.points[0] for a in game.legal_actions(0) if isinstance(a, Cut) and a.points[-1] == start}
    assert marks_of(chosen, "sheet", "last") == [("point", start)]
    assert {at for _, at in marks_of(chosen, "sheet", "target")} == ends
    assert set(cuts_from(game, 0, start)) == ends
    # No card takes sections while cutting, and the status says what the die asks for.
    assert not any(b.accepts_pieces for b in scene.boards)
    assert f"die {die_text(game.face)}" in scene.status and "Round 1" in scene.status


def test_the_sheet_shows_squares_in_colour_with_glyphs_icons_and_spoken_labels() -> None:
    game = fresh(sheets="standard")
    sheet = sheet_of(0)
    board = describe(game).board("sheet")
    assert len(board.cells) == 63 and not board.clickable and not board.marks
    for cell in board.cells:
        square = sheet.square(cell.at)
        key, glyph, words = COLOUR_LOOK[square.colour]
        assert (cell.fill, cell.glyph) == (key, glyph)
        assert cell.badge == {"wildlife": "paw", "recycling": "recycling", "": ""}[square.icon]
        assert cell.label.startswith(words) and (square.icon in cell.label if square.icon else True)
    root = ET.fromstring(render(describe(game), ids="t"))
    labels = [g.find(f"{SVG}title").text for g in root.iter(f"{SVG}g") if g.get("role") == "gridcell"]
    assert "row 1, column 1: greenery (trees)" in labels
    assert any("with a wildlife icon" in (label or "") for label in labels)


def test_after_cuts_the_squares_that_came_free_are_holes_and_this_rounds_cuts_stand_out() -> None:
    game = play_until(lambda g: bool(g.pending[0]) and g.stage[0] == "build")
    scene = describe(game, interactive=True)
    sheet = scene.board("sheet")
    holes = {cell.at for cell in sheet.cells if cell.absent}
    assert holes == {(r, c) for r in range(7) for c in range(9)} - game.sheet[0]
    assert all(cell.label == "cut out" for cell in sheet.cells if cell.absent)
    assert any(edge.style == "cut" for edge in sheet.edges)
    if game.round_cuts[0]:
        assert any(edge.style == "highlight" for edge in sheet.edges)
    # The loose sections wait in the tray, in their colours; the cards take them.
    assert [p.id for p in scene.pieces] == [f"s{n}" for n in game.pending[0]]
    piece = scene.pieces[0]
    squares = game.sections[0][game.pending[0][0]]
    assert len(piece.cells) == len(squares) and min(c.at for c in piece.cells)[0] == 0
    assert piece.label.startswith(f"section {game.pending[0][0]}: {len(squares)} square")
    assert all(scene.board(f"{k}-{n}").accepts_pieces for k, n in game.face_up[0])
    assert scene.tray_label == "Sections to build"


def test_cards_show_requirements_walkways_and_the_squares_lying_on_them() -> None:
    game = play_until(lambda g: any(g.covered[0].get(ref) for ref in g.face_up[0]))
    sheet = sheet_of(game.sheet_number[0])
    for ref in game.face_up[0]:
        card = card_of(ref)
        board = describe(game).board(f"{ref[0]}-{ref[1]}")
        assert board.label.endswith(card.name) and (board.rows, board.cols) == (card.rows, card.cols)
        covered = game.covered[0].get(ref, {})
        for cell in board.cells:
            if cell.at not in card.cells:
                assert cell.absent
                continue
            wanted = card.requirement(cell.at)
            if cell.at in covered:
                square = sheet.square(covered[cell.at][1])
                assert cell.fill == COLOUR_LOOK[square.colour][0] and cell.label.startswith("covered by section")
            elif wanted in COLOUR_LOOK:
                assert (cell.fill, cell.glyph) == (REQUIREMENT_FILLS[wanted], COLOUR_LOOK[wanted][1])
                assert "empty, needs" in cell.label
            elif wanted == "blank":
                assert cell.fill == "paper" and cell.glyph == ""
            else:
                assert cell.glyph in ("paw", "recycling") and wanted in cell.label
        links = [e for e in board.edges if e.style == "link"]
        assert len(links) == sum(len(w) - 1 for w in card.walkways)


def test_a_tie_of_largest_parts_marks_each_part_and_takes_square_clicks() -> None:
    game = position("keep")
    scene = describe(game, interactive=True)
    sheet = scene.board("sheet")
    assert sheet.clickable == ("cell",)
    marked = {style: {m.at for m in sheet.marks if m.style == style} for style in ("ghost", "last", "target")}
    parts = [set(part) for part in game.tied[0]]
    assert marked["ghost"] == parts[0] and marked["last"] == parts[1]


def test_score_order_setup_and_game_over_draw_too() -> None:
    game = position("check")
    scene = describe(game, interactive=True)
    assert not scene.board("sheet").clickable and not any(b.accepts_pieces for b in scene.boards)
    # A game before its setup has settled, and a finished one.
    unsettled = ClipCutParks(fresh().config, settle=False)
    assert describe(unsettled).status == "Setting up."
    done = fresh(seed=2)
    while not done.is_over():
        done.apply(first_choice(done), 0)
    final = describe(done, interactive=True)
    assert final.status.startswith("Game over") and not final.board("sheet").clickable
    assert render(final).startswith("<svg") and done._repr_svg_().startswith("<svg")


def test_multiplayer_and_grand_parks_show_the_chosen_seat() -> None:
    game = fresh(seed=5, players=3, grand_parks=2)
    for seat in range(3):
        scene = describe(game, seat=seat)
        assert scene.board("sheet").label.startswith(f"Player {seat}'s")
        assert [b.id for b in scene.boards[1:]] == [f"{k}-{n}" for k, n in game.face_up[seat]]
        assert sum(b.id.startswith("grand-") for b in scene.boards) == 2
        assert "of 5" in scene.status


def test_helpers_name_cards_cuts_and_tokens() -> None:
    assert card_ref("park-12") == ("park", 12) and card_ref("grand-3") == ("grand", 3)
    assert card_ref("sheet") is None and card_ref("park-x") is None
    assert cut_between((0, 3), (3, 3)) == Cut(3, 0, 3, "S")
    assert cut_between((2, 5), (2, 1)) == Cut(4, 2, 5, "W")
    assert cut_between((0, 0), (1, 1)) is None
    assert die_text(2) == "1-2-3" and die_text(0) == "not rolled"


# ----- the dashboard: clicks, drops and the engine's reasons ---------------------------------------------


def test_a_cut_is_made_by_clicking_its_start_then_its_end() -> None:
    app = started()
    game = app.game
    cut = next(a for a in game.legal_actions(0) if isinstance(a, Cut))
    app.grid.handle(Intent("sheet", "point", (cut.row, cut.col)))
    assert app.picture.start == (cut.row, cut.col) and notice(app) == ""
    assert ("point", (cut.row, cut.col)) in marks_of(app.grid.scene, "sheet", "last")
    app.grid.handle(Intent("sheet", "point", cut.points[-1]))
    assert game.log[-1][1] == cut or any(a == cut for _, a in game.log)
    assert app.picture.start is None


def test_a_cut_may_be_clicked_from_its_far_end_first() -> None:
    app = started()
    game = app.game
    cut = next(a for a in game.legal_actions(0) if isinstance(a, Cut) and a.points[-1] not in start_points(game, 0))
    far = cut.points[-1]
    app.grid.handle(Intent("sheet", "point", far))
    assert app.picture.start == far and notice(app) == ""
    assert (cut.row, cut.col) in {m.at for m in app.grid.scene.board("sheet").marks if m.style == "target"}
    app.grid.handle(Intent("sheet", "point", (cut.row, cut.col)))
    assert (0, cut) in game.log and app.picture.start is None


def test_clicking_a_point_that_starts_no_cut_shows_the_engines_reason() -> None:
    app = started()
    game = app.game
    before = game.fingerprint()
    r, c = no_cut_at(game)
    app.grid.handle(Intent("sheet", "point", (r, c)))
    reasons = {why_illegal(game, 0, Cut(n, r, c, d))[1] for n in game.to_cut[0] for d in "NESW"}
    assert notice(app) in {x[:1].upper() + x[1:] for x in reasons}
    assert "starts on the sheet's edge or at the end of an earlier cut" in notice(app)
    assert app.grid.widget.notice["tone"] == "error" and app.grid.widget.notice["at"] == [r, c]
    assert game.fingerprint() == before and app.picture.start is None


def no_cut_at(game: ClipCutParks) -> tuple[int, int]:
    """An inner point that is no end of any legal cut."""
    return next(
        (r, c)
        for r in range(1, 7)
        for c in range(1, 9)
        if (r, c) not in start_points(game, 0) and not cuts_from(game, 0, (r, c))
    )


def test_an_end_that_carries_a_cut_of_this_round_straight_on_is_refused_with_the_reason() -> None:
    def ready(g: ClipCutParks) -> bool:
        return g.stage[0] == "cut" and len(g.to_cut[0]) >= 2 and _straight_pair(g) is not None

    game = play_until(ready)
    app = at_table(game)
    first, straight = _straight_pair(game)  # type: ignore[misc]
    app.grid.handle(Intent("sheet", "point", (first.row, first.col)))
    app.grid.handle(Intent("sheet", "point", first.points[-1]))
    assert game.log[-1] == (0, first) or (0, first) in game.log
    app.grid.handle(Intent("sheet", "point", (straight.row, straight.col)))
    assert app.picture.start == (straight.row, straight.col)
    before = game.fingerprint()
    app.grid.handle(Intent("sheet", "point", straight.points[-1]))
    _, reason = why_illegal(game, 0, straight)
    assert "straight line" in reason and notice(app) == reason[:1].upper() + reason[1:]
    assert game.fingerprint() == before and app.picture.start == (straight.row, straight.col)


def _straight_pair(game: ClipCutParks) -> tuple[Cut, Cut] | None:
    for first in game.legal_actions(0):
        if not isinstance(first, Cut):
            continue
        trial = game.clone()
        assert isinstance(trial, ClipCutParks)
        trial.apply(first, 0)
        if trial.stage[0] != "cut":
            continue
        end = first.points[-1]
        if end not in start_points(trial, 0):
            continue
        for length in sorted(set(trial.to_cut[0])):
            candidate = Cut(length, end[0], end[1], first.direction)
            if "straight line" in why_illegal(trial, 0, candidate)[1]:
                return first, candidate
    return None


def test_a_point_off_the_line_of_the_start_is_refused_and_another_start_is_taken() -> None:
    app = started()
    game = app.game
    starts = start_points(game, 0)
    app.grid.handle(Intent("sheet", "point", starts[0]))
    off = next(
        (r, c)
        for r in range(1, 7)
        for c in range(1, 9)
        if r != starts[0][0] and c != starts[0][1] and (r, c) not in starts and not cuts_from(game, 0, (r, c))
    )
    app.grid.handle(Intent("sheet", "point", off))
    assert "straight" in notice(app) and app.picture.start == starts[0]
    other = next(p for p in starts if p != starts[0] and cut_between(starts[0], p) is None)
    app.grid.handle(Intent("sheet", "point", other))
    assert app.picture.start == other
    app.grid.handle(Intent("sheet", "point", other))  # the start again: chosen no more
    assert app.picture.start is None


def test_sections_are_dropped_onto_cards_and_illegal_drops_give_the_reason() -> None:
    game = play_until(lambda g: g.stage[0] == "build" and any(g.fits(0, s) for s in g.pending[0]))
    app = at_table(game)
    section = next(s for s in game.pending[0] if game.fits(0, s))
    fit = game.fits(0, section)[0].action
    board = f"{fit.kind}-{fit.card}"
    # A drop where the section cannot go: the reason the engine gives, nothing changed.
    wrong = None
    for ref in game.face_up[0]:
        card = card_of(ref)
        for r in range(card.rows):
            for c in range(card.cols):
                for turns in range(4):
                    place = Place(section, ref[0], ref[1], r, c, turns)
                    if place not in [f.action for f in game.fits(0, section, ref)] and not _same_fit(game, place):
                        wrong = place
                        break
                if wrong:
                    break
            if wrong:
                break
        if wrong:
            break
    assert wrong is not None
    before = game.fingerprint()
    app.grid.handle(Intent(f"{wrong.kind}-{wrong.card}", "drop", (wrong.row, wrong.col), piece=f"s{section}",
                           turns=wrong.orientation))  # fmt: skip
    with pytest.raises(IllegalAction) as refused:
        game.clone().apply(wrong, 0)
    assert notice(app) == refused.value.reason[:1].upper() + refused.value.reason[1:]
    assert game.fingerprint() == before
    # The right drop is made (any rotation that lands the squares the same way is the same placement).
    app.grid.handle(Intent(board, "drop", (fit.row, fit.col), piece=f"s{section}", turns=fit.orientation))
    assert (0, fit) in game.log and section not in game.pending[0]


def _same_fit(game: ClipCutParks, place: Place) -> bool:
    """Whether a placement lands the squares exactly as some legal one does."""
    wanted = set(game.mapping_of(0, place))
    return any(set(f.mapping) == wanted for f in game.fits(0, place.section, (place.kind, place.card)))


def test_crumple_is_offered_only_for_sections_that_fit_nowhere() -> None:
    game = play_until(lambda g: g.stage[0] == "build" and any(not g.fits(0, s) for s in g.pending[0]))
    app = at_table(game)
    buttons = {
        b._dom_classes[0]: b for box in app.panel.children for b in getattr(box, "children", ()) if b._dom_classes
    }
    for section in game.pending[0]:
        assert buttons[f"cp-crumple-{section}"].disabled == bool(game.fits(0, section))
    stuck = next(s for s in game.pending[0] if not game.fits(0, s))
    buttons[f"cp-crumple-{stuck}"].click()
    assert (0, Crumple(stuck)) in game.log
    fitting = [s for s in game.pending[0] if game.fits(0, s)]
    if fitting:
        app.do(Crumple(fitting[0]))
        assert "must be placed" in app.message.value


def test_a_tie_is_settled_by_clicking_a_square_of_the_part_to_keep() -> None:
    game = position("keep")
    app = at_table(game)
    before = game.fingerprint()
    gone = next((r, c) for r in range(7) for c in range(9) if (r, c) not in game.sheet[0])
    app.grid.handle(Intent("sheet", "cell", gone))
    assert "not in one of the equal largest parts" in notice(app) and game.fingerprint() == before
    part = sorted(game.tied[0][1])
    app.grid.handle(Intent("sheet", "cell", part[-1]))
    assert game.log[-1] == (0, Keep(*part[0])) and game.sheet[0] == frozenset(part)


def test_score_order_buttons_when_several_cards_complete() -> None:
    game = position("check")
    app = at_table(game)
    scores = [a for a in game.legal_actions(0) if isinstance(a, Score)]
    classes = [b._dom_classes[0] for b in app.panel.children if isinstance(b, type(app.undo_button))]
    assert [f"cp-score-{a.kind}-{a.card}" for a in scores] == [c for c in classes if c.startswith("cp-score-")]
    app.do(scores[-1])
    assert (0, scores[-1]) in game.log


# ----- refused messages ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        "not a dict",
        {"type": "intent", "board": "sheet", "kind": "cell", "at": [1, 1]},  # the sheet takes points now
        {"type": "intent", "board": "sheet", "kind": "point", "at": [9, 9]},
        {"type": "intent", "board": "sheet", "kind": "point", "at": [1]},
        {"type": "intent", "board": "sheet", "kind": "drop", "at": [0, 0], "piece": "s1", "turns": 0},
        {"type": "intent", "board": "moon", "kind": "point", "at": [0, 0]},
        {"type": "intent", "board": "sheet", "kind": "segment", "at": [0, 0], "to": [0, 1]},
        {"type": "execute", "code": "import os"},
        {"type": "intent", "board": "sheet", "kind": "point", "at": [0, 1], "extra": 1},
    ],
)
def test_malformed_messages_are_refused_and_change_nothing(message: object) -> None:
    app = started()
    before = app.game.fingerprint()
    app.grid._receive(None, message, None)
    assert app.grid.refused and app.grid.widget.notice["tone"] == "error"
    assert notice(app).startswith("Refused a malformed message")
    assert app.game.fingerprint() == before and app.picture.start is None


def test_drops_naming_no_tray_piece_or_a_bad_turn_are_refused() -> None:
    game = play_until(lambda g: g.stage[0] == "build")
    app = at_table(game)
    ref = game.face_up[0][0]
    board = f"{ref[0]}-{ref[1]}"
    before = game.fingerprint()
    for bad in (
        {"piece": "s999", "turns": 0, "at": [0, 0]},
        {"piece": f"s{game.pending[0][0]}", "turns": 4, "at": [0, 0]},
        {"piece": f"s{game.pending[0][0]}", "turns": 0, "at": [40, 0]},
        {"piece": 3, "turns": 0, "at": [0, 0]},
    ):
        app.grid._receive(None, {"type": "intent", "board": board, "kind": "drop", **bad}, None)
        assert notice(app).startswith("Refused a malformed message")
    assert len(app.grid.refused) == 4 and game.fingerprint() == before


# ----- the table: bots, undo, save and load ---------------------------------------------------------------


def test_undo_takes_back_the_persons_last_decision() -> None:
    app = started()
    game = app.game
    cut = next(a for a in game.legal_actions(0) if isinstance(a, Cut))
    before = (game.fingerprint(), len(game.log))
    app.grid.handle(Intent("sheet", "point", (cut.row, cut.col)))
    app.grid.handle(Intent("sheet", "point", cut.points[-1]))
    assert len(game.log) > before[1] and not app.undo_button.disabled
    app.undo()
    assert (game.fingerprint(), len(game.log)) == before
    assert "Undone" in app.message.value and app.undo_button.disabled


def test_save_and_load_round_trip_and_a_corrupt_file_changes_nothing() -> None:
    app = started(seed=7)
    game = app.game
    for _ in range(6):
        game.apply(first_choice(game), 0)
    app.refresh()
    text = app.table.to_json()  # type: ignore[union-attr]
    record = json.loads(text)
    assert record["seats"] == [PERSON] and record["game"] == "clipcut_parks"
    other = TableApp("clipcut_parks")
    other.load_text(text)
    assert other.game.fingerprint() == game.fingerprint() and "Loaded" in other.message.value
    kept, shown = other.table, other.grid.scene
    for bad in (text[: len(text) // 2], "{}", json.dumps({**record, "seats": ["wizard"]}), "[1, 2]"):
        other.load_text(bad)
        assert "Could not load that file" in other.message.value
        assert other.table is kept and other.grid.scene == shown
    click_crack = new_game("click_crack", players=2, seed=1)
    from cliplab.engine import to_json

    other.load_text(to_json(click_crack))
    assert "not of ClipCut Parks" in other.message.value and other.table is kept


def test_bots_play_from_their_own_views_at_a_hot_seat_table() -> None:
    app = TableApp("clipcut_parks", players=3, seed=2)
    app.seat_choices[1].value = app.seat_choices[2].value = "random"
    app.start()
    table = app.table
    assert table is not None and table.seats == (PERSON, "random", "random")
    views: list[int | None] = []
    for bot in table.bots.values():
        chooser = bot.choose

        def spy(view: State, player: int, chooser=chooser) -> Action:
            views.append(view.viewer)
            return chooser(view, player)

        bot.choose = spy  # type: ignore[method-assign]
    steps = 0
    while not table.game.is_over() and steps < 3000:
        steps += 1
        seat = app.acting_seat()
        if seat is None:
            app.run_bots() if steps % 2 else app.bot_step()
            continue
        action = first_choice(table.game, seat)
        if isinstance(action, Cut):
            app.grid.handle(Intent("sheet", "point", (action.row, action.col)))
            app.grid.handle(Intent("sheet", "point", action.points[-1]))
        elif isinstance(action, Place):
            app.grid.handle(
                Intent(
                    f"{action.kind}-{action.card}",
                    "drop",
                    (action.row, action.col),
                    piece=f"s{action.section}",
                    turns=action.orientation,
                )
            )
        elif isinstance(action, Keep):
            app.grid.handle(Intent("sheet", "cell", (action.row, action.col)))
        else:
            app.do(action)
    game = table.game
    assert game.is_over() and views and all(v in (1, 2) for v in views)
    headline, rows = app.end_summary()
    outcome = game.outcome()
    assert outcome is not None
    assert all(f"Player {s}" in headline for s in outcome.winners)
    assert decided_words(outcome.decided_by) in headline and outcome.decided_by
    assert [name for name, _ in rows] == ["Player 0", "Player 1", "Player 2"]
    assert "tb-result" in app.status.value


def test_the_log_names_cards_and_the_tokens_a_placement_spends() -> None:
    game = play_until(lambda g: any(isinstance(a, Place) for _, a in g.log) and g.round > 3)
    app = at_table(game)
    lines = app.log_lines()
    placed = [a for _, a in game.log if isinstance(a, Place)]
    for place in placed:
        spent = tokens_spent(game, 0, place)
        line = next(x for x in lines if x.startswith(f"You: {place}"))
        assert card_of((place.kind, place.card)).name in line
        for token, n in spent.items():
            assert f"spent {n} {token}" in line
    assert lines[0].startswith("Player 0 tears sheet") and lines[1].endswith("cards dealt")
    assert "Round 1: the die shows" in lines[2]


def test_solo_end_screen_breaks_the_score_down() -> None:
    game = fresh(seed=11)
    while not game.is_over():
        game.apply(first_choice(game), 0)
    app = at_table(game)
    headline, rows = app.end_summary()
    outcome = game.outcome()
    assert outcome is not None and headline == f"Final score: {int(outcome.scores[0])}"
    assert rows[:-1] == [(name, f"{v:+d}") for name, v in game.solo_breakdown().items()]
    assert rows[-1] == ("total", str(int(outcome.scores[0])))
    assert "tb-breakdown" in app.panel.children[0].value


def test_placements_from_the_widget_match_the_engines_orientation() -> None:
    """The tray's quarter turns are the engine's: a drop of `turns` lands the squares as Place(turns) does."""
    game = play_until(lambda g: g.stage[0] == "build" and any(len(g.sections[0][s]) > 2 for s in g.pending[0]))
    section = next(s for s in game.pending[0] if len(game.sections[0][s]) > 2)
    piece = describe(game).pieces[game.pending[0].index(section)]
    squares = sorted(game.sections[0][section])
    r0, c0 = min(r for r, _ in squares), min(c for _, c in squares)
    assert sorted(c.at for c in piece.cells) == sorted((r - r0, c - c0) for r, c in squares)
    for turns in range(4):
        mapping = dict(game.mapping_of(0, Place(section, "park", 1, 0, 0, turns)))
        shape = orient([(r - r0, c - c0) for r, c in squares], Transform(turns))
        assert {mapping[(r, c)] for r, c in squares} == set(shape.values())


@pytest.mark.parametrize(
    ("completed", "crumpled", "largest", "decided"),
    [
        ([3, 2], [0, 0], [4, 4], "score"),
        ([3, 3], [2, 1], [4, 4], "fewer crumpled sections"),
        ([3, 3], [1, 1], [2, 5], "the larger single section on a card"),
        ([3, 3], [1, 1], [4, 4], "tied"),
    ],
)
def test_the_end_screen_says_which_tie_break_decided(
    completed: list[int], crumpled: list[int], largest: list[int], decided: str
) -> None:
    from cliplab.engine import Outcome

    outcome = Outcome.ranked(
        completed,
        "the pile ran out",
        tiebreaks=[[-n for n in crumpled], largest],
        tiebreak_names=("fewer crumpled sections", "the larger single section on a card"),
    )
    assert outcome.decided_by == decided
    app = TableApp("clipcut_parks", players=2)
    app.use(HotSeatTable([PERSON, PERSON], fresh(players=2)))
    app.game.outcome = lambda: outcome  # type: ignore[method-assign]  # the end as the rules would give it
    headline, _ = app.end_summary()
    assert headline.endswith(f"({decided_words(decided)})")
    assert ("share the win" in headline) == (decided == "tied")
    if decided not in ("score", "tied"):
        assert f"the tie-break: {decided}" in headline


def test_a_loaded_game_of_a_finished_table_shows_its_end() -> None:
    game = fresh(seed=4)
    while not game.is_over():
        game.apply(first_choice(game), 0)
    app = TableApp("clipcut_parks")
    app.load_text(HotSeatTable([PERSON], game).to_json())
    assert "tb-result" in app.status.value and app.acting_seat() is None
    assert from_json(app.table.to_json()).outcome() == game.outcome()  # type: ignore[union-attr]


def _flip_position() -> tuple[ClipCutParks, int, Place]:
    """A building position with turning over allowed where a section fits only turned over."""

    def face_up_misses(game: ClipCutParks, fit: Place) -> bool:
        """A flipped placement whose face-up counterpart (same turns, same corner) is not legal."""
        return fit.orientation >= 4 and not _same_fit(game, replace(fit, orientation=fit.orientation - 4))

    def ready(game: ClipCutParks) -> bool:
        return game.stage[0] == "build" and any(
            face_up_misses(game, f.action) for s in game.pending[0] for f in game.fits(0, s)
        )

    game = play_until(ready, randomly=True, allow_flip=True)
    section, fit = next(
        (s, f.action) for s in game.pending[0] for f in game.fits(0, s) if face_up_misses(game, f.action)
    )
    return game, section, fit


def test_with_flips_allowed_the_tray_turns_sections_over_and_drops_place_them_flipped() -> None:
    game, section, fit = _flip_position()
    app = at_table(game)
    board = f"{fit.kind}-{fit.card}"
    drop = Intent(board, "drop", (fit.row, fit.col), piece=f"s{section}", turns=fit.orientation - 4)
    app.grid.handle(drop)  # the tray shows sections face up: this lands mirrored the wrong way
    assert notice(app) and section in game.pending[0]
    flip = next(w for box in app.panel.children for w in [box] if "cp-flip" in getattr(w, "_dom_classes", ()))
    flip.value = True
    piece = next(p for p in app.grid.scene.pieces if p.id == f"s{section}")
    squares = game.sections[0][section]
    c1 = max(c for _, c in squares)
    r0 = min(r for r, _ in squares)
    assert {cell.at for cell in piece.cells} == {(r - r0, c1 - c) for r, c in squares}
    app.grid.handle(drop)
    assert (0, fit) in game.log and section not in game.pending[0]


def test_the_teaching_notebooks_live_table_turns_sections_over_as_the_dashboard_does() -> None:
    from cliplab.games.clipcut_parks.teach import LiveTable

    game, section, fit = _flip_position()
    table = LiveTable(game)
    drop = Intent(f"{fit.kind}-{fit.card}", "drop", (fit.row, fit.col), piece=f"s{section}", turns=fit.orientation - 4)
    table.grid.handle(drop)
    assert table.grid.widget.notice["tone"] == "error" and section in game.pending[0]
    table.flip.value = True  # the switch shown above the board when sections may be turned over
    piece = next(p for p in table.grid.scene.pieces if p.id == f"s{section}")
    assert piece == app_piece(game, section)
    table.grid.handle(drop)
    assert (0, fit) in game.log and section not in game.pending[0]


def app_piece(game: ClipCutParks, section: int) -> object:
    """The section as the dashboard's tray shows it turned over."""
    app = at_table(game.clone())  # type: ignore[arg-type]
    app.picture.clicks.flipped = True
    app.refresh()
    return next(p for p in app.grid.scene.pieces if p.id == f"s{section}")


def test_a_bot_that_fails_leaves_the_game_and_the_dashboard_standing() -> None:
    app = TableApp("clipcut_parks", players=2, seed=1)
    app.seat_choices[0].value = "random"
    app.seat_choices[1].value = "random"
    app.start()
    table = app.table
    assert table is not None
    before = table.game.fingerprint()

    def broken(view: State, player: int) -> Action:
        raise RuntimeError("out of ideas")

    table.bots[0].choose = broken  # type: ignore[method-assign]
    app.bot_step()
    assert "A bot failed" in app.message.value and "out of ideas" in app.message.value
    assert table.game.fingerprint() == before


@pytest.mark.parametrize(
    ("players", "variant", "options", "expected"),
    [
        (3, "", {}, {}),
        (2, "longer", {}, {"longer": True}),
        (4, "", {"grand_parks": 2}, {"grand_parks": 2}),
        (1, "", {}, {}),
        (1, "grand_2", {}, {"grand_parks": 2}),
    ],
)
def test_every_mode_sets_up_its_game(
    players: int, variant: str, options: dict[str, object], expected: dict[str, object]
) -> None:
    app = TableApp("clipcut_parks", seed=9)
    app.players.value = players
    app.variant.value = variant
    for name, value in options.items():
        app.option_widgets[name].value = value
    assert len(app.seat_choices) == players
    app.option_widgets["sheets"].value = "standard"
    app.start()
    game = app.game
    assert game.players == players and game.option("sheets") == "standard"
    for name, value in expected.items():
        assert game.option(name) == value
    grand = expected.get("grand_parks", 0)
    assert all(sum(ref[0] == "grand" for ref in game.face_up[s]) == grand for s in range(players))
    assert app.acting_seat() == 0 and "Click a ringed point" in app.status.value
    # Back to the setup, the choices are kept.
    app.new_button.click()
    assert app.table is None and app.players.value == players and app.variant.value == variant


# ----- drawing features added to cliplab.ui for this game ---------------------------------------------------


def test_badges_links_outlines_label_widths_and_revisions() -> None:
    from cliplab.ui import Board, Cell, Edge
    from cliplab.ui.widget import Grid

    board = Board(
        "b",
        "A label much wider than its board",
        2,
        2,
        cells=(Cell((0, 0), fill="sky", badge="paw"), Cell((1, 1), absent=True)),
        edges=(Edge((0, 1), (1, 1), "link"),),
    )
    root = ET.fromstring(render(Scene((board,))))
    badge = [el for el in root.iter(f"{SVG}circle") if el.get("class") == "cl-badge"]
    assert len(badge) == 1
    link = next(el for el in root.iter(f"{SVG}line") if "cl-edge-link" in (el.get("class") or ""))
    # The vertical side between cells (0, 0) and (0, 1) is crossed by a horizontal bar.
    assert link.get("y1") == link.get("y2") == "20" and float(link.get("x1", 0)) < 40 < float(link.get("x2", 0))
    frame = next(el for el in root.iter(f"{SVG}path") if el.get("class") == "cl-frame")
    assert "M40 80h40" not in (frame.get("d") or "")  # no frame under the hole at (1, 1)
    width = float(root.get("viewBox", "0 0 0 0").split()[2])
    assert width > len(board.label) * 0.25 * 40  # the label's width, not the board's two cells
    grid = Grid(Scene((board,)))
    first = grid.widget.revision
    grid.show(Scene((board,)))
    assert grid.widget.revision == first + 1


@functools.cache
def _spent_a_token() -> tuple[ClipCutParks, ClipCutParks, Place]:
    """The first seeded placement that spends a token and leaves its card face up: (before, after, place)."""
    for seed in range(40):
        game = fresh(seed)
        rng = random.Random(seed)
        while not game.is_over():
            action = random_choice(game, 0, rng)
            before = game.clone()
            assert isinstance(before, ClipCutParks)
            game.apply(action, 0)
            ref = (action.kind, action.card) if isinstance(action, Place) else None
            if isinstance(action, Place) and tokens_spent(game, 0, action) and ref in game.face_up[0]:
                return before, game, action
    raise AssertionError("no seeded game spent a token")


def test_a_spent_token_shows_on_the_space_it_waived_and_in_the_note_by_the_board() -> None:
    before, after, place = _spent_a_token()
    ref = (place.kind, place.card)
    card, sheet = card_of(ref), sheet_of(after.sheet_number[0])
    spent = tokens_spent(after, 0, place)
    glyphs = {"wildlife": "paw", "recycling": "recycling", "gardener": "sprout"}
    # Worked out here from the card and the squares: the spaces whose need the square lying there misses.
    missed = {}
    for square_at, space in after.mapping_of(0, place):
        square, wanted = sheet.square(square_at), card.requirement(space)
        if wanted in COLOUR_LOOK and square.colour != wanted:
            missed[space] = "gardener"
        elif wanted in ("wildlife", "recycling") and square.icon != wanted:
            missed[space] = wanted
    assert sum(spent.values()) == len(missed) > 0
    board = describe(after).board(f"{ref[0]}-{ref[1]}")
    stamped = {cell.at: cell for cell in board.cells if cell.stamp}
    assert stamped.keys() == missed.keys()
    for at, token in missed.items():
        assert stamped[at].stamp == glyphs[token] and f"a {token} token waived" in stamped[at].label
    # The static picture: a yellow disc with the token's glyph in each waived space, in no other.
    root = ET.fromstring(render(describe(after)))
    card_svg = root.find(f".//{SVG}g[@data-board='{ref[0]}-{ref[1]}']")
    assert card_svg is not None
    with_disc = {
        (int(g.get("data-r", "")), int(g.get("data-c", ""))): {path.get("d") for path in g.iter(f"{SVG}path")}
        for g in card_svg.iter(f"{SVG}g")
        if g.get("data-kind") == "cell" and g.find(f"{SVG}circle[@class='cl-stamp']") is not None
    }
    assert with_disc.keys() == missed.keys()
    for at, token in missed.items():
        assert GLYPHS[glyphs[token]] in with_disc[at], f"no {token} glyph drawn at {at}"
    assert len(root.findall(f".//{SVG}circle[@class='cl-stamp']")) == len(missed)
    # The note by the board names the token spent and the card.
    app = at_table(after)
    news = app.picture.news(before, after, 0)
    for token, n in spent.items():
        assert f"Spent {n} {token} token" in news or f"spent {n} {token} token" in news
    assert card.name in news
