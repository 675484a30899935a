"""A table of ClipCut Parks for people and bots sharing one screen (hot seat), without any drawing.

The dashboard shows it; tests drive it directly. Everyone's sheet and cards are open information, so
there is nothing to hide between seats: each seat is either a person, who acts through the table, or a
bot, which decides from its own view of the game when asked to step. Undo takes back the last decision
a person made (and whatever bots did after it); saves are the engine's JSON plus the seat kinds.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from cliplab.bots.random_bot import Bot
from cliplab.engine import CHANCE, Action, SaveError, from_json, new_game, to_json

from .rules import ClipCutParks

PERSON = "person"


def bot_makers() -> dict[str, Callable[[int], Bot]]:
    """Bot kinds by name, each a factory taking a seed: the game's own bots once they exist, else random."""
    # Imported when asked: a game's bots may be heavy, and the module may not be written yet.
    try:
        from . import bots as module  # type: ignore[attr-defined, unused-ignore]

        found = getattr(module, "BOTS", None)
    except ImportError:
        found = None
    if not found:
        from cliplab.bots import RandomBot

        return {"random": RandomBot}
    return dict(found)


def seat_kinds() -> tuple[str, ...]:
    return (PERSON, *bot_makers())


class Table:
    """One game at a hot-seat table. `seats[i]` is "person" or a bot kind from bot_makers()."""

    def __init__(self, seats: Sequence[str], game: ClipCutParks) -> None:
        makers = bot_makers()
        unknown = [kind for kind in seats if kind != PERSON and kind not in makers]
        if unknown:
            raise ValueError(f"unknown seat kind {unknown[0]!r}; choose from {', '.join((PERSON, *makers))}")
        if len(seats) != game.players:
            raise ValueError(f"{len(seats)} seats named for a {game.players}-player game")
        self.game = game
        self.seats = tuple(seats)
        seed = game.config.seed
        self.bots = {seat: makers[kind](seed * 101 + seat) for seat, kind in enumerate(seats) if kind != PERSON}

    @classmethod
    def new(cls, seats: Sequence[str], seed: int = 0, **options: Any) -> Table:
        game = new_game("clipcut_parks", players=len(seats), seed=seed, **options)
        assert isinstance(game, ClipCutParks)
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
        self.game.apply(action, seat)
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
        return self.game.apply(action, seat)

    # ----- undo -----------------------------------------------------------------------------------------

    def _last_person_decision(self) -> int | None:
        for index in range(len(self.game.log) - 1, -1, -1):
            seat, _ = self.game.log[index]
            if seat != CHANCE and self.is_person(seat):
                return index
        return None

    def can_undo(self) -> bool:
        return self._last_person_decision() is not None

    def undo(self) -> None:
        """Take back the last decision a person made, and everything that followed it."""
        index = self._last_person_decision()
        if index is None:
            raise ValueError("no person has made a decision yet")
        self.game.rewind(index)

    # ----- save and load ------------------------------------------------------------------------------

    def to_json(self) -> str:
        record = json.loads(to_json(self.game))
        record["seats"] = list(self.seats)
        return json.dumps(record, indent=1)

    @classmethod
    def from_json(cls, text: str) -> Table:
        """The table a save describes; SaveError (or ValueError) says what is wrong, and nothing is changed."""
        game = from_json(text)
        if not isinstance(game, ClipCutParks):
            raise SaveError("game", f"that is a save of {game.spec.title}, not of ClipCut Parks")
        seats = json.loads(text).get("seats")
        if seats is None:
            seats = [PERSON] * game.players
        if not isinstance(seats, list) or not all(isinstance(kind, str) for kind in seats):
            raise SaveError("seats", 'expected a list of seat kinds such as "person"')
        return cls(seats, game)
