"""A hot-seat table: people and bots sharing one game on one screen, without any drawing.

Each game's dashboard keeps its own small subclass (what may be undone, what a save carries); the seat
bookkeeping, bot steps and undo to a person's last decision are the same for every game and live here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar, Self

from cliplab.bots.random_bot import Bot
from cliplab.engine import CHANCE, Action, SaveError, State, from_json, spec, to_json

PERSON = "person"


class HotSeatTable:
    """One game; `seats[i]` is "person" or the name of a bot kind in `makers` (factories taking a seed).

    A subclass names its game in GAME and is built as `Subclass(seats, game)`.
    """

    GAME: ClassVar[str] = ""
    NOTHING_TO_UNDO: ClassVar[str] = "no person has made a decision yet"

    def __init__(self, seats: Sequence[str], game: State, makers: Mapping[str, Callable[[int], Bot]]) -> None:
        unknown = [kind for kind in seats if kind != PERSON and kind not in makers]
        if unknown:
            raise ValueError(f"unknown seat kind {unknown[0]!r}; choose from {', '.join((PERSON, *makers))}")
        if len(seats) != game.players:
            raise ValueError(f"{len(seats)} seats named for a {game.players}-player game")
        seed = game.config.seed
        self.game = game
        self.seats = tuple(seats)
        self.bots = {seat: makers[kind](seed * 101 + seat) for seat, kind in enumerate(seats) if kind != PERSON}

    # ----- whose turn ---------------------------------------------------------------------------------

    def is_person(self, seat: int) -> bool:
        return self.seats[seat] == PERSON

    def people_to_move(self) -> list[int]:
        return [seat for seat in self.game.to_move() if self.is_person(seat)]

    def bots_to_move(self) -> list[int]:
        return [seat for seat in self.game.to_move() if not self.is_person(seat)]

    def next_bot_step(self) -> tuple[int, Action] | None:
        """Let one bot act, from its own view, if a bot is to move; returns who did what."""
        bots = self.bots_to_move()
        if not bots:
            return None
        seat = bots[0]
        action = self.bots[seat].choose(self.game.view(seat), seat)
        self._apply(action, seat)
        return seat, action

    def run_bots(self, limit: int = 100_000) -> list[tuple[int, Action]]:
        """Let bots act until a person must decide or the game ends."""
        done: list[tuple[int, Action]] = []
        while len(done) < limit and (step := self.next_bot_step()) is not None:
            done.append(step)
        return done

    def act(self, action: Action | str, seat: int) -> Action:
        """A person's action, checked by the engine (IllegalAction leaves everything as it was)."""
        if not 0 <= seat < len(self.seats) or not self.is_person(seat):
            raise ValueError(f"seat {seat} is not played by a person")
        return self._apply(action, seat)

    def _apply(self, action: Action | str, seat: int) -> Action:
        return self.game.apply(action, seat)

    # ----- undo ---------------------------------------------------------------------------------------

    def _undo_floor(self) -> int:
        """The log length undo never goes below (what everyone has seen cannot be unseen)."""
        return 0

    def _undoable(self, action: Action) -> bool:
        return True

    def _last_person_decision(self) -> int | None:
        for index in range(len(self.game.log) - 1, self._undo_floor() - 1, -1):
            seat, action = self.game.log[index]
            if seat != CHANCE and self.is_person(seat) and self._undoable(action):
                return index
        return None

    def can_undo(self) -> bool:
        return self._last_person_decision() is not None

    def undo(self) -> None:
        """Take back the last decision a person made, and whatever the bots did after it."""
        index = self._last_person_decision()
        if index is None:
            raise ValueError(self.NOTHING_TO_UNDO)
        self.game.rewind(index)

    # ----- save and load ------------------------------------------------------------------------------

    def to_json(self) -> str:
        """The engine's save of the game, plus who sits where."""
        record = json.loads(to_json(self.game))
        record["seats"] = list(self.seats)
        return json.dumps(record, indent=1)

    @classmethod
    def from_json(cls, text: str) -> Self:
        """The table a save describes; SaveError (or ValueError) says what is wrong, and nothing is changed."""
        game = from_json(text)
        if game.config.game != cls.GAME:
            raise SaveError("game", f"that is a save of {game.spec.title}, not of {spec(cls.GAME).title}")
        seats = json.loads(text).get("seats")
        if seats is None:
            seats = [PERSON] * game.players
        if not isinstance(seats, list) or not all(isinstance(kind, str) for kind in seats):
            raise SaveError("seats", 'expected a list of seat kinds such as "person"')
        return cls(seats, game)  # type: ignore[call-arg]  # subclasses take (seats, game)
