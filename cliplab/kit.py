"""The game kit: one declaration per game, and the lookups every shared piece uses to reach a game.

A game is its rules, its content, its bots and its picture. Its package's `__init__` holds one
`Declaration` that names each of these by "module:attribute" text, so that nothing heavy (bots, drawing,
widgets) is imported until it is asked for. The registry finds declarations by game name.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cliplab.engine import OptionError, State, spec
from cliplab.engine.game import GameSpec


def resolve(reference: str) -> Any:
    """The object a "package.module:attribute" reference names (imported on first use)."""
    module_name, _, attribute = reference.partition(":")
    found: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        found = getattr(found, part)
    return found


@dataclass(frozen=True)
class Declaration:
    """Everything the kit needs from one game, each part named lazily by "module:attribute".

    - `bots`: name -> factory taking a seed; the same name means the same bot everywhere (simulate,
      dashboards, notebooks, bench). "random" is uniform random legal play in every game.
    - `picture`: the class that draws a seat's board at the shared table and turns clicks into actions.
    - `breakdown`: state -> each seat's score lines [(words, points), ...] (live and at the end).
    - `metrics`: finished state -> {metric name: number}, the game's own design metrics for the lab.
    - `position`: the public position builder, `build(players=..., seed=..., <named fields>) -> State`.
    - `teach`: the teaching notebook's name under notebooks/teach/, or None.
    """

    name: str
    bots: Mapping[str, str]
    default_bot: str
    picture: str | None = None
    breakdown: str | None = None
    metrics: str | None = None
    position: str | None = None
    teach: str | None = None
    extra: Mapping[str, str] = field(default_factory=dict)

    @property
    def spec(self) -> GameSpec:
        return spec(self.name)

    def bot_names(self) -> list[str]:
        return list(self.bots)

    def bot_factory(self, name: str) -> Any:
        if name not in self.bots:
            raise OptionError(f"{self.name} has no bot {name!r} (its bots: {', '.join(self.bots)})")
        return resolve(self.bots[name])

    def make_bot(self, name: str, seed: int) -> Any:
        return self.bot_factory(name)(seed)

    def picture_class(self) -> Any:
        if self.picture is None:
            raise OptionError(f"{self.name} has no picture for the table app yet")
        return resolve(self.picture)

    def score_breakdown(self, state: State) -> dict[int, list[tuple[str, float]]]:
        if self.breakdown is None:
            outcome = state.outcome()
            scores = outcome.scores if outcome is not None else getattr(state, "scores", [0] * state.players)
            return {seat: [("score", float(scores[seat]))] for seat in range(state.players)}
        found: dict[int, list[tuple[str, float]]] = resolve(self.breakdown)(state)
        return found


def declaration(name: str) -> Declaration:
    """The declaration of a registered game (its package's `GAME`)."""
    game = spec(name)
    package = game.state_class.__module__.rpartition(".")[0]
    found = getattr(importlib.import_module(package), "GAME", None)
    if not isinstance(found, Declaration):
        raise OptionError(f"{name} declares no game kit (no GAME in {package})")
    return found
