"""Reading a start position's named fields, each checked where it stands.

A game's position builder packs named fields into `GameConfig.start` (JSON text); the game's `_setup` reads
them back with these readers, so a position from the builder and one from a save file pass the same checks.
Each reader gets the value and the path that names it ("seats[1].pile[2]") and raises PositionError with
that path and the problem in words.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from .errors import PositionError


def check_fields(given: Mapping[str, Any], known: Collection[str], where: str = "") -> None:
    """Every given field is one the position knows."""
    for name in given:
        if name not in known:
            raise PositionError(f"{where}{name}", f"is not a field of this position (its fields: {', '.join(known)})")


def integer(value: Any, where: str, lowest: int | None = None, highest: int | None = None) -> int:
    if type(value) is not int:
        raise PositionError(where, f"takes a whole number, not {value!r}")
    if lowest is not None and value < lowest:
        raise PositionError(where, f"is at least {lowest}, not {value}")
    if highest is not None and value > highest:
        raise PositionError(where, f"is at most {highest}, not {value}")
    return value


def boolean(value: Any, where: str) -> bool:
    if type(value) is not bool:
        raise PositionError(where, f"takes true or false, not {value!r}")
    return value


def word(value: Any, where: str, choices: Sequence[str]) -> str:
    if value not in choices:
        raise PositionError(where, f"is one of {', '.join(choices)}, not {value!r}")
    return str(value)


def items(value: Any, where: str, length: int | None = None) -> list[Any]:
    """A list (a tuple from Python, an array from JSON), of `length` entries if given."""
    if not isinstance(value, list | tuple):
        raise PositionError(where, f"takes a list, not {value!r}")
    if length is not None and len(value) != length:
        raise PositionError(where, f"takes {length} entries, not {len(value)}")
    return list(value)


def mapping(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise PositionError(where, f"takes named entries, not {value!r}")
    return dict(value)


def place(value: Any, where: str, rows: int, cols: int, what: str = "square") -> tuple[int, int]:
    """A (row, col) pair inside a board of `rows` x `cols` (cells, or points when given one more each way)."""
    if not isinstance(value, list | tuple) or len(value) != 2 or any(type(part) is not int for part in value):
        raise PositionError(where, f"takes a {what} as (row, col), not {value!r}")
    row, col = value
    if not (0 <= row < rows and 0 <= col < cols):
        raise PositionError(where, f"{what} ({row}, {col}) is off the board (rows 0-{rows - 1}, columns 0-{cols - 1})")
    return row, col


def distinct(values: Sequence[Any], where: str, what: str) -> None:
    seen: set[Any] = set()
    for index, value in enumerate(values):
        if value in seen:
            raise PositionError(f"{where}[{index}]", f"{what} {value} is listed twice")
        seen.add(value)
