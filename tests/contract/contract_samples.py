"""Positions for the contract tests: where a seat must decide, a few of each kind, from seeded random games.

A kind of decision is the set of action types a seat may choose from (Click & Crack: placing a penguin,
setting tiles, performing or passing, pushing aside, breaking off; ClipCut Parks: cutting, keeping a part,
placing or crumpling, scoring a card), so this knows nothing of any game's phases. Games are played by the
game's declared "random" bot, for every player count the game allows and for each named variant.
"""

from __future__ import annotations

from functools import cache

from cliplab.engine import State, games, spec
from cliplab.kit import declaration

SEEDS = (0, 1)  # games per player count with the default rules; one per named variant
PER_KIND = 3  # positions kept of each kind of decision


def decision_kind(state: State, seat: int) -> tuple[str, ...]:
    return tuple(sorted({type(action).__name__ for action in state.legal_actions(seat)}))


def setups(game: str) -> list[tuple[int, str | None, int]]:
    """(players, variant, seed) of the games that are played for the samples."""
    rules = spec(game)
    found = [(players, None, seed) for players in range(rules.min_players, rules.max_players + 1) for seed in SEEDS]
    return found + [(rules.default_players, variant, 0) for variant in rules.variants]


def finished_games(game: str) -> list[State]:
    """The sample games played to their end (one per setup)."""
    return [end for end, _ in _played(game)]


@cache
def decision_samples(game: str) -> list[tuple[State, int]]:
    """(position, seat to decide) pairs: PER_KIND of every kind of decision met in the sample games (fewer if
    it was met less often), spread evenly over all the times it was met, so early and late play both count."""
    met: dict[tuple[str, ...], list[tuple[State, int]]] = {}
    for _, seen in _played(game):
        for state, seat in seen:
            met.setdefault(decision_kind(state, seat), []).append((state, seat))
    picked = []
    for found in met.values():
        step = len(found) / min(PER_KIND, len(found))
        picked += [found[int(step * k)] for k in range(min(PER_KIND, len(found)))]
    return picked


@cache
def _played(game: str) -> list[tuple[State, list[tuple[State, int]]]]:
    kit = declaration(game)
    played = []
    for players, variant, seed in setups(game):
        state = spec(game).new(players, seed, variant)
        bots = [kit.make_bot("random", 1000 * seed + seat) for seat in range(players)]
        seen: list[tuple[State, int]] = []
        while state.outcome() is None:
            movers = state.to_move()
            seen += [(state.clone(), seat) for seat in movers]
            # Secret choices: every seat to move decides on the same position before any of them acts.
            choices = [(seat, bots[seat].choose(state.view(seat), seat)) for seat in movers]
            for seat, action in choices:
                state.apply(action, seat)
        played.append((state, seen))
    return played


def bot_choices(per_game: int, bot_seed: int) -> dict[str, list[str]]:
    """What every declared bot of every registered game chooses, made from `bot_seed`, on `per_game` sample
    positions of that game spread over its decision samples: {"game/bot": [action texts]}."""
    found = {}
    for game in games():
        kit = declaration(game)
        samples = decision_samples(game)
        spread = samples[:: max(1, len(samples) // per_game)][:per_game]
        for bot in kit.bot_names():
            made = kit.make_bot(bot, bot_seed)
            found[f"{game}/{bot}"] = [str(made.choose(state.view(seat), seat)) for state, seat in spread]
    return found
