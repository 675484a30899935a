"""Bots for Click & Crack: legal choices in every phase, only their own view, seeded, and the obvious moves.

The heuristic bot (`ClickCrackBot`), the search bot (`search_bot`, a small budget here) and the plain
game-independent `MCTSBot` are checked on positions from seeded random play and on arranged positions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

import pytest
from click_crack_positions import arrange, set_tiles

from cliplab.bots import MCTSBot, RandomBot, play
from cliplab.bots.mcts import rank_rewards
from cliplab.bots.random_bot import Bot
from cliplab.engine import Action, Hidden, State, new_game
from cliplab.games.click_crack import ClickCrack, Perform, SetTiles
from cliplab.games.click_crack.bots import ClickCrackBot, evaluate, rollout_policy, search_bot
from cliplab.games.click_crack.rules import Floe

Point = tuple[int, int]

BOTS: dict[str, Callable[[int], Bot]] = {
    "heuristic": lambda seed: ClickCrackBot(seed),
    "search": lambda seed: search_bot(seed, iterations=8, seconds=None),
    "plain mcts": lambda seed: MCTSBot(seed, iterations=4),
}


def positions(games: int = 4, every: int = 8) -> list[ClickCrack]:
    """Positions from seeded random play, every `every`-th decision, plus arranged push and break choices."""
    found: list[ClickCrack] = []
    rng = random.Random(7)
    for seed in range(games):
        game = new_game("click_crack", players=3, seed=seed)
        assert isinstance(game, ClickCrack)
        step = 0
        while not game.is_over():
            if step % every == 0 or game.phase in ("push", "break"):
                copy = game.clone()
                assert isinstance(copy, ClickCrack)
                found.append(copy)
            for seat in game.to_move():
                actions = game.legal_actions(seat)
                game.apply_fast(actions[rng.randrange(len(actions))], seat)
            step += 1
    push = arrange(3, {0: (1, 2), 2: (0, 2)})
    set_tiles(push, {0: "walk N and walk N"})
    push.apply("walk N with penguin 0")
    rows = [((1, c), (2, c)) for c in range(4)]
    halves = arrange(3, {0: (2, 4), 1: (4, 1), 2: (0, 0), 3: (4, 3)}, cracks=rows, gone=[(4, c) for c in range(5)])
    set_tiles(halves, {0: "break E and break E"})
    halves.apply("break E with penguin 0")
    assert (push.phase, halves.phase) == ("push", "break")
    found += [push, halves]
    return found


POSITIONS = positions()


# ----- the light simulation agrees with the rules --------------------------------------------------------


def _key(state: ClickCrack) -> tuple[object, ...]:
    return (tuple(state.pos), state.main, state.cracks, tuple(state.scores))


def _ends(state: ClickCrack, seat: int, action: Action) -> set[tuple[object, ...]]:
    after = state.clone()
    after.apply_fast(action, seat)
    assert isinstance(after, ClickCrack)
    if after.phase in ("push", "break") and not after.is_over():
        return set().union(*(_ends(after, seat, choice) for choice in after.legal_actions(seat)))
    return {_key(after)}


def test_the_floe_model_the_bots_look_ahead_with_gives_the_positions_play_gives() -> None:
    checked = 0
    for state in POSITIONS:
        if state.phase != "perform":
            continue
        seat = state.current_player()
        floe = Floe.of(state)
        for action in state.legal_actions(seat):
            if not isinstance(action, Perform):
                continue
            results = floe.perform(seat, action.kind, action.direction, action.penguin)
            assert {(tuple(f.pos), f.main, f.cracks, tuple(f.scores)) for f in results} == _ends(state, seat, action)
            checked += 1
    assert checked > 30


# ----- legal choices -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_choose_a_legal_action_in_every_phase(name: str) -> None:
    phases = set()
    for index, state in enumerate(POSITIONS):
        if state.is_over():
            continue
        for seat in state.to_move():
            action = BOTS[name](index).choose(state.view(seat), seat)
            assert action in state.legal_actions(seat), (name, state.phase, action)
            phases.add(state.phase)
    assert phases == {"place", "program", "perform", "push", "break"}


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_play_whole_games(name: str) -> None:
    game = new_game("click_crack", players=3, seed=3)
    bots = [BOTS[name](1), RandomBot(2), BOTS["heuristic"](3)]
    assert play(game, bots, checked=True) is not None


# ----- only their own view --------------------------------------------------------------------------------


class Spy:
    """Passes the choice on, checking first that the view is the player's own and hides the others'
    settings of this round."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.hidden_seen = 0

    def choose(self, view: State, player: int) -> Action:
        assert view.viewer == player
        assert isinstance(view, ClickCrack)
        for seat, index in view.secret_at.items():
            if seat != player:
                assert view.tiles[seat] == ()
                assert isinstance(view.log[index][1], Hidden)
                self.hidden_seen += 1
        return self.bot.choose(view, player)


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_are_handed_views_that_hide_the_other_settings(name: str) -> None:
    # Seats set their tiles one after another, each from a fresh view, as at a hot-seat table.
    game = new_game("click_crack", players=3, seed=5)
    spies = [Spy(BOTS[name](seat)) for seat in range(3)]
    for _ in range(25):
        if game.is_over():
            break
        seat = game.to_move()[0]
        game.apply(spies[seat].choose(game.view(seat), seat), seat)
    assert sum(spy.hidden_seen for spy in spies) > 0


def _twins(position: ClickCrack, chooser: int, secrets: Iterable[tuple[int, str, str]]) -> list[ClickCrack]:
    """Copies of a position in the secret phase that differ only in other seats' settings."""
    twins = []
    for variant in range(2):
        game = position.clone()
        assert isinstance(game, ClickCrack)
        for seat, a, b in secrets:
            if seat != chooser:
                game.apply("set " + (a if variant == 0 else b), seat)
        twins.append(game)
    return twins


@pytest.mark.parametrize("name", sorted(BOTS))
def test_a_choice_does_not_depend_on_the_hidden_settings_of_others(name: str) -> None:
    # Seat 0 stands where its settings matter a lot: break W would break off a corner tile.
    base = arrange(3, {0: (1, 1), 2: (2, 2), 4: (3, 3)}, cracks=[((0, 0), (0, 1))])
    secrets = [(0, "break W and break N", "walk E and walk S"), (2, "break E and walk N", "walk W and walk W")]
    for chooser in (1, 2):
        twins = _twins(base, chooser, [s for s in secrets if s[0] != chooser])
        views = [twin.view(chooser) for twin in twins]
        assert twins[0] != twins[1] and views[0] == views[1]
        choices = [BOTS[name](11).choose(view, chooser) for view in views]
        assert choices[0] == choices[1]
    # The same on random positions in the secret phase, with every other seat having set.
    for index, state in enumerate(POSITIONS):
        if state.phase != "program":
            continue
        chooser = state.to_move()[-1]
        others = [(seat, "break N and break E", "walk S and walk W") for seat in state.to_move() if seat != chooser]
        twins = _twins(state, chooser, others)
        choices = [BOTS[name](index).choose(twin.view(chooser), chooser) for twin in twins]
        assert choices[0] == choices[1]


# ----- seeded -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(BOTS))
def test_same_seed_and_view_give_the_same_choice(name: str) -> None:
    differ = 0
    for index, state in enumerate(POSITIONS[::3]):
        if state.is_over():
            continue
        seat = state.to_move()[0]
        view = state.view(seat)
        reused = BOTS[name](index)
        first = reused.choose(view, seat)
        assert reused.choose(view, seat) == first
        assert BOTS[name](index).choose(state.view(seat), seat) == first
        differ += BOTS[name](index + 1000).choose(view, seat) != first
    if name != "heuristic":  # the heuristic uses its seed only to break ties between placements
        assert differ > 0


# ----- obvious moves --------------------------------------------------------------------------------------


def _winning_position() -> ClickCrack:
    # Seat 0 has 6 points; its penguin 0 can break off corner tile (0,0) with break W for the 7th point.
    return arrange(3, {0: (1, 1), 2: (2, 3), 4: (3, 2)}, cracks=[((0, 0), (0, 1))], scores=[6, 2, 3])


@pytest.mark.parametrize("name", ["heuristic", "search"])
def test_bots_take_the_break_that_wins(name: str) -> None:
    game = _winning_position()
    set_tiles(game, {0: "walk E and break W"})
    choice = BOTS[name](0).choose(game.view(0), 0)
    assert str(choice) == "break W with penguin 0"
    game.apply(choice)
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == (0,)


@pytest.mark.parametrize("name", ["heuristic", "search"])
def test_bots_set_the_tile_that_wins(name: str) -> None:
    game = _winning_position()
    setting = BOTS[name](0).choose(game.view(0), 0)
    assert isinstance(setting, SetTiles)
    assert ("break", "W") in setting.tiles


def test_heuristic_keeps_its_own_penguin_off_a_tile_it_would_break_off() -> None:
    # Breaking W would break off corner tile (0,0) with seat 0's other penguin on it: 1 point for the
    # tile, -1 for the penguin, and the penguin lost. Walking is harmless.
    game = arrange(3, {0: (1, 1), 1: (0, 0), 2: (3, 3), 4: (3, 2)}, cracks=[((0, 0), (0, 1))])
    set_tiles(game, {0: "walk S and break W"})
    assert {str(a) for a in game.legal_actions(0)} >= {"break W with penguin 0", "walk S with penguin 0"}
    choice = ClickCrackBot(0).choose(game.view(0), 0)
    assert isinstance(choice, Perform) and choice.kind == "walk"


def test_rollout_policy_is_legal_and_seeded() -> None:
    for state in POSITIONS:
        if state.is_over():
            continue
        for seat in state.to_move():
            first = rollout_policy(state, seat, random.Random(1))
            assert first in state.legal_actions(seat)
            assert rollout_policy(state, seat, random.Random(1)) == first


def test_mcts_time_budget_and_rank_rewards() -> None:
    state = next(s for s in POSITIONS if s.phase == "perform" and len(s.legal_actions()) > 1)
    seat = state.current_player()
    bot = MCTSBot(3, seconds=0.05, rewards=rank_rewards, rollout_depth=6, evaluate=evaluate)
    assert bot.choose(state.view(seat), seat) in state.legal_actions(seat)
    assert bot.last_iterations >= 1
