"""The Grid board widget end to end: a notebook builds a Grid whose handlers change the scene, and the
browser (JupyterLab and Voila) clicks, types, drags and sends bad messages, then reads what Python drew."""

from __future__ import annotations

import json
import math
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
import pytest
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser

KERNEL_TIMEOUT_MS = 60_000  # generous: a busy machine starts kernels slowly
ANSWER_TIMEOUT_MS = 10_000
SKY, GREEN = "#56B4E9", "#009E73"  # PALETTE["sky"], PALETTE["green"]
ORANGE, PAPER = "#E69F00", "#FBF8EF"  # PALETTE["orange"], PALETTE["paper"]
UNIT = 40  # viewBox pixels per cell (cliplab.ui.svg.UNIT)

# The notebook under test. Every handler redraws the scene, so what the browser shows came from Python.
SETUP = '''\
from dataclasses import replace

import ipywidgets as widgets

from cliplab.engine import IllegalAction
from cliplab.grid import Transform, orient
from cliplab.ui import Board, Cell, Edge, Piece, Scene, Token
from cliplab.ui.widget import Grid

sheet = Board("sheet", "Sheet", 7, 9, clickable=("cell", "segment", "point"), accepts_pieces=True)
card = Board("card", "Card", 3, 3, clickable=("cell",))
L = Piece("L", (Cell((0, 0), "orange"), Cell((1, 0), "orange"), Cell((1, 1), "orange")))
grid = Grid(Scene((sheet, card), (L,)))
counter = widgets.Label("Intents handled: 0")
handled = 0


def change(board_id, edit):
    """Draw the scene again with one board edited."""
    boards = tuple(edit(b) if b.id == board_id else b for b in grid.scene.boards)
    grid.show(replace(grid.scene, boards=boards))


def with_cells(board, *cells):
    kept = {cell.at: cell for cell in board.cells} | {cell.at: cell for cell in cells}
    return replace(board, cells=tuple(kept.values()))


def on_cell(intent):
    if (intent.board, intent.at) == ("card", (0, 0)):
        raise IllegalAction("demo", intent, "that space needs water")
    old = next((c for c in grid.scene.board(intent.board).cells if c.at == intent.at), Cell(intent.at))
    new = Cell(intent.at) if old.fill == "sky" else Cell(intent.at, "sky", text="x")
    change(intent.board, lambda b: with_cells(b, new))


def on_segment(intent):
    change(intent.board, lambda b: replace(b, edges=(*b.edges, Edge(intent.at, intent.to))))


def on_point(intent):
    change(intent.board, lambda b: replace(b, tokens=(*b.tokens, Token(intent.at, owner=0))))


def on_drop(intent):
    piece = next(p for p in grid.scene.pieces if p.id == intent.piece)
    shape = orient([c.at for c in piece.cells], Transform(intent.turns))
    cells = [Cell((intent.at[0] + r, intent.at[1] + c), "green") for r, c in shape.values()]
    change(intent.board, lambda b: with_cells(b, *cells))


def count(intent):
    global handled
    handled += 1
    counter.value = f"Intents handled: {handled}"


for kind, handler in [("cell", on_cell), ("segment", on_segment), ("point", on_point), ("drop", on_drop)]:
    grid.on(kind, handler)
grid.on("any", count)
'''
SHOW = "display(grid, counter)"

# One read of everything Python drew: the cells that are not blank paper, cut lines, tokens.
READ_STATE = """(root) => {
  const state = {};
  for (const board of root.querySelectorAll('svg .cl-board')) {
    const cells = {};
    for (const g of board.querySelectorAll('.cl-cell[data-kind="cell"]')) {
      const fill = g.querySelector('rect').getAttribute('fill');
      const text = g.querySelector('.cl-text')?.textContent ?? '';
      if (fill !== '#FBF8EF' || text) cells[`${g.getAttribute('data-r')},${g.getAttribute('data-c')}`] = [fill, text];
    }
    const cuts = [...board.querySelectorAll('line.cl-edge-cut')].map(
      (l) => ['x1', 'y1', 'x2', 'y2'].map((a) => Number(l.getAttribute(a))));
    const tokens = [...board.querySelectorAll('.cl-token')].map(
      (t) => [Number(t.getAttribute('data-r')), Number(t.getAttribute('data-c'))]);
    state[board.getAttribute('data-board')] = {cells, cuts, tokens};
  }
  return state;
}"""


def _write_notebook(path: Path, setup: str, show: str) -> Path:
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    # The setup's source is collapsed in JupyterLab so that the widget is in view (and in screenshots).
    notebook.cells = [
        nbformat.v4.new_code_cell(setup, metadata={"jupyter": {"source_hidden": True}}),
        nbformat.v4.new_code_cell(show),
    ]
    nbformat.write(notebook, path)
    return path


@dataclass
class GridPage:
    """The widget on a page: locators and reads of what the kernel drew."""

    where: str  # "lab" or "voila"
    page: Page
    root: Locator  # div.cl-grid
    counter_label: Locator
    js: Any  # the JsErrors of the page

    def board(self, board: str) -> Locator:
        return self.root.locator(f"svg .cl-board[data-board='{board}']")

    def cell(self, board: str, r: int, c: int) -> Locator:
        return self.board(board).locator(f".cl-cell[data-kind='cell'][data-r='{r}'][data-c='{c}']")

    def segment(self, board: str, r: int, c: int, r2: int, c2: int) -> Locator:
        return self.board(board).locator(
            f".cl-hit[data-kind='segment'][data-r='{r}'][data-c='{c}'][data-r2='{r2}'][data-c2='{c2}']"
        )

    def point(self, board: str, r: int, c: int) -> Locator:
        return self.board(board).locator(f".cl-hit[data-kind='point'][data-r='{r}'][data-c='{c}']")

    @property
    def stage(self) -> Locator:
        return self.root.locator(".cl-stage")

    @property
    def notice(self) -> Locator:
        return self.root.locator(".cl-notice")

    def state(self) -> dict[str, Any]:
        raw = self.root.evaluate(READ_STATE)
        return {
            board: {
                "cells": {tuple(int(v) for v in key.split(",")): tuple(value) for key, value in info["cells"].items()},
                "cuts": sorted(tuple(line) for line in info["cuts"]),
                "tokens": sorted(tuple(t) for t in info["tokens"]),
            }
            for board, info in raw.items()
        }

    def counter(self) -> int:
        match = re.fullmatch(r"Intents handled: (\d+)", self.counter_label.inner_text().strip())
        assert match, f"unexpected counter text {self.counter_label.inner_text()!r}"
        return int(match.group(1))

    def wait_counter(self, expected: int) -> None:
        self.js.wait_until(
            lambda: self.counter() == expected,
            f"the kernel has handled {expected} intents (counter shows {self.counter()})",
            timeout=ANSWER_TIMEOUT_MS,
        )

    def wait_state(self, predicate: Any, description: str) -> dict[str, Any]:
        self.js.wait_until(lambda: predicate(self.state()), description, timeout=ANSWER_TIMEOUT_MS)
        return self.state()

    def send(self, message: Any) -> None:
        self.root.evaluate("(el, message) => el.cliplabSend(message)", message)

    def shot(self, artifacts_dir: Path, name: str) -> None:
        self.root.screenshot(path=str(artifacts_dir / f"{name}.png"))


# --------------------------------------------------------------------------- opening the notebook


@pytest.fixture(scope="module")
def notebook_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("grid-widget")
    _write_notebook(folder / "grid.ipynb", SETUP, SHOW)
    return folder


def _wait_for_widget(root: Locator, js_errors: Any) -> None:
    js_errors.wait_for(root.locator("svg .cl-board[data-board='card']"), timeout=KERNEL_TIMEOUT_MS)


def open_in_lab(page: Page, js_errors: Any, server: Any, name: str) -> GridPage:
    page.goto(f"{server.url}lab/tree/{name}?reset", timeout=KERNEL_TIMEOUT_MS)
    panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)").first
    status = page.locator(f"#jp-main-statusbar [title='Change kernel for {name}']")
    js_errors.wait_for(status.filter(has_text=re.compile(r"\| Idle$")), timeout=KERNEL_TIMEOUT_MS)
    js_errors.wait_for(panel.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']"))
    page.locator(".lm-MenuBar-item", has_text=re.compile(r"^Run$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()
    root = panel.locator("div.cl-grid")
    _wait_for_widget(root, js_errors)
    return GridPage("lab", page, root, panel.locator(".widget-label", has_text="Intents handled"), js_errors)


def open_in_voila(page: Page, js_errors: Any, server: Any) -> GridPage:
    # Voila runs the notebook before it sends the page: don't wait for "load" under the default timeout.
    page.goto(server.url, wait_until="commit", timeout=KERNEL_TIMEOUT_MS)
    root = page.locator("div.cl-grid")
    _wait_for_widget(root, js_errors)
    return GridPage("voila", page, root, page.locator(".widget-label", has_text="Intents handled"), js_errors)


@pytest.fixture(params=["lab", "voila"])
def grid_page(request: pytest.FixtureRequest, notebook_dir: Path, page: Page, js_errors: Any) -> GridPage:
    """The notebook's widget, up and drawn, in a fresh kernel: JupyterLab (run all cells) or Voila."""
    if request.param == "lab":
        # A notebook of its own per test: a new session, so a new kernel with the counter at 0.
        name = re.sub(r"\W+", "_", request.node.name).strip("_") + ".ipynb"
        shutil.copy(notebook_dir / "grid.ipynb", notebook_dir / name)
        return open_in_lab(page, js_errors, request.getfixturevalue("lab_server")(notebook_dir), name)
    return open_in_voila(page, js_errors, request.getfixturevalue("voila_server")(notebook_dir / "grid.ipynb"))


# --------------------------------------------------------------------------- tests


def test_boards_render(grid_page: GridPage) -> None:
    g = grid_page
    assert g.root.locator("svg [role='grid']").count() == 2
    assert g.board("sheet").locator("[role='gridcell']").count() == 63
    assert g.board("card").locator("[role='gridcell']").count() == 9
    assert g.board("sheet").get_attribute("aria-label") == "Sheet"
    assert g.board("sheet").locator("path.cl-lines").count() == 1
    assert g.root.locator(".cl-tray .cl-piece[data-piece='L'] rect").count() == 3
    assert g.stage.get_attribute("tabindex") == "0"
    assert g.root.get_attribute("data-mode") == "cell"
    assert g.root.get_attribute("data-board") == "sheet"
    assert float(g.root.get_attribute("data-render-ms") or "nan") >= 0
    assert g.counter() == 0
    assert g.state() == {b: {"cells": {}, "cuts": [], "tokens": []} for b in ("sheet", "card")}
    box = g.board("sheet").bounding_box()
    assert box and 300 < box["width"] < 500, f"the 9-column sheet is drawn {box} (expected ~360 px wide)"


def test_clicks_reach_python_and_come_back(grid_page: GridPage) -> None:
    g = grid_page
    g.cell("sheet", 2, 3).click()
    g.wait_counter(1)
    state = g.wait_state(lambda s: (2, 3) in s["sheet"]["cells"], "cell (2, 3) comes back changed")
    assert state["sheet"]["cells"] == {(2, 3): (SKY, "x")}
    # The name a screen reader hears, which Chromium takes from the cell's <title>.
    expect(g.cell("sheet", 2, 3)).to_have_accessible_name("row 3, column 4: sky blue")

    g.segment("sheet", 1, 4, 1, 5).click()  # the horizontal edge on top of cell (1, 4)
    g.wait_counter(2)
    state = g.wait_state(lambda s: s["sheet"]["cuts"], "a cut line comes back")
    assert state["sheet"]["cuts"] == [(4 * UNIT, 1 * UNIT, 5 * UNIT, 1 * UNIT)]

    g.point("sheet", 5, 6).click()
    g.wait_counter(3)
    state = g.wait_state(lambda s: s["sheet"]["tokens"], "a token comes back")
    assert state["sheet"]["tokens"] == [(5, 6)]
    assert g.board("sheet").locator(".cl-token[data-r='5'][data-c='6']").count() == 1

    g.cell("card", 2, 2).click()
    g.wait_counter(4)
    state = g.wait_state(lambda s: s["card"]["cells"], "the card's cell comes back changed")
    assert state["card"]["cells"] == {(2, 2): (SKY, "x")}
    # A second click on a changed cell toggles it back: the new picture is live, not stale.
    g.cell("sheet", 2, 3).click()
    g.wait_counter(5)
    g.wait_state(lambda s: (2, 3) not in s["sheet"]["cells"], "cell (2, 3) is toggled back")


def _active(g: GridPage) -> str:
    return g.stage.get_attribute("aria-activedescendant") or ""


def _focused_ids(g: GridPage) -> list[str]:
    return g.root.evaluate("(root) => [...root.querySelectorAll('.cl-focused')].map((n) => n.id)")


def test_keyboard_moves_focus_and_acts(grid_page: GridPage, artifacts_dir: Path) -> None:
    g = grid_page
    if g.where == "voila":
        # The stage is the widget's one tab stop (the toolbar buttons are reached by keys M and R).
        g.page.keyboard.press("Tab")
    else:
        g.stage.focus()
    assert g.page.evaluate("document.activeElement.classList.contains('cl-stage')")
    first = _active(g)
    assert re.fullmatch(r"clg\d+-sheet-c0-0", first), first
    prefix = first[: -len("-sheet-c0-0")]
    for key in ["ArrowRight", "ArrowRight", "ArrowDown"]:
        g.page.keyboard.press(key)
    assert _active(g) == f"{prefix}-sheet-c1-2"
    assert _focused_ids(g) == [f"{prefix}-sheet-c1-2"]
    assert g.root.evaluate("(root) => root.classList.contains('cl-kbd')")
    assert g.root.locator(".cl-live").inner_text().strip() == "row 2, column 3: paper"
    # Clamped at the edge: the focus stays on the board.
    g.page.keyboard.press("ArrowUp")
    g.page.keyboard.press("ArrowUp")
    g.page.keyboard.press("ArrowUp")
    assert _active(g) == f"{prefix}-sheet-c0-2"
    g.page.keyboard.press("ArrowDown")

    g.page.keyboard.press("Enter")
    g.wait_counter(1)
    g.wait_state(lambda s: s["sheet"]["cells"] == {(1, 2): (SKY, "x")}, "Enter changed cell (1, 2)")
    assert _active(g) == f"{prefix}-sheet-c1-2", "the focus survives the redraw"
    assert _focused_ids(g) == [f"{prefix}-sheet-c1-2"]

    g.page.keyboard.press("m")
    assert g.root.get_attribute("data-mode") == "segment"
    assert g.root.locator("button.cl-mode .cl-mode-value").inner_text() == "Segments"
    assert _active(g) == f"{prefix}-sheet-s1-2-h"
    g.page.keyboard.press("ArrowRight")
    assert _active(g) == f"{prefix}-sheet-s1-3-h"
    g.shot(artifacts_dir, f"grid_keyboard_segment_{g.where}")
    g.page.keyboard.press("Enter")
    g.wait_counter(2)
    state = g.wait_state(lambda s: s["sheet"]["cuts"], "Enter on a segment added a cut")
    assert state["sheet"]["cuts"] == [(3 * UNIT, UNIT, 4 * UNIT, UNIT)]

    g.page.keyboard.press("m")
    assert g.root.get_attribute("data-mode") == "point"
    g.page.keyboard.press("m")
    assert g.root.get_attribute("data-mode") == "cell"
    g.page.keyboard.press("]")
    assert g.root.get_attribute("data-board") == "card"
    assert re.fullmatch(rf"{prefix}-card-c\d-\d", _active(g))
    g.page.keyboard.press("]")
    assert g.root.get_attribute("data-board") == ""  # the tray comes last
    assert _active(g) == f"{prefix}-piece-L"
    g.page.keyboard.press("[")
    assert g.root.get_attribute("data-board") == "card"
    if g.where == "lab":
        # The keys went to the widget, not to JupyterLab (M would make a Markdown cell, Enter edit it).
        notebook = g.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook")
        assert notebook.locator(".jp-MarkdownCell").count() == 0
        assert "jp-mod-commandMode" in (notebook.get_attribute("class") or "")


def _centre(locator: Locator) -> tuple[float, float]:
    box = locator.bounding_box()
    assert box is not None, f"{locator} has no box"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_piece_drag_and_click_rotate_place(grid_page: GridPage, artifacts_dir: Path) -> None:
    g = grid_page
    mouse = g.page.mouse
    piece = g.root.locator(".cl-tray .cl-piece[data-piece='L']")
    grab = piece.locator("[data-r='0'][data-c='0']")  # the piece's top cell

    # Drag: the grabbed cell lands on sheet cell (2, 3), so the piece covers (2,3) (3,3) (3,4).
    mouse.move(*_centre(grab))
    mouse.down()
    x, y = _centre(g.cell("sheet", 2, 3))
    mouse.move(x, y - 60, steps=8)
    mouse.move(x, y, steps=4)
    assert g.root.get_attribute("data-held") == "L"
    ghost = g.board("sheet").locator(".cl-ghost.cl-snapped")
    assert (ghost.get_attribute("data-r"), ghost.get_attribute("data-c")) == ("2", "3")
    g.shot(artifacts_dir, f"grid_drag_ghost_{g.where}")
    mouse.up()
    assert g.root.get_attribute("data-held") == ""
    g.wait_counter(1)
    state = g.wait_state(lambda s: s["sheet"]["cells"], "the dropped piece comes back")
    assert state["sheet"]["cells"] == {at: (GREEN, "") for at in [(2, 3), (3, 3), (3, 4)]}

    # Click the piece, turn it once with R, click on sheet cell (4, 6): turned a quarter clockwise the
    # L is (0,1) (0,0) (1,0) with the grabbed cell at (0,1), so it covers (4,6) (4,5) (5,5).
    grab.click()
    assert g.root.get_attribute("data-held") == "L"
    g.page.keyboard.press("r")
    assert g.root.get_attribute("data-turns") == "1"
    target = g.cell("sheet", 4, 6)
    mouse.move(*_centre(target), steps=5)
    ghost = g.board("sheet").locator(".cl-ghost.cl-snapped")
    assert (ghost.get_attribute("data-r"), ghost.get_attribute("data-c"), ghost.get_attribute("data-turns")) == (
        "4", "5", "1",
    )  # fmt: skip
    g.shot(artifacts_dir, f"grid_rotated_ghost_{g.where}")
    target.click()
    g.wait_counter(2)
    state = g.wait_state(lambda s: len(s["sheet"]["cells"]) == 6, "the turned piece comes back")
    assert state["sheet"]["cells"] == {at: (GREEN, "") for at in [(2, 3), (3, 3), (3, 4), (4, 6), (4, 5), (5, 5)]}
    assert g.root.get_attribute("data-held") == ""
    assert g.root.locator(".cl-ghost").count() == 0


def _gap(a: dict[str, float], b: dict[str, float]) -> float:
    """Distance between two boxes (0 when they touch or overlap)."""
    dx = max(0.0, max(a["x"], b["x"]) - min(a["x"] + a["width"], b["x"] + b["width"]))
    dy = max(0.0, max(a["y"], b["y"]) - min(a["y"] + a["height"], b["y"] + b["height"]))
    return math.hypot(dx, dy)


def test_illegal_action_shows_reason_next_to_cell(grid_page: GridPage, artifacts_dir: Path) -> None:
    g = grid_page
    before = g.state()
    cell = g.cell("card", 0, 0)
    cell.click()
    notice = g.root.locator(".cl-notice[data-tone='error']")
    g.js.wait_for(notice, timeout=ANSWER_TIMEOUT_MS)
    assert notice.locator(".cl-notice-text").inner_text() == "That space needs water"
    g.shot(artifacts_dir, f"grid_illegal_notice_{g.where}")
    notice_box, cell_box = notice.bounding_box(), cell.bounding_box()
    assert notice_box and cell_box
    assert notice.get_attribute("data-side") in {"right", "left", "below"}
    assert _gap(notice_box, cell_box) < 30, f"notice {notice_box} is far from the cell {cell_box}"
    mark = g.board("card").locator(".cl-notice-mark[data-tone='error']")
    assert mark.count() == 1 and _gap(mark.bounding_box() or {}, cell_box) == 0
    assert "Not done: That space needs water" in g.root.locator(".cl-live").inner_text()
    assert g.state() == before, "a refused action changed the scene"
    assert g.counter() == 0

    # Escape dismisses it; the next legal click works and the kernel answers.
    g.stage.focus()
    g.page.keyboard.press("Escape")
    assert notice.is_hidden()
    assert mark.count() == 0
    g.cell("card", 1, 1).click()
    g.wait_counter(1)
    g.wait_state(lambda s: s["card"]["cells"] == {(1, 1): (SKY, "x")}, "a legal click after the refusal")


MALFORMED = [
    ("a message that is not an object", "hello", "a message must be an object"),
    ("wrong type", {"type": "click", "board": "sheet", "kind": "cell", "at": [0, 0]}, "only intents are accepted"),
    ("code to run", {"type": "execute", "code": "import os; os.remove('grid.ipynb')"}, "unexpected field 'code'"),
    (
        "unknown board",
        {"type": "intent", "board": "nope", "kind": "cell", "at": [0, 0]},
        "there is no board 'nope' on screen",
    ),
    (
        "out of range",
        {"type": "intent", "board": "sheet", "kind": "cell", "at": [7, 0]},
        "at [7, 0] is outside the board (rows 0-6, columns 0-8)",
    ),
    (
        "a huge string",
        {"type": "intent", "board": "s" * 200_000, "kind": "cell", "at": [0, 0]},
        "board must be a short text",
    ),
    (
        "not whole numbers",
        {"type": "intent", "board": "sheet", "kind": "cell", "at": [True, 1.5]},
        "at must be a [row, column] pair of whole numbers",
    ),
    (
        "a kind the board does not take",
        {"type": "intent", "board": "card", "kind": "point", "at": [0, 0]},
        "'point' is not something to click on Card",
    ),
    (
        "a segment that is not one",
        {"type": "intent", "board": "sheet", "kind": "segment", "at": [0, 0], "to": [1, 1]},
        "a segment joins two neighbouring points",
    ),
    (
        "a drop of a missing piece",
        {"type": "intent", "board": "sheet", "kind": "drop", "piece": "Z", "turns": 0, "at": [0, 0]},
        "there is no piece 'Z' in the tray",
    ),
    (
        "a drop with too many turns",
        {"type": "intent", "board": "sheet", "kind": "drop", "piece": "L", "turns": 7, "at": [0, 0]},
        "turns must be 0, 1, 2 or 3",
    ),
]  # fmt: skip


def test_malformed_messages_are_refused(grid_page: GridPage, artifacts_dir: Path) -> None:
    g = grid_page
    before = g.state()
    svg_before = g.root.locator("svg").first.inner_html()
    text = g.root.locator(".cl-notice[data-tone='error'] .cl-notice-text")
    for what, message, reason in MALFORMED:
        g.send(message)
        expected = f"Refused a malformed message: {reason}"
        g.js.wait_until(
            lambda expected=expected: text.is_visible() and text.inner_text() == expected,
            f"the notice refuses {what}: {expected!r} (it shows {text.all_inner_texts()})",
            timeout=ANSWER_TIMEOUT_MS,
        )
    assert g.notice.get_attribute("data-side") == "below-boards"
    g.shot(artifacts_dir, f"grid_refused_{g.where}")
    assert g.state() == before
    assert g.root.locator("svg").first.inner_html() == svg_before, "a refused message redrew the board"
    assert g.counter() == 0

    # The kernel still answers: a real click, and a well-formed message sent the same way.
    g.cell("sheet", 6, 8).click()
    g.wait_counter(1)
    g.wait_state(lambda s: s["sheet"]["cells"] == {(6, 8): (SKY, "x")}, "a click after the refusals")
    g.send({"type": "intent", "board": "sheet", "kind": "point", "at": [7, 9]})
    g.wait_counter(2)
    g.wait_state(lambda s: s["sheet"]["tokens"] == [(7, 9)], "a well-formed sent message is handled")


def test_javascript_error_fails_at_once(grid_page: GridPage) -> None:
    g = grid_page
    js = g.js
    g.page.evaluate("setTimeout(() => { throw new Error('planted') }, 0)")
    started = time.monotonic()
    with pytest.raises(pytest.fail.Exception) as failed:
        js.wait_until(lambda: False, "never", timeout=20_000)
    elapsed = time.monotonic() - started
    assert elapsed < 3, f"the JavaScript error took {elapsed:.1f} s to fail the wait"
    assert "planted" in str(failed.value)
    assert len(js.errors) == 1 and "planted" in js.errors[0]
    js.errors.clear()  # the planted error was the point of this test: it must not fail it
    # The widget is unharmed.
    g.cell("sheet", 0, 0).click()
    g.wait_counter(1)


# --------------------------------------------------------------------------- dark theme


def _luminance(colour: str) -> float:
    numbers = [float(v) for v in re.findall(r"[\d.]+", colour)[:3]]
    assert len(numbers) == 3, f"not an rgb colour: {colour!r}"
    linear = [v / 255 / 12.92 if v / 255 <= 0.04045 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in numbers]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


STYLES = """(root) => {
  const css = (node, prop) => getComputedStyle(node).getPropertyValue(prop);
  const q = (selector) => root.querySelector(selector);
  return {
    background: css(root, 'background-color'),
    label: css(q('.cl-board[data-board="sheet"] .cl-label'), 'fill'),
    cell: css(q('.cl-board[data-board="sheet"] [data-kind="cell"] rect'), 'fill'),
    frame: css(q('.cl-board[data-board="sheet"] .cl-frame'), 'stroke'),
    mode: css(q('button.cl-mode'), 'color'),
    modeBackground: css(q('button.cl-mode'), 'background-color'),
  };
}"""


def test_dark_theme_board_is_readable(
    notebook_dir: Path, lab_server: Any, page: Page, js_errors: Any, tmp_path: Path, artifacts_dir: Path
) -> None:
    # JupyterLab reads overrides.json from its application settings directory (not the user settings
    # one the harness sets), so this server gets a directory of its own holding the dark default.
    app_settings = tmp_path / "app-settings"
    app_settings.mkdir()
    (app_settings / "overrides.json").write_text(
        json.dumps({"@jupyterlab/apputils-extension:themes": {"theme": "JupyterLab Dark"}})
    )
    server = lab_server(notebook_dir, f"--LabApp.app_settings_dir={app_settings}")
    shutil.copy(notebook_dir / "grid.ipynb", notebook_dir / "dark.ipynb")
    g = open_in_lab(page, js_errors, server, "dark.ipynb")
    assert page.locator("body").get_attribute("data-jp-theme-name") == "JupyterLab Dark"
    assert page.locator("body").get_attribute("data-jp-theme-light") == "false"
    g.cell("sheet", 1, 1).click()
    g.wait_counter(1)
    g.wait_state(lambda s: s["sheet"]["cells"] == {(1, 1): (SKY, "x")}, "a click in the dark theme")
    g.shot(artifacts_dir, "grid_dark_theme")

    styles = g.root.evaluate(STYLES)
    assert _luminance(styles["background"]) < 0.1, f"the widget background is not dark: {styles}"
    assert _luminance(styles["cell"]) > 0.8, f"the cells are not light: {styles}"
    assert _contrast(styles["label"], styles["background"]) >= 4.5, f"the board label is hard to read: {styles}"
    assert _contrast(styles["frame"], styles["cell"]) >= 3, f"the frame does not stand out on the cells: {styles}"
    assert _contrast(styles["mode"], styles["modeBackground"]) >= 4.5, f"the mode button is hard to read: {styles}"
    counter_colour = g.counter_label.evaluate("(n) => getComputedStyle(n).color")
    assert _contrast(counter_colour, styles["background"]) >= 4.5

    # A refusal notice reads well on the dark background too.
    g.cell("card", 0, 0).click()
    text = g.root.locator(".cl-notice[data-tone='error'] .cl-notice-text")
    g.js.wait_for(text, timeout=ANSWER_TIMEOUT_MS)
    colours = text.evaluate(
        "(n) => [getComputedStyle(n).color, getComputedStyle(n.closest('.cl-notice')).backgroundColor]"
    )
    assert _contrast(*colours) >= 4.5, f"the notice is hard to read: {colours}"
    g.shot(artifacts_dir, "grid_dark_theme_notice")


# --------------------------------------------------------------------------- scale, zoom and the legend of keys

CELL = """(root) =>
  root.querySelector('.cl-board[data-board="sheet"] [data-kind="cell"] rect').getBoundingClientRect().width"""
SCROLLS = "(root) => { const host = root.querySelector('.cl-svg-host'); return host.scrollWidth > host.clientWidth; }"


def test_the_board_keeps_its_scale_and_the_zoom_control_scales_it(
    notebook_dir: Path, voila_server: Any, page: Page, js_errors: Any, artifacts_dir: Path
) -> None:
    g = open_in_voila(page, js_errors, voila_server(notebook_dir / "grid.ipynb"))
    assert g.root.evaluate(CELL) == pytest.approx(UNIT, abs=0.5), "a scene at zoom 1 draws 40 pixels a cell"
    # A narrower page (a wider side panel, say) leaves the squares as they were: the board scrolls instead.
    page.set_viewport_size({"width": 420, "height": 720})
    g.js.wait_until(lambda: g.root.evaluate("(r) => r.querySelector('.cl-svg-host').clientWidth < 400"), "narrow")
    assert g.root.evaluate(CELL) == pytest.approx(UNIT, abs=0.5)
    assert g.root.evaluate(SCROLLS)
    page.set_viewport_size({"width": 1280, "height": 720})

    g.root.locator("button.cl-zoom-in").click()
    assert g.root.get_attribute("data-zoom") == "1.25"
    assert g.root.locator(".cl-zoom-value").inner_text() == "125%"
    assert g.root.evaluate(CELL) == pytest.approx(1.25 * UNIT, abs=0.5)
    # The zoom outlives a new picture from Python, and the keys + and - change it too.
    g.cell("sheet", 0, 0).click()
    g.wait_counter(1)
    g.wait_state(lambda s: (0, 0) in s["sheet"]["cells"], "the click came back")
    assert g.root.evaluate(CELL) == pytest.approx(1.25 * UNIT, abs=0.5)
    g.stage.focus()
    for _ in range(2):
        g.page.keyboard.press("-")
    assert g.root.get_attribute("data-zoom") == "0.8"
    assert g.root.evaluate(CELL) == pytest.approx(0.8 * UNIT, abs=0.5)
    # Hit targets are at least 24 pixels across at the scale a game draws at.
    g.stage.press("+")
    assert g.root.get_attribute("data-zoom") == "1"
    hit = g.point("sheet", 1, 1).bounding_box()
    assert hit and hit["width"] >= 24, hit

    g.root.locator(".cl-keys > summary").click()
    legend = g.root.locator(".cl-keys-list")
    assert legend.is_visible()
    keys = legend.locator("dt").all_inner_texts()
    # This picture has three kinds of place, two boards and a tray of pieces: every key acts here.
    assert keys[:2] == ["Arrows", "Enter"] and {"M", "[ ]", "R", "Mode"} <= set(keys)
    assert "arrows move over" in legend.locator("dd").last.inner_text()
    g.shot(artifacts_dir, "grid_keys_legend")


# --------------------------------------------------------------------------- hover previews against the engine

# A Click & Crack position found in seeded play: penguin 1's walk south pushes penguin 0 along.
PUSH_GAME = """\
from cliplab.games.click_crack.rules import position

game = position(
    2,
    penguins=[(4, 0), (3, 0), (4, 4), (3, 5)],
    cracks=[((0, 0), (1, 0)), ((1, 0), (1, 1)), ((1, 4), (2, 4)), ((3, 0), (4, 0)), ((3, 2), (4, 2)),
            ((3, 3), (4, 3)), ((4, 0), (4, 1)), ((4, 2), (4, 3))],
    gone=[(4, 0)], scores=[1, 0], phase="perform", round=9,
    tiles=[(("break", "W"), ("walk", "S")), (("break", "E"), ("break", "W"))],
    used=[[False, False], [False, False]], acting=0,
)
tile = ("walk", "S")
"""
PREVIEW_SETUP = (
    PUSH_GAME
    + """
from cliplab.games.click_crack.board import describe
from cliplab.games.click_crack.picture import CLICKABLE, click_marks, click_previews
from cliplab.ui.widget import Grid

clickable = CLICKABLE["perform"]
grid = Grid(describe(game, click_marks(game, 0, tile), clickable, click_previews(game.view(0), 0, tile, clickable)))
"""
)

# The marks of the preview on screen, as (kind, at, to, style) with places in board units.
SHOWN_PREVIEW = """(root) => {
  const on = [...root.querySelectorAll('.cl-preview')].filter((g) => getComputedStyle(g).display !== 'none');
  const num = (n, a) => Math.round(Number(n.getAttribute(a)) / 40 * 2) / 2;
  const marks = on.flatMap((g) => [...g.children]).filter((m) => m.tagName !== 'path').map((m) => {
    const style = [...m.classList].find((c) => c.startsWith('cl-mark-')).slice(8);
    if (m.tagName === 'circle') return ['point', [num(m, 'cy'), num(m, 'cx')], null, style];
    if (m.tagName === 'line') return ['segment', [num(m, 'y1'), num(m, 'x1')], [num(m, 'y2'), num(m, 'x2')], style];
    return ['cell', [Math.floor(num(m, 'y')), Math.floor(num(m, 'x'))], null, style];
  });
  return {count: on.length, marks, note: root.querySelector('.cl-preview-note').textContent};
}"""


def _engine_marks(game: Any, seat: int, kind: str, at: tuple[int, int], to: Any, tile: Any) -> set[tuple[Any, ...]]:
    """What the engine does with a click on the floe, as the marks a preview should show."""
    from cliplab.games.click_crack.picture import click_action
    from cliplab.grid import segment_points
    from cliplab.ui import Intent

    after = game.clone()
    after.apply(click_action(game, seat, Intent("floe", kind, at, to), tile), seat)
    marks: set[tuple[Any, ...]] = set()
    for was, now in zip(game.pos, after.pos, strict=True):
        if was is not None and now != was:
            marks.add(("point", now, None, "preview") if now is not None else ("point", was, None, "lost"))
    marks |= {("segment", *segment_points(crack), "preview") for crack in after.cracks - game.cracks}
    return marks | {("cell", at, None, "lost") for at in game.main - after.main}


def test_a_hovered_preview_shows_what_the_engine_does_with_that_click(
    tmp_path: Path, voila_server: Any, page: Page, js_errors: Any, artifacts_dir: Path
) -> None:
    path = _write_notebook(tmp_path / "preview.ipynb", PREVIEW_SETUP, "display(grid)")
    page.goto(voila_server(path).url, wait_until="commit", timeout=KERNEL_TIMEOUT_MS)
    root = page.locator("div.cl-grid")
    js_errors.wait_for(root.locator("svg .cl-board[data-board='floe']"), timeout=KERNEL_TIMEOUT_MS)
    floe = root.locator("svg .cl-board[data-board='floe']")
    assert root.evaluate(SHOWN_PREVIEW)["count"] == 0, "no preview shows before a place is hovered"
    places = [g.get_attribute("data-for") or "" for g in floe.locator(":scope > .cl-preview").all()]
    assert places, "the walk tile gives previews"
    scope: dict[str, Any] = {}
    exec(PUSH_GAME, scope)  # the same position, here in the test's Python
    for place in places:
        kind, r, c, r2, c2 = place.split("|")
        at, to = (int(r), int(c)), ((int(r2), int(c2)) if r2 else None)
        extra = f"[data-r2='{r2}'][data-c2='{c2}']" if to else ""
        floe.locator(f".cl-hit[data-kind='{kind}'][data-r='{r}'][data-c='{c}']{extra}").hover(force=True)
        shown = root.evaluate(SHOWN_PREVIEW)
        assert shown["count"] == 1, place
        on_screen = {(k, tuple(a), tuple(b) if b else None, s) for k, a, b, s in shown["marks"]}
        assert on_screen == _engine_marks(scope["game"], 0, kind, at, to, scope["tile"]), place
        assert shown["note"].startswith("Walk S"), shown["note"]
        if (kind, at) == ("point", (3, 0)):
            assert shown["note"].endswith("penguin 0 to point 4,1; penguin 1 to point 4,0")
            root.screenshot(path=str(artifacts_dir / "grid_preview_push.png"))
    page.mouse.move(1, 1)
    assert root.evaluate(SHOWN_PREVIEW) == {"count": 0, "marks": [], "note": ""}


# --------------------------------------------------------------------------- patched redraws against whole ones

# After every intent a new Grid draws the same scene whole (its first picture) beside the patched one. A second
# view of the patched widget opens after the sixth, two patches after the picture last went whole: it draws
# `svg` and every node `patch` names.
PATCH_SETUP = (
    SETUP
    + """
whole = widgets.Box()
whole.add_class("whole")
again = widgets.Box()
again.add_class("again")
sent = widgets.Label("sent whole 1")
sends = 1
twins = 0


def count_sends(_change):
    global sends
    sends += 1
    sent.value = f"sent whole {sends}"


def draw_whole(_intent):
    global twins
    twins += 1
    for old in whole.children:
        old.close()
    whole.children = (Grid(grid.scene).widget,)
    if twins == 6:
        again.children = (grid.widget,)


grid.widget.observe(count_sends, "svg")
grid.on("any", draw_whole)
"""
)

# The picture as Python drew it: without what the page adds (overlays and click targets, hit state, sizes) and
# with ids of one widget.
DRAWN = """(root) => {
  const copy = root.querySelector('svg').cloneNode(true);
  copy.querySelectorAll('.cl-own').forEach((n) => n.remove());
  for (const n of [copy, ...copy.querySelectorAll('*')]) {
    n.classList.remove('cl-focused', 'cl-hover', 'cl-preview-on', 'cl-preview-focus', 'cl-held');
    if (n.getAttribute('class') === '') n.removeAttribute('class');
    if (n.classList.contains('cl-piece')) n.removeAttribute('id');
  }
  return copy.outerHTML.replace(/clg\\d+-/g, 'clg-');
}"""


def test_patched_redraws_draw_what_a_whole_redraw_draws(
    tmp_path: Path, voila_server: Any, page: Page, js_errors: Any, artifacts_dir: Path
) -> None:
    path = _write_notebook(tmp_path / "patched.ipynb", PATCH_SETUP, "display(grid, counter, sent, whole, again)")
    told: list[str | bytes] = []  # what the page sends the kernel
    page.on("websocket", lambda socket: socket.on("framesent", lambda frame: told.append(frame)))
    page.goto(voila_server(path).url, wait_until="commit", timeout=KERNEL_TIMEOUT_MS)
    root = page.locator("div.cl-grid").first
    _wait_for_widget(root, js_errors)
    g = GridPage("voila", page, root, page.locator(".widget-label", has_text="Intents handled"), js_errors)
    # Each click, and whether its picture is sent whole: a cut line or a token changes more of the sheet than
    # its cells, so the sheet (most of the picture) would be named whole.
    clicks = [
        (g.cell("sheet", 2, 3), False),
        (g.cell("card", 2, 2), False),
        (g.segment("sheet", 1, 4, 1, 5), True),
        (g.point("sheet", 5, 6), True),
        (g.cell("sheet", 2, 3), False),  # back to blank paper
        (g.cell("sheet", 6, 8), False),
        (g.cell("card", 0, 1), False),
    ]
    twin = page.locator(".whole div.cl-grid")
    second = page.locator(".again div.cl-grid")
    sends = 1
    for done, (target, whole) in enumerate(clicks, start=1):
        root.evaluate("(root) => { root.querySelector('svg').keptAcrossRedraws = true; }")
        target.click()
        g.wait_counter(done)
        # The old twin (the scene before) goes before the new one comes, and the two scenes differ.
        js_errors.wait_until(
            lambda done=done: (
                root.get_attribute("data-revision") == str(done + 1)
                and twin.count() == 1
                and root.evaluate(DRAWN) == twin.evaluate(DRAWN)
            ),
            f"after intent {done} the patched picture is the one drawn whole",
            timeout=ANSWER_TIMEOUT_MS,
        )
        sends += whole
        assert page.locator(".widget-label", has_text="sent whole").inner_text() == f"sent whole {sends}", done
        if not whole:
            assert root.evaluate("(root) => root.querySelector('svg').keptAcrossRedraws === true"), done
        if done >= 6:  # the second view, opened after the sixth and patched by the seventh, draws the same
            js_errors.wait_until(
                lambda: second.count() == 1 and second.evaluate(DRAWN) == root.evaluate(DRAWN),
                f"after intent {done} the second view draws the same picture",
                timeout=ANSWER_TIMEOUT_MS,
            )
        else:
            assert second.count() == 0
    assert g.state()["sheet"] == {"cells": {(6, 8): (SKY, "x")}, "cuts": [(160, 40, 200, 40)], "tokens": [(5, 6)]}
    assert g.state()["card"]["cells"] == {(2, 2): (SKY, "x"), (0, 1): (SKY, "x")}
    g.shot(artifacts_dir, "grid_patched_redraws")
    frames = [frame if isinstance(frame, bytes) else frame.encode() for frame in told]
    assert sum(b'"intent"' in frame for frame in frames) == len(clicks)
    assert not [frame for frame in frames if b'"patch"' in frame], "the page sent a picture to the kernel"


# A 3x3 card that `scene()` draws and each click changes (`change(intent.at)`): after every click a twin of it
# drawn whole follows, and `sent` counts the pictures the grid sent whole.
TWIN_CARD = """\
import ipywidgets as widgets

from cliplab.ui import Board, Cell, Scene
from cliplab.ui.widget import Grid

sent = widgets.Label("sent whole 1")
whole = widgets.Box()
whole.add_class("whole")


def card(*cells):
    return Scene(boards=(Board("card", "Card", 3, 3, cells=cells, clickable=("cell",)),))


def clicked(intent):
    change(intent.at)
    grid.show(scene())
    for old in whole.children:
        old.close()
    whole.children = (Grid(scene()).widget,)


def count_sends(_change):
    sent.value = f"sent whole {int(sent.value.split()[-1]) + 1}"


def start():
    global grid
    grid = Grid(scene())
    grid.on("cell", clicked)
    grid.widget.observe(count_sends, "svg")
"""


def _open_twin_card(
    tmp_path: Path, voila_server: Any, page: Page, js_errors: Any, setup: str
) -> tuple[Locator, Locator]:
    """The grid and its twin on a page of TWIN_CARD completed by `setup`."""
    path = _write_notebook(tmp_path / "card.ipynb", TWIN_CARD + setup + "\nstart()", "display(grid, sent, whole)")
    page.goto(voila_server(path).url, wait_until="commit", timeout=KERNEL_TIMEOUT_MS)
    root = page.locator("div.cl-grid").first
    _wait_for_widget(root, js_errors)
    return root, page.locator(".whole div.cl-grid")


def _click_until_twin_drawn(
    root: Locator, twin: Locator, target: Locator, done: int, js_errors: Any, mark: str = ""
) -> None:
    """Clicks `target` (the `done`th click) and waits for the grid to draw what its twin drew whole (but `mark`)."""
    target.click()
    js_errors.wait_until(
        lambda: (
            root.get_attribute("data-revision") == str(done + 1)
            and twin.count() == 1
            and root.evaluate(DRAWN).replace(mark, "") == twin.evaluate(DRAWN)
        ),
        f"after click {done} the patched picture is the one drawn whole",
        timeout=ANSWER_TIMEOUT_MS,
    )


# Cells turn orange one by one: the patch, sent again with every redraw, soon reaches half the picture, which
# then goes whole, saying which picture it grew from (svg_from).
GROWN_SETUP = """
fills = {}


def scene():
    return card(*(Cell((r, c), fill=fills.get((r, c), "paper")) for r in range(3) for c in range(3)))


def change(at):
    fills[at] = "orange"
"""


def test_a_picture_sent_whole_from_the_one_on_screen_is_patched_not_redrawn(
    tmp_path: Path, voila_server: Any, page: Page, js_errors: Any
) -> None:
    root, twin = _open_twin_card(tmp_path, voila_server, page, js_errors, GROWN_SETUP)
    # Drawing a picture whole makes every node as Python drew it: this mark on a cell no click changes goes.
    untouched = root.locator("g[data-kind=cell][data-r='2'][data-c='2']")
    untouched.evaluate("(cell) => cell.setAttribute('data-untouched', '')")
    for done, (r, c) in enumerate([(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)], start=1):
        target = root.locator(f"g[data-kind=cell][data-r='{r}'][data-c='{c}']")
        _click_until_twin_drawn(root, twin, target, done, js_errors, mark=' data-untouched=""')
    assert page.locator(".widget-label", has_text="sent whole").inner_text() == "sent whole 2"
    assert untouched.get_attribute("data-untouched") == ""


# The end of a TWIN_CARD setup whose scene follows how many clicks there have been.
COUNTED_CLICKS = """
clicks = 0


def change(_at):
    global clicks
    clicks += 1
"""


# One cell clicked again and again, each time looking different (a glyph, a badge and text come and go): the
# page matches it to Python's description of it, keeping the cell's element.
CYCLE_SETUP = (
    """
LOOKS = [
    Cell((1, 1), "orange"),
    Cell((1, 1), "sky", text="2", badge="tree"),
    Cell((1, 1), "sky", text="3 & <4>", badge="tree", emphasis=True),
    Cell((1, 1), "orange", stamp="star"),
    Cell((1, 1)),
]


def scene():
    return card(LOOKS[(clicks - 1) % len(LOOKS)]) if clicks else card()
"""
    + COUNTED_CLICKS
)


def test_a_cell_changed_again_and_again_is_matched_to_what_python_describes(
    tmp_path: Path, voila_server: Any, page: Page, js_errors: Any
) -> None:
    root, twin = _open_twin_card(tmp_path, voila_server, page, js_errors, CYCLE_SETUP)
    cell = root.locator("g[data-kind=cell][data-r='1'][data-c='1']")
    cell.evaluate("(cell) => { cell.keptAcrossRedraws = true; }")
    for done in range(1, 12):
        _click_until_twin_drawn(root, twin, cell, done, js_errors)
        assert cell.evaluate("(cell) => cell.keptAcrossRedraws === true"), f"click {done} built the cell anew"
        if done % 5 == 3:
            assert cell.locator("text.cl-text").text_content() == "3 & <4>", done
    assert page.locator(".widget-label", has_text="sent whole").inner_text() == "sent whole 1"


# A line beside the card's middle cell changes style with every click: drawn as a walkway ("link") it has
# a stroke and a stroke width of its own, which the next style's line has not.
EDGE_SETUP = (
    """
from cliplab.ui import Edge

STYLES = ["link", "cut", "highlight", "link", "wall"]


def scene():
    edge = Edge((1, 2), (2, 2), STYLES[clicks % len(STYLES)])
    cells = tuple(Cell((r, c)) for r in range(3) for c in range(3))
    return Scene(boards=(Board("card", "Card", 3, 3, cells=cells, edges=(edge,), clickable=("cell",)),))
"""
    + COUNTED_CLICKS
)


def test_an_attribute_a_redraw_no_longer_draws_leaves_the_page(
    tmp_path: Path, voila_server: Any, page: Page, js_errors: Any
) -> None:
    root, twin = _open_twin_card(tmp_path, voila_server, page, js_errors, EDGE_SETUP)
    cell = root.locator("g[data-kind=cell][data-r='1'][data-c='1']")
    edge = root.locator("line.cl-edge:not(.cl-edge-highlight-under)")
    assert edge.get_attribute("stroke-width") == "8"
    root.evaluate("(root) => { root.querySelector('svg').keptAcrossRedraws = true; }")
    for done in range(1, 5):
        _click_until_twin_drawn(root, twin, cell, done, js_errors)
        assert (edge.get_attribute("stroke-width") == "8") == (done == 3), done
        # Patched into the picture on the page (an edge's change sends the picture whole), not swapped for it.
        assert root.evaluate("(root) => root.querySelector('svg').keptAcrossRedraws === true"), done


# A card whose handler answers slowly: a press held on a cell outlasts the answer to the click before it.
HELD_SETUP = """\
import time

import ipywidgets as widgets

from cliplab.ui import Board, Cell, Scene
from cliplab.ui.widget import Grid

fills = {}
counter = widgets.Label("Intents handled: 0")


def scene():
    cells = tuple(Cell((r, c), fill=fills.get((r, c), "paper")) for r in range(3) for c in range(3))
    return Scene(boards=(Board("card", "Card", 3, 3, cells=cells, clickable=("cell",)),))


def clicked(intent):
    time.sleep(0.4)
    fills[intent.at] = "paper" if fills.get(intent.at) == "orange" else "orange"
    grid.show(scene())
    counter.value = f"Intents handled: {int(counter.value.split()[-1]) + 1}"


grid = Grid(scene())
grid.on("cell", clicked)
"""


def test_a_cell_redrawn_while_a_button_is_held_on_it_still_takes_the_click(
    tmp_path: Path, voila_server: Any, page: Page, js_errors: Any
) -> None:
    # A redraw changes the pressed cell in place. Swapped for a new element, it would lose the click: the browser
    # sends none when the element pressed is gone by the release.
    path = _write_notebook(tmp_path / "held.ipynb", HELD_SETUP, "display(grid, counter)")
    page.goto(voila_server(path).url, wait_until="commit", timeout=KERNEL_TIMEOUT_MS)
    root = page.locator("div.cl-grid")
    _wait_for_widget(root, js_errors)
    held = root.locator("g[data-kind=cell][data-r='1'][data-c='1']")
    other = root.locator("g[data-kind=cell][data-r='0'][data-c='0']")
    counter = page.locator(".widget-label", has_text="Intents handled")
    page.mouse.click(*_centre(other))
    js_errors.wait_until(
        lambda: counter.inner_text() == "Intents handled: 1", "the first click is answered", timeout=ANSWER_TIMEOUT_MS
    )
    page.mouse.click(*_centre(held))  # answered 0.4 s later, while the next press is held
    page.mouse.down()
    js_errors.wait_until(
        lambda: held.locator("rect").get_attribute("fill") == ORANGE,
        "the held cell turns orange",
        timeout=ANSWER_TIMEOUT_MS,
    )
    page.mouse.up()
    js_errors.wait_until(
        lambda: counter.inner_text() == "Intents handled: 3",
        "the released click is answered",
        timeout=ANSWER_TIMEOUT_MS,
    )
    js_errors.wait_until(
        lambda: held.locator("rect").get_attribute("fill") == PAPER,
        "the held cell is paper again",
        timeout=ANSWER_TIMEOUT_MS,
    )
    assert other.locator("rect").get_attribute("fill") == ORANGE


# Kept on the widget's root when a redraw lands: how long after the click, the clicked cell's fill, and where the
# focus is drawn by then.
WATCH_REDRAW = """(root, cellId) => {
  const stage = root.querySelector('.cl-stage');
  const before = root.dataset.revision;
  let clickedAt = null;
  root.addEventListener('click', () => { clickedAt = performance.now(); }, { capture: true, once: true });
  const observer = new MutationObserver(() => {
    if (root.dataset.revision === before) return;
    observer.disconnect();
    root.atRedraw = {
      waitMs: performance.now() - clickedAt,
      fill: document.getElementById(cellId).querySelector('rect').getAttribute('fill'),
      active: stage.getAttribute('aria-activedescendant'),
    };
  });
  observer.observe(root, { attributes: true, attributeFilter: ['data-revision'] });
}"""


def test_a_clicks_focus_is_drawn_after_the_redraw_it_brings_and_the_keys_go_on_from_there(
    tmp_path: Path, voila_server: Any, page: Page, js_errors: Any
) -> None:
    path = _write_notebook(tmp_path / "focus.ipynb", SETUP, SHOW)
    g = open_in_voila(page, js_errors, voila_server(path))
    cell = g.cell("sheet", 4, 5)
    clicked = cell.get_attribute("id") or ""
    g.root.evaluate(WATCH_REDRAW, clicked)
    cell.click()
    g.wait_counter(1)
    js_errors.wait_until(lambda: _active(g) == clicked, "the click's focus is drawn", timeout=ANSWER_TIMEOUT_MS)
    assert _focused_ids(g) == [clicked]
    at_redraw = g.root.evaluate("(root) => root.atRedraw")
    assert at_redraw["fill"] == SKY, at_redraw
    # Unless the answer took so long that the focus was drawn without it, the board came first.
    assert at_redraw["active"] != clicked or at_redraw["waitMs"] >= 50, at_redraw
    # The keys go on from the clicked cell.
    g.stage.focus()
    g.page.keyboard.press("ArrowRight")
    assert _active(g) == clicked.replace("-c4-5", "-c4-6")
    # A refused click's focus is drawn with the notice that answers it.
    refused = g.cell("card", 0, 0)
    refused.click()
    js_errors.wait_for(g.root.locator(".cl-notice[data-tone='error']"), timeout=ANSWER_TIMEOUT_MS)
    assert _active(g) == refused.get_attribute("id")
    assert _focused_ids(g) == [refused.get_attribute("id")]
