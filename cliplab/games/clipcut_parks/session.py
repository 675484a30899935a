"""A table of ClipCut Parks for people and bots sharing one screen (hot seat), without any drawing.

The dashboard shows it; tests drive it directly. Everyone's sheet and cards are open information, so
there is nothing to hide between seats: each seat is either a person, who acts through the table, or a
bot, which decides from its own view of the game when asked to step. Undo takes back the last decision
a person made (and whatever bots did after it); saves are the engine's JSON plus the seat kinds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cliplab.bots.random_bot import Bot
from cliplab.engine import new_game
from cliplab.ui.table import PERSON, HotSeatTable

from .rules import ClipCutParks


def bot_makers() -> dict[str, Callable[[int], Bot]]:
    """Bot kinds by name, each a factory taking a seed (an alias of another kind is listed once)."""
    # Imported when asked: the planning bot's module is the heaviest part of the game package.
    from .bots import BOTS

    kinds: dict[str, Callable[[int], Bot]] = {}
    for name, factory in BOTS.items():
        if factory not in kinds.values():
            kinds[name] = factory
    return kinds


def seat_kinds() -> tuple[str, ...]:
    return (PERSON, *bot_makers())


class Table(HotSeatTable):
    """One game at a hot-seat table. `seats[i]` is "person" or a bot kind from bot_makers()."""

    GAME = "clipcut_parks"

    def __init__(self, seats: Sequence[str], game: ClipCutParks) -> None:
        super().__init__(seats, game, bot_makers())
        self.game: ClipCutParks = game

    @classmethod
    def new(cls, seats: Sequence[str], seed: int = 0, **options: Any) -> Table:
        game = new_game("clipcut_parks", players=len(seats), seed=seed, **options)
        assert isinstance(game, ClipCutParks)
        return cls(seats, game)
