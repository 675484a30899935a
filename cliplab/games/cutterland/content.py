"""Cutterland content: the landscape deck, a TOML file in ``data/`` checked on load.

Each card is 3 rows by 4 columns of cells; a cell has a terrain and shows at most one thing, a monster or a
token icon. The file's comment block explains the two-letter cell codes. A mistake raises ``ContentError``
naming the file, the card and the problem (which cell, which code, and why).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from os import PathLike
from pathlib import Path
from typing import Any

from cliplab.engine.content import read_toml
from cliplab.engine.errors import ContentError

__all__ = [
    "CARD_COLS",
    "CARD_ROWS",
    "HOMES",
    "MONSTERS",
    "TERRAINS",
    "TOKENS",
    "Card",
    "ContentError",
    "card",
    "deck",
    "load_deck",
]

CARD_ROWS, CARD_COLS = 3, 4
TERRAINS = {"M": "meadow", "S": "wasteland", "W": "water"}
MONSTERS = {"C": "centaur", "D": "dragon", "T": "turtle", "G": "goblin", "F": "frog", "K": "kraken"}
TOKENS = {"t": "tower", "w": "wall", "b": "bridge"}
NOTHING = "."
# The terrains each monster lives on (the seed's list).
HOMES = {"C": "M", "D": "MS", "T": "MW", "G": "S", "F": "SW", "K": "W"}
SMALLEST_DECK = 60

DATA_DIR = Path(__file__).parent / "data"
DECK_FILE = DATA_DIR / "deck.toml"
_CARD_KEYS = ("number", "cells")


@dataclass(frozen=True)
class Card:
    """One landscape card: `cells[r][c]` is a two-letter code (terrain, then monster, token icon or ".")."""

    number: int
    cells: tuple[tuple[str, ...], ...]

    def code(self, row: int, col: int) -> str:
        return self.cells[row][col]

    def text(self) -> str:
        return "\n".join(" ".join(row) for row in self.cells)


def _read_cells(text: Any, file: str, entry: str) -> tuple[tuple[str, ...], ...]:
    if not isinstance(text, str):
        raise ContentError(file, entry, f"cells is a picture between triple quotes, not {text!r}")
    lines = [line.split() for line in text.strip().splitlines() if line.strip()]
    if len(lines) != CARD_ROWS:
        raise ContentError(file, entry, f"a card has {CARD_ROWS} rows of cells, this one {len(lines)}")
    rows = []
    for r, codes in enumerate(lines):
        if len(codes) != CARD_COLS:
            raise ContentError(file, entry, f"row {r} has {len(codes)} cells; every row has {CARD_COLS}")
        for c, code in enumerate(codes):
            _check_code(code, file, f"{entry}, cell {r},{c}")
        rows.append(tuple(codes))
    return tuple(rows)


def _check_code(code: str, file: str, where: str) -> None:
    if len(code) != 2:
        raise ContentError(file, where, f"{code!r} is not a two-letter cell code (terrain, then what it shows)")
    terrain, thing = code[0], code[1]
    if terrain not in TERRAINS:
        known = ", ".join(f"{k} {v}" for k, v in TERRAINS.items())
        raise ContentError(file, where, f"{terrain!r} is not a terrain ({known})")
    if thing in MONSTERS:
        if terrain not in HOMES[thing]:
            homes = " or ".join(TERRAINS[t] for t in HOMES[thing])
            raise ContentError(
                file, where, f"a {MONSTERS[thing]} does not live on {TERRAINS[terrain]} (it lives on {homes})"
            )
    elif thing not in TOKENS and thing != NOTHING:
        raise ContentError(file, where, f"{thing!r} is not a monster, a token icon or '.' (nothing)")


def _read_card(raw: Any, file: str, index: int) -> Card:
    entry = f"card #{index + 1} in the file"
    if not isinstance(raw, Mapping):
        raise ContentError(file, entry, "each [[card]] is a table")
    number = raw.get("number")
    if type(number) is not int or number < 1:
        raise ContentError(file, entry, f"number is a whole number from 1, not {number!r}")
    entry = f"card {number}"
    for key in _CARD_KEYS:
        if key not in raw:
            raise ContentError(file, entry, f"the key {key!r} is missing")
    for key in raw:
        if key not in _CARD_KEYS:
            raise ContentError(file, entry, f"unknown key {key!r} (the keys are {', '.join(_CARD_KEYS)})")
    return Card(number, _read_cells(raw["cells"], file, entry))


def load_deck(path: str | PathLike[str] = DECK_FILE, smallest: int = SMALLEST_DECK) -> dict[int, Card]:
    """The cards of a deck file by number, every card checked (ContentError names the file and the card)."""
    file = Path(path).name
    document = read_toml(path, file)
    raw_cards = document.get("card")
    if not isinstance(raw_cards, list):
        raise ContentError(file, "", "the file holds no [[card]] tables")
    for key in document:
        if key != "card":
            raise ContentError(file, "", f"unknown table {key!r} (the file holds [[card]] tables only)")
    cards: dict[int, Card] = {}
    for index, raw in enumerate(raw_cards):
        found = _read_card(raw, file, index)
        if found.number in cards:
            raise ContentError(file, f"card {found.number}", "this number is used by an earlier card too")
        cards[found.number] = found
    if len(cards) < smallest:
        raise ContentError(file, "", f"a deck has at least {smallest} cards, this one {len(cards)}")
    return cards


@cache
def deck() -> dict[int, Card]:
    """The game's deck (read and checked once)."""
    return load_deck()


def card(number: int) -> Card:
    return deck()[number]
