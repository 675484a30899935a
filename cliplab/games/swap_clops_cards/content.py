"""Swap Clops card game content: the deck (a shape, a colour and an offer value per card) and the scoring
chart of every trait, as TOML files in ``data/`` (the comment at the top of each file gives its format).

Two decks ship: ``deck`` (played by default) and ``draft`` (the first draft, kept so the tuning can be
compared; the game's ``deck`` option picks one). Everything is checked on load: a mistake raises
``ContentError`` naming the file, the entry and the problem. Cards of one shape and colour are alike (same
offer value), so a card is named by its pair, e.g. ``yellow_circle``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from os import PathLike
from pathlib import Path
from typing import Any

from cliplab.engine.content import read_toml
from cliplab.engine.errors import ContentError

SHAPES = ("circle", "square", "triangle")
COLOURS = ("yellow", "blue", "green", "red", "white")  # the five faces: happy, serious, bleeeh, angry, worried
KINDS = ("shape", "colour")
CHART_STEPS = 4  # a chart says how many cards score 1, 2, 3 and 4 points
DECKS = ("deck", "draft")
DATA = Path(__file__).parent / "data"


@dataclass(frozen=True, slots=True)
class Trait:
    """A shape or a colour: its scoring chart and how many cards of the deck carry it."""

    name: str
    kind: str
    chart: tuple[int, ...]
    count: int

    def points(self, cards: int) -> int:
        """What a set of this trait with `cards` cards scores."""
        return sum(cards >= needed for needed in self.chart)


@dataclass(frozen=True, slots=True)
class Card:
    shape: str
    colour: str
    count: int
    offer: int

    @property
    def name(self) -> str:
        return f"{self.colour}_{self.shape}"

    def trait(self, kind: str) -> str:
        return self.shape if kind == "shape" else self.colour


@dataclass(frozen=True)
class Deck:
    """One deck: its cards by name, its traits by name, and every card once per copy (sorted)."""

    file: str
    cards: Mapping[str, Card]
    traits: Mapping[str, Trait]
    copies: tuple[str, ...]


CARD_NAMES = tuple(f"{colour}_{shape}" for shape in SHAPES for colour in COLOURS)
# A card's name is its colour and shape, so which cards share a trait follows from the names alone.
NAME_TRAITS = {f"{colour}_{shape}": {"shape": shape, "colour": colour} for shape in SHAPES for colour in COLOURS}
TRAIT_NAMES = (*SHAPES, *COLOURS)


def _entry_fields(entry: Any, file: str, where: str, wanted: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(entry, dict):
        raise ContentError(file, where, "is not a table of fields")
    missing = [name for name in wanted if name not in entry]
    if missing:
        raise ContentError(file, where, f"has no {missing[0]} (it needs {', '.join(wanted)})")
    extra = sorted(set(entry) - set(wanted))
    if extra:
        raise ContentError(file, where, f"has a field {extra[0]!r} that a deck does not use")
    return entry


def _whole(value: Any, file: str, where: str, lowest: int) -> int:
    if type(value) is not int or value < lowest:
        raise ContentError(file, where, f"takes a whole number of at least {lowest}, not {value!r}")
    return value


def load_deck(path: str | PathLike[str], file: str | None = None) -> Deck:
    """Read and check a deck file; ContentError names the file, the entry and the problem."""
    file = str(path) if file is None else file
    document = read_toml(path, file)
    unknown = sorted(set(document) - {"trait", "card"})
    if unknown:
        raise ContentError(file, unknown[0], "is not a part of a deck file (it has [[trait]] and [[card]] entries)")
    charts: dict[str, tuple[str, tuple[int, ...]]] = {}
    for number, entry in enumerate(document.get("trait", []), 1):
        where = f"trait {number}"
        fields = _entry_fields(entry, file, where, ("name", "kind", "chart"))
        name = fields["name"]
        if name not in TRAIT_NAMES:
            raise ContentError(file, where, f"{name!r} is not a shape or colour ({', '.join(TRAIT_NAMES)})")
        where = f"trait {number} ({name})"
        if name in charts:
            raise ContentError(file, where, "is listed twice")
        kind = "shape" if name in SHAPES else "colour"
        if fields["kind"] != kind:
            raise ContentError(file, where, f"is a {kind}, not a {fields['kind']!r}")
        chart = fields["chart"]
        if not isinstance(chart, list) or len(chart) != CHART_STEPS:
            raise ContentError(file, where, f"its chart lists {CHART_STEPS} numbers of cards, not {chart!r}")
        steps = tuple(_whole(needed, file, f"{where} chart", 2) for needed in chart)
        if any(later <= earlier for earlier, later in pairwise(steps)):
            raise ContentError(file, where, f"its chart {list(steps)} must rise: each step needs more cards")
        charts[name] = (kind, steps)
    absent = [name for name in TRAIT_NAMES if name not in charts]
    if absent:
        raise ContentError(file, f"trait {absent[0]}", "has no [[trait]] entry with its chart")
    cards: dict[str, Card] = {}
    for number, entry in enumerate(document.get("card", []), 1):
        where = f"card {number}"
        fields = _entry_fields(entry, file, where, ("shape", "colour", "count", "offer"))
        if fields["shape"] not in SHAPES:
            raise ContentError(file, where, f"shape {fields['shape']!r} is not one of {', '.join(SHAPES)}")
        if fields["colour"] not in COLOURS:
            raise ContentError(file, where, f"colour {fields['colour']!r} is not one of {', '.join(COLOURS)}")
        card = Card(
            fields["shape"],
            fields["colour"],
            _whole(fields["count"], file, f"{where} count", 0),
            _whole(fields["offer"], file, f"{where} offer", 0),
        )
        if card.name in cards:
            raise ContentError(file, f"{where} ({card.name})", "this shape and colour are listed twice")
        cards[card.name] = card
    for name in CARD_NAMES:
        cards.setdefault(name, Card(NAME_TRAITS[name]["shape"], NAME_TRAITS[name]["colour"], 0, 0))
    traits = {}
    for name, (kind, steps) in charts.items():
        count = sum(card.count for card in cards.values() if card.trait(kind) == name)
        if steps[0] > count:
            raise ContentError(file, f"trait {name}", f"needs {steps[0]} cards for a point but the deck has {count}")
        traits[name] = Trait(name, kind, steps, count)
    for kind in KINDS:
        group = sorted((trait for trait in traits.values() if trait.kind == kind), key=lambda t: t.count)
        for rarer, commoner in pairwise(group):
            if rarer.count < commoner.count and any(a > b for a, b in zip(rarer.chart, commoner.chart, strict=True)):
                raise ContentError(
                    file,
                    f"trait {rarer.name}",
                    f"is rarer than {commoner.name} ({rarer.count} cards to {commoner.count}) but its chart"
                    f" {list(rarer.chart)} asks for more cards than {list(commoner.chart)}",
                )
    copies = tuple(sorted(name for name, card in cards.items() for _ in range(card.count)))
    if len(copies) < 20:
        raise ContentError(
            file, "", f"a deck needs at least 20 cards (four players are dealt five each), not {len(copies)}"
        )
    ordered = {name: cards[name] for name in CARD_NAMES}
    return Deck(file, ordered, {name: traits[name] for name in TRAIT_NAMES}, copies)


@cache
def deck(name: str = "deck") -> Deck:
    """A deck shipped with the game, by name (one of DECKS)."""
    if name not in DECKS:
        raise ContentError(f"{name}.toml", "", f"there is no deck {name!r} (the decks: {', '.join(DECKS)})")
    return load_deck(DATA / f"{name}.toml", f"{name}.toml")


__all__ = [
    "CARD_NAMES",
    "COLOURS",
    "DECKS",
    "KINDS",
    "NAME_TRAITS",
    "SHAPES",
    "TRAIT_NAMES",
    "Card",
    "Deck",
    "Trait",
    "deck",
    "load_deck",
]
