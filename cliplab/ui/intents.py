"""What the browser may say, checked. The browser is untrusted: every message is validated against the
scene on screen before anything in Python hears of it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .scene import Coord, Scene

MAX_TEXT = 64  # longest board or piece id accepted from the browser
INTENT_KEYS = {"type", "board", "kind", "at", "to", "piece", "turns"}


class BadMessage(ValueError):
    """A widget message that does not describe something possible on the current scene."""


@dataclass(frozen=True, slots=True)
class Intent:
    """A person's click or drop, checked: on `board`, a `kind` of place at `at` (and `to`, for segments).

    For a drop, `piece` was turned `turns` quarter turns clockwise and its top-left corner placed on
    cell `at`.
    """

    board: str
    kind: str
    at: Coord
    to: Coord | None = None
    piece: str | None = None
    turns: int = 0


def _coord(value: Any, name: str, rows: int, cols: int) -> Coord:
    if not isinstance(value, list) or len(value) != 2 or not all(type(v) is int for v in value):
        raise BadMessage(f"{name} must be a [row, column] pair of whole numbers")
    r, c = value
    if not (0 <= r < rows and 0 <= c < cols):
        raise BadMessage(f"{name} {value} is outside the board (rows 0-{rows - 1}, columns 0-{cols - 1})")
    return (r, c)


def _text(message: dict[str, Any], key: str) -> str:
    value = message.get(key)
    if not isinstance(value, str) or not 0 < len(value) <= MAX_TEXT:
        raise BadMessage(f"{key} must be a short text")
    return value


def parse_intent(message: Any, scene: Scene) -> Intent:
    """The Intent a widget message describes, or BadMessage saying what is wrong with it."""
    if not isinstance(message, dict):
        raise BadMessage("a message must be an object")
    unknown = set(message) - INTENT_KEYS
    if unknown:
        raise BadMessage(f"unexpected field {str(sorted(unknown)[0])[:MAX_TEXT]!r}")
    if message.get("type") != "intent":
        raise BadMessage("only intents are accepted")
    board_id = _text(message, "board")
    try:
        board = scene.board(board_id)
    except KeyError:
        raise BadMessage(f"there is no board {board_id!r} on screen") from None
    kind = message.get("kind")
    if kind == "drop":
        if not board.accepts_pieces:
            raise BadMessage(f"pieces cannot be dropped on {board.label}")
        piece = _text(message, "piece")
        if piece not in {p.id for p in scene.pieces}:
            raise BadMessage(f"there is no piece {piece!r} in the tray")
        turns = message.get("turns", 0)
        if type(turns) is not int or not 0 <= turns <= 3:
            raise BadMessage("turns must be 0, 1, 2 or 3")
        return Intent(
            board_id, "drop", _coord(message.get("at"), "at", board.rows, board.cols), piece=piece, turns=turns
        )
    if kind not in board.clickable:
        raise BadMessage(f"{kind!r} is not something to click on {board.label}")
    if kind == "cell":
        return Intent(board_id, "cell", _coord(message.get("at"), "at", board.rows, board.cols))
    at = _coord(message.get("at"), "at", board.rows + 1, board.cols + 1)
    if kind == "point":
        return Intent(board_id, "point", at)
    to = _coord(message.get("to"), "to", board.rows + 1, board.cols + 1)
    if abs(to[0] - at[0]) + abs(to[1] - at[1]) != 1:
        raise BadMessage("a segment joins two neighbouring points")
    return Intent(board_id, "segment", min(at, to), max(at, to))
