"""The Swap Clops dashboard in Voila, played by clicks: a whole seeded 2-player game (a person against the
greedy bot) to its end, the legal partners lit after each first click, a hovered partner previewing what
its swap collects, the refilled spaces flashing, the scores on screen checked against the engine's outcome."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conftest import TableDriver
from playwright.sync_api import Locator, Page

from cliplab.games.swap_clops.bots import GreedyBot
from cliplab.games.swap_clops.rules import Swap, SwapClops, place_of, space_of

pytestmark = pytest.mark.browser

REPO_ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO_ROOT / "notebooks" / "dashboards" / "swap_clops.ipynb"
SEATS = ["person", "heuristic"]
SEED = 2

SNAPSHOT = """(app) => {
  const text = (sel) => (app.querySelector(sel)?.innerText ?? '').trim();
  const num = (el, a) => Number(el.getAttribute(a));
  const buttons = [...app.querySelectorAll('button')]
    .map((b) => [...b.classList].find((c) => /^(sc|tb)-/.test(c)))
    .filter((c) => c && c !== 'tb-load');
  const board = app.querySelector('.cl-board[data-board="clops"]');
  const places = (sel) => [...(board?.querySelectorAll(sel) ?? [])]
    .map((m) => [Math.floor(num(m, 'y') / 40), Math.floor(num(m, 'x') / 40)]);
  const lit = places('rect.cl-mark-target');
  const fresh = places('rect.cl-mark-fresh');
  const previewed = places('.cl-preview-on rect.cl-mark-preview');
  const scores = [...app.querySelectorAll('.tb-score')].map((s) => [num(s, 'data-seat'), s.innerText.trim()]);
  return {status: text('.tb-status'), message: text('.tb-message'), result: text('.tb-result'),
          log: text('.tb-log summary'), buttons, lit, fresh, previewed, scores};
}"""


class Dashboard(TableDriver):
    """The Swap Clops dashboard, driven by the person's clicks (the bot plays on by itself)."""

    def __init__(self, page: Page, js: Any, artifacts: Path) -> None:
        super().__init__(page, js, artifacts, "swap_clops", "sc", SNAPSHOT)

    def space(self, space: int) -> Locator:
        return self.cell("clops", *place_of(space))

    def game(self) -> SwapClops:
        game = self.saved_game()
        assert isinstance(game, SwapClops)
        return game


@pytest.fixture(scope="session")
def dashboard_url(voila_server: Any) -> str:
    return voila_server(NOTEBOOK).url


def test_a_seeded_game_played_by_clicks_ends_as_the_engine_says(
    page: Page, js_errors: Any, artifacts_dir: Path, dashboard_url: str
) -> None:
    dash = Dashboard(page, js_errors, artifacts_dir)
    dash.open(dashboard_url)
    snap = dash.start(SEATS, SEED)
    toolbar = dash.app.locator(".cl-grid .cl-toolbar")
    hint = toolbar.locator(".cl-hint").text_content() or ""
    assert "Arrows move" in hint and "rotate" not in hint and "mode" not in hint, f"only keys that act: {hint!r}"
    assert not toolbar.locator("button.cl-mode").is_visible(), "one board of clops: no mode to switch"
    person_swaps: list[str] = []
    previews_seen = refills_seen = 0
    for _ in range(400):
        if snap["result"]:
            break
        assert "tb-bot-step" not in snap["buttons"], "the bot plays on by itself"
        if "sc-pass" in snap["buttons"]:
            person_swaps.append("pass")
            snap = dash.click(dash.app.locator("button.sc-pass"))
            continue
        game = dash.game()
        assert game.to_move() == (0,), f"the page waits for a person but the engine has {game.to_move()} to move"
        swap = GreedyBot(len(person_swaps)).choose(game.view(0), 0)
        assert isinstance(swap, Swap)
        first, second = space_of(swap.row_a, swap.col_a), space_of(swap.row_b, swap.col_b)
        snap = dash.click(dash.space(first))
        partners = {place_of(space) for space in (first, second)}
        lit = {tuple(at) for at in snap["lit"]}
        same_shape = sum(
            1
            for other in game.swaps()
            if first in (space_of(other.row_a, other.col_a), space_of(other.row_b, other.col_b))
        )
        assert partners <= lit and len(lit) == same_shape + 1, "the picked clop and all its partners are lit"
        dash.space(second).hover()
        previewed = {tuple(at) for at in dash.snapshot()["previewed"]}
        assert previewed == {place_of(space) for space in game.outcome_of(swap)}, "the hover shows what it collects"
        if previewed:
            preview = dash.app.locator(".cl-preview-on rect.cl-mark-preview").first
            assert preview.is_visible(), "the preview of the hovered swap is on the screen"
            if not previews_seen:
                dash.page.screenshot(path=str(artifacts_dir / "swap_clops-preview.png"))
            previews_seen += 1
        person_swaps.append(str(swap))
        snap = dash.click(dash.space(second))
        refilled = {place_of(space) for space in dash.game().last_refilled}
        assert {tuple(at) for at in snap["fresh"]} == refilled, "the refilled spaces flash after the swap"
        refills_seen += bool(refilled)
    else:
        dash.fail("the game did not end within 400 steps")

    game = dash.game()
    outcome = game.outcome()
    assert outcome is not None
    assert [int(points) for _, points in sorted(snap["scores"])] == list(outcome.scores)
    assert [int(s) for s in re.findall(r"Player (\d+)", snap["result"])] == list(outcome.winners)
    assert [str(action) for seat, action in game.log if seat == 0] == person_swaps
    assert previews_seen and refills_seen, "the game showed at least one collecting preview and one refill"
    dash.page.screenshot(path=str(artifacts_dir / "swap_clops-end.png"), full_page=True)
