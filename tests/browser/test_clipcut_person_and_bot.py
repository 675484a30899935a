"""ClipCut Parks in Voila with a person and a bot: the person's cuts and placements by clicks only (no bot
controls clicked), the bot never playing past the person's decision, checked at every round, and a token
spent by the person shown on the card space it waived."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page
from test_clipcut_dashboard import NOTEBOOK, Dashboard, choose

from cliplab.engine import Action
from cliplab.games.clipcut_parks.rules import ClipCutParks, Crumple, Cut, Keep, Place, Roll, Score, tokens_spent
from cliplab.ui.table import PERSON, HotSeatTable

pytestmark = pytest.mark.browser

BOT = "random"
MAX_ROUNDS = 12


def first_token_round(seed: int) -> int | None:
    """The round in which the person, playing `choose` against the bot, first spends a token (None: not
    within MAX_ROUNDS): the same table the dashboard sets up for this seed."""
    table = HotSeatTable.new("clipcut_parks", [PERSON, BOT], seed=seed)
    table.run_bots()
    game = table.game
    assert isinstance(game, ClipCutParks)
    while not game.is_over() and game.round <= MAX_ROUNDS:
        if 0 in game.to_move():
            action = choose(game)
            table.act(action, 0)
            if isinstance(action, Place) and tokens_spent(game, 0, action):
                return game.round
        table.run_bots()
    return None


def pick_seed() -> tuple[int, int]:
    """The seed whose person spends a token soonest (content may change), and that round."""
    found = [(found, seed) for seed in range(12) if (found := first_token_round(seed)) is not None]
    assert found, "no seed lets the person spend a token"
    rounds, seed = min(found)
    return seed, rounds


def since_roll(game: ClipCutParks) -> list[tuple[int, Action]]:
    """The log entries of the current round: those after its die roll."""
    rolls = [i for i, (_, action) in enumerate(game.log) if isinstance(action, Roll)]
    return game.log[rolls[-1] + 1 :] if rolls else []


@pytest.fixture
def dash(page: Page, js_errors: Any, artifacts_dir: Path, voila_server: Any, request: pytest.FixtureRequest):
    board = Dashboard(page, js_errors, artifacts_dir, re.sub(r"\W+", "_", request.node.name))
    board.open(voila_server(NOTEBOOK).url)
    return board


def test_a_person_plays_by_clicks_and_the_bot_waits_for_their_decisions(dash: Dashboard) -> None:
    seed, token_round = pick_seed()
    dash.page.set_viewport_size({"width": 1280, "height": 720})
    snap = dash.start(["person", BOT], seed)
    spent_shot = False
    checked_rounds = 0
    while True:
        game = dash.saved_game()
        assert isinstance(game, ClipCutParks), "a person alone with a bot may always save"
        if game.is_over() or game.round > token_round:
            break
        assert snap["tag"].get("busy") == "0"
        assert 0 in game.to_move(), f"the page waits, yet the person is not to move: {game.to_move()}"
        this_round = since_roll(game)
        if game.stage[0] == "cut" and not any(seat == 0 for seat, _ in this_round):
            # The person's first decision of the round: the bot has not cut before them.
            assert not [a for seat, a in this_round if seat == 1], f"round {game.round}: the bot moved first"
            checked_rounds += 1
        # No new round (the bot's next cut) before the person has finished this one: the page shows it.
        assert game.stage[0] != "done" and snap["tag"].get("round") == str(game.round), snap["tag"]
        action = choose(game)
        if isinstance(action, Cut):
            snap = dash.cut(action)
        elif isinstance(action, Keep):
            snap = dash.click(dash.sheet_square(action.row, action.col))
        elif isinstance(action, Place):
            snap = dash.place(game, action)
        elif isinstance(action, Crumple):
            snap = dash.click(dash.button(f"cp-crumple-{action.section}"))
        elif isinstance(action, Score):
            snap = dash.click(dash.button(f"cp-score-{action.kind}-{action.card}"))
        else:
            dash.fail(f"the test does not know how to click {action}")
        after = dash.saved_game()
        assert after.log[len(game.log)] == (0, action), f"the page did not play the person's {action}"
        if isinstance(action, Place) and (spent := tokens_spent(after, 0, action)):
            # The waived spaces carry the token's disc (the card may have been completed and set aside).
            board = f"{action.kind}-{action.card}"
            if (action.kind, action.card) in after.face_up[0]:
                stamps = dash.app.locator(f".cl-board[data-board='{board}'] circle.cl-stamp")
                assert stamps.count() == sum(spent.values())
            news = dash.app.inner_text()
            for token, n in spent.items():
                assert f"pent {n} {token} token" in news, news[-600:]
            if not spent_shot:
                dash.shot("token-spent")
                spent_shot = True
    assert checked_rounds >= 3, checked_rounds
    assert spent_shot, f"no token was spent by round {token_round}"
