"""Paper World content: the landscape cards, their stars, the score tokens and the objective patterns.

Both are TOML files in ``data/`` (``deck.toml``, ``objectives.toml``), each explained by the comment at its
top, so a designer can change a star value or an objective without touching code. Everything is checked
on load: a mistake raises ``ContentError`` naming the file, the entry and the problem.

Cards are numbered once for the largest (4-player) game: the base set's cards first, then each added set's,
colour by colour and value by value, then the four starting "1" cards. A smaller game uses the first sets
only, so a card keeps its number whatever the player count.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from cliplab.engine.content import read_toml
from cliplab.engine.errors import ContentError

DATA = Path(__file__).parent / "data"
VALUES = (1, 2, 3, 4, 5)
SIDE = 3  # a landscape lies within 3 x 3
SHAPE_RULES = ("one_colour", "one_value", "all_colours", "sum", "run", "value")
COUNT_RULES = ("stacks", "values", "colours", "high", "stars")
# The most each count can reach in a 3 x 3 landscape (stars: nine stacks showing the best value).
COUNT_MOST = {"stacks": 9, "values": len(VALUES), "colours": SIDE * SIDE, "high": SIDE * SIDE}
# The published deck (RULINGS.md): per colour, the base set's count of each value and its scissors marks;
# each added set (one per player beyond two) holds one card of every value with one scissors mark.
BASE_COUNTS = {1: 4, 2: 3, 3: 3, 4: 2, 5: 1}
BASE_SCISSORS = 3
ADDED_COUNTS = dict.fromkeys(VALUES, 1)
ADDED_SCISSORS = 1
Cell = tuple[int, int]
Top = tuple[str, int]  # the colour and value a stack shows


@dataclass(frozen=True, slots=True)
class Card:
    number: int
    colour: str
    value: int
    scissors: bool
    start: bool  # one of the four starting "1" cards
    players: int  # the smallest player count whose deck holds it (2 for the base set and the start cards)

    def __str__(self) -> str:
        mark = " with scissors" if self.scissors else ""
        return f"{self.colour} {self.value}{mark}"


@dataclass(frozen=True)
class Deck:
    colours: tuple[str, ...]
    cards: tuple[Card, ...]
    stars: Mapping[int, int]
    tokens: Mapping[int, tuple[int, ...]]

    def deck(self, players: int) -> tuple[int, ...]:
        """The numbers of the landscape cards (start cards aside) in a game of `players`."""
        return tuple(c.number for c in self.cards if not c.start and c.players <= players)

    def start_cards(self) -> tuple[int, ...]:
        return tuple(c.number for c in self.cards if c.start)


def _need(condition: object, file: str, entry: str, problem: str) -> None:
    if not condition:
        raise ContentError(file, entry, problem)


def _get(table: Mapping[str, Any], key: str, default: Any = None) -> Any:
    """A table's entry as an unchecked value (each caller checks it)."""
    return table.get(key, default)


def _table(raw: Any, file: str, entry: str, problem: str) -> dict[str, Any]:
    _need(isinstance(raw, dict), file, entry, problem)
    return dict(raw)


def _array(raw: Any, file: str, entry: str, problem: str) -> list[Any]:
    _need(isinstance(raw, list), file, entry, problem)
    return list(raw)


def _counts(raw: Any, file: str, entry: str) -> dict[int, int]:
    _need(isinstance(raw, dict), file, entry, "counts is a table of value = how many")
    found: dict[int, int] = {}
    for key, count in raw.items():
        _need(key in {str(v) for v in VALUES}, file, entry, f"{key!r} is not a card value (1-5)")
        _need(type(count) is int and count >= 0, file, entry, f"value {key} needs a count of 0 or more, not {count!r}")
        found[int(key)] = count
    return found


def _scissors(raw: Any, counts: Mapping[int, int], file: str, entry: str) -> list[int]:
    _need(isinstance(raw, list), file, entry, "scissors is a list of values")
    for value in raw:
        _need(
            type(value) is int and value in (1, 2, 3, 4),
            file,
            entry,
            f"the scissors logo is on values 1-4 only, not {value!r}",
        )
        marked = raw.count(value)
        _need(
            marked <= counts.get(value, 0),
            file,
            entry,
            f"{marked} scissors on value {value} but only {counts.get(value, 0)} such cards",
        )
    return list(raw)


def read_deck(path: Path = DATA / "deck.toml", file: str = "deck.toml") -> Deck:
    """The cards, stars and tokens in a deck file, checked (ContentError says what is wrong and where)."""
    raw = read_toml(path, file)
    colours = _get(raw, "colours")
    _need(
        isinstance(colours, list)
        and len(colours) == 4
        and len(set(colours)) == 4
        and all(isinstance(c, str) and c.isalpha() for c in colours),
        file,
        "colours",
        "four different colour names, letters only",
    )
    stars_raw = _table(_get(raw, "stars"), file, "stars", "a table of value = stars")
    _need(set(stars_raw) == {str(v) for v in VALUES}, file, "stars", "one star value for each card value 1-5")
    stars = {int(k): v for k, v in stars_raw.items()}
    for value in VALUES:
        _need(type(stars[value]) is int and stars[value] >= 0, file, f"stars.{value}", "stars are whole numbers >= 0")
    added = _array(_get(raw, "added", []), file, "added", "added sets are [[added]] tables")
    sets_raw = [("base", _get(raw, "base"))] + [(f"added[{i}]", s) for i, s in enumerate(added)]
    _need(len(sets_raw) == 3, file, "added", "the 3- and 4-player decks each add one set: two [[added]] tables")
    cards: list[Card] = []
    set_counts = []
    for index, (entry, body) in enumerate(sets_raw):
        body = _table(body, file, entry, "a table with counts and scissors")
        counts = _counts(_get(body, "counts"), file, entry)
        marked = _scissors(_get(body, "scissors"), counts, file, entry)
        published, logos = (BASE_COUNTS, BASE_SCISSORS) if index == 0 else (ADDED_COUNTS, ADDED_SCISSORS)
        _need(
            {v: counts.get(v, 0) for v in VALUES} == published,
            file,
            entry,
            f"the published set holds per colour {published}, not {counts}",
        )
        _need(
            len(marked) == logos, file, entry, f"the published set has {logos} scissors per colour, not {len(marked)}"
        )
        set_counts.append(counts)
        for colour in colours:
            for value in VALUES:
                logos = marked.count(value)
                for copy in range(counts.get(value, 0)):
                    cards.append(Card(len(cards), colour, value, copy < logos, False, 2 + index))
    for colour in colours:
        cards.append(Card(len(cards), colour, 1, False, True, 2))
    base = set_counts[0]
    # Stars rise with rarity: a value never held by more copies than a lower one is worth less than it.
    for low in VALUES:
        for high in VALUES:
            if base.get(high, 0) < base.get(low, 0) or (high > low and base.get(high, 0) == base.get(low, 0)):
                _need(
                    stars[high] >= stars[low],
                    file,
                    f"stars.{high}",
                    f"value {high} is rarer than value {low} but has fewer stars",
                )
    tokens_raw = _table(_get(raw, "tokens"), file, "tokens", "a table of player count = tokens")
    _need(set(tokens_raw) == {"2", "3", "4"}, file, "tokens", "score tokens for 2, 3 and 4 players")
    tokens: dict[int, tuple[int, ...]] = {}
    for key, row in tokens_raw.items():
        _need(
            isinstance(row, list)
            and row
            and all(type(t) is int and t > 0 for t in row)
            and row == sorted(row, reverse=True),
            file,
            f"tokens.{key}",
            "positive whole numbers, highest first",
        )
        tokens[int(key)] = tuple(row)
    return Deck(tuple(colours), tuple(cards), stars, tokens)


# ----- objectives ------------------------------------------------------------------------------------


def _orientations(cells: Iterable[Cell]) -> tuple[tuple[Cell, ...], ...]:
    """The shape's turns and mirror images, each in reading order and moved to touch row 0 and column 0."""
    found = []
    shape = list(cells)
    for mirror in (False, True):
        turned = [(r, -c) if mirror else (r, c) for r, c in shape]
        for _ in range(4):
            turned = [(c, -r) for r, c in turned]
            top, left = min(r for r, _ in turned), min(c for _, c in turned)
            form = tuple(sorted((r - top, c - left) for r, c in turned))
            if form not in found:
                found.append(form)
    return tuple(found)


@dataclass(frozen=True)
class Objective:
    number: int
    name: str
    kind: str  # shape | count
    rule: str
    target: int
    shape: tuple[str, ...] = ()

    @property
    def cells(self) -> tuple[Cell, ...]:
        return tuple((r, c) for r, row in enumerate(self.shape) for c, mark in enumerate(row) if mark == "X")

    def met(self, tops: Mapping[Cell, Top], stars: Mapping[int, int]) -> bool:
        """Whether a landscape whose stacks show `tops` fulfils this objective."""
        if self.kind == "count":
            return _count(self.rule, tops, stars) >= self.target
        forms = _forms(self.shape)
        size = len(forms[0])
        if len(tops) < size:
            return False
        if self.rule in ALIKE_RULES:
            # Every stack of the shape shows one colour or one value: it is looked for among those stacks only.
            groups = _alike(self.rule, self.target, tops)
            return any(len(cells) >= size and _covers(self.shape, frozenset(cells)) for cells in groups)
        if not _enough(self.rule, self.target, size, tops):
            return False
        for form in forms:
            for row, col in tops:
                # Each placement is tried from the stack under the shape's first cell.
                shown = [tops.get((row + dr, col + dc)) for dr, dc in form]
                if all(shown) and _shape_rule(self.rule, self.target, shown):  # type: ignore[arg-type]
                    return True
        return False


@cache
def _forms(shape: tuple[str, ...]) -> tuple[tuple[Cell, ...], ...]:
    """A shape's orientations, each as steps from its first cell to every cell (the first step is (0, 0))."""
    cells = [(r, c) for r, row in enumerate(shape) for c, mark in enumerate(row) if mark == "X"]
    return tuple(tuple((r - form[0][0], c - form[0][1]) for r, c in form) for form in _orientations(cells))


ALIKE_RULES = ("one_colour", "one_value", "value")


def _alike(rule: str, target: int, tops: Mapping[Cell, Top]) -> list[set[Cell]]:
    """The landscape's cells in groups that may hold a shape under an ALIKE_RULES rule: by colour, by value,
    or the cells showing the target value."""
    if rule == "value":
        return [{at for at, (_, value) in tops.items() if value == target}]
    groups: dict[object, set[Cell]] = {}
    for at, (colour, value) in tops.items():
        groups.setdefault(colour if rule == "one_colour" else value, set()).add(at)
    return list(groups.values())


@lru_cache(maxsize=1 << 16)
def _covers(shape: tuple[str, ...], cells: frozenset[Cell]) -> bool:
    """Whether some orientation of the shape lies wholly on `cells` (few sets of cells fit in 3 x 3, so each
    answer is kept)."""
    return any(
        all((row + dr, col + dc) in cells for dr, dc in form[1:]) for form in _forms(shape) for row, col in cells
    )


def _enough(rule: str, target: int, size: int, tops: Mapping[Cell, Top]) -> bool:
    """Whether the landscape has stacks enough, anywhere, for a shape of `size` stacks under `rule`: a quick
    refusal of most landscapes before the shape itself is looked for."""
    values = [value for _, value in tops.values()]
    if rule == "all_colours":
        return len({colour for colour, _ in tops.values()}) >= size
    if rule == "sum":
        values.sort()
        return sum(values[:size]) <= target <= sum(values[-size:])
    shown = set(values)  # "run": some value and the next size - 1 after it are all showing
    return any(all(value + step in shown for step in range(size)) for value in shown)


def _shape_rule(rule: str, target: int, shown: list[Top]) -> bool:
    colours = [colour for colour, _ in shown]
    values = [value for _, value in shown]
    if rule == "one_colour":
        return len(set(colours)) == 1
    if rule == "one_value":
        return len(set(values)) == 1
    if rule == "all_colours":
        return len(set(colours)) == len(colours)
    if rule == "sum":
        return sum(values) == target
    if rule == "run":
        return all(b == a + 1 for a, b in itertools.pairwise(values)) or all(
            b == a - 1 for a, b in itertools.pairwise(values)
        )
    return all(value == target for value in values)  # "value"


def _count(rule: str, tops: Mapping[Cell, Top], stars: Mapping[int, int]) -> int:
    if rule == "stacks":
        return len(tops)
    if rule == "values":
        return len({value for _, value in tops.values()})
    if rule == "colours":
        colours = [colour for colour, _ in tops.values()]
        return max((colours.count(c) for c in colours), default=0)
    if rule == "high":
        return sum(value >= 4 for _, value in tops.values())
    return sum(stars[value] for _, value in tops.values())  # "stars"


def read_objectives(path: Path = DATA / "objectives.toml", file: str = "objectives.toml") -> tuple[Objective, ...]:
    raw = read_toml(path, file)
    entries = _array(_get(raw, "objective"), file, "objective", "objectives are [[objective]] tables")
    _need(len(entries) >= 3, file, "objective", "at least three [[objective]] tables")
    found = []
    names = set()
    for number, body in enumerate(entries):
        entry = f"objective[{number}]"
        body = _table(body, file, entry, "a table")
        name = _get(body, "name")
        _need(isinstance(name, str) and name.strip() != "", file, entry, "needs a name")
        _need(name not in names, file, entry, f"the name {name!r} is used twice")
        names.add(name)
        entry = f"objective[{number}] ({name})"
        kind, rule, target = _get(body, "kind"), _get(body, "rule"), _get(body, "target", 0)
        _need(kind in ("shape", "count"), file, entry, f"kind is shape or count, not {kind!r}")
        _need(type(target) is int and target >= 0, file, entry, f"target is a whole number, not {target!r}")
        if kind == "count":
            _need(rule in COUNT_RULES, file, entry, f"a count's rule is one of {', '.join(COUNT_RULES)}, not {rule!r}")
            most = COUNT_MOST.get(rule, SIDE * SIDE * max(deck().stars.values()))
            _need(1 <= target <= most, file, entry, f"a count of {rule} needs a target from 1 to {most}, not {target}")
            found.append(Objective(number, name, kind, rule, target))
            continue
        _need(rule in SHAPE_RULES, file, entry, f"a shape's rule is one of {', '.join(SHAPE_RULES)}, not {rule!r}")
        shape = _get(body, "shape")
        _need(
            isinstance(shape, list) and shape and all(isinstance(row, str) for row in shape),
            file,
            entry,
            "shape is a list of rows of X and .",
        )
        _need(all(set(row) <= {"X", "."} for row in shape), file, entry, "a shape's rows hold only X and .")
        _need(
            len(shape) <= SIDE and all(len(row) <= SIDE for row in shape),
            file,
            entry,
            "a shape fits in the 3 x 3 landscape",
        )
        count = sum(row.count("X") for row in shape)
        _need(count >= 2, file, entry, "a shape has at least two stacks (X)")
        if rule == "value":
            _need(target in VALUES, file, entry, f"the rule value needs a card value 1-5 as its target, not {target}")
        if rule == "sum":
            _need(
                count <= target <= 5 * count,
                file,
                entry,
                f"{count} stacks can sum to {count}-{5 * count} only, not {target}",
            )
        if rule == "all_colours":
            _need(count <= len(deck().colours), file, entry, "all_colours needs no more stacks than there are colours")
        found.append(Objective(number, name, kind, rule, target, tuple(shape)))
    return tuple(found)


@cache
def deck() -> Deck:
    return read_deck()


@cache
def objectives() -> tuple[Objective, ...]:
    return read_objectives()
