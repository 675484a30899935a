"""A hot-seat table: people and bots sharing one game on one screen, without any drawing.

The table knows whose turn it is, lets bots act from their own views, tells which decisions are secret,
notices when secrets are revealed, limits undo so that it never
reaches back past what everyone has seen, and saves and loads itself. It is the same for every game:
seats are "person" or the name of one of the game's bots in its declaration (cliplab.kit).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, Self

from cliplab.bots.random_bot import Bot
from cliplab.engine import CHANCE, Action, Hidden, SaveError, State, from_json, new_game, to_json

PERSON = "person"


def secret_entries(game: State) -> set[int]:
    """Indices of the secret decisions that not everyone at the table may see yet (hidden from the spectator)."""
    return {
        index
        for index, (seat, action) in enumerate(game.view(None).log)
        if seat != CHANCE and isinstance(action, Hidden)
    }


class HotSeatTable:
    """One game; `seats[i]` is "person" or the name of one of the game's bots.

    Build one with `HotSeatTable.new("click_crack", ["person", "heuristic"], seed=3)` or around a game
    already in progress, `HotSeatTable(seats, game)`. Bots are seeded from the game's seed and their seat.
    """

    def __init__(self, seats: Sequence[str], game: State) -> None:
        from cliplab.kit import declaration

        kit = declaration(game.config.game)
        unknown = [kind for kind in seats if kind != PERSON and kind not in kit.bots]
        if unknown:
            raise ValueError(f"unknown seat kind {unknown[0]!r}; choose from {', '.join((PERSON, *kit.bots))}")
        if len(seats) != game.players:
            raise ValueError(f"{len(seats)} seats named for a {game.players}-player game")
        seed = game.config.seed
        if seed is None:
            raise ValueError("a table plays a game, not a player's view of one")
        self.kit = kit
        self.game = game
        self.seats = tuple(seats)
        self.bots: dict[int, Bot] = {
            seat: kit.make_bot(kind, seed * 101 + seat) for seat, kind in enumerate(seats) if kind != PERSON
        }
        # Log length when secrets were last revealed (or the table was set up): the reveal screen shows
        # what came out since; undo is bounded by the engine (State.undo_limit), not by this.
        self.reveal_at = len(game.log)
        self.revealed: list[int] = []  # log indices of the entries the last reveal showed everyone
        self._answers_at = -1
        self._answers: dict[tuple[str, int], bool] = {}

    @classmethod
    def new(cls, game: str, seats: Sequence[str], seed: int = 0, variant: str | None = None, **options: Any) -> Self:
        return cls(seats, new_game(game, players=len(seats), seed=seed, variant=variant, **options))

    # ----- whose turn ---------------------------------------------------------------------------------

    def is_person(self, seat: int) -> bool:
        return self.seats[seat] == PERSON

    def people(self) -> list[int]:
        return [seat for seat in range(len(self.seats)) if self.is_person(seat)]

    def people_to_move(self) -> list[int]:
        return [seat for seat in self.game.to_move() if self.is_person(seat)]

    def bots_to_move(self) -> list[int]:
        return [seat for seat in self.game.to_move() if not self.is_person(seat)]

    def next_bot_step(self) -> tuple[int, Action] | None:
        """Let one bot act, from its own view, if a bot is to move; returns who did what."""
        bots = self.bots_to_move()
        return self.bot_step(bots[0]) if bots else None

    def bot_step(self, seat: int) -> tuple[int, Action]:
        """Let the bot in `seat` (which is to move) act from its own view."""
        action = self.bots[seat].choose(self.game.view(seat), seat)
        return seat, self._apply(action, seat)

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
        secret_before = secret_entries(self.game)
        index = len(self.game.log)
        done = self.game.apply(action, seat)
        uncovered = secret_before - secret_entries(self.game)
        if uncovered:
            # The decision that completed the reveal is revealed with the others if it was a secret one.
            self.revealed = sorted(uncovered | ({index} if done.SECRET else set()))
            self.reveal_at = len(self.game.log)
        return done

    # ----- what each seat may see ---------------------------------------------------------------------

    def decides_in_secret(self, seat: int) -> bool:
        """Whether `seat` is to make a secret decision now (one hidden from the others until a reveal)."""
        return self._known(("secret", seat), lambda: any(action.SECRET for action in self._legal(seat)))

    def _legal(self, seat: int) -> Sequence[Action]:
        return self.game.legal_actions(seat) if seat in self.game.to_move() else []

    def sees_more(self, seat: int) -> bool:
        """Whether `seat` may see log entries that not everyone at the table may see."""

        def differs() -> bool:
            hidden = [isinstance(action, Hidden) for _, action in self.game.view(seat).log]
            return hidden != [isinstance(action, Hidden) for _, action in self.game.view(None).log]

        return self._known(("more", seat), differs)

    def _known(self, question: tuple[str, int], answer: Callable[[], bool]) -> bool:
        """An answer about the game as it stands, asked once per log length (the log only grows between
        undos, and undo forgets the answers)."""
        length = len(self.game.log)
        if self._answers_at != length:
            self._answers_at, self._answers = length, {}
        if question not in self._answers:
            self._answers[question] = answer()
        return self._answers[question]

    # ----- undo ---------------------------------------------------------------------------------------

    def _undo_floor(self) -> int:
        """The log length undo never goes below: the engine's table policy, never back past a chance result
        or a revealed secret that a person at this table has seen."""
        return self.game.undo_limit(self.people())

    def undo_point(self) -> int | None:
        """The log index of the decision Undo takes back (with everything after it), None if none may be."""
        secret = secret_entries(self.game)
        for index in range(len(self.game.log) - 1, self._undo_floor() - 1, -1):
            seat, _ = self.game.log[index]
            # A secret decision is never taken back on its own: undo passes over it.
            if seat != CHANCE and self.is_person(seat) and index not in secret:
                return index
        return None

    def can_undo(self) -> bool:
        return self.undo_point() is not None

    def undo(self) -> None:
        """Take back the last decision a person made, and whatever the bots did after it."""
        index = self.undo_point()
        if index is None:
            raise ValueError("no person has made a decision that may be taken back")
        self.game.rewind(index)
        self._answers_at = -1

    # ----- save and load ------------------------------------------------------------------------------

    def to_json(self) -> str:
        """The engine's save of the game, plus who sits where."""
        record = json.loads(to_json(self.game))
        record["seats"] = list(self.seats)
        return json.dumps(record, indent=1)

    @classmethod
    def from_json(cls, text: str, game: str | None = None) -> Self:
        """The table a save describes (of `game`, if named); SaveError or ValueError says what is wrong."""
        state = from_json(text)
        if game is not None and state.config.game != game:
            from cliplab.engine import spec

            raise SaveError("game", f"that is a save of {state.spec.title}, not of {spec(game).title}")
        seats = json.loads(text).get("seats")
        if seats is None:
            seats = [PERSON] * state.players
        if not isinstance(seats, list) or not all(isinstance(kind, str) for kind in seats):
            raise SaveError("seats", 'expected a list of seat kinds such as "person"')
        return cls(seats, state)
