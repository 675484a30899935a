"""Game facts as data: the spec every game declares at the top of its rules, its options and variants."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .errors import OptionError, PositionError

if TYPE_CHECKING:
    from .state import State

OptionValue = bool | int | str


@dataclass(frozen=True, slots=True)
class Option:
    """A named variant option: its type, its default (the RULINGS.md one) and what values it takes."""

    name: str
    kind: type
    default: OptionValue
    help: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def check(self, value: Any) -> OptionValue:
        """The value if this option accepts it; text (from a command line) is converted first."""
        if isinstance(value, str) and self.kind is not str:
            value = self._from_text(value)
        # bool is a subclass of int: an int option must not take True.
        if type(value) is not self.kind or not isinstance(value, bool | int | str):
            raise OptionError(f"option {self.name} takes a {self.kind.__name__}, not {value!r}")
        if self.choices and value not in self.choices:
            raise OptionError(f"option {self.name} is one of {', '.join(self.choices)}, not {value!r}")
        if isinstance(value, int) and self.minimum is not None and value < self.minimum:
            raise OptionError(f"option {self.name} is at least {self.minimum}, not {value!r}")
        if isinstance(value, int) and self.maximum is not None and value > self.maximum:
            raise OptionError(f"option {self.name} is at most {self.maximum}, not {value!r}")
        return value

    def _from_text(self, text: str) -> OptionValue:
        if self.kind is bool:
            lowered = text.strip().lower()
            if lowered in ("true", "yes", "1", "on"):
                return True
            if lowered in ("false", "no", "0", "off"):
                return False
            raise OptionError(f"option {self.name} takes true or false, not {text!r}")
        try:
            return int(text)
        except ValueError:
            raise OptionError(f"option {self.name} takes a whole number, not {text!r}") from None


def round_limit(default: int) -> Option:
    """The house-rule option that bounds a game whose rulebook sets no limit on its rounds."""
    return Option(
        "round_limit",
        int,
        default,
        "rounds after which the game stops and is scored (the rulebook has no limit)",
        minimum=1,
        maximum=1000,
    )


def _sorted_set(value: Any) -> list[Any]:
    """Sets in a start position are written sorted, so that equal positions give equal text."""
    if isinstance(value, set | frozenset):
        return sorted(value, key=lambda item: json.dumps(item, sort_keys=True))
    raise TypeError(f"{type(value).__name__} is not plain data")


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Everything that fixes a game before the first action: name, seats, seed, options and where it starts.

    `start` is "" for the rules' own setup, or a start position: the game's named position fields as
    canonical JSON (sorted keys, no spaces), which the rules' `_setup` checks and applies. Keeping it as
    text keeps the configuration frozen and hashable, and a save carries it as it is.
    A view's config holds no seed (None): chance still to come must not be computable from a view.
    """

    game: str
    players: int
    seed: int | None
    options: tuple[tuple[str, OptionValue], ...]
    start: str = ""

    def option(self, name: str) -> Any:
        for key, value in self.options:
            if key == name:
                return value
        raise KeyError(name)

    def starting_at(self, fields: Mapping[str, Any]) -> GameConfig:
        """This configuration beginning from a start position given as named fields of plain data."""
        try:
            text = json.dumps(fields, sort_keys=True, separators=(",", ":"), default=_sorted_set)
        except (TypeError, ValueError) as err:
            raise PositionError("start", f"a position holds plain data only ({err})") from None
        return replace(self, start=text)

    def start_fields(self) -> dict[str, Any] | None:
        """The start position's fields, or None when the game begins with the rules' own setup."""
        if not self.start:
            return None
        try:
            fields = json.loads(self.start)
        except json.JSONDecodeError as err:
            raise PositionError("start", f"not valid JSON ({err.msg})") from None
        if not isinstance(fields, dict):
            raise PositionError("start", "a start position is a JSON object of named fields")
        return fields


@dataclass(frozen=True)
class GameSpec:
    """What a game is: players, options, named variants and its longest possible length in actions.

    Its traits say what kind of game it is, for the kit and the contract tests: `simultaneous` (several
    seats may be to move at once), `hidden_information` (some views hide something: secret decisions,
    face-down cards), `chance` (the game draws chance events from its seed).
    """

    name: str
    title: str
    summary: str
    min_players: int
    max_players: int
    default_players: int
    options: tuple[Option, ...]
    state_class: type[State]
    # The longest possible game, in log entries, for a number of players and resolved options.
    max_length: Callable[[int, Mapping[str, OptionValue]], int]
    variants: Mapping[str, Mapping[str, OptionValue]] = field(default_factory=dict)
    simultaneous: bool = False
    hidden_information: bool = False
    chance: bool = False

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, OptionValue]:
        """All options with defaults filled in; an unknown name or bad value raises OptionError."""
        known = {option.name: option for option in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            names = ", ".join(known) or "none"
            raise OptionError(f"{self.name} has no option {unknown[0]!r} (its options: {names})")
        return {name: option.check(given.get(name, option.default)) for name, option in known.items()}

    def config(
        self, players: int | None = None, seed: int = 0, variant: str | None = None, **options: Any
    ) -> GameConfig:
        """A checked configuration; a variant's options come first, explicit options override them."""
        if players is None:
            players = self.default_players
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise OptionError(f"{self.title} is for {self.min_players}-{self.max_players} players, not {players!r}")
        if type(seed) is not int:
            raise OptionError(f"the seed is a whole number, not {seed!r}")
        chosen: dict[str, Any] = {}
        if variant is not None:
            if variant not in self.variants:
                raise OptionError(f"{self.name} has no variant {variant!r} (its variants: {', '.join(self.variants)})")
            chosen.update(self.variants[variant])
        chosen.update(options)
        resolved = self.resolve_options(chosen)
        return GameConfig(self.name, players, seed, tuple(sorted(resolved.items())))

    def new(self, players: int | None = None, seed: int = 0, variant: str | None = None, **options: Any) -> State:
        """A new game in its starting state."""
        return self.state_class(self.config(players, seed, variant, **options))

    def longest(self, config: GameConfig) -> int:
        return self.max_length(config.players, dict(config.options))
