"""Board descriptions, their static SVG, and the checking of what the browser sends."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

import pytest

from cliplab.engine import IllegalAction, new_game
from cliplab.ui import BadMessage, Board, Cell, Edge, Intent, Mark, Piece, Scene, Token, parse_intent, render
from cliplab.ui.scene import spoken_cell
from cliplab.ui.svg import STYLE, described, draw_cell
from cliplab.ui.svg import targets as svg_targets

if TYPE_CHECKING:
    from cliplab.ui.widget import GridWidget

SVG = "{http://www.w3.org/2000/svg}"

SHEET = Board(
    "sheet",
    "Park sheet",
    7,
    9,
    cells=(Cell((2, 3), fill="sky", label="water, wildlife"), Cell((0, 0), absent=True)),
    edges=(Edge((1, 1), (1, 2), "cut"),),
    tokens=(Token((3, 3), owner=1, text="2"),),
    marks=(Mark("cell", (4, 4)), Mark("segment", (0, 0), (0, 1), "last")),
    clickable=("cell", "segment", "point"),
    accepts_pieces=True,
)
CARD = Board("card", "Park card", 3, 3, clickable=("cell",))
SCENE = Scene((SHEET, CARD), pieces=(Piece("L", (Cell((0, 0)), Cell((1, 0)), Cell((1, 1)))),), title="Test")


def parse_svg(scene: Scene, ids: str | None = None) -> ET.Element:
    return ET.fromstring(render(scene, ids))


def test_every_cell_is_a_labelled_gridcell_in_rows() -> None:
    root = parse_svg(SCENE, ids="w")
    boards = [g for g in root.iter(f"{SVG}g") if g.get("class") == "cl-board"]
    assert [b.get("data-board") for b in boards] == ["sheet", "card"]
    sheet = boards[0]
    assert sheet.get("role") == "grid"
    rows = [g for g in sheet if g.get("role") == "row"]
    assert len(rows) == 7 and all(len(row) == 9 for row in rows)
    cell = rows[2][3]
    assert cell.find(f"{SVG}title").text == "row 3, column 4: water, wildlife"  # its name and tooltip
    assert cell.get("id") == "w-sheet-c2-3"
    assert "cl-absent" in (rows[0][0].get("class") or "")


def test_segment_and_point_targets_only_where_the_board_allows_them() -> None:
    from cliplab.ui.widget import Grid

    # A still picture takes no clicks: the widget builds the targets from the geometry it is sent once.
    assert "cl-hit" not in render(SCENE)
    boards = Grid(SCENE).widget.geometry["boards"]
    assert boards["sheet"]["targets"] == {"segment": 8, "point": 12}  # in viewBox pixels, 40 a cell
    assert boards["card"]["targets"] == {}
    assert svg_targets(Board("floe", "Floe", 2, 2, clickable=("point",))) == {"point": 40 * 0.36}


def test_static_svg_has_no_ids_and_scales_to_its_container() -> None:
    text = render(SCENE)
    assert ' id="' not in text
    root = ET.fromstring(text)
    assert root.get("width") == "100%" and root.get("viewBox")


def test_colours_come_with_glyphs_and_spoken_names() -> None:
    assert spoken_cell(Cell((0, 1), fill="green")) == "row 1, column 2: green"
    assert spoken_cell(Cell((0, 1), absent=True)) == "row 1, column 2: gone"
    root = parse_svg(Scene((Board("b", "b", 1, 1, cells=(Cell((0, 0), fill="green"),)),)))
    assert any(el.tag == f"{SVG}path" and "fill-rule" in el.attrib for el in root.iter())


def test_text_is_escaped() -> None:
    scene = Scene((Board("b", "<script>", 1, 1, cells=(Cell((0, 0), text="&"),)),), status='"quoted"')
    root = ET.fromstring(render(scene))
    texts = [el.text for el in root.iter(f"{SVG}text")]
    assert "<script>" in texts and "&" in texts


def test_marks_are_drawn_over_the_tokens_they_point_at() -> None:
    # Later SVG elements paint over earlier ones: a hint on an occupied place must follow the token.
    board = next(b for b in parse_svg(SCENE).iter(f"{SVG}g") if b.get("data-board") == "sheet")
    order = [(e.get("class") or "").split(" ")[0] for e in board.iter() if e.get("class")]
    assert order.index("cl-token") < order.index("cl-mark")


def test_a_point_ring_clears_a_token_there_and_stays_small_on_an_empty_point() -> None:
    board = Board(
        "floe", "Floe", 2, 2, tokens=(Token((1, 1), owner=0),), marks=(Mark("point", (1, 1)), Mark("point", (0, 0)))
    )
    rings = [c for c in parse_svg(Scene((board,))).iter(f"{SVG}circle") if "cl-mark" in (c.get("class") or "")]
    radius = {(c.get("cy"), c.get("cx")): float(c.get("r") or 0) for c in rings}
    token = next(c for c in parse_svg(Scene((board,))).iter(f"{SVG}circle") if c.get("class") is None)
    assert radius[("40", "40")] > float(token.get("r") or 0) > radius[("0", "0")]


def test_click_crack_state_draws_itself_as_svg() -> None:
    game = new_game("click_crack", players=2)
    for k, at in enumerate(["0,0", "1,1", "2,2", "5,5"]):
        game.apply(f"place at {at}", k % 2)
    root = ET.fromstring(game._repr_svg_())
    tokens = [g for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("cl-token")]
    assert sorted((g.get("data-r"), g.get("data-c")) for g in tokens) == [
        ("0", "0"),
        ("1", "1"),
        ("2", "2"),
        ("5", "5"),
    ]


# ----- messages from the browser ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ({"type": "intent", "board": "sheet", "kind": "cell", "at": [6, 8]}, Intent("sheet", "cell", (6, 8))),
        ({"type": "intent", "board": "sheet", "kind": "point", "at": [7, 9]}, Intent("sheet", "point", (7, 9))),
        (
            {"type": "intent", "board": "sheet", "kind": "segment", "at": [2, 3], "to": [1, 3]},
            Intent("sheet", "segment", (1, 3), (2, 3)),
        ),
        (
            {"type": "intent", "board": "sheet", "kind": "drop", "at": [0, 0], "piece": "L", "turns": 3},
            Intent("sheet", "drop", (0, 0), piece="L", turns=3),
        ),
    ],
)
def test_well_formed_intents_are_accepted(message: dict, expected: Intent) -> None:
    assert parse_intent(message, SCENE) == expected


@pytest.mark.parametrize(
    ("message", "complaint"),
    [
        ("cell 1 1", "object"),
        ({"type": "execute", "board": "sheet", "kind": "cell", "at": [0, 0]}, "only intents"),
        ({"type": "intent", "board": "sheet", "kind": "cell", "at": [0, 0], "code": "x"}, "unexpected field"),
        ({"type": "intent", "board": "nope", "kind": "cell", "at": [0, 0]}, "no board"),
        ({"type": "intent", "board": "x" * 5000, "kind": "cell", "at": [0, 0]}, "short text"),
        ({"type": "intent", "board": "card", "kind": "point", "at": [0, 0]}, "not something to click"),
        ({"type": "intent", "board": "sheet", "kind": "cell", "at": [7, 0]}, "outside the board"),
        ({"type": "intent", "board": "sheet", "kind": "cell", "at": [-1, 0]}, "outside the board"),
        ({"type": "intent", "board": "sheet", "kind": "cell", "at": [0.5, 0]}, "whole numbers"),
        ({"type": "intent", "board": "sheet", "kind": "cell", "at": [True, 0]}, "whole numbers"),
        ({"type": "intent", "board": "sheet", "kind": "cell", "at": [0, 0, 0]}, "pair"),
        ({"type": "intent", "board": "sheet", "kind": "cell"}, "pair"),
        ({"type": "intent", "board": "sheet", "kind": "segment", "at": [0, 0], "to": [1, 1]}, "neighbouring"),
        ({"type": "intent", "board": "card", "kind": "drop", "at": [0, 0], "piece": "L"}, "cannot be dropped"),
        ({"type": "intent", "board": "sheet", "kind": "drop", "at": [0, 0], "piece": "Q"}, "no piece"),
        ({"type": "intent", "board": "sheet", "kind": "drop", "at": [0, 0], "piece": "L", "turns": 4}, "turns"),
    ],
)
def test_malformed_intents_are_refused_with_a_reason(message: object, complaint: str) -> None:
    with pytest.raises(BadMessage, match=complaint):
        parse_intent(message, SCENE)


# ----- the Grid object --------------------------------------------------------------------------------


def _drawn(widget: GridWidget) -> ET.Element:
    """The picture a page draws from a GridWidget's state: `svg`, then each node `patch` names put in place."""
    return _patched(ET.fromstring(widget.svg), widget.patch)


def _patched(picture: ET.Element, patch: dict[str, str]) -> ET.Element:
    """`picture` with each node `patch` names put in place, from its markup or its description."""
    for key, entry in patch.items():
        path = [int(index) for index in key.split()]
        parent = picture
        for index in path[:-1]:
            parent = parent[index]
        parent[path[-1]] = _parsed(entry) if entry.startswith("<") else _built(json.loads(entry))
    return picture


def _parsed(markup: str) -> ET.Element:
    return ET.fromstring(re.sub(r"^<(\w+)", rf'<\1 xmlns="{SVG[1:-1]}"', markup, count=1))


def _built(description: list) -> ET.Element:
    """An element from its description, as the front end builds one."""
    name, attributes, content = description
    element = ET.Element(SVG + name, attributes)
    if isinstance(content, str):
        element.text = content
    else:
        element.extend(_built(child) for child in content)
    return element


@pytest.mark.parametrize(
    "cell",
    [
        Cell((0, 0)),
        Cell((1, 2), "orange"),
        Cell((2, 0), "sky", text="7", badge="tree", emphasis=True),
        Cell((0, 1), "yellow", stamp="star", vacant=True),
        Cell((3, 3), absent=True),
        Cell((4, 1), "green", label='"Tom" & <Jerry>\'s pond, café'),
    ],
)
def test_a_cell_described_builds_the_element_its_markup_parses_to(cell: Cell) -> None:
    markup = draw_cell(cell, 40 * cell.at[1], 40 * cell.at[0], "clg1-b")
    description = described(markup)
    assert description is not None and "<" not in description.replace("<Jerry>", "")
    assert ET.tostring(_built(json.loads(description))) == ET.tostring(_parsed(markup))


@pytest.mark.parametrize(
    "markup",
    [
        '<g><rect x="1"/></g><g/>',
        "a<g/>",
        "<g/>b",
        "<text>1<tspan>2</tspan></text>",
        "<text><tspan/>3</text>",
        "<g><rect></g>",
        '<g x="1"',
        "<g x='1'/>",
        '<use xlink:href="#a"/>',
        "<!-- note --><g/>",
        "",
    ],
)
def test_only_one_element_holding_text_or_elements_is_described(markup: str) -> None:
    assert described(markup) is None


def test_grid_sends_only_the_nodes_that_changed_and_they_make_the_picture() -> None:
    from dataclasses import replace

    from cliplab.ui.widget import Grid

    grid = Grid(SCENE)
    whole = grid.widget.svg
    assert "<style>" not in whole and grid.widget.patch == {}
    steps = [
        lambda s: replace(s, boards=(replace(SHEET, cells=(*SHEET.cells, Cell((5, 5), "orange"))), CARD)),
        lambda s: replace(s, boards=(s.boards[0], replace(CARD, cells=(Cell((1, 1), "sky", text="x"),)))),
        lambda s: replace(s, boards=(s.boards[0], replace(s.boards[1], tokens=(Token((1, 1), 0),)))),  # card whole
        lambda s: replace(s, boards=(replace(s.boards[0], cells=SHEET.cells), s.boards[1])),  # the cell as it was
        lambda s: replace(s, status="Your turn"),  # the <svg> is sized anew: sent whole
    ]
    for number, step in enumerate(steps):
        grid.show(step(grid.scene))
        assert ET.tostring(_drawn(grid.widget)) == ET.tostring(ET.fromstring(grid.svg)), f"step {number}"
        assert grid.svg == render(grid.scene, grid.widget.ids).replace(f"<style>{STYLE}</style>", "")
        if number < 4:
            assert grid.widget.svg == whole, f"step {number} sent the picture whole"
        if number == 3:
            assert list(grid.widget.patch) == ["1 0 6 5", "2 0"]
    assert grid.widget.svg != whole and grid.widget.patch == {}
    # More than half the picture changed: sent whole.
    grid.show(replace(grid.scene, boards=(replace(SHEET, tokens=()), CARD)))
    assert grid.widget.patch == {} and grid.svg == grid.widget.svg
    # Only the changed cell went: the first step names one cell of the sheet's sixth row (the title is child 0).
    grid = Grid(SCENE)
    grid.show(steps[0](grid.scene))
    assert list(grid.widget.patch) == ["1 0 6 5"]


def test_a_picture_sent_whole_names_what_changed_since_the_one_on_screen() -> None:
    from dataclasses import replace

    from cliplab.ui.widget import Grid

    fills: dict[tuple[int, int], str] = {}

    def scene() -> Scene:
        cells = tuple(Cell((r, c), fill=fills.get((r, c), "paper")) for r in range(3) for c in range(3))
        return Scene(boards=(Board("b", "Board", 3, 3, cells=cells, clickable=("cell",)),))

    grid = Grid(scene())
    assert grid.widget.svg_from == -1
    first = grid.widget.svg
    # Cells turn orange one by one until the patch, sent again with every redraw, would be half the picture.
    for n in range(9):
        on_screen = ET.tostring(_drawn(grid.widget))
        revision = grid.widget.revision
        fills[divmod(n, 3)] = "orange"
        grid.show(scene())
        if grid.widget.svg != first:
            break
    assert n > 1, "a patch of one or two cells is not half the picture"
    # Sent whole, with the one cell that changed since the picture on screen and that picture's revision: a page
    # showing it patches that cell; a page opening now draws the picture and patches the cell to what it is.
    assert grid.widget.svg_from == revision and list(grid.widget.patch) == [f"0 0 {1 + n // 3} {n % 3}"]
    assert ET.tostring(_patched(ET.fromstring(on_screen), grid.widget.patch)) == ET.tostring(ET.fromstring(grid.svg))
    assert ET.tostring(_drawn(grid.widget)) == ET.tostring(ET.fromstring(grid.svg))
    # The next redraws patch that picture; one that changes the <svg> itself is drawn whole by every page.
    sent = grid.widget.svg
    fills[(2, 2)] = "sky"
    grid.show(scene())
    assert grid.widget.svg == sent and list(grid.widget.patch) == ["0 0 3 2"]
    grid.show(replace(scene(), status="Your turn"))
    assert grid.widget.svg_from == -1 and grid.widget.patch == {}


def test_the_geometry_follows_the_boards_shapes_and_the_tray_and_is_sent_only_when_they_change() -> None:
    from dataclasses import replace

    from cliplab.ui.widget import Grid

    grid = Grid(SCENE)
    synced: list[str] = []
    grid.widget.observe(lambda change: synced.append(change["name"]), names=["geometry", "notice"])
    # New fills and tokens: the boards keep their shapes, the tray its pieces.
    grid.show(replace(SCENE, boards=(replace(SHEET, cells=(Cell((5, 5), "orange"),), tokens=()), CARD)))
    grid.show(replace(SCENE, status="Your turn"))
    assert synced == []
    # Each thing the geometry is made of, changed, is sent.
    grid.show(replace(SCENE, boards=(SHEET, replace(CARD, clickable=("cell", "point")))))
    assert grid.widget.geometry["boards"]["card"]["clickable"] == ["cell", "point"]
    assert grid.widget.geometry["boards"]["card"]["targets"] == svg_targets(replace(CARD, clickable=("point",)))
    grid.show(replace(SCENE, boards=(SHEET, replace(CARD, rows=4))))
    assert grid.widget.geometry["boards"]["card"]["rows"] == 4
    grid.show(replace(SCENE, pieces=(Piece("L", (Cell((0, 0)), Cell((0, 1)))),)))
    assert grid.widget.geometry["pieces"] == {"L": [[0, 0], [0, 1]]}
    grid.show(replace(SCENE, boards=(SHEET,)))
    assert list(grid.widget.geometry["boards"]) == ["sheet"]
    assert synced == ["geometry"] * 4
    # A notice shown goes with the next redraw.
    grid.say("Your move")
    grid.show(replace(SCENE, boards=(SHEET,), status="Your move"))
    assert grid.widget.notice == {} and synced[4:] == ["notice", "notice"]
    grid.show(SCENE)
    assert grid.widget.geometry["boards"]["card"] == {
        "rows": 3,
        "cols": 3,
        "clickable": ["cell"],
        "pieces": False,
        "targets": {},
    }


def test_grid_refuses_malformed_messages_without_calling_handlers() -> None:
    from cliplab.ui.widget import Grid

    grid = Grid(SCENE)
    heard: list[Intent] = []
    grid.on("any", heard.append)
    svg_before = grid.svg
    grid._receive(grid.widget, {"type": "intent", "board": "sheet", "kind": "cell", "at": [99, 0]}, [])
    assert heard == []
    assert grid.widget.notice["tone"] == "error" and "outside the board" in grid.widget.notice["text"]
    assert grid.svg == svg_before
    grid._receive(grid.widget, {"type": "intent", "board": "sheet", "kind": "cell", "at": [1, 2]}, [])
    assert heard == [Intent("sheet", "cell", (1, 2))]


def test_grid_shows_an_illegal_actions_reason_where_it_was_tried() -> None:
    from cliplab.ui.widget import Grid

    grid = Grid(SCENE)

    def refuse(intent: Intent) -> None:
        raise IllegalAction("walk", "walk N with penguin 1", "penguin 1 would walk off the floe")

    grid.on("point", refuse)
    grid._receive(grid.widget, {"type": "intent", "board": "sheet", "kind": "point", "at": [0, 4]}, [])
    first = grid.widget.notice.pop("seq")
    assert grid.widget.notice == {
        "text": "Penguin 1 would walk off the floe",
        "tone": "error",
        "board": "sheet",
        "kind": "point",
        "at": [0, 4],
    }
    # The same refusal again is a new notice, so the browser shows it again.
    grid._receive(grid.widget, {"type": "intent", "board": "sheet", "kind": "point", "at": [0, 4]}, [])
    assert grid.widget.notice["seq"] > first


def test_grid_survives_a_failing_handler() -> None:
    from cliplab.ui.widget import Grid

    grid = Grid(SCENE)
    grid.on("cell", lambda intent: 1 / 0)
    grid._receive(grid.widget, {"type": "intent", "board": "card", "kind": "cell", "at": [0, 0]}, [])
    assert grid.widget.notice["tone"] == "error"
    grid.show(SCENE)
    assert grid.widget.notice == {}


def test_a_long_message_gives_a_short_notice_and_the_refusal_history_is_capped() -> None:
    from cliplab.ui.widget import NOTICE_LIMIT, REFUSALS_KEPT, Grid

    grid = Grid(SCENE)
    huge_kind = "x" * 1_000_000
    for _ in range(REFUSALS_KEPT + 50):
        grid._receive(grid.widget, {"type": "intent", "board": "sheet", "kind": huge_kind, "at": [0, 0]}, [])
    assert len(grid.widget.notice["text"]) <= NOTICE_LIMIT
    assert grid.widget.notice["text"].endswith("…")
    assert len(grid.refused) == REFUSALS_KEPT
    assert all(len(reason) <= NOTICE_LIMIT for reason in grid.refused)
