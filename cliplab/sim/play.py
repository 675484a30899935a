"""Playing one game of a simulation and turning it into a result row (no pandas here: workers start fast).

Seeds: game i of a run with seed S draws everything from `numpy.random.SeedSequence(S).spawn(N)[i]`
(built directly as `SeedSequence(S, spawn_key=(i,))`, which is the same thing): the first number it
generates seeds the game (its chance events), the next ones seed the bots, one per seat. A game's result
therefore depends only on (setup, S, i): not on N, on how games are split into chunks, on the executor or
on the order results arrive in. A run of 100 games is the first 100 games of a run of 10,000.

Game-specific numbers come from the game's declaration (`cliplab.kit.declaration(game)`):

- `metrics`: numbers about a finished game (columns `stat_<name>`; "rounds" fills the `rounds` column);
- `live_scores`: the score of each seat during play, recorded after every decision for lead changes and
  drama (a game without it has no score traces);
- `timeouts`: the terminations (Outcome.termination) that mean the game was stopped by a limit rather
  than won.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from cliplab.engine import CHANCE, OptionValue, State, spec
from cliplab.kit import declaration

from .bots import BotSpec, bot_label, factory, resolve_name

EXECUTORS = ("inline", "processes", "dask")


class SimulationError(Exception):
    """A simulation that cannot run or resume as asked."""


@dataclass(frozen=True)
class Setup:
    """What is simulated: a game with its player count, variant and options, and a bot per seat."""

    game: str
    bots: tuple[BotSpec, ...]
    players: int
    variant: str | None = None
    options: Mapping[str, OptionValue] = field(default_factory=dict)

    @cached_property
    def resolved_options(self) -> dict[str, OptionValue]:
        """Every option's value as the game will be played (variant and defaults filled in)."""
        return dict(spec(self.game).config(self.players, 0, self.variant, **self.options).options)

    @cached_property
    def options_text(self) -> str:
        return ";".join(f"{key}={value}" for key, value in sorted(self.resolved_options.items()))

    @property
    def bots_text(self) -> str:
        return ",".join(bot_label(bot) for bot in self.bots)

    def columns(self, seed: int) -> dict[str, Any]:
        """The columns that say which run a result row belongs to."""
        return {
            "game": self.game,
            "variant": self.variant or "",
            "options": self.options_text,
            "players": self.players,
            "bots": self.bots_text,
            "run_seed": seed,
        }

    def describe(self) -> str:
        title = spec(self.game).title
        rules = f"variant {self.variant}" if self.variant else "default rules"
        if self.options:
            rules += " with " + ", ".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        seats = "solo" if self.players == 1 else f"{self.players} players"
        return f"{title}, {seats}, {rules}; bots {self.bots_text}"


def make_setup(
    game: str,
    bots: str | Sequence[BotSpec] = "random",
    players: int | None = None,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> Setup:
    """A checked Setup. `bots` is one bot for every seat, a comma-separated text, or one per seat.

    Without `players`, the number of bots given says it (a single bot: the game's default player count).
    """
    game_spec = spec(game)
    if isinstance(bots, str):
        bots = [part for part in bots.split(",") if part.strip()] or ["random"]
    listed = list(bots)
    if players is None:
        players = len(listed) if len(listed) > 1 else game_spec.default_players
    if len(listed) == 1:
        listed = listed * players
    if len(listed) != players:
        raise SimulationError(f"{len(listed)} bots for {players} players: give one bot, or one per seat")
    resolved = tuple(resolve_name(game, bot) if isinstance(bot, str) else bot for bot in listed)
    chosen = dict(options or {})
    # Checks players, variant and options now (OptionError), and converts option text to values.
    config = game_spec.config(players, 0, variant, **chosen)
    given = {key: value for key, value in config.options if key in chosen}
    return Setup(game, resolved, players, variant, given)


def game_seeds(run_seed: int, index: int, players: int) -> tuple[int, list[int]]:
    """(seed of the game, seed of each seat's bot) for game `index` of a run with `run_seed`."""
    numbers = np.random.SeedSequence(run_seed, spawn_key=(index,)).generate_state(players + 1, dtype=np.uint32)
    values = [int(number) for number in numbers]
    return values[0], values[1:]


def play_game(setup: Setup, run_seed: int, index: int) -> tuple[State, dict[str, Any]]:
    """Play game `index` of a run to its end; returns the final state and its result row."""
    game_seed, bot_seeds = game_seeds(run_seed, index, setup.players)
    state = spec(setup.game).new(setup.players, game_seed, setup.variant, **setup.options)
    bots = [factory(setup.game, bot)(seed) for bot, seed in zip(setup.bots, bot_seeds, strict=True)]
    pickers = [getattr(bot, "choose_from", None) for bot in bots]
    kit = declaration(setup.game)
    live = kit.live_score_reader()
    longest = spec(setup.game).longest(state.config)
    players = setup.players
    branching: list[int] = []
    movers: list[int] = []
    scores: list[tuple[float, ...]] = []
    while (outcome := state.outcome()) is None:
        # Every seat to move decides on the same position (secret choices), then all act: as in bots.play.
        choices = []
        for seat in state.to_move():
            legal = state.legal_actions(seat)
            pick = pickers[seat]
            if pick is not None:
                action = pick(legal, seat)  # picks from `legal` itself
            else:
                action = bots[seat].choose(state.view(seat), seat)
                if action not in legal:
                    raise SimulationError(
                        f"game {index} (seed {game_seed}): bot {bot_label(setup.bots[seat])} of seat {seat} "
                        f"chose {action}, which is not legal"
                    )
            choices.append((seat, action, len(legal)))
        for seat, action, options in choices:
            state.apply_fast(action, seat)
            branching.append(options)
            movers.append(seat)
            scores.append(tuple(live(state)))
        if len(state.log) > longest:
            raise SimulationError(f"game {index} (seed {game_seed}) is longer than the game's limit of {longest}")
    traces = [list(trace) for trace in zip(*scores, strict=True)] if scores and scores[0] else [[]] * players
    winners = list(outcome.winners)
    stats = kit.design_metrics(state)
    rounds = stats.pop("rounds", None)
    row: dict[str, Any] = setup.columns(run_seed)
    row.update(
        game_index=index,
        game_seed=game_seed,
        winners=winners,
        n_winners=len(winners),
        termination=outcome.termination,
        timeout=outcome.termination in kit.timeouts,
        rounds=None if rounds is None else int(rounds),
        actions=len(state.log),
        decisions=sum(1 for seat, _ in state.log if seat != CHANCE),
    )
    for seat in range(players):
        row[f"score_{seat}"] = float(outcome.scores[seat])
    for seat in range(players):
        row[f"rank_{seat}"] = int(outcome.ranks[seat])
    for seat in range(players):
        row[f"share_{seat}"] = 1.0 / len(winners) if seat in winners else 0.0
    for seat in range(players):
        row[f"decisions_{seat}"] = movers.count(seat)
    for seat in range(players):
        row[f"forced_{seat}"] = sum(
            1 for mover, options in zip(movers, branching, strict=True) if mover == seat and options == 1
        )
    for key, value in stats.items():
        row[f"stat_{key}"] = value
    row["branching"] = branching
    for seat in range(players):
        row[f"score_trace_{seat}"] = [float(score) for score in traces[seat]]
    return state, row


Columns = dict[str, list[Any]]


def merge(parts: Iterable[Columns]) -> Columns:
    """Result columns one after the other (a column missing from a part is NaN there, as pandas does)."""
    found: Columns = {}
    count = 0
    for part in parts:
        for key, values in part.items():
            found.setdefault(key, [math.nan] * count).extend(values)
        count += len(next(iter(part.values()), ()))
        for values in found.values():
            values.extend([math.nan] * (count - len(values)))
    return found


def columns(rows: Iterable[Mapping[str, Any]]) -> Columns:
    """Result rows as one list per column."""
    return merge({key: [value] for key, value in row.items()} for row in rows)


def play_chunk(setup: Setup, run_seed: int, start: int, stop: int) -> Columns:
    """Result columns of games start..stop-1: what a worker runs and sends back. Columns pickle in less
    time and space than rows, and leave the process that collects the chunks no work per game."""
    return columns(play_game(setup, run_seed, index)[1] for index in range(start, stop))


__all__ = [
    "EXECUTORS",
    "Columns",
    "Setup",
    "SimulationError",
    "columns",
    "game_seeds",
    "make_setup",
    "merge",
    "play_chunk",
    "play_game",
]
