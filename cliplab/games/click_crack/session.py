"""A table of Click & Crack for people and bots sharing one screen (hot seat), without any drawing.

The dashboard shows this; tests drive it directly. It knows whose turn it is, lets bots act from their
own views, keeps people's secret settings secret until the reveal, and limits undo so that it never
reaches back past a reveal (what everyone has seen cannot be unseen).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cliplab.bots import RandomBot
from cliplab.bots.random_bot import Bot
from cliplab.engine import Action, new_game
from cliplab.ui.table import PERSON, HotSeatTable

from .rules import ClickCrack, SetTiles


def _bot_makers() -> dict[str, Callable[[int], Bot]]:
    # Imported when a table is set up: the search bot's module is the heaviest part of the game package.
    from .bots import ClickCrackBot, search_bot

    return {"random bot": RandomBot, "heuristic bot": ClickCrackBot, "search bot": search_bot}


BOT_KINDS = tuple(_bot_makers())
SEAT_KINDS = (PERSON, *BOT_KINDS)


class Table(HotSeatTable):
    """One game at a hot-seat table. `seats[i]` is "person" or a bot kind from BOT_KINDS."""

    GAME = "click_crack"
    NOTHING_TO_UNDO = "nothing to undo since the tiles were revealed"

    def __init__(self, seats: Sequence[str], game: ClickCrack) -> None:
        super().__init__(seats, game, _bot_makers())
        self.game: ClickCrack = game
        # Log length when the last settings were revealed (or the game was loaded): undo stops there.
        self.reveal_at = len(game.log)

    @classmethod
    def new(cls, seats: Sequence[str], seed: int = 0, **options: Any) -> Table:
        game = new_game("click_crack", players=len(seats), seed=seed, **options)
        assert isinstance(game, ClickCrack)
        return cls(seats, game)

    def _apply(self, action: Action | str, seat: int) -> Action:
        phase = self.game.phase
        done = self.game.apply(action, seat)
        if phase == "program" and self.game.phase != "program":
            self.reveal_at = len(self.game.log)
        return done

    def _undo_floor(self) -> int:
        return self.reveal_at

    def _undoable(self, action: Action) -> bool:
        # Undo passes over secret settings: they are never taken back on their own.
        return not isinstance(action, SetTiles)
