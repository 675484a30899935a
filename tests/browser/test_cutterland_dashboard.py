"""The Cutterland dashboard in Voila, played by clicks: a whole seeded 3-player game (a person in seat 0,
heuristic bots in seats 1 and 2) to its end. The person's choices are the heuristic bot's, made on the
page: cuts by clicking the lines between a card's cells and the cut button, picks by clicking a piece,
joins by turning the piece and clicking a lit cell (its ghost shown on hover), towers and bridges by cell
clicks, walls by clicking a line, dragons' prey by a click. The scores on screen, line by line and in
the players' table, are checked against the engine's outcome."""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page

from cliplab.engine import Action, from_json
from cliplab.games.cutterland.board import PIECE_FILLS, cut_edges, window
from cliplab.games.cutterland.bots import HeuristicBot
from cliplab.games.cutterland.rules import (
    Bridge,
    Cut,
    Cutterland,
    Feed,
    Join,
    Keep,
    Take,
    Tower,
    Wall,
    cut_problem,
    piece_cells,
    pieces_cut_by,
)
from cliplab.grid import edge_between, segment_points
from cliplab.ui.svg import UNIT

pytestmark = pytest.mark.browser

REPO_ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO_ROOT / "notebooks" / "dashboards" / "cutterland.ipynb"
KERNEL_TIMEOUT_MS = 90_000
STEP_TIMEOUT_MS = 30_000
SEATS = ["person", "heuristic", "heuristic"]
SEED = 3

SNAPSHOT = """(app) => {
  const text = (sel) => (app.querySelector(sel)?.innerText ?? '').trim();
  const num = (el, a) => Number(el.getAttribute(a));
  const buttons = [...app.querySelectorAll('button')]
    .map((b) => [...b.classList].find((c) => /^(ct|tb)-/.test(c)))
    .filter((c) => c && c !== 'tb-load');
  const scores = [...app.querySelectorAll('.tb-score')].map((s) => [num(s, 'data-seat'), s.innerText.trim()]);
  const totals = [...app.querySelectorAll('.ct-score')].map((s) => s.querySelector('.ct-total')?.innerText.trim());
  const lines = [...app.querySelectorAll('.ct-score-0 .ct-points')].map((p) => p.innerText.trim());
  const ghosts = [...app.querySelectorAll('.cl-preview-on rect.cl-mark-ghost')].length;
  return {status: text('.tb-status'), message: text('.tb-message'), result: text('.tb-result'),
          log: text('.tb-log summary'), buttons, scores, totals, lines, ghosts,
          revision: app.querySelector('.cl-grid')?.getAttribute('data-revision') ?? ''};
}"""


class Dashboard:
    def __init__(self, page: Page, js: Any, artifacts: Path) -> None:
        self.page, self.js, self.artifacts = page, js, artifacts
        self.app = page.locator(".tb-app")

    def open(self, url: str) -> None:
        self.page.goto(url, wait_until="commit", timeout=KERNEL_TIMEOUT_MS)
        self.js.wait_for(self.page.locator(".tb-start"), timeout=KERNEL_TIMEOUT_MS)

    def snapshot(self) -> dict[str, Any]:
        return self.app.evaluate(SNAPSHOT)

    def fail(self, why: str) -> None:
        shot = self.artifacts / "cutterland-stuck.png"
        self.page.screenshot(path=str(shot), full_page=True)
        snap = self.snapshot()
        pytest.fail(f"{why}\n  status: {snap['status']!r}\n  message: {snap['message']!r}\n  screenshot: {shot}")

    def settled(self, before: str | None) -> dict[str, Any]:
        """The snapshot once it differs from `before`, no stale control is left and two reads agree."""
        seen: list[str] = []
        deadline = self.page.evaluate("Date.now()") + STEP_TIMEOUT_MS
        while True:
            now = json.dumps(self.snapshot(), sort_keys=True)
            stale = self.page.locator("[data-ct-stale]").count()
            if now != before and not stale and seen and seen[-1] == now:
                return json.loads(now)
            seen.append(now)
            self.js.check()
            if self.page.evaluate("Date.now()") > deadline:
                self.fail("the dashboard did not answer")
            self.page.wait_for_timeout(80)

    def click(self, target: Locator) -> dict[str, Any]:
        before = json.dumps(self.snapshot(), sort_keys=True)
        self.app.evaluate(
            """(app) => app.querySelectorAll('button').forEach((b) => {
                 if ([...b.classList].some((c) => /^(ct|tb)-/.test(c) && !['tb-undo', 'tb-load', 'tb-new'].includes(c)))
                   b.setAttribute('data-ct-stale', '1');
               })"""
        )
        target.click()
        return self.settled(before)

    def button(self, css: str) -> Locator:
        return self.app.locator(f"button.{css}")

    def cell(self, board: str, at: tuple[int, int]) -> Locator:
        return self.app.locator(
            f".cl-board[data-board='{board}'] g[data-kind='cell'][data-r='{at[0]}'][data-c='{at[1]}']"
        )

    def segment(self, board: str, a: tuple[int, int], b: tuple[int, int]) -> Locator:
        (r, c), (r2, c2) = segment_points((a, b)) if a < b else segment_points((b, a))
        return self.app.locator(
            f".cl-board[data-board='{board}'] [data-kind='segment'][data-r='{r}'][data-c='{c}']"
            f"[data-r2='{r2}'][data-c2='{c2}']"
        )

    def game(self) -> Cutterland:
        href = self.app.locator("a.tb-save").get_attribute("href") or ""
        text = base64.b64decode(href.split(",", 1)[1]).decode()
        game = from_json(text)
        assert isinstance(game, Cutterland)
        return game

    def start(self, seats: Sequence[str] = SEATS) -> dict[str, Any]:
        self.app.locator(".tb-pace button", has_text="Fast").click()  # bots play on by themselves, quickly
        for seat, kind in enumerate(seats):
            label = kind if kind == "person" else f"{kind} bot"
            self.app.locator(f".tb-seat-{seat} select").select_option(label=label)
        seed_box = self.app.locator(".tb-seed input")
        seed_box.fill(str(SEED))
        seed_box.press("Tab")
        return self.click(self.app.locator("button.tb-start"))

    def make(self, game: Cutterland, action: Action) -> dict[str, Any]:
        """Make the person's `action` on the page, by clicks."""
        board = "kingdom-0"
        shift = window(game, 0)
        if isinstance(action, Cut):
            card = f"card-{action.card}"
            labels = action.labels() or ()
            cuts: set[tuple[tuple[int, int], tuple[int, int]]] = set()
            for edge in cut_edges(labels):
                line = edge_between(edge.a, edge.b)
                target = self.segment(card, *line)
                self.click(target)
                cuts.add(line)
                self.check_cut_on_screen(card, pieces_cut_by(cuts), game.pieces_per_card, target)
            return self.click(self.button(f"ct-cut-{action.card}"))
        if isinstance(action, Take):
            return self.click(self.cell("table", piece_cells(game.cut_labels, action.piece)[0]))
        if isinstance(action, Join):
            for _ in range(action.turns):
                self.click(self.button("ct-turn"))
            target = self.cell(board, shift.board_cell((action.row, action.col)))
            target.hover()
            self.page.wait_for_timeout(50)
            self.ghosts_seen += bool(self.snapshot()["ghosts"])
            return self.click(target)
        if isinstance(action, Tower):
            self._cell_mode(game, "tower")
            return self.click(self.cell(board, shift.board_cell((action.row, action.col))))
        if isinstance(action, Wall):
            a = (action.row, action.col)
            b = (a[0] + 1, a[1]) if action.side == "south" else (a[0], a[1] + 1)
            return self.click(self.segment(board, shift.board_cell(a), shift.board_cell(b)))
        if isinstance(action, Bridge):
            self._cell_mode(game, "bridge")
            a = (action.row, action.col)
            b = (a[0] + 2, a[1]) if action.side == "south" else (a[0], a[1] + 2)
            self.click(self.cell(board, shift.board_cell(a)))
            return self.click(self.cell(board, shift.board_cell(b)))
        if isinstance(action, Keep):
            return self.click(self.button("ct-keep"))
        assert isinstance(action, Feed)
        return self.click(self.cell(board, shift.board_cell((action.prey_row, action.prey_col))))

    def check_cut_on_screen(self, card: str, pieces: tuple[int, ...], wanted: int, clicked: Locator) -> None:
        """The card's cells are filled piece by piece as the engine parts them, and while the cut is not
        legal the engine's reason is shown in a notice beside the line just clicked."""
        fills = self.app.evaluate(
            """(app, card) => [...app.querySelectorAll(`.cl-board[data-board='${card}'] g[data-kind='cell']`)]
                 .map((g) => [+g.dataset.r, +g.dataset.c, g.querySelector('rect').getAttribute('fill')])""",
            card,
        )
        fill_of = {(r, c): fill for r, c, fill in fills}
        by_piece = {piece: {fill_of[divmod(i, 4)] for i, p in enumerate(pieces) if p == piece} for piece in set(pieces)}
        assert all(len(found) == 1 for found in by_piece.values()), by_piece
        if len(by_piece) <= len(PIECE_FILLS):
            assert len({next(iter(found)) for found in by_piece.values()}) == len(by_piece), by_piece
        self.pieces_checked += 1
        problem = cut_problem(pieces, wanted)
        notice = self.app.locator(".cl-notice")
        if problem is None:
            return
        self.js.wait_for(notice, timeout=STEP_TIMEOUT_MS)
        words = self.app.locator(".cl-notice .cl-notice-text")
        assert words.inner_text().strip() == f"Not a legal cut yet: {problem}", words.inner_text()
        line, box = clicked.bounding_box(), notice.bounding_box()
        assert line is not None and box is not None
        # Beside the line: the notice's nearest edge within a cell's width or so of the clicked line.
        gap_x = max(box["x"] - (line["x"] + line["width"]), line["x"] - (box["x"] + box["width"]), 0)
        gap_y = max(box["y"] - (line["y"] + line["height"]), line["y"] - (box["y"] + box["height"]), 0)
        assert gap_x < 60 and gap_y < 60, (line, box)
        self.notes_checked += 1
        if self.notes_checked == 1:
            self.page.screenshot(path=str(self.artifacts / "cutterland-cut-note.png"))

    pieces_checked = 0
    notes_checked = 0

    def _cell_mode(self, game: Cutterland, kind: str) -> None:
        held = game.tokens[0]
        if held["tower"] and held["bridge"]:
            words = "Cells take towers" if kind == "tower" else "Cells take bridges"
            option = self.app.locator(".ct-mode button", has_text=words)
            if "mod-active" not in (option.get_attribute("class") or ""):
                self.click(option)

    ghosts_seen = 0


@pytest.fixture(scope="session")
def dashboard_url(voila_server: Any) -> str:
    return voila_server(NOTEBOOK).url


def test_a_seeded_three_player_game_played_by_clicks_ends_as_the_engine_says(
    page: Page, js_errors: Any, artifacts_dir: Path, dashboard_url: str
) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    dash = Dashboard(page, js_errors, artifacts_dir)
    dash.open(dashboard_url)
    snap = dash.start()
    made: list[str] = []
    kinds: set[str] = set()
    for step in range(600):
        if snap["result"]:
            break
        game = dash.game()
        if game.to_move() != (0,):
            assert not dash.button("tb-bot-step").is_visible(), "the bots play on by themselves, unasked"
            page.wait_for_timeout(100)
            snap = dash.snapshot()
            continue
        action = HeuristicBot(step).choose(game.view(0), 0)
        if game.phase == "take" and "Take" not in kinds:
            dash.page.screenshot(path=str(artifacts_dir / "cutterland-pick.png"))
        snap = dash.make(game, action)
        after = dash.game()
        assert len(after.log) > len(game.log), f"{action}: the clicks made no move ({snap['message']!r})"
        made.append(str(action))
        kinds.add(type(action).__name__)
    else:
        dash.fail("the game did not end within 600 steps")

    game = dash.game()
    outcome = game.outcome()
    assert outcome is not None
    assert [int(points) for _, points in sorted(snap["scores"])] == list(outcome.scores)
    assert [int(total) for total in snap["totals"]] == list(outcome.scores)
    assert [int(points) for points in snap["lines"]] == game.score_lines(0)
    assert [int(s) for s in re.findall(r"Player (\d+)", snap["result"])] == list(outcome.winners)
    assert [str(action) for seat, action in game.log if seat == 0] == made
    assert {"Cut", "Take", "Join"} <= kinds, kinds
    assert dash.ghosts_seen, "hovering a lit cell showed the piece's ghost at least once"
    assert dash.pieces_checked and dash.notes_checked, "cut lines were clicked and a not-yet-legal cut explained"
    dash.page.screenshot(path=str(artifacts_dir / "cutterland-end.png"))


HUNT_ON_SCREEN = """(app) => {
  const board = app.querySelector('.cl-board');
  const marks = (style) => [...board.querySelectorAll(`rect.cl-mark-${style}`)]
    .map((r) => [Math.floor(+r.getAttribute('y') / UNIT), Math.floor(+r.getAttribute('x') / UNIT)]);
  return {board: board.dataset.board, hunter: marks('last'), prey: marks('fresh'), lit: marks('target'),
          status: app.querySelector('.cl-status')?.textContent ?? '',
          words: app.querySelector('.ct-hunt-step')?.innerText.trim() ?? '',
          revision: app.querySelector('.cl-grid')?.getAttribute('data-revision') ?? ''};
}""".replace("UNIT", str(UNIT))


def test_the_hunt_plays_on_the_board_step_by_step_as_the_engine_recorded_it(
    page: Page, js_errors: Any, artifacts_dir: Path, dashboard_url: str
) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    dash = Dashboard(page, js_errors, artifacts_dir)
    dash.open(dashboard_url)
    dash.start(seats=("heuristic",) * 3)  # the bots play the game out by themselves
    js_errors.wait_for(dash.app.locator(".tb-result"), timeout=KERNEL_TIMEOUT_MS)
    assert dash.snapshot()["result"], "the bots played the game to its end"
    game = dash.game()
    steps = game.hunt_steps()
    assert len(steps) >= 2, "seed 3's hunt has several steps"
    js_errors.wait_for(dash.app.locator(".ct-hunt-player"), timeout=STEP_TIMEOUT_MS)

    def hunt_shown(before: str) -> dict[str, Any]:
        deadline = page.evaluate("Date.now()") + STEP_TIMEOUT_MS
        while True:
            shown = dash.app.evaluate(HUNT_ON_SCREEN)
            if shown["revision"] != before and shown["words"].startswith("Step"):
                return shown
            js_errors.check()
            if page.evaluate("Date.now()") > deadline:
                dash.fail("the hunt's next step did not appear")
            page.wait_for_timeout(80)

    # Stepping with Next: each step on the board is the engine's, in order.
    seen = []
    for number, step in enumerate(steps, start=1):
        before = dash.app.evaluate(HUNT_ON_SCREEN)["revision"]
        dash.button("ct-hunt-next").click()
        shown = hunt_shown(before)
        shift = window(game, step.seat)
        assert shown["board"] == f"kingdom-{step.seat}"
        assert [shift.kingdom_cell(tuple(at)) for at in shown["hunter"]] == [step.hunter]
        assert sorted(shift.kingdom_cell(tuple(at)) for at in shown["prey"]) == sorted(step.prey)
        assert sorted(shift.kingdom_cell(tuple(at)) for at in shown["lit"]) == sorted((*step.walled, *step.towered))
        assert shown["status"].startswith(f"Hunt step {number} of {len(steps)}: Player {step.seat}'s {step.kind}")
        assert shown["words"].startswith(f"Step {number} of {len(steps)}: Player {step.seat}: the {step.kind} at")
        seen.append((step.seat, step.kind, step.hunter))
        if number == 1:
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(artifacts_dir / "cutterland-hunt-step.png"))
    assert seen == [(step.seat, step.kind, step.hunter) for step in steps]

    # Back and Next step either way.
    last = dash.app.evaluate(HUNT_ON_SCREEN)
    dash.button("ct-hunt-back").click()
    assert hunt_shown(last["revision"])["words"].startswith(f"Step {len(steps) - 1} of")
    before = dash.app.evaluate(HUNT_ON_SCREEN)["revision"]
    dash.button("ct-hunt-next").click()
    assert hunt_shown(before)["words"] == last["words"]

    # Play: from the last step it starts again at the end of the game (step 0), then the steps come one
    # after another by themselves, at a pace a person can follow, until paused.
    play = dash.app.locator(".ct-hunt-play button").first
    play.click()
    shown = hunt_shown(dash.app.evaluate(HUNT_ON_SCREEN)["revision"])
    assert shown["words"].startswith(f"Step 1 of {len(steps)}")
    first = page.evaluate("Date.now()")
    later = hunt_shown(shown["revision"])
    assert page.evaluate("Date.now()") - first >= 1000, "each step stays on screen long enough to follow"
    assert later["words"].startswith(f"Step 2 of {len(steps)}")
    play.click()  # pause
    page.wait_for_timeout(500)
    paused = dash.app.evaluate(HUNT_ON_SCREEN)
    page.wait_for_timeout(2500)
    assert dash.app.evaluate(HUNT_ON_SCREEN)["words"] == paused["words"], "paused, the hunt stays on its step"
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts_dir / "cutterland-hunt-paused.png"))
