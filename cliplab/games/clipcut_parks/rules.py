"""ClipCut Parks: roll, cut a park sheet along its lines, fit the freed sections onto park cards.

Rules from seeds/000 with RULINGS.md; the rule names in errors follow the rulebook's steps (setup, roll,
cut, build, check, bonuses, end, solo). Every mode is this one state: 1 player is the solo game, the
option grand_parks adds grand park cards (solo or not), longer deals 7 cards.

Geometry follows cliplab.grid: a sheet square is a cell (row, col) of the 7x9 sheet; a cut runs along
lattice points (row, col), 0 <= row <= 7, 0 <= col <= 9, the point (r, c) being the top-left corner of
square (r, c). A park card's spaces are cells of the card.

The players' boards never touch, so each player works through a round at their own pace (cut, build,
check, with bonus cuts in between) and the round ends when everyone is done; the result is the same as
everyone cutting first and building after.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import compress, pairwise
from operator import itemgetter, not_
from typing import Any, ClassVar

from cliplab.engine import (
    CHANCE,
    Action,
    ActionCodec,
    ChanceNode,
    GameConfig,
    GameSpec,
    IllegalAction,
    ListedActions,
    Option,
    OptionValue,
    Outcome,
    PositionError,
    State,
    UniformChoice,
    register,
    round_limit,
)
from cliplab.engine.position import boolean, check_fields, distinct, integer, items
from cliplab.engine.position import mapping as named_entries
from cliplab.engine.position import place as cell_at
from cliplab.grid import (
    DIRECTIONS,
    OPPOSITE,
    Point,
    Segment,
    Transform,
    cells_at_point,
    edge_between,
    orient,
    parts,
    placements,
)

from .content import (
    COLOURS,
    DIE_FACES,
    ICONS,
    PAD_SIZE,
    SHEET_COLS,
    SHEET_ROWS,
    ParkCard,
    Sheet,
    grand_park_cards,
    pad_sheet,
    park_cards,
    standard_sheet,
)

Cell = tuple[int, int]
CardRef = tuple[str, int]  # ("park" | "grand", number)
DIRS = ("N", "E", "S", "W")
KINDS = ("park", "grand")
FACE_DOWN = "face down"  # a view's stand-in for the kind of a card it may not see
SOLO_CARDS_IN_PLAY = 20  # solo: 30 park cards, 10 (plus one per grand park) go back to the box
BONUS_CUT_LENGTHS = (1, 2)
LATTICE = tuple((r, c) for r in range(SHEET_ROWS + 1) for c in range(SHEET_COLS + 1))
SHEET_CELLS = frozenset((r, c) for r in range(SHEET_ROWS) for c in range(SHEET_COLS))
_AXIS = {"N": "v", "S": "v", "E": "h", "W": "h"}
# For each lattice point and direction within the sheet: the point one step on and the line between.
_STEPS: dict[tuple[Point, str], tuple[Point, Segment]] = {}
for _point in LATTICE:
    for _direction in DIRS:
        _dr, _dc = DIRECTIONS[_direction]
        _next = (_point[0] + _dr, _point[1] + _dc)
        if 0 <= _next[0] <= SHEET_ROWS and 0 <= _next[1] <= SHEET_COLS:
            _STEPS[_point, _direction] = (_next, edge_between(_point, _next))

# Ways the game ends (Outcome.termination).
ALL_CARDS_DONE = "a player completed all of their park cards"
PILE_EMPTY = "the draw pile was empty when a card had to be discarded"
CUT_IMPOSSIBLE = "a cut required by the die could not be made"
SHEETS_SPENT = "no sheet can be cut any more"
ROUND_LIMIT = "the round limit was reached"


# ----- actions -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TearSheet(Action):
    TEMPLATE: ClassVar[str] = "player {seat} tears sheet {sheet} off the pad"
    CHANCE: ClassVar[bool] = True
    seat: int
    sheet: int


@dataclass(frozen=True, slots=True)
class Deal(Action):
    """One card of a shuffled deck dealt to a player: the first ones face up, the rest their draw pile."""

    TEMPLATE: ClassVar[str] = "deal {kind} {card} to player {seat}"
    CHANCE: ClassVar[bool] = True
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"kind": KINDS}
    kind: str
    card: int
    seat: int


@dataclass(frozen=True, slots=True)
class Roll(Action):
    TEMPLATE: ClassVar[str] = "roll face {face}"
    CHANCE: ClassVar[bool] = True
    face: int  # 1..6, an index into DIE_FACES

    @property
    def lengths(self) -> tuple[int, ...]:
        return DIE_FACES[self.face - 1]


@dataclass(frozen=True, slots=True)
class Cut(Action):
    TEMPLATE: ClassVar[str] = "cut {length} from {row},{col} going {direction}"
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"direction": DIRS}
    length: int
    row: int
    col: int
    direction: str

    @property
    def points(self) -> list[Point]:
        dr, dc = DIRECTIONS[self.direction]
        return [(self.row + k * dr, self.col + k * dc) for k in range(self.length + 1)]

    @property
    def end(self) -> Point:
        dr, dc = DIRECTIONS[self.direction]
        return self.row + self.length * dr, self.col + self.length * dc


@dataclass(frozen=True, slots=True)
class Keep(Action):
    """After a cut leaves two or more largest parts of equal size: the one that stays the sheet."""

    TEMPLATE: ClassVar[str] = "keep the part with square {row},{col}"
    row: int
    col: int


@dataclass(frozen=True, slots=True)
class Place(Action):
    """A section onto a face-up card: its squares turned by `orientation` (0-3 quarter turns clockwise,
    4-7 the same after a mirror flip), the turned shape's top-left corner at (row, col) of the card."""

    TEMPLATE: ClassVar[str] = "place section {section} on {kind} {card} at {row},{col} turned {orientation}"
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"kind": KINDS}
    section: int
    kind: str
    card: int
    row: int
    col: int
    orientation: int

    @property
    def transform(self) -> Transform:
        return Transform(self.orientation % 4, self.orientation >= 4)


@dataclass(frozen=True, slots=True)
class Crumple(Action):
    TEMPLATE: ClassVar[str] = "crumple section {section}"
    section: int


@dataclass(frozen=True, slots=True)
class Score(Action):
    """Which of several completed cards to resolve first (its replacement and bonus come before the next)."""

    TEMPLATE: ClassVar[str] = "score {kind} {card}"
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"kind": KINDS}
    kind: str
    card: int


# The placements and crumplings a building list offers, each made once: a section waiting is listed again
# after every placement and crumpling, and a frozen dataclass costs more to make than to look up.
_place = lru_cache(maxsize=8192)(Place)
_crumple = lru_cache(maxsize=256)(Crumple)

# Chance's possible results, made once: every deal and tear of a game would otherwise make them again.
_ROLL = UniformChoice(tuple(Roll(face) for face in range(1, len(DIE_FACES) + 1)))


_PAD_NUMBERS = range(1, PAD_SIZE + 1)


@lru_cache(maxsize=8)
def _tears(seat: int) -> tuple[TearSheet, ...]:
    return tuple(TearSheet(seat, k) for k in _PAD_NUMBERS)


@lru_cache(maxsize=512)
def _tearing(seat: int, torn: frozenset[int]) -> UniformChoice:
    """Chance's pick of the sheet `seat` tears off: any pad sheet not torn yet (a new game of one or two players
    asks again what an earlier one asked)."""
    return UniformChoice(tuple(compress(_tears(seat), map(not_, map(torn.__contains__, _PAD_NUMBERS)))))


@lru_cache(maxsize=32)
def _deals(kind: str, seat: int) -> tuple[tuple[Deal, ...], tuple[CardRef, ...]]:
    """Each card of a deck dealt to a seat, and the cards as references (keyed by the deck's kind: a deck of
    cards is slow to hash)."""
    deck = grand_park_cards() if kind == "grand" else park_cards()
    return tuple(Deal(kind, card.number, seat) for card in deck), tuple((kind, card.number) for card in deck)


def card_of(ref: CardRef) -> ParkCard:
    kind, number = ref
    if kind == "park":
        return park_cards()[number - 1]
    if kind == "grand":
        return grand_park_cards()[number - 1]
    raise ValueError(f"{ref} is a face-down card: a view does not know which card it is")


def card_name(ref: CardRef) -> str:
    return f"{'park' if ref[0] == 'park' else 'grand park'} {ref[1]}"


def sheet_of(number: int) -> Sheet:
    return standard_sheet() if number == 0 else pad_sheet(number)


# ----- cutting ----------------------------------------------------------------------------------------


# What can be cut is worked out with bitmasks over the lattice points, row by row, WIDTH bits a row: the bit of
# point (r, c) is r * WIDTH + c, and a square (r, c) has the bit of its top-left corner. A line from point p
# one step east has p's bit among the horizontal lines, one step south p's bit among the vertical lines
# (shifted up by VERTICAL). Whole rows and columns of the sheet are then a few shifts and ands away, and no
# sheet's answers need remembering.

MAX_CUT = max(length for lengths in (*DIE_FACES, BONUS_CUT_LENGTHS) for length in lengths)
WIDTH = SHEET_COLS + 1
VERTICAL = 128  # where the vertical lines' bits start in a mask of cut lines
LATTICE_BITS = sum(1 << (r * WIDTH + c) for r, c in LATTICE)
_BIT = {point: 1 << (point[0] * WIDTH + point[1]) for point in LATTICE}  # a lattice point's or square's bit
_LINE_BIT = {
    edge_between(p, q): _BIT[p] << (VERTICAL if q[0] > p[0] else 0)
    for (p, direction), (q, _) in _STEPS.items()
    if direction in ("E", "S")
}
# The squares left, the lines cut, the cut ends; then, worked out from those and kept since nearly every rule of
# cutting asks for them, the points a cut may start from and the points a cut's step may end on to close a part.
SheetBits = tuple[int, int, int, int, int]
RoundEnds = tuple[int, int]  # the points where this round's cuts end, of the horizontal ones and the vertical ones
RoundCut = tuple[Point, Point, str]  # a cut of this round: its start, its end, its axis
# What making a cut changes: the bits of its lines, of its two ends and of its points past the start, its entry
# among this round's cuts, the bits of the squares beside its lines.
CutPath = tuple[int, int, int, RoundCut, int]


def cell_bits(cells: Iterable[Cell]) -> int:
    return sum(_BIT[cell] for cell in cells)


def sheet_bits(cells: Iterable[Cell], cuts: Iterable[Segment], ends: Iterable[Point]) -> SheetBits:
    return _worked_out(cell_bits(cells), sum(_LINE_BIT[line] for line in cuts), sum(_BIT[point] for point in ends))


def _worked_out(cells: int, lines: int, ends: int) -> SheetBits:
    """A sheet's bits with the points a cut may start from (cut ends, and corners of a square not in the sheet),
    and the points on the sheet's boundary or on a cut: a step of a cut that ends on one cuts the sheet there."""
    whole = cells & cells << 1 & cells << WIDTH & cells << (WIDTH + 1)
    starts = LATTICE_BITS & ~whole | ends
    horizontal, vertical = lines & (1 << VERTICAL) - 1, lines >> VERTICAL
    return cells, lines, ends, starts, starts | horizontal | horizontal << 1 | vertical | vertical << WIDTH


def _round_ends(round_cuts: Iterable[RoundCut]) -> RoundEnds:
    horizontal = vertical = 0
    for start, end, axis in round_cuts:
        if axis == "h":
            horizontal |= _BIT[start] | _BIT[end]
        else:
            vertical |= _BIT[start] | _BIT[end]
    return horizontal, vertical


_FRESH_SHEET_BITS = sheet_bits(SHEET_CELLS, (), ())
_CELL_AT = {bit: cell for cell, bit in _BIT.items() if cell in SHEET_CELLS}  # a square by its bit
_POINT_AT = {bit: point for point, bit in _BIT.items()}  # a lattice point by its bit
_LINE_AT = {bit: line for line, bit in _LINE_BIT.items()}  # a line between two squares by its bit


def _squares_of(bits: int) -> tuple[Cell, ...]:
    """The squares whose bits are set, in sorted order."""
    return _set_in(bits, _CELL_AT)


def _set_in(bits: int, named: dict[int, Any]) -> tuple[Any, ...]:
    """What each set bit stands for in `named`, lowest bit first."""
    found = []
    while bits:
        low = bits & -bits
        found.append(named[low])
        bits ^= low
    return tuple(found)


# A sheet's squares, cut lines and cut ends as sets, from its bits: for pictures, bots, positions and checks.
# The game keeps only the bits; a picture asks for the same sheet again and again.
@lru_cache(maxsize=256)
def cells_in(bits: int) -> frozenset[Cell]:
    return frozenset(_set_in(bits, _CELL_AT))


@lru_cache(maxsize=256)
def lines_in(bits: int) -> frozenset[Segment]:
    return frozenset(_set_in(bits, _LINE_AT))


@lru_cache(maxsize=256)
def points_in(bits: int) -> frozenset[Point]:
    return frozenset(_set_in(bits, _POINT_AT))


# Every cut within the frame by a sort key that lists cuts in the order of the rules' listing: by start point
# (in LATTICE order), then direction (in DIRS order), then length.
_CUT_AT: dict[int, Cut] = {}
# What making each of those cuts changes, by (row, col, direction, length), and by the listed cut object itself
# (a cut chosen from a listing is one of them): see CutPath.
_PATH: dict[tuple[int, int, str, int], CutPath] = {}
_PATH_OF: dict[int, CutPath] = {}
# The bits of the squares on either side of a cut's lines by its two ends (either way round): every part a cut
# may leave holds one of them.
_BESIDE: dict[tuple[Point, Point], int] = {}
for _point in LATTICE:
    for _d, _direction in enumerate(DIRS):
        for _length in range(1, MAX_CUT + 1):
            _end = (_point[0] + _length * DIRECTIONS[_direction][0], _point[1] + _length * DIRECTIONS[_direction][1])
            if _end in _BIT:
                _key = ((_point[0] * WIDTH + _point[1]) * 4 + _d) * 8 + _length
                _CUT_AT[_key] = _made = Cut(_length, _point[0], _point[1], _direction)
                _lines = tuple(edge_between(p, q) for p, q in pairwise(_made.points))
                _BESIDE[_point, _end] = cell_bits(square for line in _lines for square in line if square in SHEET_CELLS)
                _PATH[_made.row, _made.col, _made.direction, _made.length] = _PATH_OF[id(_made)] = (
                    sum(_LINE_BIT[line] for line in _lines),
                    _BIT[_point] | _BIT[_end],
                    sum(_BIT[point] for point in _made.points[1:]),
                    (_point, _end, _AXIS[_direction]),
                    _BESIDE[_point, _end],
                )


@lru_cache(maxsize=64)
def _wanted(lengths: tuple[int, ...]) -> tuple[int, ...]:
    """The lengths a cut can have among these, each once, shortest first."""
    return tuple(sorted(length for length in set(lengths) if 1 <= length <= MAX_CUT))


def _can_cut(bits: SheetBits) -> bool:
    """Whether a fresh round could make a 1 cut: an uncut line between two squares of the sheet with a point a
    cut may start from at one of its ends."""
    cells, cut, _, starts, _ = bits
    horizontal = cells & cells << WIDTH & ~cut  # by the bit of the west point, as in _cut_masks
    vertical = cells & cells << 1 & ~(cut >> VERTICAL)  # by the bit of the north point
    return bool(horizontal & (starts | starts >> 1) | vertical & (starts | starts >> WIDTH))


# The legal cuts of each length are found per axis as a mask: the bit of a point from which the open lines
# of a straight run of that length go east (or south), neither end of it where a cut of this round on that
# axis ends; the same run from its other end goes west (or north). The masks, each SPAN bits, are laid end
# to end in the order of _BLOCKS into one number, so that every listed cut is picked out at C speed.
SPAN = (SHEET_ROWS + 1) * WIDTH
_BLOCKS = tuple((axis, length, way) for axis in "hv" for length in range(1, MAX_CUT + 1) for way in (0, 1))
_DIRECTION_OF = {("h", 0): "E", ("h", 1): "W", ("v", 0): "S", ("v", 1): "N"}
_ZERO_ONE = bytes.maketrans(b"01", b"\x00\x01")  # a mask's binary digits as selectors for compress


class _Layout:
    """Where each legal cut of the `wanted` lengths sits in their masks (see _cut_masks)."""

    def __init__(self, wanted: tuple[int, ...]) -> None:
        blocks = [(axis, length, way) for axis, length, way in _BLOCKS if length in wanted]
        self.keys = tuple(  # the sort key of the cut each bit stands for, highest bit first (as format writes)
            ((bit * 4 + DIRS.index(_DIRECTION_OF[axis, way])) * 8 + length)
            for axis, length, way in blocks
            for bit in reversed(range(SPAN))
        )
        # Lowest block first: where it starts, the sort key of its cut at point 0, its cuts' keys by a row's bits.
        self.blocks = tuple(
            (SPAN * place, DIRS.index(_DIRECTION_OF[axis, way]) * 8 + length, _row_keys(axis, length, way))
            for place, (axis, length, way) in enumerate(reversed(blocks))
        )
        self.rows = tuple(  # each row of start points' bits in every block
            sum(ROW_BITS << (row * WIDTH + start) for start, _, _ in self.blocks) for row in range(SHEET_ROWS + 1)
        )
        self.start_of = {first_key: start for start, first_key, _ in self.blocks}  # a block by its cuts' keys mod 32


ROW_BITS = (1 << WIDTH) - 1
_KEYS_PER_POINT = 32  # a cut's sort key is (point * 4 + direction) * 8 + length


@lru_cache(maxsize=16)
def _row_keys(axis: str, length: int, way: int) -> tuple[tuple[int, ...], ...]:
    """By the bits of one row of a block: the sort keys of the cuts they stand for, counted from the row's start."""
    first = DIRS.index(_DIRECTION_OF[axis, way]) * 8 + length
    return tuple(
        tuple(col * _KEYS_PER_POINT + first for col in range(WIDTH) if value >> col & 1) for value in range(1 << WIDTH)
    )


_layout = lru_cache(maxsize=16)(_Layout)
_KEY_OF = {id(cut): key for key, cut in _CUT_AT.items()}  # a listed cut's sort key, by the object itself


class CutList(ListedActions):
    """The legal cuts of a sheet, by start point, direction, length, as the masks that find them: counted by
    their bits, and the k-th found within its row of start points, so a player that wants one cut of dozens
    pays for a row of them. Walking through them lists them all, once."""

    # The lengths' layout is looked up when needed, not held: a state keeps its seats' last listings, and its
    # undo checkpoints would otherwise reach the layouts' large tables.
    __slots__ = ("length", "listed", "masks", "wanted")

    def __init__(self, masks: int, wanted: tuple[int, ...]) -> None:
        self.masks = masks
        self.wanted = wanted
        self.length = masks.bit_count()
        self.listed: tuple[Cut, ...] | None = None

    def __len__(self) -> int:
        return self.length

    def _at(self, index: int) -> Action:
        if self.listed is not None:
            return self.listed[index]
        masks, layout = self.masks, _layout(self.wanted)
        row = 0
        for row_bits in layout.rows:
            in_row = (masks & row_bits).bit_count()
            if index < in_row:
                break
            index -= in_row
            row += 1
        shift = row * WIDTH
        keys: list[int] = []
        for start, _, keys_of in layout.blocks:
            keys += keys_of[masks >> (start + shift) & ROW_BITS]
        keys.sort()
        return _CUT_AT[keys[index] + shift * _KEYS_PER_POINT]

    def __iter__(self) -> Iterator[Cut]:
        return iter(self.cuts())

    def cuts(self) -> tuple[Cut, ...]:
        """All of them, listed once."""
        if self.listed is None:
            keys = _layout(self.wanted).keys
            listed = list(compress(keys, format(self.masks, f"0{len(keys)}b").encode().translate(_ZERO_ONE)))
            listed.sort()
            self.listed = tuple(map(_CUT_AT.__getitem__, listed))
        return self.listed

    def holds(self, action: Action) -> bool:
        key = _KEY_OF.get(id(action))
        if key is None:
            return False
        start = _layout(self.wanted).start_of.get(key % _KEYS_PER_POINT)
        return start is not None and bool(self.masks >> (start + key // _KEYS_PER_POINT) & 1)


def _cut_masks(bits: SheetBits, ends_of_round: RoundEnds, wanted: tuple[int, ...]) -> int:
    """The masks of every legal cut of the `wanted` lengths, laid end to end (see SPAN); 0 if there is none,
    on a sheet whose cuts of this round end on the points `ends_of_round`."""
    cells, cut, _, starts, _ = bits
    found = 0
    # Lines between two squares of the sheet that are not cut, by the bit of their west or north point.
    for lines, ends, unit in (
        (cells & cells << WIDTH & ~cut, ends_of_round[0], 1),
        (cells & cells << 1 & ~(cut >> VERTICAL), ends_of_round[1], WIDTH),
    ):
        run, length = ~ends, 0
        for wanted_length in wanted:
            while length < wanted_length:
                run &= lines >> length * unit
                length += 1
            both_ends_free = run & ~(ends >> length * unit)
            found = (found << SPAN | both_ends_free & starts) << SPAN | both_ends_free << length * unit & starts
    return found


def _cuts_listed(bits: SheetBits, ends_of_round: RoundEnds, wanted: tuple[int, ...]) -> CutList:
    """Every legal cut of the `wanted` lengths on a sheet with these bits, whose cuts of this round end on
    `ends_of_round`: by start point, direction, length."""
    return CutList(_cut_masks(bits, ends_of_round, wanted), wanted)


# The planning bot asks about the same imagined sheets again and again: each is worked out once while it is
# asked for. (A game keeps each seat's last listing itself: in random play its sheets seldom recur.)
_cuts_remembered = lru_cache(maxsize=4096)(_cuts_listed)


def _cuts_of(bits: SheetBits, round_cuts: Iterable[RoundCut], lengths: tuple[int, ...]) -> CutList:
    """Every legal cut of the given lengths on a sheet with these bits and this round's cuts."""
    return _cuts_remembered(bits, _round_ends(round_cuts), _wanted(lengths))


# A seat's last listing of legal cuts with what it was worked out from: the sheet's bits (the object itself), the
# number of this round's cuts, the lengths asked for.
KeptCuts = tuple[SheetBits, int, tuple[int, ...], CutList]

# Who moves in the play phase, by the seats' stages (at most 6 ** 4 of them): worked out once each.
_MOVERS_BY_STAGES: dict[tuple[str, ...], tuple[int, ...]] = {}


def _lowest_bit(bits: int) -> int:
    return bits & -bits


def _closing_steps(bits: SheetBits, points: Sequence[Point]) -> list[int]:
    """The steps of a cut along `points` (counted from 1) that end on the sheet's boundary or on an earlier
    cut. Each one cuts the sheet in two there; a cut with none leaves the sheet in one piece."""
    touched = bits[4]
    return [step for step, point in enumerate(points[1:], 1) if touched & _BIT[point]]


class SheetCuts:
    """One player's sheet as the cutting rules see it: squares left, lines cut, cut ends, this round's cuts.

    The game asks it about the real sheet (with the bitmasks it keeps of them); the planning bot about sheets
    it imagines cutting.
    """

    __slots__ = ("bits", "cells", "cuts", "ends", "round_cuts")

    def __init__(
        self,
        cells: frozenset[Cell],
        cuts: frozenset[Segment],
        ends: frozenset[Point],
        round_cuts: Sequence[tuple[Point, Point, str]],
        bits: SheetBits | None = None,
    ) -> None:
        self.cells = cells
        self.cuts = cuts
        self.ends = ends
        self.round_cuts = round_cuts
        self.bits = sheet_bits(cells, cuts, ends) if bits is None else bits

    def is_start(self, point: Point) -> bool:
        """A cut starts on the sheet's boundary as it is now, or at an end of an earlier cut."""
        cells = self.cells
        return point in self.ends or any(cell not in cells for cell in cells_at_point(point))

    def problem(self, cut: Cut) -> tuple[str, str] | None:
        """Why `cut` may not be made now as geometry (rule, reason), or None if it may; lengths are not checked."""
        # A straight line lies on the sheet when both its ends do: checked before any work per step.
        if not all(0 <= r <= SHEET_ROWS and 0 <= c <= SHEET_COLS for r, c in ((cut.row, cut.col), cut.end)):
            return "cut", "the cut would run off the park sheet"
        points = cut.points
        if not self.is_start(points[0]):
            (r0, c0), (r1, c1) = points[0], points[-1]
            if self.is_start(points[-1]):
                return "cut", f"a cut starts on the sheet's edge or at the end of an earlier cut; {r0},{c0} is neither"
            return "cut", (
                f"a cut starts on the sheet's edge or at the end of an earlier cut, and neither end of this one"
                f" ({r0},{c0} or {r1},{c1}) is"
            )
        sheet, cut_already = self.cells, self.cuts
        for k, (p, q) in enumerate(pairwise(points)):
            a, b = edge_between(p, q)
            if a not in sheet or b not in sheet:
                return "cut", (
                    f"step {k + 1} of the cut runs along the sheet's edge or into a section that came free:"
                    " only lines between two squares still in the sheet can be cut"
                )
            if (a, b) in cut_already:
                return "cut", f"step {k + 1} of the cut follows a line that is cut already"
        axis = _AXIS[cut.direction]
        ends = {points[0], points[-1]}
        for start, end, other_axis in self.round_cuts:
            if other_axis == axis and ends & {start, end}:
                return "cut", (
                    "this cut would continue a cut made this round in a straight line; cuts of one round may"
                    " meet at an end only when they turn"
                )
        return None

    def legal(self, lengths: Collection[int]) -> list[Cut]:
        """Every legal cut of the given lengths (the same rules as `problem`): by start point, direction, length."""
        return list(_cuts_of(self.bits, self.round_cuts, tuple(lengths)).cuts())

    def closing_steps(self, points: Sequence[Point]) -> list[int]:
        """The steps of a cut along `points` (counted from 1) that end on the sheet's boundary or on an earlier
        cut. Each one cuts the sheet in two there; a cut with none leaves the sheet in one piece."""
        return _closing_steps(self.bits, points)


# ----- what a placement needs -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fit:
    """A legal way to lay a section on a card: which sheet square goes on which space, and the tokens it costs."""

    action: Place
    mapping: tuple[tuple[Cell, Cell], ...]  # (sheet square, card space)
    cost: tuple[tuple[str, int], ...]  # (token, how many), only tokens actually spent


TOKENS = ("wildlife", "recycling", "gardener")


SheetSquares = Mapping[Cell, tuple[str, str]]


@lru_cache(maxsize=128)
def sheet_squares(sheet: Sheet) -> SheetSquares:
    """Each square's (colour, icon) as plain data: what the placement rules look up, quickly."""
    return {(r, c): (square.colour, square.icon) for r, row in enumerate(sheet.squares) for c, square in enumerate(row)}


def waiving_token(wanted: str) -> str | None:
    """The token that waives a requirement: a gardener token a colour, an icon's own token that icon."""
    if wanted == "blank":
        return None
    return "gardener" if wanted in COLOURS else wanted


def waiver(wanted: str, colour: str, icon: str) -> str | None:
    """The token a square of this colour and icon spends on a space asking `wanted`; None if it meets it."""
    if wanted == "blank" or (colour == wanted if wanted in COLOURS else icon == wanted):
        return None
    return waiving_token(wanted)


def placement_cost(
    card: ParkCard, squares: SheetSquares, mapping: Iterable[tuple[Cell, Cell]]
) -> dict[str, int] | None:
    """Tokens a placement (sheet square -> card space) spends, one per requirement its squares do not
    meet; None if it splits a walkway (no token waives a walkway)."""
    pairs = tuple(mapping)
    if not _keeps_walkways(card, frozenset(space for _, space in pairs)):
        return None
    return _requirement_tokens(card, squares, pairs)


def _keeps_walkways(card: ParkCard, covered: frozenset[Cell]) -> bool:
    """Whether covering these spaces leaves each walkway of the card either all covered or all free."""
    return all(covered.isdisjoint(walkway) or covered.issuperset(walkway) for walkway in card.walkways)


def _requirement_tokens(card: ParkCard, squares: SheetSquares, pairs: Iterable[tuple[Cell, Cell]]) -> dict[str, int]:
    """Tokens spent on the requirements these squares (sheet square -> card space) do not meet."""
    need: dict[str, int] = {}
    for square, space in pairs:
        token = waiver(card.requirement(space), *squares[square])
        if token is not None:
            need[token] = need.get(token, 0) + 1
    return need


# What squares show and what spaces ask for, as bits: NAME_STRIDE bits for each square of a section (in sorted
# order), one for each colour and icon. A placement's asks are the bits of the requirements on the spaces it
# covers (blank spaces ask nothing); the asks a section's squares do not show are found with one AND, and each
# token waives those among its own bits.
NAME_STRIDE = 8  # a byte: a section's bits are its squares' bytes, first square lowest
_NAME_BIT = {name: 1 << k for k, name in enumerate((*COLOURS, *ICONS))}
_EVERY_SQUARE = sum(1 << NAME_STRIDE * i for i in range(len(SHEET_CELLS)))  # times a square's bits: every square's
_TOKEN_MASKS = tuple(  # by token name, as a cost lists them: each token's bits are the names it waives
    (token, sum(bit for name, bit in _NAME_BIT.items() if waiving_token(name) == token) * _EVERY_SQUARE)
    for token in sorted(TOKENS)
)


@lru_cache(maxsize=128)
def _shown_bits(sheet: Sheet) -> dict[Cell, int]:
    """The bits of the colour and icon each square of a sheet shows."""
    return {cell: _NAME_BIT[colour] | _NAME_BIT.get(icon, 0) for cell, (colour, icon) in sheet_squares(sheet).items()}


@lru_cache(maxsize=1024)
def _cost_of(unmet_asks: int) -> Cost:
    """The tokens that waive these asks, by token name."""
    return tuple((token, count) for token, mask in _TOKEN_MASKS if (count := (unmet_asks & mask).bit_count()))


# A placement of a shape on a card as the rules keep it: the spaces it covers, its orientation as a Place names
# it, its asks (NAME_STRIDE bits for each square of the shape in sorted order), the row and column a Place
# names, and the space each square of the shape covers, in the squares' sorted order.
CardPlacement = tuple[frozenset[Cell], int, int, int, int, tuple[Cell, ...]]
Cost = tuple[tuple[str, int], ...]
Laying = tuple[Place, Cost, tuple[Cell, ...]]  # a Place, its cost, the space each square covers in sorted order
_PLACE_OF = itemgetter(0)  # a laying's Place
OpenCard = tuple[CardRef, ParkCard, int, frozenset[Cell]]  # a face-up card, its free spaces' count, its spaces taken


@lru_cache(maxsize=4096)
def _card_placements(shape: frozenset[Cell], card: ParkCard, flips: bool) -> tuple[CardPlacement, ...]:
    """Every placement of a shape (its top-left corner at 0,0) on the whole of a card that keeps the card's
    walkways whole. On part of the card the placements are those covering only free spaces, in the same
    order: by transform, then by where the first square lands."""
    found = []
    for placement in placements(shape, card.cells, flips):
        covered = placement.cells
        if _keeps_walkways(card, covered):
            transform = placement.transform
            spaces = tuple(space for _, space in placement.mapping)  # the mapping's squares come sorted
            asks = sum(
                _NAME_BIT.get(card.requirement(space), 0) << NAME_STRIDE * index for index, space in enumerate(spaces)
            )
            row, col = placement.offset
            found.append((covered, transform.turns + 4 * transform.flipped, asks, row, col, spaces))
    return tuple(found)


@lru_cache(maxsize=8192)
def _free_placements(
    shape: frozenset[Cell], card: ParkCard, flips: bool, taken: frozenset[Cell]
) -> tuple[CardPlacement, ...]:
    """The placements of a shape on a card that cover only spaces not `taken`, in `_card_placements`' order.
    Small shapes and a card's first few layings recur from game to game: most askings are answered here."""
    every = _card_placements(shape, card, flips)
    return tuple(found for found in every if found[0].isdisjoint(taken)) if taken else every


def _corner(squares: Iterable[Cell]) -> Cell:
    """The top row and left column of some squares."""
    rows, cols = zip(*squares, strict=True)
    return min(rows), min(cols)


@lru_cache(maxsize=4096)
def _shape_of(squares: tuple[Cell, ...]) -> tuple[Cell, frozenset[Cell]]:
    """A section's top-left corner and its shape moved there to 0,0 (a waiting section is listed again and
    again, and small sections recur from game to game)."""
    top, left = _corner(squares)
    return (top, left), frozenset((r - top, c - left) for r, c in squares)


@lru_cache(maxsize=1024)
def _landed(shape: frozenset[Cell], orientation: int) -> tuple[Cell, ...]:
    """Where each square of a shape (in sorted order, as a section's squares come) lands when the shape is turned
    and flipped as a Place's orientation says, moved to 0,0: shapes recur from game to game."""
    where = orient(shape, Transform(orientation % 4, orientation >= 4))
    return tuple(where[cell] for cell in sorted(shape))


def tokens_spent(game: ClipCutParks, seat: int, place: Place) -> dict[str, int]:
    """The tokens a placement by `seat` costs (counting only the spaces it covers on the card)."""
    card = card_of((place.kind, place.card))
    on_card = [pair for pair in game.mapping_of(seat, place) if pair[1] in card.cells]
    return placement_cost(card, sheet_squares(sheet_of(game.sheet_number[seat])), on_card) or {}


# ----- the state -------------------------------------------------------------------------------------


class ClipCutParks(State):
    """A game of ClipCut Parks for 1-4 players. Each seat's data sits in lists indexed by seat."""

    CODEC: ClassVar[ActionCodec] = ActionCodec(TearSheet, Deal, Roll, Cut, Keep, Place, Crumple, Score)
    # A game is one to three hundred log entries and its state many small lists and dicts: a snapshot every 128
    # entries keeps copying rare, and a rewind replays at most 127 of them (a few milliseconds).
    CHECKPOINT_EVERY: ClassVar[int] = 128
    # Who moves (from the phase and the stages), each seat's last listings of legal cuts and layings, and where
    # its cuts of this round end.
    DERIVED: ClassVar[frozenset[str]] = frozenset({"movers", "cuts_kept", "layings_kept", "round_ends"})

    def _setup(self) -> None:
        n = self.players
        self.solo = n == 1
        self.grand_count = self.option("grand_parks")
        # Asked on every building decision: an option is looked up by name.
        self.flips = self.option("allow_flip")
        self.voluntary_crumple = self.option("voluntary_crumple")
        # Cards each player must complete (multiplayer) and cards dealt to each.
        self.target = 7 if self.option("longer") and not self.solo else 5
        self.park_deal = SOLO_CARDS_IN_PLAY - self.grand_count if self.solo else self.target - self.grand_count
        self.face_up_parks = 2 if self.solo or not self.grand_count else 1
        self.phase = "setup"
        self.round = 0
        self.roller = 0
        self.face = 0
        self.ended = ""
        self.sheet_number = [0] * n if self.option("sheets") == "standard" else [-1] * n
        # Each seat's sheet as bits: the squares still in it, the lines cut, the cut ends (see `sheet`, `cuts`
        # and `cut_ends` for them as sets). A cut changes a few bits where sets would be copied whole.
        self.sheet_bits: list[SheetBits] = [_FRESH_SHEET_BITS] * n
        self.cuts_kept: list[KeptCuts | None] = [None] * n  # each seat's last listing of legal cuts (_cuts_now)
        # This round's cuts (bonus cuts included) as (start, end, axis): for the no-straight-extension rule.
        self.round_cuts: list[list[tuple[Point, Point, str]]] = [[] for _ in range(n)]
        self.round_ends: list[RoundEnds] = [(0, 0)] * n  # their ends as bits, as the cutting rules ask
        self.to_cut: list[list[int]] = [[] for _ in range(n)]  # lengths the die still asks for
        self.skipped: list[list[int]] = [[] for _ in range(n)]  # lengths that could not be cut this round
        self.stage = ["done"] * n  # cut, keep, bonus, build, check, done
        self.resume = ["build"] * n  # the stage a Keep choice returns to
        self.tied: list[tuple[frozenset[Cell], ...]] = [() for _ in range(n)]  # parts to choose from
        self.sections: list[dict[int, tuple[Cell, ...]]] = [{} for _ in range(n)]  # every freed section
        self.pending: list[list[int]] = [[] for _ in range(n)]  # freed, not yet placed or crumpled
        # Each seat's layings of its last listing of building actions (_build_actions). A laying's cost and
        # spaces follow from its Place and the section's squares alone, so an old one is still right.
        self.layings_kept: list[list[Laying]] = [[] for _ in range(n)]
        self.crumpled: list[list[int]] = [[] for _ in range(n)]
        self.face_up: list[list[CardRef]] = [[] for _ in range(n)]
        self.pile: list[list[CardRef]] = [[] for _ in range(n)]  # face down, in drawing order
        self.dealt_at: dict[CardRef, int] = {}  # the log index of each card's Deal
        self.dealt: list[int] = [0] * n
        self.completed: list[list[CardRef]] = [[] for _ in range(n)]
        self.discarded: list[CardRef] = []
        # card -> {space: (section, sheet square)} for every card a section lies on (completed ones too).
        self.covered: list[dict[CardRef, dict[Cell, tuple[int, Cell]]]] = [{} for _ in range(n)]
        self.tokens = [{token: 0 for token in TOKENS} for _ in range(n)]
        self.bonuses_lost = [0] * n
        start = self.config.start_fields()
        if start is not None:
            _begin_at(self, start)
        self._find_movers()

    @property
    def sheet(self) -> list[frozenset[Cell]]:
        """Each seat's squares still in the sheet."""
        return [cells_in(bits[0]) for bits in self.sheet_bits]

    @property
    def cuts(self) -> list[frozenset[Segment]]:
        """Each seat's lines cut so far, as (square, square) pairs."""
        return [lines_in(bits[1]) for bits in self.sheet_bits]

    @property
    def cut_ends(self) -> list[frozenset[Point]]:
        """Each seat's points where a cut ended (a later cut may start there)."""
        return [points_in(bits[2]) for bits in self.sheet_bits]

    # ----- chance ---------------------------------------------------------------------------------

    def _chance(self) -> ChanceNode | None:
        if self.phase == "setup":
            if -1 in self.sheet_number:
                return _tearing(self.sheet_number.index(-1), frozenset(self.sheet_number))
            seat, kind = self._next_deal()
            deals, refs = _deals(kind, seat)
            # Every card dealt so far has its Deal's log index in dealt_at.
            return UniformChoice(tuple(compress(deals, map(not_, map(self.dealt_at.__contains__, refs)))))
        if self.phase == "roll":
            return _ROLL
        return None

    def _next_deal(self) -> tuple[int, str]:
        """The seat and the deck of the next card to deal: grand parks first, then park cards, seat by seat
        (each seat all of its cards of a kind before the next seat)."""
        grand_dealt = self.players * self.grand_count
        dealt = len(self.dealt_at)
        if dealt < grand_dealt:
            return dealt // self.grand_count, "grand"
        return (dealt - grand_dealt) // self.park_deal, "park"

    def _deal(self, action: Deal) -> None:
        seat, ref = action.seat, (action.kind, action.card)
        parks_up = sum(r[0] == "park" for r in self.face_up[seat])
        if action.kind == "grand" or parks_up < self.face_up_parks:
            self.face_up[seat].append(ref)
        else:
            self.pile[seat].append(ref)
        self.dealt_at[ref] = len(self.log)
        self.dealt[seat] += 1
        if len(self.dealt_at) == self.players * (self.grand_count + self.park_deal):
            self._start_round()

    # ----- who moves --------------------------------------------------------------------------------

    def to_move(self) -> tuple[int, ...]:
        return self.movers

    def _find_movers(self) -> None:
        """Work out `movers` (asked for several times an action) once each action has been carried out."""
        movers: tuple[int, ...] = ()
        if self.phase == "play":
            stages = tuple(self.stage)
            found = _MOVERS_BY_STAGES.get(stages)
            if found is None:
                found = _MOVERS_BY_STAGES[stages] = tuple(seat for seat, stage in enumerate(stages) if stage != "done")
            movers = found
        self.movers = movers

    # ----- cutting --------------------------------------------------------------------------------

    def cutting(self, seat: int) -> SheetCuts:
        """The cutting rules' picture of a player's sheet as it is now."""
        bits = self.sheet_bits[seat]
        return SheetCuts(cells_in(bits[0]), lines_in(bits[1]), points_in(bits[2]), self.round_cuts[seat], bits)

    def is_start(self, seat: int, point: Point) -> bool:
        return self.cutting(seat).is_start(point)

    def cut_problem(self, seat: int, cut: Cut) -> tuple[str, str] | None:
        """Why `cut` may not be made now as geometry (rule, reason), or None if it may; lengths are not checked."""
        return self.cutting(seat).problem(cut)

    def lengths_to_cut(self, seat: int) -> tuple[int, ...]:
        """The cut lengths a seat may make now: the bonus cut's, or what the die still asks for."""
        return BONUS_CUT_LENGTHS if self.stage[seat] == "bonus" else tuple(self.to_cut[seat])

    def legal_cuts(self, seat: int) -> list[Cut]:
        return list(self._cuts_now(seat).cuts())

    def _cuts_now(self, seat: int) -> CutList:
        """`legal_cuts` as the cutting rules keep them. The end of each action asks whether a cut can be made
        and the next asks which: the seat's last listing answers again while its sheet (the very bits object),
        its count of this round's cuts and the lengths asked for are the same."""
        bits, made, lengths = self.sheet_bits[seat], len(self.round_cuts[seat]), self.lengths_to_cut(seat)
        kept = self.cuts_kept[seat]
        if kept is not None and kept[0] is bits and kept[1] == made and kept[2] == lengths:
            return kept[3]
        listing = _cuts_listed(bits, self.round_ends[seat], _wanted(lengths))
        self.cuts_kept[seat] = (bits, made, lengths, listing)
        return listing

    def _cut(self, seat: int, cut: Cut) -> None:
        path = _PATH_OF.get(id(cut)) or _PATH[cut.row, cut.col, cut.direction, cut.length]
        line_bits, end_bits, past_start, round_cut, beside = path
        bits_before = self.sheet_bits[seat]
        cells, cut_lines, cut_ends, starts, touched = bits_before
        # The cut's points are all on a cut now, and its ends are cut ends.
        self.sheet_bits[seat] = (
            cells,
            cut_lines | line_bits,
            cut_ends | end_bits,
            starts | end_bits,
            touched | end_bits | past_start,
        )
        self.round_cuts[seat].append(round_cut)
        horizontal, vertical = self.round_ends[seat]
        self.round_ends[seat] = (
            (horizontal | end_bits, vertical) if round_cut[2] == "h" else (horizontal, vertical | end_bits)
        )
        if self.stage[seat] == "bonus":
            self.resume[seat] = "build"
        else:
            self.to_cut[seat].remove(cut.length)
            self.resume[seat] = "cut"
        parts = self._parts(seat, beside) if touched & past_start else []
        if len(parts) < 2:
            self.stage[seat] = self.resume[seat]
            return
        largest = max(map(int.bit_count, parts))
        tied = [part for part in parts if part.bit_count() == largest]
        if len(tied) > 1:
            self.stage[seat] = "keep"
            self.tied[seat] = tuple(frozenset(_squares_of(part)) for part in tied)
        else:
            self._split(seat, parts, tied[0])

    def _parts(self, seat: int, seeds: int) -> list[int]:
        """The parts of a seat's sheet as bitmasks, by smallest square (as `parts` gives them), when each part
        holds a square of `seeds`: the squares beside the lines just cut, on a sheet that was one part.

        A part grows from each seed a step in every open direction at once, all of them in step, and parts
        that meet join. A part that stops growing is whole; once at most one still grows, it is the rest of
        the sheet. The work goes by the size of the parts that come free, not by the size of the sheet."""
        cells, lines = self.sheet_bits[seat][:2]
        # Open lines by the bit of the square south or east of them, as in `_cut_masks`.
        south = cells & cells << WIDTH & ~lines
        east = cells & cells << 1 & ~(lines >> VERTICAL)
        growing = []
        seeds &= cells
        while seeds:
            low = seeds & -seeds
            growing.append(low)
            seeds ^= low
        whole: list[int] = []
        whole_cells = 0  # the squares of the parts found whole
        while len(growing) > 1:
            grown_parts = []
            for part in growing:
                grown = part | part << WIDTH & south | (part & south) >> WIDTH | part << 1 & east | (part & east) >> 1
                if grown != part:
                    grown_parts.append(grown)
                elif not part & whole_cells:  # two seeds of one part may both find it whole
                    whole.append(part)
                    whole_cells |= part
            # Parts that met join; a part that reaches into one found whole is that one.
            growing = []
            for part in grown_parts:
                if part & whole_cells:
                    continue
                for k, other in enumerate(growing):
                    if part & other:
                        growing[k] = part | other
                        break
                else:
                    growing.append(part)
        if growing:
            whole.append(cells & ~whole_cells)
        whole.sort(key=_lowest_bit)
        return whole

    def _split(self, seat: int, parts: list[int], kept: int) -> None:
        """The kept part stays the sheet; every other part comes free as a section to build."""
        _, lines, ends, _, _ = self.sheet_bits[seat]
        sections = self.sections[seat]
        for part in parts:
            if part != kept:
                number = len(sections) + 1
                sections[number] = _squares_of(part)
                self.pending[seat].append(number)
        self.sheet_bits[seat] = _worked_out(kept, lines, ends)
        self.tied[seat] = ()
        self.stage[seat] = self.resume[seat]

    # ----- building ----------------------------------------------------------------------------------

    def free_spaces(self, seat: int, ref: CardRef) -> frozenset[Cell]:
        return card_of(ref).cells - self.covered[seat].get(ref, {}).keys()

    def fits(self, seat: int, section: int, ref: CardRef | None = None) -> list[Fit]:
        """Every legal way to lay `section` on one face-up card (or on any of them)."""
        squares = self.sections[seat][section]
        return [
            Fit(place, tuple(zip(squares, spaces, strict=True)), cost)
            for place, cost, spaces in self._open_layings(seat, section, self._open_cards(seat, ref))
        ]

    def _open_cards(self, seat: int, ref: CardRef | None = None) -> list[OpenCard]:
        """A seat's face-up cards (or one of them) as `_open_layings` asks about them, worked out once for all
        of the seat's waiting sections."""
        covered = self.covered[seat]
        found = []
        for card_ref in self.face_up[seat] if ref is None else [ref]:
            card = card_of(card_ref)
            taken = frozenset(covered.get(card_ref, ()))
            found.append((card_ref, card, len(card.cells) - len(taken), taken))
        return found

    def _open_layings(self, seat: int, section: int, cards: list[OpenCard]) -> list[Laying]:
        """The layings behind `fits` on these open cards: those covering only free spaces, at a cost in tokens
        the seat holds.

        A laying's cost and Place are worked out only once it is known to cover free spaces, and the section's
        shape and looks only once a card has room for it: most placements on a card with covered spaces do
        not, and most sections are too large for some card (many for every card)."""
        squares = self.sections[seat][section]  # in sorted order, as a placement's asks count them
        shape: frozenset[Cell] = frozenset()
        unshown = 0  # the bits of what the squares do not show
        held = self.tokens[seat]
        flips = self.flips
        found: list[Laying] = []
        for card_ref, card, room, taken in cards:
            if len(squares) > room:
                continue  # more squares than free spaces: nothing to work out
            if not shape:
                shape = _shape_of(squares)[1]
                shown = _shown_bits(sheet_of(self.sheet_number[seat]))
                unshown = ~int.from_bytes(bytes(map(shown.__getitem__, squares)), "little")
            for _, orientation, asks, row, col, spaces in _free_placements(shape, card, flips, taken):
                unmet = asks & unshown
                cost = _cost_of(unmet) if unmet else ()
                affordable = True
                for token, count in cost:
                    if held[token] < count:
                        affordable = False
                        break
                if not affordable:
                    continue
                found.append((_place(section, card_ref[0], card_ref[1], row, col, orientation), cost, spaces))
        return found

    def _build_actions(self, seat: int) -> list[Action]:
        actions: list[Action] = []
        listed: list[Laying] = []
        voluntary = self.voluntary_crumple
        cards = self._open_cards(seat)
        for section in self.pending[seat]:
            layings = self._open_layings(seat, section, cards)
            listed += layings
            actions.extend(map(_PLACE_OF, layings))
            if voluntary or not layings:
                actions.append(_crumple(section))
        self.layings_kept[seat] = listed
        return actions

    def mapping_of(self, seat: int, place: Place) -> tuple[tuple[Cell, Cell], ...]:
        """Which sheet square of the section lands on which card space for a Place (legal or not)."""
        squares = self.sections[seat][place.section]
        row, col = place.row, place.col
        landed = _landed(_shape_of(squares)[1], place.orientation)
        return tuple((square, (r + row, c + col)) for square, (r, c) in zip(squares, landed, strict=True))

    def _place(self, seat: int, place: Place) -> None:
        ref = (place.kind, place.card)
        pairs: Iterable[tuple[Cell, Cell]]  # sheet square, card space
        for laying in self.layings_kept[seat]:
            if laying[0] is place:  # picked from the seat's last listing, which worked out its cost and spaces
                _, cost, covering = laying
                pairs = zip(self.sections[seat][place.section], covering, strict=True)
                break
        else:
            pairs = self.mapping_of(seat, place)
            # A legal placement lies on the card and keeps its walkways whole: it spends a token on each
            # requirement its squares do not meet.
            squares = sheet_squares(sheet_of(self.sheet_number[seat]))
            cost = tuple(_requirement_tokens(card_of(ref), squares, pairs).items())
        held = self.tokens[seat]
        for token, count in cost:
            held[token] -= count
        spaces = self.covered[seat].setdefault(ref, {})
        for square_at, space in pairs:
            spaces[space] = (place.section, square_at)
        self.pending[seat].remove(place.section)

    # ----- checking -------------------------------------------------------------------------------------

    def complete_cards(self, seat: int) -> list[CardRef]:
        # A section lies on its card's spaces only: a card is complete when as many spaces are covered as it has.
        covered = self.covered[seat]
        return [ref for ref in self.face_up[seat] if len(covered.get(ref, ())) == len(card_of(ref).cells)]

    def _needs_order(self, seat: int) -> bool:
        """The order of several completions matters only if one of them brings a bonus cut."""
        done = self.complete_cards(seat)
        return len(done) > 1 and any(card_of(ref).bonus == "cut" for ref in done)

    def _resolve(self, seat: int, ref: CardRef) -> None:
        """A complete card: its replacement is drawn, it is set aside, its bonus is gained (seed order)."""
        face_up = self.face_up[seat]
        index = face_up.index(ref)
        replace = self.pile[seat] and not (self.solo and ref[0] == "grand")
        if replace:
            face_up[index] = self._turn_up(seat)
        else:
            face_up.pop(index)
        self.completed[seat].append(ref)
        bonus = card_of(ref).bonus
        if bonus == "cut":
            self.stage[seat] = "bonus"
        else:
            self.tokens[seat][bonus] += 1

    # ----- the flow of a round ---------------------------------------------------------------------

    def _advance(self, seat: int) -> None:
        """Carry a player's round on through every step that needs no decision."""
        while not self.ended:
            stage = self.stage[seat]
            if stage == "cut":
                if not self.to_cut[seat]:
                    self.stage[seat] = "build"
                elif not self._cuts_now(seat):
                    if self.solo:
                        self.ended = CUT_IMPOSSIBLE
                        self.phase = "over"
                        return
                    self.skipped[seat].extend(self.to_cut[seat])
                    self.to_cut[seat] = []
                    self.stage[seat] = "build"
                else:
                    return
            elif stage == "bonus":
                if self._cuts_now(seat):
                    return
                self.bonuses_lost[seat] += 1
                self.stage[seat] = "build"
            elif stage == "build":
                if self.pending[seat]:
                    return
                self.stage[seat] = "check"
            elif stage == "check":
                done = self.complete_cards(seat)
                if not done:
                    self.stage[seat] = "done"
                elif self._needs_order(seat):
                    return
                else:
                    self._resolve(seat, done[0])
            else:  # keep or done
                return
        return

    def _turn_up(self, seat: int) -> CardRef:
        """The top card of a seat's pile, turned face up for everyone to see."""
        self._reveal()
        return self.pile[seat].pop(0)

    def _start_round(self) -> None:
        if self.solo:
            if not self.pile[0]:
                self.ended = PILE_EMPTY
                self.phase = "over"
                return
            self.discarded.append(self._turn_up(0))
        self.round += 1
        self.phase = "roll"

    def _after_roll(self, roll: Roll) -> None:
        self.face = roll.face
        self.phase = "play"
        for seat in range(self.players):
            self.to_cut[seat] = list(roll.lengths)
            self.skipped[seat] = []
            self.stage[seat] = "cut"
        for seat in range(self.players):
            self._advance(seat)
        self._maybe_end_round()

    def _maybe_end_round(self) -> None:
        if self.phase != "play" or self.stage.count("done") != len(self.stage):
            return
        # Straight extensions are forbidden within a round only: the end checks look at a fresh round.
        self.round_cuts = [[] for _ in range(self.players)]
        self.round_ends = [(0, 0)] * self.players
        if any(len(done) == self.dealt[seat] for seat, done in enumerate(self.completed)) and not self.solo:
            self.ended = ALL_CARDS_DONE
        elif not self.solo and not any(map(_can_cut, self.sheet_bits)):
            self.ended = SHEETS_SPENT
        elif self.round >= self.option("round_limit"):
            self.ended = ROUND_LIMIT
        if self.ended:
            self.phase = "over"
            return
        self.roller = (self.roller + 1) % self.players
        self._start_round()

    # ----- the engine's hooks ------------------------------------------------------------------------

    def _legal(self, player: int) -> list[Action] | CutList:
        stage = self.stage[player]
        if stage in ("cut", "bonus"):
            return self._cuts_now(player)
        if stage == "keep":
            return [Keep(*min(piece)) for piece in self.tied[player]]
        if stage == "build":
            return self._build_actions(player)
        if stage == "check":
            return [Score(*ref) for ref in self.complete_cards(player)]
        return []

    def _apply(self, player: int, action: Action) -> None:
        if player == CHANCE:
            self._chance_result(action)
        else:
            self._decision(player, action)
        self._find_movers()

    def _chance_result(self, action: Action) -> None:
        if isinstance(action, Roll):
            self._after_roll(action)
        elif isinstance(action, Deal):
            self._deal(action)
        elif isinstance(action, TearSheet):
            self.sheet_number[action.seat] = action.sheet

    def _decision(self, player: int, action: Action) -> None:
        if isinstance(action, Cut):
            self._cut(player, action)
        elif isinstance(action, Keep):
            kept = next(piece for piece in self.tied[player] if (action.row, action.col) in piece)
            start, end, _ = self.round_cuts[player][-1]  # the cut that left the tie
            self._split(player, self._parts(player, _BESIDE[start, end]), cell_bits(kept))
        elif isinstance(action, Place):
            self._place(player, action)
        elif isinstance(action, Crumple):
            self.pending[player].remove(action.section)
            self.crumpled[player].append(action.section)
        elif isinstance(action, Score):
            self._resolve(player, (action.kind, action.card))
        self._advance(player)
        if self.stage[player] == "done":  # the others' stages are as they were: only this one can end the round
            self._maybe_end_round()

    def _normalize(self, player: int, action: Action) -> Action:
        # A part may be named by any of its squares; a placement by any orientation that lands the same way.
        if isinstance(action, Keep) and self.stage[player] == "keep":
            for piece in self.tied[player]:
                if (action.row, action.col) in piece:
                    return Keep(*min(piece))
        if (
            isinstance(action, Place)
            and self.stage[player] == "build"
            and action.section in self.pending[player]
            and 0 <= action.orientation < 8
            and (action.kind, action.card) in self.face_up[player]
        ):
            wanted = set(self.mapping_of(player, action))
            for fit in self.fits(player, action.section, (action.kind, action.card)):
                if set(fit.mapping) == wanted:
                    return fit.action
        cutting_now = self.stage[player] in ("cut", "bonus")
        if isinstance(action, Cut) and cutting_now and action.length in self.lengths_to_cut(player):
            # The same line named from its other end: legal if that end is where a cut may start.
            sheet = self.cutting(player)
            if sheet.problem(action) is not None:
                end = action.end
                reverse = Cut(action.length, end[0], end[1], OPPOSITE[action.direction])
                if sheet.problem(reverse) is None:
                    return reverse
        return action

    def _is_legal(self, player: int, action: Action) -> bool:
        # A cut, a placement or a crumpling is checked by the rules that list it, without listing the others.
        stage = self.stage[player]
        if isinstance(action, Cut) and stage in ("cut", "bonus") and _well_formed(action):
            return action.length in self.lengths_to_cut(player) and self.cutting(player).problem(action) is None
        if isinstance(action, Place | Crumple) and stage == "build" and action.section in self.pending[player]:
            if isinstance(action, Crumple):
                cards = self._open_cards(player)
                return self.voluntary_crumple or not self._open_layings(player, action.section, cards)
            ref = (action.kind, action.card)
            if ref not in self.face_up[player]:
                return False
            layings = self._open_layings(player, action.section, self._open_cards(player, ref))
            return any(laying[0] == action for laying in layings)
        return action in self._listed_legal(player)

    def _why_illegal(self, player: int, action: Action) -> tuple[str, str]:
        from .explain import why_illegal

        return why_illegal(self, player, action)

    # ----- what each seat sees -------------------------------------------------------------------------

    def _hidden_entries(self, seat: int | None) -> Iterable[int]:
        # Piles lie face down for everyone, their owners included: the deals into them stay hidden.
        dealt_at = self.dealt_at
        return [dealt_at[ref] for pile in self.pile for ref in pile if ref in dealt_at]

    def _redact(self, seat: int | None) -> None:
        # A face-down card shows only that it is there, and which deal (if any) put it there.
        dealt_at = self.dealt_at
        self.pile = [[(FACE_DOWN, dealt_at.pop(ref, -1)) for ref in pile] for pile in self.pile]
        if self.config.start:
            self.config = _face_down_start(self.config, tuple(map(tuple, self.pile)))

    def _sample_hidden(self, rng: random.Random) -> None:
        # Face-down cards are any park cards not seen anywhere (the unused ones are out of sight too).
        seen = {*self.dealt_at, *self.discarded}
        seen.update(ref for refs in (*self.face_up, *self.completed) for ref in refs)
        unseen = [("park", card.number) for card in park_cards() if ("park", card.number) not in seen]
        rng.shuffle(unseen)
        drawn = iter(unseen)
        for seat, pile in enumerate(self.pile):
            for place, (_, index) in enumerate(pile):
                ref = next(drawn)
                pile[place] = ref
                if index >= 0:
                    self.dealt_at[ref] = index
                    self.log[index] = (CHANCE, Deal(ref[0], ref[1], seat))
        if self.config.start:
            self.config = _start_with_piles(self.config, self.pile)

    # ----- the end ----------------------------------------------------------------------------------------

    def largest_section(self, seat: int) -> int:
        """Squares in the largest single section lying on any park card, completed or not."""
        sizes = [len(self.sections[seat][s]) for s in self.placed_sections(seat)]
        return max(sizes, default=0)

    def placed_sections(self, seat: int) -> set[int]:
        return {section for spaces in self.covered[seat].values() for section, _ in spaces.values()}

    def solo_breakdown(self) -> dict[str, int]:
        """The solo score, line by line as the rulebook tallies it."""
        done = self.completed[0]
        grand = sum(ref[0] == "grand" for ref in done)
        lines = {
            "completed park cards (+3 each)": 3 * (len(done) - grand),
            "completed grand parks (+5 each)": 5 * grand,
            "tokens held (+1 each)": sum(self.tokens[0].values()),
            "largest section on a card (+1 per square)": self.largest_section(0),
            "crumpled sections (-1 each)": -len(self.crumpled[0]),
            "cards left incomplete (-1 each)": -len(self.face_up[0]),
        }
        return lines

    def outcome(self) -> Outcome | None:
        if not self.ended:
            return None
        detail = f"after {self.round} rounds"
        if self.solo:
            return Outcome.ranked([sum(self.solo_breakdown().values())], self.ended, detail)
        n = range(self.players)
        return Outcome.ranked(
            [len(self.completed[s]) for s in n],
            self.ended,
            detail,
            tiebreaks=[[-len(self.crumpled[s]) for s in n], [self.largest_section(s) for s in n]],
            tiebreak_names=("fewer crumpled sections", "the larger single section on a card"),
        )

    def __str__(self) -> str:
        from .explain import render

        return render(self)

    def _repr_svg_(self) -> str:
        # Drawing is imported only when a picture is asked for: the rules know no screen.
        from cliplab.ui.svg import render

        from .board import describe

        return render(describe(self))


# ----- start positions ---------------------------------------------------------------------------------

POSITION_FIELDS = ("seats", "die", "round", "roller", "discarded")
SEAT_FIELDS = (
    "sheet",
    "cuts",
    "round_cuts",
    "gone",
    "sections",
    "laid",
    "waiting",
    "crumpled",
    "face_up",
    "pile",
    "completed",
    "tokens",
    "to_cut",
    "skipped",
    "bonus",
    "bonuses_lost",
)


@dataclass(frozen=True)
class SeatPosition:
    """One player's part of a ClipCut Parks position (see `position`); every field may be left out.

    sheet         the sheet's number: 0 for the standard sheet, 1-100 for the pad (default: 0 with the
                  option sheets=standard, else the seat's number + 1)
    cuts          cuts made in earlier rounds, as action text ("cut 2 from 0,3 going S")
    round_cuts    cuts made this round (bonus cuts too): no straight extension of these this round
    gone          squares out of the sheet that belong to no listed section
    sections      every section that came free, in order: section k is sections[k - 1], as its squares;
                  a crumpled section's squares may be left empty
    laid          sections lying on cards, as placements ("place section 1 on park 7 at 0,0 turned 0"); the
                  tokens they cost were spent earlier and are not checked
    waiting       sections freed this round and not yet placed or crumpled
    crumpled      sections crumpled
    face_up, pile, completed   cards as (kind, number), kind "park" or "grand"; a pile is in drawing order
                  (default: the next cards by number that nobody holds, as many as the game deals)
    tokens        {"wildlife": n, "recycling": n, "gardener": n}, missing ones 0
    to_cut        cut lengths the die still asks of this seat this round (default: all of the die's)
    skipped       lengths that could not be cut this round
    bonus         whether the seat is to make a bonus cut now (its cuts and building are done)
    bonuses_lost  bonus cuts that could not be made

    The section squares, laid or waiting or crumpled, and `gone` are out of the sheet; what is left must be
    one piece under the cuts. The seat's step follows: the bonus cut, else cutting while lengths are left,
    else building while sections wait, else checking its cards.
    """

    sheet: int | None = None
    cuts: Sequence[str] = ()
    round_cuts: Sequence[str] = ()
    gone: Collection[Cell] = ()
    sections: Sequence[Collection[Cell]] = ()
    laid: Sequence[str] = ()
    waiting: Sequence[int] = ()
    crumpled: Sequence[int] = ()
    face_up: Sequence[CardRef] | None = None
    pile: Sequence[CardRef] | None = None
    completed: Sequence[CardRef] = ()
    tokens: Mapping[str, int] = field(default_factory=dict)
    to_cut: Sequence[int] | None = None
    skipped: Sequence[int] = ()
    bonus: bool = False
    bonuses_lost: int = 0


def position(
    players: int = 1,
    seed: int = 0,
    *,
    seats: Sequence[SeatPosition | Mapping[str, Any]] | None = None,
    die: int | None = None,
    round: int = 1,
    roller: int = 0,
    discarded: Sequence[CardRef] = (),
    **options: Any,
) -> ClipCutParks:
    """A game of ClipCut Parks that begins at the position these fields describe (PositionError if none can).

    seats      each seat's sheet, cuts, sections and cards, one per player, as a `SeatPosition` or a mapping of
               its fields (default: fresh seats)
    die        the face rolled this round (1-6, an index into DIE_FACES); None: the round's roll is still to
               come (every seat is then done with the last round, and the seed rolls the die)
    round      the round being played (the next one, when the roll is to come)
    roller     the seat that rolls the die this round
    discarded  solo: the cards discarded from the pile at the start of each round so far
    options    the mode: grand_parks, longer, sheets, allow_flip, voluntary_crumple, round_limit

    The result is a game like any other: it saves and loads with its start position, undo goes back to this
    position and no further, and each seat carries on through the steps that need no decision as after a
    roll. `position_of` reads these fields back from a game.

    Solo, round 3: the die showed 1-2-3 and the 1 is cut; a section freed earlier lies on park 7:

    >>> solo = position(1, seed=2, die=2, round=3, sheets="standard", seats=[SeatPosition(
    ...     cuts=["cut 2 from 0,4 going S"], round_cuts=["cut 1 from 7,2 going N"], sections=[[(0, 0), (0, 1)]],
    ...     laid=["place section 1 on park 7 at 0,0 turned 0"], face_up=[("park", 7), ("park", 6)],
    ...     to_cut=[2, 3], tokens={"gardener": 1})])
    >>> solo.stage[0], solo.to_cut[0], solo.free_spaces(0, ("park", 7)) < card_of(("park", 7)).cells
    ('cut', [2, 3], True)

    Two players before round 2's roll (the seed rolls the die), each with a crumpled section:

    >>> table = position(2, seed=4, round=2, roller=1,
    ...                  seats=[SeatPosition(sections=[[(6, 8)]], crumpled=[1])] * 2)
    >>> table.round, table.phase, [len(table.crumpled[seat]) for seat in (0, 1)]
    (2, 'play', [1, 1])
    """
    config = SPEC.config(players, seed, **options)
    given = [SeatPosition()] * players if seats is None else [_seat(seat, i) for i, seat in enumerate(seats)]
    held = {_card(ref) for seat in given for refs in (seat.face_up, seat.pile, seat.completed) for ref in refs or ()}
    held |= {_card(ref) for ref in discarded}
    grand = config.option("grand_parks")
    spare_grand = iter(ref for ref in _deck_refs("grand") if ref not in held)
    spare_park = iter(ref for ref in _deck_refs("park") if ref not in held)
    face_up_size, deal_size = _deal_sizes(config.players, grand, config.option("longer"))
    standard = config.option("sheets") == "standard"
    records = []
    for number, seat in enumerate(given):
        face_up, pile = seat.face_up, seat.pile
        if face_up is None:
            face_up = [next(spare_grand) for _ in range(grand)]
            face_up += [next(spare_park) for _ in range(face_up_size - grand)]
        if pile is None:
            count = deal_size - len(face_up) - len(seat.completed) - len(discarded)
            pile = [next(spare_park) for _ in range(max(0, count))]
        records.append(
            {
                "sheet": (0 if standard else number + 1) if seat.sheet is None else seat.sheet,
                "cuts": list(seat.cuts),
                "round_cuts": list(seat.round_cuts),
                "gone": _set_of(seat.gone),
                "sections": [_set_of(squares) for squares in seat.sections],
                "laid": list(seat.laid),
                "waiting": list(seat.waiting),
                "crumpled": list(seat.crumpled),
                "face_up": list(face_up),
                "pile": list(pile),
                "completed": list(seat.completed),
                "tokens": {token: seat.tokens.get(token, 0) for token in TOKENS} | dict(seat.tokens),
                "to_cut": _asked(die) if seat.to_cut is None else list(seat.to_cut),
                "skipped": list(seat.skipped),
                "bonus": seat.bonus,
                "bonuses_lost": seat.bonuses_lost,
            }
        )
    fields = {"seats": records, "die": die, "round": round, "roller": roller, "discarded": list(discarded)}
    game = ClipCutParks(config.starting_at(fields))
    return game


def _seat(given: SeatPosition | Mapping[str, Any], index: int) -> SeatPosition:
    if isinstance(given, SeatPosition):
        return given
    check_fields(named_entries(given, f"seats[{index}]"), SEAT_FIELDS, f"seats[{index}].")
    return SeatPosition(**given)


def _asked(die: Any) -> list[int]:
    """The lengths a die face asks for (none for no face, or for one the checks will refuse)."""
    return list(DIE_FACES[die - 1]) if type(die) is int and 1 <= die <= len(DIE_FACES) else []


def _set_of(squares: Any) -> Any:
    """Squares whose order does not matter, as a set (anything else is left for the checks)."""
    try:
        return {tuple(square) for square in squares}
    except TypeError:
        return squares


def _card(ref: Any) -> Any:
    """A card reference as a hashable pair (anything else is left for the checks)."""
    return tuple(ref) if isinstance(ref, list | tuple) else ref


def _deck_refs(kind: str) -> list[CardRef]:
    """A deck's cards by number: default hands take the first that nobody holds."""
    return [(kind, card.number) for card in (park_cards() if kind == "park" else grand_park_cards())]


def _deal_sizes(players: int, grand: int, longer: bool) -> tuple[int, int]:
    """How many cards a seat has face up, and in all (solo: the cards in play), as the rules deal them."""
    solo = players == 1
    total = SOLO_CARDS_IN_PLAY if solo else (7 if longer else 5)
    return grand + (2 if solo or not grand else 1), total


def face_asking(lengths: Sequence[int]) -> int:
    """A die face asking for these cut lengths and as few others as possible (0 if no face asks for them)."""
    fitting = [(len(asked) - len(lengths), face) for face, asked in enumerate(DIE_FACES, 1) if _within(lengths, asked)]
    return min(fitting)[1] if fitting else 0


def _within(lengths: Sequence[int], asked: Sequence[int]) -> bool:
    """Whether every length is one the die asks for, each as often as it is asked."""
    return all(lengths.count(length) <= asked.count(length) for length in lengths)


def laying(sheet: int, ref: CardRef, squares: Collection[Cell], spaces: Collection[Cell], flips: bool) -> Place | None:
    """A placement of a section of these sheet squares (numbered 0 here) that covers exactly these spaces of
    card `ref` and meets the card's requirements without tokens; None if there is none."""
    if len(frozenset(spaces)) != len(frozenset(squares)):
        return None
    card = card_of(ref)
    for found in placements(squares, frozenset(spaces), flips):
        if placement_cost(card, sheet_squares(sheet_of(sheet)), found.mapping) == {}:
            turned = found.transform.turns + 4 * found.transform.flipped
            return Place(0, ref[0], ref[1], found.offset[0], found.offset[1], turned)
    return None


def position_of(game: ClipCutParks) -> dict[str, Any]:
    """The fields of `position` (seats as mappings) that describe the game as it stands: in a round's play
    with no seat choosing which part stays, or before a roll."""
    if game.phase not in ("play", "roll") or "keep" in game.stage:
        raise PositionError("phase", "a position is read during a round's play (no part to choose) or before a roll")
    seats = []
    for seat in range(game.players):
        freed = [game.sections[seat][number] for number in sorted(game.sections[seat])]
        laid = []
        for ref, spaces in game.covered[seat].items():
            by_section: dict[int, list[tuple[Cell, Cell]]] = {}
            for space, (section, square) in spaces.items():
                by_section.setdefault(section, []).append((square, space))
            for section, pairs in sorted(by_section.items()):
                laid.append(str(_placement(game.sections[seat][section], ref, section, pairs)))
        seats.append(
            {
                "sheet": game.sheet_number[seat],
                "cuts": [],
                "round_cuts": [],
                "gone": sorted(SHEET_CELLS - game.sheet[seat] - {square for part in freed for square in part}),
                "sections": [list(part) for part in freed],
                "laid": laid,
                "waiting": list(game.pending[seat]),
                "crumpled": list(game.crumpled[seat]),
                "face_up": list(game.face_up[seat]),
                "pile": list(game.pile[seat]),
                "completed": list(game.completed[seat]),
                "tokens": dict(game.tokens[seat]),
                "to_cut": list(game.to_cut[seat]),
                "skipped": list(game.skipped[seat]),
                "bonus": game.stage[seat] == "bonus",
                "bonuses_lost": game.bonuses_lost[seat],
            }
        )
        seats[-1].update(_cut_texts(game, seat))
    return {
        "seats": seats,
        "die": game.face if game.phase == "play" else None,
        "round": game.round,
        "roller": game.roller,
        "discarded": list(game.discarded),
    }


def _placement(squares: Sequence[Cell], ref: CardRef, section: int, pairs: list[tuple[Cell, Cell]]) -> Place:
    wanted = set(pairs)
    for found in placements(squares, frozenset(space for _, space in pairs), True):
        if set(found.mapping) == wanted:
            turned = found.transform.turns + 4 * found.transform.flipped
            return Place(section, ref[0], ref[1], found.offset[0], found.offset[1], turned)
    raise AssertionError(f"section {section} lies on {card_name(ref)} in no rigid placement")


def _cut_texts(game: ClipCutParks, seat: int) -> dict[str, list[str]]:
    """This round's cuts as made, and the lines of earlier rounds as the straight cuts between cut ends."""
    this_round = []
    this_round_lines: set[Segment] = set()
    for start, end, _ in game.round_cuts[seat]:
        direction = next(d for d in DIRS if _reaches(start, end, d))
        cut = Cut(abs(end[0] - start[0]) + abs(end[1] - start[1]), start[0], start[1], direction)
        this_round.append(str(cut))
        this_round_lines |= {edge_between(p, q) for p, q in pairwise(cut.points)}
    # Each earlier line as (its start point, direction), collected into runs that stop at every cut end.
    steps: dict[Point, set[str]] = {}
    for (r, c), (r2, c2) in game.cuts[seat] - this_round_lines:
        start, direction = ((r, c2), "S") if r == r2 else ((r2, c), "E")
        steps.setdefault(start, set()).add(direction)
    ends = game.cut_ends[seat]
    earlier = []
    for start in sorted(steps):
        for direction in sorted(steps[start]):
            back = (start[0] - DIRECTIONS[direction][0], start[1] - DIRECTIONS[direction][1])
            if start not in ends and direction in steps.get(back, ()):
                continue  # the middle of a run: counted from where the run starts
            length, here = 1, _STEPS[start, direction][0]
            while here not in ends and direction in steps.get(here, ()):
                length, here = length + 1, _STEPS[here, direction][0]
            earlier.append(str(Cut(length, start[0], start[1], direction)))
    return {"cuts": earlier, "round_cuts": this_round}


def _well_formed(cut: Cut) -> bool:
    """Whether a cut's fields are of the kinds the cutting rules work with (anything else is refused as unlisted)."""
    return type(cut.length) is type(cut.row) is type(cut.col) is int and cut.direction in DIRS


def _reaches(start: Point, end: Point, direction: str) -> bool:
    dr, dc = DIRECTIONS[direction]
    length = abs(end[0] - start[0]) + abs(end[1] - start[1])
    return (start[0] + dr * length, start[1] + dc * length) == end


def _begin_at(game: ClipCutParks, fields: dict[str, Any]) -> None:
    """Check a start position's fields and set the game up there (called by _setup)."""
    check_fields(fields, POSITION_FIELDS)
    n = game.players
    die = fields.get("die")
    if die is not None:
        integer(die, "die", 1, len(DIE_FACES))
    game.round = integer(fields.get("round", 1), "round", 1, game.option("round_limit"))
    game.roller = integer(fields.get("roller", 0), "roller", 0, n - 1)
    held: dict[CardRef, str] = {}
    game.discarded = _cards(game, fields.get("discarded", []), "discarded", held)
    if game.discarded and not game.solo:
        raise PositionError("discarded", "cards are discarded from the pile in the solo game only")
    records = items(fields.get("seats"), "seats", n)
    sheets = []
    for seat, record in enumerate(records):
        where = f"seats[{seat}]."
        check_fields(named_entries(record, f"seats[{seat}]"), SEAT_FIELDS, where)
        sheets.append(_begin_seat(game, seat, record, where, held, die))
    if game.option("sheets") == "pad":
        distinct(sheets, "seats", "pad sheet")
    game.dealt = [sum(_deal_sizes(n, game.grand_count, game.option("longer"))[1:])] * n
    game.face = die or 0
    game.phase = "play" if die is not None else "roll"
    if die is None:
        return
    for seat in range(n):
        game._advance(seat)
    game._maybe_end_round()


def _begin_seat(
    game: ClipCutParks, seat: int, record: dict[str, Any], where: str, held: dict[CardRef, str], die: int | None
) -> int:
    """Check and set one seat's fields; returns its sheet number."""
    standard = game.option("sheets") == "standard"
    sheet_number = integer(record.get("sheet", 0 if standard else seat + 1), f"{where}sheet", 0, PAD_SIZE)
    if standard != (sheet_number == 0):
        wanted = "the standard sheet, 0" if standard else "a pad sheet, 1-100"
        raise PositionError(f"{where}sheet", f"with the option sheets={game.option('sheets')} each seat cuts {wanted}")
    game.sheet_number[seat] = sheet_number
    cuts, ends, round_cuts = set(), set(), []
    for name in ("cuts", "round_cuts"):
        for index, text in enumerate(items(record.get(name, []), f"{where}{name}")):
            cut = _cut(text, f"{where}{name}[{index}]")
            points = cut.points
            cuts |= {edge_between(p, q) for p, q in pairwise(points)}
            ends |= {points[0], points[-1]}
            if name == "round_cuts":
                round_cuts.append((points[0], points[-1], _AXIS[cut.direction]))
    squares_out: dict[Cell, str] = {}
    for index, value in enumerate(items(record.get("gone", []), f"{where}gone")):
        square = cell_at(value, f"{where}gone[{index}]", SHEET_ROWS, SHEET_COLS)
        _claim(squares_out, square, f"square {square}", f"{where}gone[{index}]", "listed as gone")
    sections: dict[int, tuple[Cell, ...]] = {}
    for index, value in enumerate(items(record.get("sections", []), f"{where}sections")):
        at = f"{where}sections[{index}]"
        piece = [cell_at(square, f"{at}[{k}]", SHEET_ROWS, SHEET_COLS) for k, square in enumerate(items(value, at))]
        for k, square in enumerate(piece):
            _claim(squares_out, square, f"square {square}", f"{at}[{k}]", f"in section {index + 1}")
        if piece and len(parts(frozenset(piece), frozenset())) != 1:
            raise PositionError(at, f"section {index + 1} is not one piece: its squares must join side to side")
        sections[index + 1] = tuple(sorted(piece))
    sheet = SHEET_CELLS - frozenset(squares_out)
    if not sheet or len(parts(sheet, frozenset(cuts))) != 1:
        raise PositionError(f"{where}cuts", "the sheet left is not one piece: list what came free as sections or gone")
    game.sheet_bits[seat] = sheet_bits(sheet, cuts, ends)
    game.round_cuts[seat] = round_cuts
    game.round_ends[seat] = _round_ends(round_cuts)
    game.sections[seat] = sections
    game.face_up[seat] = _cards(game, record.get("face_up", []), f"{where}face_up", held)
    game.pile[seat] = _cards(game, record.get("pile", []), f"{where}pile", held)
    game.completed[seat] = _cards(game, record.get("completed", []), f"{where}completed", held)
    used: dict[int, str] = {}
    game.pending[seat] = _section_numbers(record, "waiting", where, sections, used)
    game.crumpled[seat] = _section_numbers(record, "crumpled", where, sections, used)
    game.covered[seat] = {}
    for index, text in enumerate(items(record.get("laid", []), f"{where}laid")):
        _lay(game, seat, text, f"{where}laid[{index}]", sections, used)
    for number in sections:
        if number not in used:
            raise PositionError(
                f"{where}sections[{number - 1}]", f"section {number} is neither laid, waiting nor crumpled"
            )
    tokens = named_entries(record.get("tokens", {}), f"{where}tokens")
    check_fields(tokens, TOKENS, f"{where}tokens.")
    game.tokens[seat] = {token: integer(tokens.get(token, 0), f"{where}tokens.{token}", 0) for token in TOKENS}
    asked = _asked(die)
    to_cut = _lengths(record, "to_cut", where, asked)
    game.to_cut[seat] = to_cut
    game.skipped[seat] = _lengths(record, "skipped", where, [])
    game.bonuses_lost[seat] = integer(record.get("bonuses_lost", 0), f"{where}bonuses_lost", 0)
    bonus = boolean(record.get("bonus", False), f"{where}bonus")
    if die is None:
        for name, value in (("to_cut", to_cut), ("waiting", game.pending[seat]), ("bonus", bonus)):
            if value:
                raise PositionError(f"{where}{name}", "before the roll every seat is done with the last round")
    if not _within(to_cut, asked):
        raise PositionError(f"{where}to_cut", f"the die (face {die}: {asked}) does not ask for the cuts {to_cut}")
    if bonus and (to_cut or game.pending[seat]):
        raise PositionError(f"{where}bonus", "a bonus cut comes once the seat's cuts and building are done")
    game.stage[seat] = (
        "done" if die is None else "bonus" if bonus else "cut" if to_cut else "build" if game.pending[seat] else "check"
    )
    return sheet_number


def _lengths(record: dict[str, Any], name: str, where: str, default: list[int]) -> list[int]:
    given = items(record.get(name, default), f"{where}{name}")
    return [integer(value, f"{where}{name}[{index}]", 1) for index, value in enumerate(given)]


def _parsed(text: Any, where: str, kind: type[Action], example: str) -> Any:
    """An action of `kind` given as its text (a cut, a placement)."""
    try:
        action = ClipCutParks.CODEC.parse(text) if isinstance(text, str) else None
    except IllegalAction as err:
        raise PositionError(where, err.reason) from None
    if not isinstance(action, kind):
        raise PositionError(where, f"takes text like {example!r}, not {text!r}")
    return action


def _cut(text: Any, where: str) -> Cut:
    cut: Cut = _parsed(text, where, Cut, "cut 2 from 0,3 going S")
    for k, (p, q) in enumerate(pairwise(cut.points)):
        if (p, cut.direction) not in _STEPS or any(square not in SHEET_CELLS for square in edge_between(p, q)):
            raise PositionError(where, f"step {k + 1} of {text!r} does not run between two squares of the sheet")
    return cut


def _claim(owner: dict[Any, str], key: Any, label: str, where: str, what: str) -> None:
    """Record that `key` is `what`; a key that is something already is named in a PositionError."""
    if key in owner:
        raise PositionError(where, f"{label} is {owner[key]} already")
    owner[key] = what


def _cards(game: ClipCutParks, value: Any, where: str, held: dict[Any, str]) -> list[CardRef]:
    """Card references, each a card of the game held in one place only."""
    refs: list[CardRef] = []
    for index, entry in enumerate(items(value, where)):
        at = f"{where}[{index}]"
        kind, number = items(entry, at, 2)
        if kind not in KINDS:
            raise PositionError(at, f"a card's kind is park or grand, not {kind!r}")
        deck = park_cards() if kind == "park" else grand_park_cards()
        integer(number, at, 1, len(deck))
        if kind == "grand" and not game.grand_count:
            raise PositionError(at, "this game has no grand parks (the option grand_parks is 0)")
        ref = (kind, number)
        _claim(held, ref, card_name(ref), at, f"held in {where}")
        refs.append(ref)
    return refs


def _section_numbers(
    record: dict[str, Any], name: str, where: str, sections: dict[int, tuple[Cell, ...]], used: dict[Any, str]
) -> list[int]:
    numbers = []
    for index, value in enumerate(items(record.get(name, []), f"{where}{name}")):
        at = f"{where}{name}[{index}]"
        number = integer(value, at, 1, len(sections))
        if name == "waiting" and not sections[number]:
            raise PositionError(at, f"section {number} waits to be placed, so its squares are needed")
        _claim(used, number, f"section {number}", at, name)
        numbers.append(number)
    return numbers


def _lay(
    game: ClipCutParks, seat: int, text: Any, where: str, sections: dict[int, tuple[Cell, ...]], used: dict[Any, str]
) -> None:
    """A section lying on a card since earlier: a placement of its shape on free spaces of the card."""
    place: Place = _parsed(text, where, Place, "place section 1 on park 7 at 0,0 turned 0")
    ref = (place.kind, place.card)
    if not sections.get(place.section):
        raise PositionError(where, f"there is no section {place.section} with squares to lay")
    if ref not in game.face_up[seat] + game.completed[seat]:
        raise PositionError(where, f"{card_name(ref)} is neither face up nor completed for this seat")
    if not 0 <= place.orientation < (8 if game.option("allow_flip") else 4):
        raise PositionError(where, f"orientation {place.orientation} is not a turn this game allows")
    _claim(used, place.section, f"section {place.section}", where, "laid")
    free = game.free_spaces(seat, ref)
    spaces = game.covered[seat].setdefault(ref, {})
    for square, space in game.mapping_of(seat, place):
        if space not in free:
            raise PositionError(where, f"space {space} of {card_name(ref)} is not a free space of the card")
        spaces[space] = (place.section, square)


def _start_with_piles(config: GameConfig, piles: Sequence[Sequence[CardRef]]) -> GameConfig:
    """The configuration with its start position's piles ending in `piles` (the cards drawn from them since
    the start stay as they are): a view's start must hide the face-down cards as its piles do."""
    fields = config.start_fields()
    if fields is None or "seats" not in fields:
        return config
    for record, pile in zip(fields["seats"], piles, strict=True):
        begun = record.get("pile", [])
        record["pile"] = begun[: len(begun) - len(pile)] + [list(ref) for ref in pile]
    return config.starting_at(fields)


# Views of one game share their face-down start: worked out once, not on every bot decision.
_face_down_start = lru_cache(maxsize=64)(_start_with_piles)


def _max_length(players: int, options: Mapping[str, OptionValue]) -> int:
    # Setup draws, then per round a roll and per player at most 4 cuts and 4 part choices; over the whole
    # game each player frees at most 63 sections (one action each) and completes at most 20 cards (a score
    # choice, a bonus cut and a part choice each).
    rounds = options["round_limit"]
    assert isinstance(rounds, int)
    setup = players * (1 + SOLO_CARDS_IN_PLAY)
    return setup + rounds * (1 + 8 * players) + players * (SHEET_ROWS * SHEET_COLS + 3 * SOLO_CARDS_IN_PLAY)


SPEC = register(
    GameSpec(
        name="clipcut_parks",
        title="ClipCut Parks",
        summary="Roll, cut your park sheet along its lines, and fit the sections that come free onto park cards.",
        min_players=1,
        max_players=4,
        default_players=2,
        options=(
            Option("grand_parks", int, 0, "grand park cards dealt face up to each player (0-3)", minimum=0, maximum=3),
            Option("longer", bool, False, "the longer game: 7 cards each instead of 5 (no effect solo)"),
            Option(
                "sheets",
                str,
                "pad",
                "each player tears a different sheet off the 100-sheet pad, or everyone uses the standard sheet",
                choices=("pad", "standard"),
            ),
            Option("allow_flip", bool, False, "sections may be turned over (the back of a real sheet is blank)"),
            Option("voluntary_crumple", bool, False, "a section may be crumpled even when it fits somewhere"),
            round_limit(100),
        ),
        state_class=ClipCutParks,
        max_length=_max_length,
        variants={
            "longer": {"longer": True},
            "grand_1": {"grand_parks": 1},
            "grand_2": {"grand_parks": 2},
            "grand_3": {"grand_parks": 3},
            "standard_sheet": {"sheets": "standard"},
        },
        simultaneous=True,
        hidden_information=True,
        chance=True,
    )
)

__all__ = [
    "SPEC",
    "ClipCutParks",
    "Crumple",
    "Cut",
    "Deal",
    "Keep",
    "Place",
    "Roll",
    "Score",
    "SeatPosition",
    "TearSheet",
    "card_of",
    "face_asking",
    "laying",
    "placement_cost",
    "position",
    "position_of",
    "sheet_of",
    "sheet_squares",
    "tokens_spent",
    "waiver",
    "waiving_token",
]
