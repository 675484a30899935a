"""Typed errors. Each one says what went wrong and where, in words a player understands."""

from __future__ import annotations

from typing import Any


class CliplabError(Exception):
    """Base of every error cliplab raises on purpose."""


class IllegalAction(CliplabError):
    """An action the rules do not allow now. The state it was tried on is left exactly as it was.

    `rule` names the rule (e.g. "walk"), `action` is what was tried (an Action or the raw input),
    `reason` says why in a player's words, and `player` is the seat that tried it (if known).
    """

    def __init__(self, rule: str, action: Any, reason: str, player: int | None = None) -> None:
        self.rule = rule
        self.action = action
        self.reason = reason
        self.player = player
        who = f"player {player}: " if player is not None else ""
        super().__init__(f"{who}{rule}: {shortened(str(action))!r} is not allowed: {reason}")


def shortened(text: str, limit: int = 80) -> str:
    """`text` cut to `limit` characters with an ellipsis, so an error never echoes a huge input whole."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class OptionError(CliplabError, ValueError):
    """A variant option, player count or seed that the game does not accept."""


class SaveError(CliplabError):
    """A save file that cannot be loaded. `where` points into the file (e.g. "log[17]")."""

    def __init__(self, where: str, problem: str) -> None:
        self.where = where
        self.problem = problem
        super().__init__(f"{where}: {problem}")


class ContentError(CliplabError):
    """A content file (cards, sheets, decks) that cannot be used.

    `file` is the file as given, `entry` names the entry (a card such as "card 12 (Name)", or "" for a
    problem with the whole file) and `problem` says what is wrong in a designer's words.
    """

    def __init__(self, file: str, entry: str, problem: str) -> None:
        self.file = file
        self.entry = entry
        self.problem = problem
        where = f"{file}: {entry}" if entry else file
        super().__init__(f"{where}: {problem}")

    @property
    def card(self) -> str:
        """The entry under the name card games use for it."""
        return self.entry


class PositionError(CliplabError, ValueError):
    """A start position the rules cannot begin from. `field` names the field (e.g. "seats[1].pile[2]")."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")
