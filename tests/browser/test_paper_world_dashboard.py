"""The Paper World dashboard in Voila, played by clicks: a whole seeded 3-player game, a person (seat 0)
against two heuristic bots, to its end.

The person's choices are the heuristic bot's, made on a mirror of the table kept beside the page (the same
seed and seats give the same deal and the same bots), and carried out by clicks: a pile top then "take
colour" or "take value", a hand card then a lit spot of the landscape, hand cards for discards, buttons for
the scissors, the end of a turn and a pass. At every decision the page's log length must equal the
mirror's; at the end the scores and winners on screen must be the engine's outcome, and the game in the
page's save file must be the mirror's.

A second test saves mid-game after a face-down discard (the person plays alone, so the save is offered while
their hand shows), plays on, loads the save through the Load button and plays the same choices again: the
loaded game opens with the hand on screen (one person: no hand-over) and goes on exactly as the first time.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import TableDriver
from playwright.sync_api import Page

from cliplab.engine import Action, from_json
from cliplab.games.paper_world.board import OFFSET
from cliplab.games.paper_world.bots import PaperWorldBot
from cliplab.games.paper_world.rules import (
    Discard,
    EndTurn,
    PaperWorld,
    Pass,
    PlaceCard,
    Scissors,
    TakeColour,
    TakeValue,
    card,
)
from cliplab.ui.table import HotSeatTable

pytestmark = pytest.mark.browser

REPO_ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO_ROOT / "notebooks" / "dashboards" / "paper_world.ipynb"
SEATS = ["person", "heuristic", "heuristic"]
SEED = 5

SNAPSHOT = """(app) => {
  const text = (sel) => (app.querySelector(sel)?.innerText ?? '').trim();
  const buttons = [...app.querySelectorAll('button')]
    .map((b) => [...b.classList].find((c) => /^(pw|tb)-/.test(c)))
    .filter((c) => c && c !== 'tb-load');
  const hand = [...app.querySelectorAll('.cl-board[data-board="hand"] g[data-kind="cell"]')]
    .map((g) => g.querySelector(':scope > title')?.textContent || '').filter((l) => l.includes(' in hand'))
    .map((l) => l.slice(l.indexOf(': ') + 2, l.indexOf(' in hand')));
  const num = (el, a) => Number(el.getAttribute(a));
  const land = app.querySelector('.cl-board[data-board="land-0"]');
  const lit = [...(land?.querySelectorAll('rect.cl-mark-target') ?? [])]
    .map((m) => [Math.floor(num(m, 'y') / 40), Math.floor(num(m, 'x') / 40)]);
  const tag = app.querySelector('.tb-tag');
  const scores = [...app.querySelectorAll('.tb-score')]
    .map((s) => [Number(s.getAttribute('data-seat')), s.innerText.trim()]);
  return {status: text('.tb-status'), message: text('.tb-message'), result: text('.tb-result'),
          buttons, hand, lit, scores, log: tag?.getAttribute('data-log') ?? '',
          acting: tag?.getAttribute('data-acting') ?? ''};
}"""


class Dashboard(TableDriver):
    """The Paper World dashboard, driven by the person's clicks (the bots play on by themselves)."""

    def __init__(self, page: Page, js: Any, artifacts: Path) -> None:
        super().__init__(page, js, artifacts, "paper_world", "pw", SNAPSHOT)

    def act(self, game: PaperWorld, action: Action) -> dict[str, Any]:
        """Carry out the person's action by clicks on the boards and the step's buttons."""
        if isinstance(action, TakeColour | TakeValue):
            pile = game.taken_by(action)[0]
            self.click(self.cell("centre", 0, pile))
            return self.click(self.button("pw-take-colour" if isinstance(action, TakeColour) else "pw-take-value"))
        if isinstance(action, PlaceCard):
            snap = self.click(self.cell("hand", 0, game.hands[0].index(action.card)))
            if game.turns >= 30 and not (self.artifacts / "paper_world-placing.png").exists():
                self.page.screenshot(path=str(self.artifacts / "paper_world-placing.png"))
            spot = [action.row + OFFSET, action.col + OFFSET]
            assert spot in snap["lit"], f"{action}: the spot is not lit ({snap['lit']})"
            return self.click(self.cell("land-0", *spot))
        if isinstance(action, Discard):
            return self.click(self.cell("hand", 0, game.hands[0].index(action.card)))
        if isinstance(action, Scissors):
            return self.click(self.button(f"pw-scissors-{action.choice}"))
        if isinstance(action, EndTurn):
            return self.click(self.button("pw-end"))
        if isinstance(action, Pass):
            return self.click(self.button("pw-pass"))
        raise AssertionError(f"no clicks for {action}")


@pytest.fixture(scope="session")
def dashboard_url(voila_server: Any) -> str:
    return voila_server(NOTEBOOK).url


def play(
    dash: Dashboard,
    mirror: HotSeatTable,
    person: list[str],
    snap: dict[str, Any],
    stop: Callable[[], bool] = lambda: False,
) -> dict[str, Any]:
    """Play on the page and on the mirror alike, the person choosing as the heuristic bot would, until the
    game ends or `stop()` holds when the person is to decide; `person` collects the person's actions."""
    game = mirror.game
    assert isinstance(game, PaperWorld)
    for _ in range(3000):
        if snap["result"]:
            return snap
        asked = {"tb-ready", "tb-continue", "tb-bot-step"} & set(snap["buttons"])
        assert not asked, f"the person alone at the table is asked to click {asked}"
        mirror.run_bots()
        assert game.to_move() == (0,), f"the page waits for the person but the engine has {game.to_move()}"
        assert snap["log"] == str(len(game.log)), "the page and the mirror have played the same decisions"
        assert snap["hand"] == [str(card(c)) for c in game.hands[0]], "the person's hand is on screen"
        if stop():
            return snap
        action = PaperWorldBot(len(person)).choose(game.view(0), 0)
        snap = dash.act(game, action)
        assert not snap["message"].startswith("player 0"), f"{action} was refused: {snap['message']}"
        mirror.act(action, 0)
        person.append(str(action))
    dash.fail("the game did not end within 3000 steps")


def test_a_seeded_paper_world_game_played_by_clicks_ends_as_the_engine_says(
    page: Page, js_errors: Any, artifacts_dir: Path, dashboard_url: str
) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    dash = Dashboard(page, js_errors, artifacts_dir)
    dash.open(dashboard_url)
    snap = dash.start(SEATS, SEED)
    mirror = HotSeatTable.new("paper_world", SEATS, seed=SEED)
    game = mirror.game
    assert isinstance(game, PaperWorld)
    person: list[str] = []
    snap = play(dash, mirror, person, snap)
    mirror.run_bots()
    outcome = game.outcome()
    assert outcome is not None
    assert [int(points) for _, points in sorted(snap["scores"])] == list(outcome.scores)
    assert [int(s) for s in re.findall(r"Player (\d+)", snap["result"])] == list(outcome.winners)
    assert from_json(dash.save_text()) == game, "the page's game is the mirror's"
    kinds = {type(action).__name__ for seat, action in game.log if seat == 0}
    assert {"TakeColour", "PlaceCard", "EndTurn"} <= kinds, f"the person took and placed: {kinds}"
    dash.page.screenshot(path=str(artifacts_dir / "paper_world-end.png"), full_page=True)


def test_a_save_after_a_face_down_discard_loads_and_goes_on_the_same(
    page: Page, js_errors: Any, artifacts_dir: Path, dashboard_url: str, tmp_path: Path
) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    dash = Dashboard(page, js_errors, artifacts_dir)
    dash.open(dashboard_url)
    snap = dash.start(SEATS, SEED)
    mirror = HotSeatTable.new("paper_world", SEATS, seed=SEED)
    person: list[str] = []

    def discarded() -> bool:
        return any(isinstance(action, Discard) for _, action in mirror.game.log)

    snap = play(dash, mirror, person, snap, stop=discarded)
    assert not snap["result"] and discarded(), "the game is under way with a card discarded face down"
    text = dash.save_text()
    at_save = from_json(text)
    assert at_save == mirror.game, "the save holds the game: hands, piles, face-down discards"
    saved = tmp_path / "paper_world.json"
    saved.write_text(text)
    made = len(person)
    snap = play(dash, mirror, person, snap, stop=lambda: len(person) >= made + 6)
    later = dash.save_text()

    snap = dash.load(saved)
    assert snap["message"] == "Loaded."
    assert snap["log"] == str(len(at_save.log)), "the page is back at the saved position"
    assert "tb-ready" not in snap["buttons"], "one person at the table: the loaded game needs no hand-over"
    again = HotSeatTable.from_json(text, game="paper_world")
    replayed = person[:made]
    snap = play(dash, again, replayed, snap, stop=lambda: len(replayed) >= made + 6)
    assert replayed == person[: made + 6], "the person's choices are the same the second time"
    assert dash.save_text() == later, "the loaded game went on exactly as the first time"
