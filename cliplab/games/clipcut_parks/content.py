"""ClipCut Parks content: the park sheets, the 30 park cards and the 12 grand park cards.

Cards and the standard sheet are TOML files in ``data/`` next to this module, drawn as small pictures so
a designer can change a card without touching code; the comment block at the top of each file explains
its format. Everything is checked on load: a mistake raises ``ContentError`` naming the file, the card
and the problem. The 100 sheets of the pad are not stored: each comes from a seeded generator, so pad
sheet ``n`` is the same on every machine.

Coordinates are ``(row, col)`` cells, rows growing downward, both counted from 0 at the top left.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from os import PathLike
from pathlib import Path
from typing import Any

from cliplab.engine.content import read_toml
from cliplab.engine.errors import ContentError
from cliplab.grid import Cell, neighbours4, parts

__all__ = [
    "BONUSES",
    "COLOURS",
    "DIE_FACES",
    "ICONS",
    "PAD_FILE",
    "PAD_SIZE",
    "REQUIREMENTS",
    "SHEET_COLS",
    "SHEET_ROWS",
    "SIZE_LIMITS",
    "Cell",
    "ContentError",
    "ParkCard",
    "Sheet",
    "Square",
    "card",
    "card_from_text",
    "generate_sheet",
    "grand_park_cards",
    "load_cards",
    "load_sheet",
    "pad_sheet",
    "pad_text",
    "park_cards",
    "sheet_from_text",
    "standard_sheet",
]

COLOURS = ("pavilion", "water", "greenery", "play")  # tents, water, trees, people
ICONS = ("wildlife", "recycling")
REQUIREMENTS = ("blank", *COLOURS, *ICONS)  # what a park-card space asks for
BONUSES = ("wildlife", "recycling", "gardener", "cut")  # cut = the immediate "1 or 2 cut" bonus
SHEET_ROWS, SHEET_COLS = 7, 9
DIE_FACES: tuple[tuple[int, ...], ...] = ((1, 1, 1, 1), (1, 2, 3), (4,), (3, 3), (2, 2), (1, 1, 2))
PAD_SIZE = 100

# How many spaces a card of each kind may have (inclusive).
SIZE_LIMITS: dict[str, tuple[int, int]] = {"park": (4, 7), "grand": (8, 14)}
KIND_WORDS = {"park": "park", "grand": "grand park"}

# The one-letter codes of the data files.
COLOUR_CODES = {"T": "pavilion", "W": "water", "G": "greenery", "P": "play"}
ICON_CODES = {"w": "wildlife", "r": "recycling"}
SPACE_CODES = {"_": "blank", **COLOUR_CODES, **ICON_CODES}
NO_SPACE = "."
_CODE_OF = {word: code for code, word in SPACE_CODES.items()}
_COLOUR_CODE_OF = {word: code for code, word in COLOUR_CODES.items()}
_ICON_CODE_OF = {word: code for code, word in ICON_CODES.items()}

DATA_DIR = Path(__file__).parent / "data"
_CARD_KEYS = ("number", "name", "bonus", "spaces")  # required
_CARD_OPTIONAL_KEYS = ("walkways",)
_SHEET_KEYS = ("squares",)


# ----- sheets ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Square:
    """One park square of a sheet: its colour and an optional icon."""

    colour: str  # one of COLOURS
    icon: str = ""  # "" or one of ICONS

    @property
    def code(self) -> str:
        """The square as written in a sheet file, e.g. ``"W"`` or ``"Gw"``."""
        return _COLOUR_CODE_OF[self.colour] + _ICON_CODE_OF.get(self.icon, "")


@dataclass(frozen=True, slots=True)
class Sheet:
    """A park sheet: 7 rows of 9 squares. Number 0 is the standard sheet, 1..100 the pad's sheets."""

    number: int
    squares: tuple[tuple[Square, ...], ...]
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.squares) != SHEET_ROWS or any(len(row) != SHEET_COLS for row in self.squares):
            raise ValueError(f"a sheet has {SHEET_ROWS} rows of {SHEET_COLS} squares")
        object.__setattr__(self, "_hash", hash((self.number, self.squares)))

    def __hash__(self) -> int:
        # Worked out once: the rules look a sheet's squares up by the sheet on every placement.
        return self._hash

    def square(self, cell: Cell) -> Square:
        r, c = cell
        if not (0 <= r < SHEET_ROWS and 0 <= c < SHEET_COLS):
            raise ValueError(f"cell {cell} is not on the sheet ({SHEET_ROWS} rows x {SHEET_COLS} columns)")
        return self.squares[r][c]

    @property
    def cells(self) -> frozenset[Cell]:
        return _SHEET_CELLS

    def tally(self) -> dict[str, int]:
        """How many squares have each colour and each icon (every colour and icon listed, zeros included)."""
        counts = dict.fromkeys((*COLOURS, *ICONS), 0)
        for row in self.squares:
            for sq in row:
                counts[sq.colour] += 1
                if sq.icon:
                    counts[sq.icon] += 1
        return counts

    def __str__(self) -> str:
        """The sheet in the file format: one line per row, codes padded to line up."""
        return "\n".join(" ".join(f"{sq.code:<2}" for sq in row).rstrip() for row in self.squares)


_SHEET_CELLS = frozenset((r, c) for r in range(SHEET_ROWS) for c in range(SHEET_COLS))


# ----- cards -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ParkCard:
    """A park card (``kind`` "park") or grand park card (``kind`` "grand").

    ``spaces`` lists each space's cell and requirement, sorted by cell, with the cells shifted so the
    smallest row and column are 0. Each walkway is the sorted tuple of the cells it joins: spaces that
    must be covered by one section.
    """

    kind: str
    number: int
    name: str
    spaces: tuple[tuple[Cell, str], ...]
    walkways: tuple[tuple[Cell, ...], ...]
    bonus: str
    _requirements: dict[Cell, str] = field(init=False, repr=False, compare=False)
    _cells: frozenset[Cell] = field(init=False, repr=False, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_requirements", dict(self.spaces))
        object.__setattr__(self, "_cells", frozenset(self._requirements))
        fields = (self.kind, self.number, self.name, self.spaces, self.walkways, self.bonus)
        object.__setattr__(self, "_hash", hash(fields))

    def __hash__(self) -> int:
        # Worked out once: the rules remember the fits of sections on each card by the card.
        return self._hash

    @property
    def cells(self) -> frozenset[Cell]:
        return self._cells

    def requirement(self, cell: Cell) -> str:
        """What the space at ``cell`` asks for (one of REQUIREMENTS); ValueError if it is not a space."""
        try:
            return self._requirements[cell]
        except KeyError:
            raise ValueError(f"{cell} is not a space of {self}") from None

    @property
    def rows(self) -> int:
        return 1 + max((r for r, _ in self._cells), default=-1)

    @property
    def cols(self) -> int:
        return 1 + max((c for _, c in self._cells), default=-1)

    def picture(self) -> str:
        """The card's spaces drawn in the file format (``.`` where there is no space)."""
        codes = self._requirements
        return "\n".join(
            " ".join(_CODE_OF[codes[(r, c)]] if (r, c) in codes else NO_SPACE for c in range(self.cols))
            for r in range(self.rows)
        )

    def __str__(self) -> str:
        return f"{KIND_WORDS.get(self.kind, self.kind)} {self.number} ({self.name})"


# ----- loading: shared helpers -----------------------------------------------------------------------


def _at(cell: Cell) -> str:
    return f"row {cell[0]}, col {cell[1]}"


def _picture_rows(text: str, what: str) -> list[list[str]]:
    """Split a picture into rows of codes; outer blank lines are dropped. Problems raise ValueError."""
    lines = text.splitlines()
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise ValueError(f"the {what} picture is empty")
    rows = [line.split() for line in lines]
    for r, row in enumerate(rows):
        if not row:
            raise ValueError(f"the {what} picture has a blank line at row {r}")
    return rows


# ----- loading cards ---------------------------------------------------------------------------------


def _card_label(index: int, entry: Mapping[str, Any]) -> str:
    number = entry.get("number")
    if not isinstance(number, int) or isinstance(number, bool):
        return f"[[card]] #{index}"
    name = entry.get("name")
    return f"card {number} ({name})" if isinstance(name, str) and name.strip() else f"card {number}"


def _parse_spaces(text: str) -> dict[Cell, str]:
    rows = _picture_rows(text, "spaces")
    width = len(rows[0])
    for r, row in enumerate(rows[1:], start=1):
        if len(row) != width:
            raise ValueError(
                f"the spaces picture is ragged: row {r} has {len(row)} codes but row 0 has {width}"
                f" (write '{NO_SPACE}' where there is no space)"
            )
    spaces: dict[Cell, str] = {}
    for r, row in enumerate(rows):
        for c, code in enumerate(row):
            if code == NO_SPACE:
                continue
            if code not in SPACE_CODES:
                known = " ".join((*SPACE_CODES, NO_SPACE))
                raise ValueError(f"unknown code {code!r} at {_at((r, c))} of the spaces picture (known: {known})")
            spaces[(r, c)] = SPACE_CODES[code]
    if not spaces:
        raise ValueError("the spaces picture has no spaces (only '.')")
    return spaces


def _parse_walkways(raw: Any, spaces: Mapping[Cell, str]) -> list[tuple[Cell, ...]]:
    if not isinstance(raw, list):
        raise ValueError(f"'walkways' must be a list of strings like \"0,0 0,1\", not {type(raw).__name__}")
    walkways: list[tuple[Cell, ...]] = []
    owner: dict[Cell, int] = {}
    for w, entry in enumerate(raw, start=1):
        if not isinstance(entry, str):
            raise ValueError(f'walkway {w} must be a string like "0,0 0,1", not {type(entry).__name__}')
        cells: list[Cell] = []
        for token in entry.split():
            bits = token.split(",")
            try:
                if len(bits) != 2:
                    raise ValueError
                cell = (int(bits[0]), int(bits[1]))
            except ValueError:
                raise ValueError(f"walkway {w}: {token!r} is not a cell written row,col (like 0,1)") from None
            if cell not in spaces:
                raise ValueError(f"walkway {w}: {_at(cell)} is not a space of the card")
            if cell in cells:
                raise ValueError(f"walkway {w} lists {_at(cell)} twice")
            cells.append(cell)
        if len(cells) < 2:
            raise ValueError(f"walkway {w} joins {len(cells)} space(s); a walkway joins 2 or more spaces")
        if len(parts(cells)) != 1:
            raise ValueError(f"walkway {w} joins spaces that are not orthogonally connected: {entry.strip()!r}")
        for cell in cells:
            if cell in owner:
                raise ValueError(f"{_at(cell)} is in walkway {owner[cell]} and walkway {w}; a space has one walkway")
            owner[cell] = w
        walkways.append(tuple(sorted(cells)))
    return walkways


def _build_card(entry: Any, kind: str) -> ParkCard:
    """One card from its TOML table. Problems raise ValueError with the problem in words."""
    if not isinstance(entry, dict):
        raise ValueError(f"each card must be a [[card]] table, not {type(entry).__name__}")
    allowed = (*_CARD_KEYS, *_CARD_OPTIONAL_KEYS)
    for key in entry:
        if key not in allowed:
            raise ValueError(f"unknown key {key!r} (a card has: {', '.join(allowed)})")
    for key in _CARD_KEYS:
        if key not in entry:
            raise ValueError(f"missing key {key!r}")
    number, name, bonus, picture = entry["number"], entry["name"], entry["bonus"], entry["spaces"]
    if not isinstance(number, int) or isinstance(number, bool):
        raise ValueError(f"'number' must be a whole number, not {number!r}")
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"'name' must be a non-empty string, not {name!r}")
    if not isinstance(bonus, str):
        raise ValueError(f"'bonus' must be a string, not {bonus!r}")
    if bonus not in BONUSES:
        raise ValueError(f"unknown bonus {bonus!r} (known: {', '.join(BONUSES)})")
    if not isinstance(picture, str):
        raise ValueError(f"'spaces' must be a string drawing the card, not {type(picture).__name__}")
    spaces = _parse_spaces(picture)
    low, high = SIZE_LIMITS[kind]
    if not low <= len(spaces) <= high:
        raise ValueError(f"has {len(spaces)} spaces; a {KIND_WORDS[kind]} card has {low} to {high}")
    groups = parts(spaces)
    if len(groups) > 1:
        starts = " and ".join(_at(min(group)) for group in groups)
        raise ValueError(
            f"the spaces are not orthogonally connected: they form {len(groups)} separate groups (starting at {starts})"
        )
    walkways = _parse_walkways(entry.get("walkways", []), spaces)
    r0 = min(r for r, _ in spaces)
    c0 = min(c for _, c in spaces)
    shifted = tuple(sorted(((r - r0, c - c0), req) for (r, c), req in spaces.items()))
    paths = tuple(tuple((r - r0, c - c0) for r, c in walkway) for walkway in walkways)
    return ParkCard(kind, number, name.strip(), shifted, paths, bonus)


def _check_kind(kind: str) -> None:
    if kind not in SIZE_LIMITS:
        raise ValueError(f"unknown card kind {kind!r}: use 'park' or 'grand'")


def _cards_from_data(data: Mapping[str, Any], file: str, kind: str, expected_count: int | None) -> tuple[ParkCard, ...]:
    for key in data:
        if key != "card":
            raise ContentError(file, "", f"unknown top-level key {key!r} (the file holds only [[card]] tables)")
    entries = data.get("card")
    if entries is None:
        raise ContentError(file, "", "no [[card]] tables")
    if not isinstance(entries, list):
        raise ContentError(file, "", "'card' must be written as [[card]] tables")
    cards: list[ParkCard] = []
    seen_number: dict[int, str] = {}
    seen_name: dict[str, str] = {}
    for index, entry in enumerate(entries, start=1):
        label = _card_label(index, entry) if isinstance(entry, dict) else f"[[card]] #{index}"
        try:
            built = _build_card(entry, kind)
        except ValueError as exc:
            raise ContentError(file, label, str(exc)) from None
        if built.number in seen_number:
            raise ContentError(file, label, f"number {built.number} is also used by {seen_number[built.number]}")
        folded = built.name.casefold()
        if folded in seen_name:
            raise ContentError(file, label, f"name {built.name!r} is also used by {seen_name[folded]}")
        seen_number[built.number] = label
        seen_name[folded] = label
        cards.append(built)
    total = len(cards)
    if total == 0:
        raise ContentError(file, "", "no [[card]] tables")
    for index, built in enumerate(cards, start=1):
        if not 1 <= built.number <= total:
            raise ContentError(
                file,
                _card_label(index, entries[index - 1]),
                f"number {built.number} is outside 1..{total}: the {total} cards are numbered 1 to {total}",
            )
    if expected_count is not None and total != expected_count:
        raise ContentError(file, "", f"has {total} cards; {expected_count} expected")
    return tuple(sorted(cards, key=lambda c: c.number))


def load_cards(path: str | PathLike[str], kind: str, expected_count: int | None = None) -> tuple[ParkCard, ...]:
    """Load and check a card file; the cards come back sorted by number. ``kind`` is "park" or "grand"."""
    _check_kind(kind)
    return _cards_from_data(read_toml(path), str(path), kind, expected_count)


def card_from_text(
    spaces: str,
    *,
    kind: str = "park",
    number: int = 1,
    name: str = "Test Park",
    walkways: Iterable[str] = (),
    bonus: str = "wildlife",
) -> ParkCard:
    """One card built and checked like a file entry; handy for tests and for trying a design."""
    _check_kind(kind)
    entry = {"number": number, "name": name, "bonus": bonus, "spaces": spaces, "walkways": list(walkways)}
    try:
        return _build_card(entry, kind)
    except ValueError as exc:
        raise ContentError("<text>", _card_label(1, entry), str(exc)) from None


@cache
def park_cards() -> tuple[ParkCard, ...]:
    """The 30 park cards, sorted by number (``park_cards()[n - 1]`` is park n)."""
    return load_cards(DATA_DIR / "parks.toml", "park", expected_count=30)


@cache
def grand_park_cards() -> tuple[ParkCard, ...]:
    """The 12 grand park cards, sorted by number."""
    return load_cards(DATA_DIR / "grand_parks.toml", "grand", expected_count=12)


def card(kind: str, number: int) -> ParkCard:
    """Park card ``number`` of ``kind`` ("park" or "grand"); ValueError if there is no such card."""
    _check_kind(kind)
    deck = park_cards() if kind == "park" else grand_park_cards()
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= len(deck):
        raise ValueError(f"there is no {KIND_WORDS[kind]} card {number!r}: they are numbered 1 to {len(deck)}")
    return deck[number - 1]


# ----- loading sheets --------------------------------------------------------------------------------


def _parse_sheet(text: str, number: int) -> Sheet:
    rows = _picture_rows(text, "sheet")
    if len(rows) != SHEET_ROWS:
        raise ValueError(f"the sheet has {len(rows)} rows; it needs {SHEET_ROWS}")
    squares: list[tuple[Square, ...]] = []
    for r, row in enumerate(rows):
        if len(row) != SHEET_COLS:
            raise ValueError(f"row {r} has {len(row)} squares; each row needs {SHEET_COLS}")
        line: list[Square] = []
        for c, token in enumerate(row):
            colour = COLOUR_CODES.get(token[0])
            icon = ICON_CODES.get(token[1:]) if len(token) == 2 else ("" if len(token) == 1 else None)
            if colour is None or icon is None:
                raise ValueError(
                    f"unknown square {token!r} at {_at((r, c))}: write a colour letter"
                    f" ({'/'.join(COLOUR_CODES)}), optionally followed by an icon letter ({'/'.join(ICON_CODES)})"
                )
            line.append(Square(colour, icon))
        squares.append(tuple(line))
    return Sheet(number, tuple(squares))


def load_sheet(path: str | PathLike[str], number: int = 0) -> Sheet:
    """Load and check a sheet file (a single ``squares`` picture)."""
    file = str(path)
    data = read_toml(path)
    for key in data:
        if key not in _SHEET_KEYS:
            raise ContentError(file, "", f"unknown key {key!r} (a sheet file has: {', '.join(_SHEET_KEYS)})")
    if "squares" not in data:
        raise ContentError(file, "", "missing key 'squares'")
    if not isinstance(data["squares"], str):
        kind = type(data["squares"]).__name__
        raise ContentError(file, "", f"'squares' must be a string drawing the sheet, not {kind}")
    try:
        return _parse_sheet(data["squares"], number)
    except ValueError as exc:
        raise ContentError(file, "", str(exc)) from None


def sheet_from_text(text: str, number: int = 0) -> Sheet:
    """A sheet from a picture in the file format; handy for tests and for trying a design."""
    try:
        return _parse_sheet(text, number)
    except ValueError as exc:
        raise ContentError("<text>", "", str(exc)) from None


@cache
def standard_sheet() -> Sheet:
    """Sheet 0: the hand-made sheet in ``data/sheet.toml``."""
    return load_sheet(DATA_DIR / "sheet.toml", 0)


# ----- generated pad sheets --------------------------------------------------------------------------

# The spread every generated sheet keeps (generate_sheet retries until it holds).
PAD_COLOUR_RANGE = (10, 22)  # squares of each colour
PAD_ICON_RANGE = (8, 16)  # icons in all
_PATCH_SIZE = 4.5  # rough squares per colour patch when the patches are seeded


def _seed_ok(cell: Cell, colour: str, placed: Iterable[tuple[str, Cell]]) -> bool:
    """Seeds keep apart, and seeds of one colour further apart, so patches start as separate clumps."""
    for other_colour, (r, c) in placed:
        gap = abs(r - cell[0]) + abs(c - cell[1])
        if gap < 2 or (other_colour == colour and gap < 4):
            return False
    return True


def _grow_colours(rng: random.Random) -> dict[Cell, str]:
    """Colour every square by growing a few patches per colour from scattered seed squares."""
    quota = [16, 16, 16, 15]
    rng.shuffle(quota)
    for _ in range(rng.randint(0, 8)):
        a, b = rng.sample(range(len(COLOURS)), 2)
        if quota[a] > 12 and quota[b] < 20:
            quota[a] -= 1
            quota[b] += 1
    want = dict(zip(COLOURS, quota, strict=True))

    seed_colours: list[str] = []
    for colour in COLOURS:
        patches = max(2, round(want[colour] / _PATCH_SIZE + rng.uniform(-1.0, 1.0)))
        seed_colours.extend([colour] * patches)
    rng.shuffle(seed_colours)
    free = sorted(_SHEET_CELLS)
    rng.shuffle(free)
    placed: list[tuple[str, Cell]] = []
    for colour in seed_colours:
        spot = next((cell for cell in free if _seed_ok(cell, colour, placed)), free[0])
        free.remove(spot)
        placed.append((colour, spot))

    owner = {cell: colour for colour, cell in placed}
    count = dict.fromkeys(COLOURS, 0)
    for colour, _ in placed:
        count[colour] += 1

    def unowned_around(cell: Cell) -> set[Cell]:
        return {nb for nb in neighbours4(cell) if nb in _SHEET_CELLS and nb not in owner}

    # Each patch with its frontier (the free squares beside it), kept up to date as squares are taken rather
    # than gathered again from the patch's squares at every step.
    frontiers = [(colour, unowned_around(cell)) for colour, cell in placed]
    while len(owner) < len(_SHEET_CELLS):
        open_patches = [(colour, frontier) for colour, frontier in frontiers if frontier]
        # Patches of colours still under their quota grow first; if none can, any patch may.
        growing = [patch for patch in open_patches if count[patch[0]] < want[patch[0]]] or open_patches
        colour, frontier = rng.choice(growing)
        cell = rng.choice(sorted(frontier))
        owner[cell] = colour
        count[colour] += 1
        for _, other in frontiers:
            other.discard(cell)
        frontier |= unowned_around(cell)
    return owner


def _place_icons(rng: random.Random, owner: Mapping[Cell, str]) -> dict[Cell, str]:
    """Scatter icons, no two side by side, at least one on every colour, the two kinds about even."""
    total = rng.randint(9, 14)
    wild = rng.randint(total // 2 - 1, (total + 1) // 2 + 1)
    kinds = ["wildlife"] * wild + ["recycling"] * (total - wild)
    rng.shuffle(kinds)
    cells = sorted(_SHEET_CELLS)
    rng.shuffle(cells)
    chosen: list[Cell] = []

    def apart(cell: Cell) -> bool:
        return cell not in chosen and all(nb not in chosen for nb in neighbours4(cell))

    for colour in rng.sample(COLOURS, len(COLOURS)):
        spot = next((cell for cell in cells if owner[cell] == colour and apart(cell)), None)
        if spot is not None:
            chosen.append(spot)
    for cell in cells:
        if len(chosen) >= total:
            break
        if apart(cell):
            chosen.append(cell)
    return dict(zip(chosen, kinds, strict=False))


def _spread_ok(sheet: Sheet) -> bool:
    tally = sheet.tally()
    low, high = PAD_COLOUR_RANGE
    if not all(low <= tally[colour] <= high for colour in COLOURS):
        return False
    icons = tally["wildlife"] + tally["recycling"]
    if not PAD_ICON_RANGE[0] <= icons <= PAD_ICON_RANGE[1] or min(tally["wildlife"], tally["recycling"]) < 3:
        return False
    # Each icon kind sits on at least two colours, and every colour carries an icon.
    on: dict[str, set[str]] = {icon: set() for icon in ICONS}
    for row in sheet.squares:
        for sq in row:
            if sq.icon:
                on[sq.icon].add(sq.colour)
    return all(len(colours) >= 2 for colours in on.values()) and len(on["wildlife"] | on["recycling"]) == len(COLOURS)


def generate_sheet(rng: random.Random, number: int) -> Sheet:
    """A clumpy, balanced random sheet: colour patches grown from seeds, then icons scattered over them."""
    for _ in range(100):
        owner = _grow_colours(rng)
        icons = _place_icons(rng, owner)
        squares = tuple(
            tuple(Square(owner[(r, c)], icons.get((r, c), "")) for c in range(SHEET_COLS)) for r in range(SHEET_ROWS)
        )
        sheet = Sheet(number, squares)
        if _spread_ok(sheet):
            return sheet
    raise RuntimeError("could not generate a balanced sheet in 100 tries")  # pragma: no cover


PAD_FILE = DATA_DIR / "pad.txt"


def pad_text() -> str:
    """The text of ``data/pad.txt``: every pad sheet as generated, written down so that a game reads its
    sheets (a tenth of the work) instead of growing each anew in every process. Tests check it matches."""
    header = (
        "# ClipCut Parks: the pad's sheets 1-100, each generate_sheet(random.Random('clipcut-pad/<n>'), n).\n"
        "# Written by content.pad_text(); the tests check that it matches. Do not edit by hand.\n"
    )
    pictures = (str(generate_sheet(random.Random(f"clipcut-pad/{n}"), n)) for n in range(1, PAD_SIZE + 1))
    return header + "".join(f"\n{picture}\n" for picture in pictures)


@cache
def _pad_pictures() -> list[str]:
    lines = [line for line in PAD_FILE.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    pictures = "\n".join(lines).strip().split("\n\n")
    if len(pictures) != PAD_SIZE:
        problem = f"holds {len(pictures)} sheets, the pad has {PAD_SIZE}: write it anew with pad_text()"
        raise ContentError(str(PAD_FILE), "", problem)
    return pictures


@cache
def pad_sheet(number: int) -> Sheet:
    """Pad sheet ``number`` (1..100), the same on every machine: seeded with ``"clipcut-pad/<number>"``."""
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= PAD_SIZE:
        raise ValueError(f"there is no pad sheet {number!r}: the pad's sheets are numbered 1 to {PAD_SIZE}")
    try:
        return _parse_sheet(_pad_pictures()[number - 1], number)
    except ValueError as exc:
        raise ContentError(str(PAD_FILE), f"sheet {number}", f"{exc}: write the file anew with pad_text()") from None
