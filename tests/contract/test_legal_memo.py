"""The engine keeps each position's legal list once worked out (State._listed_legal), for every registered game.

What a caller is told must always be what the game's rules list for the position as it is now: after an
action on either path, an undo, a rewind, on a clone, a view and a determinized sample; and a caller that
changes the list it was given changes nothing in the game (a game's own read-only sequence cannot be changed).
"""

from __future__ import annotations

import random

import pytest

from cliplab.engine import IllegalAction, ListedActions, State, games, spec

GAMES = games()
STEPS = 60  # actions played per game, enough to reach every game's second kind of decision


def agrees_with_the_rules(state: State) -> None:
    for seat in state.to_move():
        told = state.legal_actions(seat)
        assert list(told) == list(state._legal(seat)), f"{state!r}: seat {seat} is told a stale list"
        # A list is the caller's own to change; a game's own ListedActions cannot be changed.
        if isinstance(told, list):
            told.clear()
        else:
            assert isinstance(told, ListedActions) and not hasattr(told, "clear")
        assert list(state.legal_actions(seat)) == list(state._legal(seat)), "a caller's change reached the game"


@pytest.mark.parametrize("game", GAMES)
def test_legal_actions_always_list_what_the_rules_allow_in_the_position_as_it_is_now(game: str) -> None:
    rng = random.Random(7)
    state = spec(game).new(spec(game).default_players, seed=11)
    for step in range(STEPS):
        if state.is_over():
            break
        agrees_with_the_rules(state)
        seat = rng.choice(state.to_move())
        action = rng.choice(state.legal_actions(seat))
        if step % 2:
            state.apply(action, seat)
        else:
            state.apply_fast(action, seat)
        agrees_with_the_rules(state)
        for seat in range(state.players):
            agrees_with_the_rules(state.view(seat))
            agrees_with_the_rules(state.view(seat).determinize(random.Random(step)))
        agrees_with_the_rules(state.clone())
        if step % 7 == 6:
            state.legal_actions(state.to_move()[0])  # listed, then taken back past
            state.undo()
            agrees_with_the_rules(state)
    assert len(state.log) > 10
    length = len(state.log) // 2
    state.rewind(length)
    agrees_with_the_rules(state)


@pytest.mark.parametrize("game", GAMES)
def test_an_action_listed_for_the_seat_to_move_is_refused_from_any_other_seat_and_changes_nothing(game: str) -> None:
    # The checked path takes an action it handed out for this seat and position without further checks: it
    # must not take the same object from a seat that is not to move, a seat given as True, or on a view.
    rng = random.Random(3)
    state = spec(game).new(spec(game).default_players, seed=5)
    refused = 0
    for _ in range(STEPS):
        if state.is_over():
            break
        movers = state.to_move()
        seat = rng.choice(movers)
        action = rng.choice(state.legal_actions(seat))
        before = state.fingerprint()
        for other in [*(s for s in range(state.players) if s not in movers), True]:
            with pytest.raises(IllegalAction):
                state.apply(action, other)  # type: ignore[arg-type]
            refused += 1
        view = state.view(seat)
        with pytest.raises(IllegalAction):
            view.apply(view.legal_actions(seat)[0], seat)
        assert state.fingerprint() == before
        state.apply(action, seat)
    assert refused > 10
