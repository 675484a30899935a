"""The Swap Clops card game dashboard in Voila, played by clicks.

- A whole seeded 3-player game, a person (seat 0) against two heuristic bots, to its end: the person
  places, accepts and scores by clicking cards and sets (choosing as the heuristic bot would), offers by
  clicking a hand card and "Offer these"; the scores and winners on screen are checked against the engine.
- Hot seat, two people and a bot: at every step, no hand but the one of the person holding the screen is
  drawn face up, and none at all on a hand-over screen.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conftest import TableDriver
from playwright.sync_api import Page

from cliplab.engine import Action
from cliplab.games.swap_clops_cards.board import TABLE_FIXED, table_cards
from cliplab.games.swap_clops_cards.bots import HeuristicBot
from cliplab.games.swap_clops_cards.rules import (
    DECK,
    AcceptOffer,
    EndTurn,
    Lock,
    PlaceOne,
    PlaceTwo,
    Score,
    StopAccepting,
    SwapClopsCards,
    TakeDeckCard,
)

pytestmark = pytest.mark.browser

REPO_ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO_ROOT / "notebooks" / "dashboards" / "swap_clops_cards.ipynb"
SEED = 4

SNAPSHOT = """(app) => {
  const text = (sel) => (app.querySelector(sel)?.innerText ?? '').trim();
  const buttons = [...app.querySelectorAll('button')]
    .map((b) => [...b.classList].find((c) => /^(scc|tb)-/.test(c)))
    .filter((c) => c && c !== 'tb-load');
  const hands = {};
  app.querySelectorAll('.cl-board[data-board^="seat"]').forEach((board) => {
    const seat = Number(board.getAttribute('data-board').slice(4));
    hands[seat] = [...board.querySelectorAll('g[data-kind="cell"][data-r="0"]')]
      .map((g) => g.querySelector(':scope > title')?.textContent || '').filter((l) => l.includes('in hand'));
  });
  const tag = app.querySelector('.tb-tag');
  const scores = [...app.querySelectorAll('.tb-score')]
    .map((s) => [Number(s.getAttribute('data-seat')), s.innerText.trim()]);
  return {status: text('.tb-status'), message: text('.tb-message'), result: text('.tb-result'),
          buttons, hands, scores, acting: tag?.getAttribute('data-acting') ?? '',
          onscreen: tag?.getAttribute('data-seat') ?? '', log: tag?.getAttribute('data-log') ?? '',
          seq: tag?.getAttribute('data-seq') ?? ''};
}"""


class Dashboard(TableDriver):
    """The card game's dashboard, driven by the people's clicks (the bots play on by themselves)."""

    def __init__(self, page: Page, js: Any, artifacts: Path) -> None:
        super().__init__(page, js, artifacts, "swap_clops_cards", "scc", SNAPSHOT)

    def open(self, url: str) -> None:
        self.page.set_viewport_size({"width": 1280, "height": 720})
        super().open(url)

    def game(self) -> SwapClopsCards:
        game = self.saved_game()
        assert isinstance(game, SwapClopsCards)
        return game

    def common_step(self, snap: dict[str, Any]) -> dict[str, Any] | None:
        """Take the screen at a hand-over, if the table asks for it (never for the bots or a reveal)."""
        asked = {"tb-continue", "tb-bot-step"} & set(snap["buttons"])
        assert not asked, f"a person is asked to click for the bots: {asked}"
        return self.click(self.button("tb-ready")) if "tb-ready" in snap["buttons"] else None

    def act(self, game: SwapClopsCards, seat: int, action: Action) -> dict[str, Any]:
        """Carry out a person's action by clicks on the cards and sets (and the step's buttons)."""
        board = f"seat{seat}"
        if isinstance(action, PlaceOne | PlaceTwo):
            hand = game.hands[seat]
            first = hand.index(action.card)
            self.click(self.cell(board, 0, first))
            if isinstance(action, PlaceTwo):
                second = hand.index(action.other, first + 1 if action.other == action.card else 0)
                self.click(self.cell(board, 0, second))
            return self.click(self.cell(board, action.slot, 0))
        if isinstance(action, TakeDeckCard | AcceptOffer):
            giver = DECK if isinstance(action, TakeDeckCard) else action.giver
            col = TABLE_FIXED + table_cards(game).index((action.card, giver))
            self.click(self.cell("table", 0, col))
            return self.click(self.cell(board, action.slot, 0))
        if isinstance(action, Score):
            return self.click(self.cell(board, action.slot, 0))
        if isinstance(action, Lock):
            return self.click(self.button(f"scc-lock-{action.trait}"))
        if isinstance(action, StopAccepting):
            return self.click(self.button("scc-stop"))
        if isinstance(action, EndTurn):
            return self.click(self.button("scc-end"))
        raise AssertionError(f"no clicks for {action}")


@pytest.fixture(scope="session")
def dashboard_url(voila_server: Any) -> str:
    return voila_server(NOTEBOOK).url


def test_a_seeded_three_player_game_played_by_clicks_ends_as_the_engine_says(
    page: Page, js_errors: Any, artifacts_dir: Path, dashboard_url: str
) -> None:
    dash = Dashboard(page, js_errors, artifacts_dir)
    dash.open(dashboard_url)
    snap = dash.start(["person", "heuristic", "heuristic"], SEED)
    person: list[str] = []
    shot = False
    for _ in range(1500):
        if snap["result"]:
            break
        assert "tb-ready" not in snap["buttons"], "one person at the table is never asked to pass the screen"
        asked = dash.common_step(snap)
        if asked is not None:
            snap = asked
            continue
        if "scc-offer" in snap["buttons"]:
            # Offers are secret: the save waits for the reveal, so the person offers from the hand on screen.
            if snap["hands"].get(0):
                dash.click(dash.cell("seat0", 0, 0))
                snap = dash.click(dash.button("scc-offer"))
            else:
                snap = dash.click(dash.button("scc-offer-none"))
            person.append("offer")
            continue
        game = dash.game()
        assert game.to_move() == (0,), f"the page waits for the person but the engine has {game.to_move()} to move"
        if not shot and game.phase == "accept":
            dash.page.screenshot(path=str(artifacts_dir / "swap_clops_cards-accept.png"))
            shot = True
        action = HeuristicBot(len(person)).choose(game.view(0), 0)
        person.append(str(action))
        snap = dash.act(game, 0, action)
        assert not snap["message"].startswith("player 0"), f"{action} was refused: {snap['message']}"
        assert int(snap["log"]) > len(game.log), f"{action} by clicks changed nothing"
    else:
        dash.fail("the game did not end within 1500 steps")
    game = dash.game()
    outcome = game.outcome()
    assert outcome is not None
    assert [int(points) for _, points in sorted(snap["scores"])] == list(outcome.scores)
    assert [int(s) for s in re.findall(r"Player (\d+)", snap["result"])] == list(outcome.winners)
    placed = [str(action) for seat, action in game.log if seat == 0 and "offer" not in str(action)]
    assert placed == [words for words in person if words != "offer"]
    assert shot, "the person accepted cards at least once"
    dash.page.screenshot(path=str(artifacts_dir / "swap_clops_cards-end.png"), full_page=True)


def test_hot_seat_no_hand_shows_but_the_one_of_the_person_holding_the_screen(
    page: Page, js_errors: Any, artifacts_dir: Path, dashboard_url: str
) -> None:
    dash = Dashboard(page, js_errors, artifacts_dir)
    dash.open(dashboard_url)
    snap = dash.start(["person", "person", "heuristic"], SEED)
    handovers = seen_own = 0
    following: SwapClopsCards | None = None
    for step in range(160):
        shown = [int(seat) for seat, cards in snap["hands"].items() if cards]
        if "tb-ready" in snap["buttons"]:
            handovers += 1
            assert not shown, f"step {step}: a hand shows on the hand-over screen: {shown}"
        else:
            assert len(shown) <= 1, f"step {step}: several hands show at once: {shown}"
            if snap["acting"] != "":
                acting = int(snap["acting"])
                assert set(shown) <= {acting}, f"step {step}: the hand of {shown} shows while player {acting} acts"
                seen_own += shown == [acting]
        if snap["result"]:
            break
        # With two people the table offers no save while one of them sees their hand (at a hand-over it
        # does): the game read at the last save is followed through this person's own actions below.
        following = dash.saved_game() or following
        asked = dash.common_step(snap)
        if asked is not None:
            snap = asked
            continue
        seat = int(snap["acting"])
        if "scc-offer" in snap["buttons"]:
            snap = dash.click(dash.button("scc-offer-none"))
            continue
        game = following
        assert game is not None and len(game.log) == int(snap["log"]), f"step {step}: the game on the page is unknown"
        action = HeuristicBot(step).choose(game.view(seat), seat)
        snap = dash.act(game, seat, action)
        game.apply(action, seat)  # its chance events follow from the saved seed, as on the page
        if step == 30:
            dash.page.screenshot(path=str(artifacts_dir / "swap_clops_cards-hot-seat.png"))
    assert handovers >= 4 and seen_own >= 10, "both people took the screen several times and saw their own hands"
