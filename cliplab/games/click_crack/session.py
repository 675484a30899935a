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
from cliplab.engine import CHANCE, Action, new_game

from .rules import ClickCrack, SetTiles

PERSON = "person"


def _bot_makers() -> dict[str, Callable[[int], Bot]]:
    # Imported when a table is set up: the search bot's module is the heaviest part of the game package.
    from .bots import ClickCrackBot, search_bot

    return {"random bot": RandomBot, "heuristic bot": ClickCrackBot, "search bot": search_bot}


BOT_KINDS = tuple(_bot_makers())
SEAT_KINDS = (PERSON, *BOT_KINDS)


class Table:
    """One game at a hot-seat table. `seats[i]` is "person" or a bot kind from BOT_KINDS."""

    def __init__(self, seats: Sequence[str], game: ClickCrack) -> None:
        makers = _bot_makers()
        unknown = [kind for kind in seats if kind != PERSON and kind not in makers]
        if unknown:
            raise ValueError(f"unknown seat kind {unknown[0]!r}; choose from {', '.join(SEAT_KINDS)}")
        if len(seats) != game.players:
            raise ValueError(f"{len(seats)} seats named for a {game.players}-player game")
        seed = game.config.seed
        self.game = game
        self.seats = tuple(seats)
        self.bots = {seat: makers[kind](seed * 101 + seat) for seat, kind in enumerate(seats) if kind != PERSON}
        # Log length when the last settings were revealed (or the game was loaded): undo stops there.
        self.reveal_at = len(game.log)

    @classmethod
    def new(cls, seats: Sequence[str], seed: int = 0, **options: Any) -> Table:
        game = new_game("click_crack", players=len(seats), seed=seed, **options)
        assert isinstance(game, ClickCrack)
        return cls(seats, game)

    # ----- whose turn ---------------------------------------------------------------------------------

    def is_person(self, seat: int) -> bool:
        return self.seats[seat] == PERSON

    def people_to_move(self) -> list[int]:
        return [seat for seat in self.game.to_move() if self.is_person(seat)]

    def bots_to_move(self) -> list[int]:
        return [seat for seat in self.game.to_move() if not self.is_person(seat)]

    def next_bot_step(self) -> tuple[int, Action] | None:
        """Let one bot act, if a bot is to move; returns who did what."""
        bots = self.bots_to_move()
        if not bots:
            return None
        seat = bots[0]
        action = self.bots[seat].choose(self.game.view(seat), seat)
        self._apply(action, seat)
        return seat, action

    def run_bots(self) -> list[tuple[int, Action]]:
        """Let bots act until a person must decide or the game ends."""
        done = []
        while (step := self.next_bot_step()) is not None:
            done.append(step)
        return done

    def act(self, action: Action | str, seat: int) -> Action:
        """A person's action, checked by the engine (IllegalAction leaves everything as it was)."""
        if not self.is_person(seat):
            raise ValueError(f"seat {seat} is played by a bot")
        return self._apply(action, seat)

    def _apply(self, action: Action | str, seat: int) -> Action:
        phase = self.game.phase
        done = self.game.apply(action, seat)
        if phase == "program" and self.game.phase != "program":
            self.reveal_at = len(self.game.log)
        return done

    # ----- undo -----------------------------------------------------------------------------------------

    def _last_person_decision(self) -> int | None:
        for index in range(len(self.game.log) - 1, self.reveal_at - 1, -1):
            seat, action = self.game.log[index]
            if seat != CHANCE and self.is_person(seat) and not isinstance(action, SetTiles):
                return index
        return None

    def can_undo(self) -> bool:
        return self._last_person_decision() is not None

    def undo(self) -> None:
        """Take back the last person's action (and the bots' that followed), never past a reveal."""
        index = self._last_person_decision()
        if index is None:
            raise ValueError("nothing to undo since the tiles were revealed")
        self.game.rewind(index)
