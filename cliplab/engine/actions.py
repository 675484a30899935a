"""Actions: small immutable values with a text form that parses back.

A game declares each kind of action as a frozen dataclass deriving from `Action` with a TEMPLATE such as
"walk {direction} with penguin {penguin}". Fields are ints, strings or tuples of ints (written as numbers
separated by spaces: a whole deal in one chance event); `ActionCodec` turns the templates of one game into a
parser, so the text a person types, the log and the save file all speak one language.
"""

from __future__ import annotations

import re
from abc import abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields
from itertools import chain, repeat
from operator import is_
from typing import Any, ClassVar, get_type_hints, overload

from .errors import IllegalAction


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action. Subclasses are frozen dataclasses with a TEMPLATE."""

    TEMPLATE: ClassVar[str] = ""
    # A secret action is hidden from other players' views until the game reveals it.
    SECRET: ClassVar[bool] = False
    # A chance event is drawn by the engine from the game's seed, never chosen by a player.
    CHANCE: ClassVar[bool] = False
    # The allowed values of each string field, spelled as the text form spells them.
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {}

    def __str__(self) -> str:
        return self.TEMPLATE.format(**{f.name: _written(getattr(self, f.name)) for f in fields(self)})


def _written(value: Any) -> Any:
    """A field as its text form shows it: a tuple of numbers as the numbers separated by spaces."""
    return " ".join(map(str, value)) if type(value) is tuple else value


@dataclass(frozen=True, slots=True)
class Hidden(Action):
    """Stands in a view's log for an entry its seat may not see: another player's secret choice."""

    TEMPLATE: ClassVar[str] = "(a hidden choice)"


@dataclass(frozen=True, slots=True)
class HiddenChance(Hidden):
    """Stands in a view's log for a chance result its seat has not seen: a card dealt face down."""

    TEMPLATE: ClassVar[str] = "(a hidden chance event)"


class ListedActions(Sequence[Action]):
    """A legal list that a game keeps in a form of its own instead of a Python list: it counts and indexes
    its actions without making a list of them, so a random player that wants one action of thousands pays
    for one. It is read-only, so the engine hands the game's own object to every caller. It reads as the
    list it stands for: in the same order, equal to that list, printed as it, a slice of it is a list.

    A subclass gives `__len__`, `_at` (an index from 0 below the length) and `__iter__`, and may answer
    `holds` faster than by walking through its actions. `handed` is the action it last handed out by index
    (unset before the first): a random player's pick, which the engine knows is listed without asking
    `holds`."""

    __slots__ = ("handed",)

    @abstractmethod
    def _at(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if isinstance(index, slice):
            return list(self)[index]
        action = self.handed = self._at(range(len(self))[index])  # negative indexes from the end; IndexError past it
        return action

    def holds(self, action: Action) -> bool:
        """Whether `action` is one of these very objects (the engine's test of a chosen action)."""
        return any(map(is_, self, repeat(action)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ListedActions | list):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to a list, which has no hash

    def __repr__(self) -> str:
        return repr(list(self))

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.pretty(list(self))  # as IPython shows a list, line by line when long


class ActionsInParts(ListedActions):
    """A legal list kept as the tuples it is made of (a hand's cards, each with its own actions), in order."""

    __slots__ = ("length", "parts")

    def __init__(self, parts: Sequence[tuple[Action, ...]]) -> None:
        self.parts = tuple(parts)
        self.length = sum(map(len, self.parts))

    def __len__(self) -> int:
        return self.length

    def _at(self, index: int) -> Action:
        for part in self.parts:
            if index < len(part):
                return part[index]
            index -= len(part)
        raise AssertionError("unreachable: the index was checked against the length")

    def __iter__(self) -> Iterator[Action]:
        return chain.from_iterable(self.parts)

    def __contains__(self, action: object) -> bool:
        return any(action in part for part in self.parts)


# Bounds checked before any parsing, so no action text costs more than a glance: the longest real action is
# well under a hundred characters, and no board or count needs more than six digits.
MAX_ACTION_TEXT = 400
MAX_NUMBER_DIGITS = 6

_FIELD_SPLIT = re.compile(r"(\{\w+\})")
_NUMBERS = tuple[int, ...]
_VALUE_PATTERNS = {int: r"-?\d+", str: r"[A-Za-z_]+", _NUMBERS: r"-?\d+(?: -?\d+)*"}


def _normal_spacing(text: str) -> str:
    """One space between words and none around commas, so "2, 3" and "2,3" read alike."""
    return re.sub(r"\s*,\s*", ",", " ".join(text.split()))


class ActionCodec:
    """Parses the text forms of one game's action classes (case and extra spaces don't matter).

    String fields take their allowed values from the class's CHOICES; the parsed value is the canonical
    spelling from there, so "walk n" and "walk N" give the same action.
    """

    def __init__(self, *classes: type[Action]) -> None:
        self.classes = classes
        self._parsers: list[tuple[re.Pattern[str], type[Action], dict[str, type]]] = []
        self._field_types: dict[type[Action], dict[str, type]] = {}
        for cls in classes:
            hints = get_type_hints(cls)
            types = self._field_types[cls] = {f.name: hints[f.name] for f in fields(cls)}
            self._parsers.append((self._compile(cls.TEMPLATE, types), cls, types))

    @staticmethod
    def _compile(template: str, types: dict[str, type]) -> re.Pattern[str]:
        out = []
        for part in _FIELD_SPLIT.split(_normal_spacing(template)):
            if part.startswith("{"):
                name = part[1:-1]
                out.append(f"(?P<{name}>{_VALUE_PATTERNS[types[name]]})")
            else:
                out.append(" ".join(re.escape(word) for word in part.split(" ")))
        return re.compile("".join(out), re.IGNORECASE)

    def parse(self, text: Any) -> Action:
        """The action that `text` spells, or IllegalAction(rule="action text") saying what was expected."""
        if not isinstance(text, str):
            raise IllegalAction("action text", text, f"expected text, got {type(text).__name__}")
        if len(text) > MAX_ACTION_TEXT:
            too_long = f"an action is at most {MAX_ACTION_TEXT} characters, this has {len(text)}"
            raise IllegalAction("action text", text, too_long)
        cleaned = _normal_spacing(text)
        for pattern, cls, types in self._parsers:
            m = pattern.fullmatch(cleaned)
            if not m:
                continue
            values: dict[str, Any] = {}
            for name, kind in types.items():
                if kind is int:
                    values[name] = _number(m[name], name, text)
                    continue
                if kind == _NUMBERS:
                    values[name] = tuple(_number(word, name, text) for word in m[name].split(" "))
                    continue
                allowed = cls.CHOICES[name]
                canonical = {choice.lower(): choice for choice in allowed}.get(m[name].lower())
                if canonical is None:
                    raise IllegalAction("action text", text, f"{m[name]!r} is not one of {', '.join(allowed)}")
                values[name] = canonical
            return cls(**values)
        forms = "; ".join(f'"{cls.TEMPLATE}"' for _, cls, _ in self._parsers if not cls.CHANCE)
        raise IllegalAction("action text", text, f"this game has no action written like that (forms: {forms})")

    def check(self, action: Action) -> None:
        """Refuse, as IllegalAction, an action built in Python that no text of this game parses to: a kind the
        game does not have, or a field of the wrong type or spelling (2.0 or "2" for a number, a word that
        is not one of the field's choices), so the rules only ever judge values their text could give."""
        types = self._field_types.get(type(action))
        if types is None:
            raise IllegalAction("actions", action, f"{type(action).__name__} is not one of this game's actions")
        for name, kind in types.items():
            value = getattr(action, name)
            if kind is int:
                if type(value) is not int:
                    raise IllegalAction("actions", action, f"{name} must be a whole number, not {value!r}")
            elif kind == _NUMBERS:
                if type(value) is not tuple or not all(type(number) is int for number in value):
                    raise IllegalAction("actions", action, f"{name} must be a tuple of whole numbers, not {value!r}")
            elif type(value) is not str or value not in type(action).CHOICES[name]:
                choices = ", ".join(type(action).CHOICES[name])
                raise IllegalAction("actions", action, f"{name} must be one of {choices}, not {value!r}")


def _number(word: str, name: str, text: str) -> int:
    """One number of field `name`, refused before conversion when it is longer than any real one."""
    digits = word.lstrip("-")
    if len(digits) > MAX_NUMBER_DIGITS:
        too_many = f"{name} has {len(digits)} digits; at most {MAX_NUMBER_DIGITS} are read"
        raise IllegalAction("action text", text, too_many)
    return int(word)
