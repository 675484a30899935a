"""Cutterland: cut landscape cards into one piece per player, draft the pieces, join them into a kingdom,
place towers, walls and bridges, let the krakens and then the dragons hunt, and score the regions.
Rules from seeds/001 with RULINGS.md; the rule names used in refusals follow the game's stages (cutting,
picking, joining, tokens, hunt).

Geometry. A card's cells are (row, col), rows 0-2 from the top and columns 0-3 from the left. A cut is
written as three rows of four piece numbers: "cut card 17 as 1122 1122 3344" gives piece 1 the left two
cells of the top two rows, and so on. Pieces are renumbered in reading order (the first cell is in piece
1), so every cut has one spelling in the log. A kingdom is unbounded: its cells are (row, col) with any
whole numbers; the first piece is joined with its top-left corner at 0,0. A piece turned `turns` quarter
turns clockwise is joined with the top-left corner of its bounding box at the row and column named.

A cell is a two-letter code (see content.py): its terrain (M meadow, S wasteland, W water) and what it
shows (a monster letter, a token icon or "."). Token icons leave the cell when its piece is taken.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from itertools import chain, compress
from typing import Any, ClassVar, cast

from cliplab.engine import (
    CHANCE,
    Action,
    ActionCodec,
    ActionsInParts,
    ChanceNode,
    GameSpec,
    ListedActions,
    Option,
    OptionValue,
    Outcome,
    PositionError,
    State,
    register,
)
from cliplab.engine.position import check_fields, integer, items, word
from cliplab.grid import Transform, neighbours4, orient, parts

from .content import CARD_COLS, CARD_ROWS, HOMES, MONSTERS, NOTHING, TERRAINS, TOKENS, card, deck

Cell = tuple[int, int]
Pair = tuple[Cell, Cell]

CELLS = CARD_ROWS * CARD_COLS
TOKEN_KINDS = ("tower", "wall", "bridge")
TOKEN_OF_ICON = {icon: name for icon, name in TOKENS.items()}
SIDES = ("east", "south", "west", "north")
STEP = {"east": (0, 1), "south": (1, 0), "west": (0, -1), "north": (-1, 0)}
GAME_OVER = "every card is cut and the monsters have hunted"
AROUND = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)  # 8 neighbours, reading order
KRAKEN_PREY = frozenset(MONSTERS) - {"K"}  # what a kraken eats
DRAGON_PREY = frozenset(MONSTERS) - {"D"}  # what a dragon eats


# ----- actions ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Deal(Action):
    """Chance: the next card from the shuffled deck goes to a player."""

    TEMPLATE: ClassVar[str] = "deal card {card} to player {seat}"
    CHANCE: ClassVar[bool] = True
    card: int
    seat: int


@dataclass(frozen=True, slots=True)
class Cut(Action):
    """The active player cuts one of their cards: each row written as four piece numbers."""

    TEMPLATE: ClassVar[str] = "cut card {card} as {top} {middle} {bottom}"
    card: int
    top: int
    middle: int
    bottom: int

    def labels(self) -> tuple[int, ...] | None:
        """The piece number of each cell in reading order, or None if a row is not four digits 1-9."""
        return _labels_of_rows(self.top, self.middle, self.bottom)


@lru_cache(maxsize=16384)
def _labels_of_rows(*rows: int) -> tuple[int, ...] | None:
    found: list[int] = []
    for row in rows:
        text = str(row)
        if len(text) != CARD_COLS or not all("1" <= ch <= "9" for ch in text):
            return None
        found.extend(int(ch) for ch in text)
    return tuple(found)


@dataclass(frozen=True, slots=True)
class Take(Action):
    TEMPLATE: ClassVar[str] = "take piece {piece}"
    piece: int


@dataclass(frozen=True, slots=True)
class Join(Action):
    TEMPLATE: ClassVar[str] = "join at {row},{col} turned {turns}"
    row: int
    col: int
    turns: int


@dataclass(frozen=True, slots=True)
class Tower(Action):
    TEMPLATE: ClassVar[str] = "tower on {row},{col}"
    row: int
    col: int


@dataclass(frozen=True, slots=True)
class Wall(Action):
    """A wall on the side of a cell; the log names it from the cell to its west or north (east or south)."""

    TEMPLATE: ClassVar[str] = "wall {side} of {row},{col}"
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"side": SIDES}
    side: str
    row: int
    col: int


@dataclass(frozen=True, slots=True)
class Bridge(Action):
    """A bridge from a cell over the next position to the cell beyond, named from its west or north end."""

    TEMPLATE: ClassVar[str] = "bridge {side} from {row},{col}"
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"side": SIDES}
    side: str
    row: int
    col: int


@dataclass(frozen=True, slots=True)
class Keep(Action):
    """Done placing: the tokens still held are kept (1 point each)."""

    TEMPLATE: ClassVar[str] = "keep the other tokens"


@dataclass(frozen=True, slots=True)
class Feed(Action):
    TEMPLATE: ClassVar[str] = "dragon at {row},{col} eats {prey_row},{prey_col}"
    row: int
    col: int
    prey_row: int
    prey_col: int


KEEP = Keep()
TAKES = {piece: Take(piece) for piece in range(1, 5)}


@cache
def deal_action(number: int, seat: int) -> Deal:
    return Deal(number, seat)


@cache
def tower_action(row: int, col: int) -> Tower:
    return Tower(row, col)


@cache
def wall_action(side: str, row: int, col: int) -> Wall:
    return Wall(side, row, col)


@cache
def bridge_action(side: str, row: int, col: int) -> Bridge:
    return Bridge(side, row, col)


@dataclass(frozen=True, slots=True)
class NextCard(ChanceNode):
    """The next card off the shuffled deck to `seat`: each card not `dealt` yet equally likely, the k-th of
    them in deck order drawn as UniformChoice over them would (found by stepping past the dealt cards before
    it, not by listing the deck afresh for every deal)."""

    dealt: frozenset[int]
    seat: int

    def draw(self, rng: random.Random) -> Action:
        order, position = _deck_order()
        k = rng.randrange(len(order) - len(self.dealt))
        for gone in sorted(map(position.__getitem__, self.dealt)):
            if gone > k:
                break
            k += 1
        return deal_action(order[k], self.seat)

    def allows(self, event: Action) -> bool:
        return (
            isinstance(event, Deal)
            and event.seat == self.seat
            and event.card in deck()
            and event.card not in self.dealt
        )


@cache
def _deck_order() -> tuple[tuple[int, ...], dict[int, int]]:
    """The deck's card numbers in order, and each one's place in it."""
    order = tuple(deck())
    return order, {number: place for place, number in enumerate(order)}


# ----- cutting a card: the legal partitions, enumerated once -------------------------------------------


def _cells_of(mask: int) -> list[Cell]:
    """The card cells of `mask` (bit i: cell i of a card in reading order)."""
    return [divmod(i, CARD_COLS) for i in range(CELLS) if mask >> i & 1]


def _hangs_together(mask: int) -> bool:
    return len(parts(_cells_of(mask))) == 1


@cache
def _connected_masks() -> tuple[frozenset[int], dict[int, tuple[int, ...]]]:
    """Every connected set of card cells, and those sets grouped by their first cell."""
    found = [mask for mask in range(1, 1 << CELLS) if _hangs_together(mask)]
    by_first: dict[int, list[int]] = {}
    for mask in found:
        by_first.setdefault(mask & -mask, []).append(mask)
    return frozenset(found), {first: tuple(masks) for first, masks in by_first.items()}


def _splits(rest: int, pieces: int) -> Iterable[tuple[int, ...]]:
    connected, by_first = _connected_masks()
    if pieces == 1:
        if rest in connected:
            yield (rest,)
        return
    for mask in by_first[rest & -rest]:
        if mask & rest == mask and mask != rest:
            for tail in _splits(rest & ~mask, pieces - 1):
                yield (mask, *tail)


@cache
def partitions(pieces: int) -> tuple[tuple[int, ...], ...]:
    """Every way to cut a card into `pieces` connected pieces: each cell's piece number in reading order,
    pieces numbered by their first cell (146 ways for 2 pieces, 1350 for 3, 4325 for 4)."""
    found = []
    for masks in _splits((1 << CELLS) - 1, pieces):
        labels = [0] * CELLS
        for number, mask in enumerate(masks, start=1):
            for i in range(CELLS):
                if mask >> i & 1:
                    labels[i] = number
        found.append(tuple(labels))
    return tuple(sorted(found))


def renumbered(labels: Sequence[int]) -> tuple[int, ...]:
    """The same cut with pieces numbered in reading order of their first cell."""
    order: dict[int, int] = {}
    return tuple(order.setdefault(label, len(order) + 1) for label in labels)


def _rows_of(labels: Sequence[int]) -> tuple[int, ...]:
    """A cut's rows as a Cut names them: each row's piece numbers as one number."""
    return tuple(int("".join(map(str, labels[r * CARD_COLS : (r + 1) * CARD_COLS]))) for r in range(CARD_ROWS))


def cut_of(card_number: int, labels: Sequence[int]) -> Cut:
    return Cut(card_number, *_rows_of(labels))


@cache
def _partition_rows(pieces: int) -> tuple[tuple[int, ...], ...]:
    """Each of `partitions(pieces)` as the row numbers a Cut names it by."""
    return tuple(_rows_of(labels) for labels in partitions(pieces))


def cut_actions(card_number: int, pieces: int) -> tuple[Cut, ...]:
    """A card's legal cuts into `pieces` pieces, in the order of `partitions(pieces)`."""
    return _deck_cuts(pieces)[card_number]


@cache
def _deck_cuts(pieces: int) -> dict[int, tuple[Cut, ...]]:
    # Every card's cuts made in one run, nothing else allocated between them, so that they lie side by side
    # in memory: a legal list touches thousands of them, and reading them in order is several times faster
    # than reading cuts scattered among the holes other objects left (as cuts made card by card would be).
    rows = _partition_rows(pieces)
    return {number: tuple([Cut(number, top, middle, bottom) for top, middle, bottom in rows]) for number in deck()}


@cache
def _partition_set(pieces: int) -> frozenset[tuple[int, ...]]:
    return frozenset(partitions(pieces))


@cache
def _cut_places(pieces: int) -> dict[tuple[int, ...], int]:
    """Where each cut into `pieces` pieces stands among a card's cuts, by the row numbers it names."""
    return {rows: place for place, rows in enumerate(_partition_rows(pieces))}


def _is_dealt_cut(action: Cut, pieces: int) -> bool:
    """Whether `action` is the very Cut object that legal lists hold for its card and rows."""
    card_number, rows = action.card, (action.top, action.middle, action.bottom)
    if not type(card_number) is type(rows[0]) is type(rows[1]) is type(rows[2]) is int:
        return False
    place = _cut_places(pieces).get(rows)
    cuts = _deck_cuts(pieces).get(card_number)
    return place is not None and cuts is not None and cuts[place] is action


class _HandCuts(ActionsInParts):
    """A hand's cuts: each card's tuple of cuts, not a list of the hand's thousands (see ActionsInParts). A
    chosen cut is found at its own place among its card's cuts: a walk through thousands to find it would
    cost the checked path more than the rest of the cut."""

    __slots__ = ("cards", "pieces")

    def __init__(self, cards: Sequence[int], pieces: int) -> None:
        super().__init__([cut_actions(number, pieces) for number in cards])
        self.cards, self.pieces = tuple(cards), pieces

    def holds(self, action: Action) -> bool:
        return type(action) is Cut and _is_dealt_cut(action, self.pieces) and action.card in self.cards


def pieces_cut_by(segments: Collection[Pair]) -> tuple[int, ...]:
    """The pieces cut lines (segments between two card cells) make of a card: each cell's piece number in
    reading order, pieces numbered by their first cell (a line that encloses nothing parts nothing)."""
    everything = [divmod(i, CARD_COLS) for i in range(CELLS)]
    labels = [0] * CELLS
    for number, piece in enumerate(parts(everything, set(segments)), start=1):
        for r, c in piece:
            labels[r * CARD_COLS + c] = number
    return tuple(labels)


def piece_cells(labels: Sequence[int], piece: int) -> list[Cell]:
    return [divmod(i, CARD_COLS) for i, label in enumerate(labels) if label == piece]


@cache
def _cells_of_piece(labels: tuple[int, ...], piece: int) -> tuple[Cell, ...]:
    """`piece_cells` of a legal cut (a few thousand cuts in all, so each is worked out once)."""
    return tuple(piece_cells(labels, piece))


def _printed(card_number: int, cells: tuple[Cell, ...]) -> tuple[tuple[Cell, str], ...]:
    """Card cells with their codes as the card prints them."""
    printed = card(card_number).cells
    return tuple((cell, printed[cell[0]][cell[1]]) for cell in cells)


def cut_problem(labels: Sequence[int], pieces: int) -> str | None:
    """Why `labels` is not a legal cut into `pieces` pieces, in a player's words, or None."""
    made = sorted(set(labels))
    if len(made) != pieces:
        few = "too few" if len(made) < pieces else "too many"
        return f"a card is cut into exactly {pieces} pieces, one per piece to take; this cut makes {len(made)} ({few})"
    for piece in made:
        cells_of_piece = piece_cells(labels, piece)
        if len(parts(cells_of_piece)) != 1:
            cells = " ".join(f"{r},{c}" for r, c in cells_of_piece)
            return (
                f"piece {piece} (cells {cells}) is not connected: each piece must hang together along cell edges"
                " (touching corners is not enough)"
            )
    return None


# ----- kingdoms: joining, regions, the hunt, the score --------------------------------------------------


def turned(cells: Iterable[tuple[Cell, str]], turns: int) -> list[tuple[Cell, str]]:
    """A piece's cells turned `turns` quarter turns clockwise, its bounding box's top-left at 0,0."""
    return list(_turned_piece(tuple(cells), turns % 4))


def _turned_piece(cells: tuple[tuple[Cell, str], ...], turns: int) -> tuple[tuple[Cell, str], ...]:
    # Where each cell goes depends on the shape alone (a few thousand of them, each turned once); the codes
    # ride along, so pieces of the same shape on different cards share the turning.
    moved = _turned_shape(tuple(cell for cell, _ in cells), turns)
    return tuple(sorted(zip(moved, (code for _, code in cells), strict=True)))


@cache  # card pieces are 1126 shapes, 4 turns each: every one is turned once at most
def _turned_shape(cells: tuple[Cell, ...], turns: int) -> tuple[Cell, ...]:
    """Where each of `cells` goes when the shape is turned `turns` quarter turns clockwise (bounding box at 0,0)."""
    return tuple(orient(cells, Transform(turns)).values())


JOIN_MARGIN = 4  # free rows above and columns beside a kingdom's cells in its bitmask: a turned piece spans 4
FRAME_STEP = 4  # a bitmask's top row and left column are multiples of this, its width of twice this


@cache
def join_action(row: int, col: int, turns: int) -> Join:
    """The one Join object for these numbers: legal lists hand out the same objects instead of new ones."""
    return Join(row, col, turns)


class _JoinsOfBits(list[Join]):
    """The joins of one frame and one turn in the order of the bits that stand for their anchors (bit
    row * width + col, counted from the frame's top-left), made as far as they have been asked for."""

    def __init__(self, top: int, left: int, width: int, turns: int) -> None:
        super().__init__()
        self.top, self.left, self.width, self.turns = top, left, width, turns

    def reaching(self, bits: int) -> _JoinsOfBits:
        """This list, made at least `bits` long."""
        if len(self) < bits:
            top, left, width, turns = self.top, self.left, self.width, self.turns
            self += [join_action(top + bit // width, left + bit % width, turns) for bit in range(len(self), bits)]
        return self


@cache
def _frame(top: int, left: int, width: int) -> tuple[_JoinsOfBits, ...]:
    return tuple(_JoinsOfBits(top, left, width, turns) for turns in range(4))


@dataclass(frozen=True, eq=False)
class _Form:
    """A piece's shape (its card cells in reading order) with what joining it asks for, worked out once per
    shape: the cells turned each way (in the order of `cells`), where they land in reading order (each
    turned cell with its index in `cells`), and for each turn the first turn that covers the same cells (a
    square or a single cell looks the same every way, a bar two ways)."""

    cells: tuple[Cell, ...]
    turnings: tuple[tuple[Cell, ...], ...]
    landing: tuple[tuple[tuple[int, int, int], ...], ...]
    first_alike: tuple[int, ...]
    _offsets: dict[int, tuple[tuple[int, ...], ...]]

    def offsets(self, width: int) -> tuple[tuple[int, ...], ...]:
        """For each turn, how far each cell lies from the anchor in a mask `width` wide."""
        found = self._offsets.get(width)
        if found is None:
            found = self._offsets[width] = tuple(tuple(r * width + c for r, c in cells) for cells in self.turnings)
        return found


@cache  # card pieces are 1126 shapes
def _form_of(cells: tuple[Cell, ...]) -> _Form:
    turnings = tuple(_turned_shape(cells, turns) for turns in range(4))
    landing = tuple(tuple(sorted((r, c, i) for i, (r, c) in enumerate(moved))) for moved in turnings)
    covers = [frozenset(moved) for moved in turnings]
    return _Form(cells, turnings, landing, tuple(covers.index(cover) for cover in covers), {})


_BIT_FLAGS = bytes.maketrans(b"01", b"\0\1")  # binary digits to the bytes 0 and 1, false and true


Land = tuple[int, int, int, int, int, int, int]
"""A kingdom's cells as a bitmask in a frame: (top, left, width, mask, first row, first column, last column),
bit (row - top) * width + (col - left) set for each cell, with the rows and columns the cells reach. Shifting
the mask moves every cell at once, and set bits read from the lowest come in reading order. The frame is
rounded so that few frames occur and each one's Join objects are found, not made; it leaves JOIN_MARGIN free
rows above and columns beside the cells, so that no anchor falls outside it."""


def land_of(kingdom: Mapping[Cell, str]) -> Land:
    rows, cols = zip(*kingdom, strict=True) if kingdom else ((0,), (0,))
    first_row, first_col, last_col = min(rows), min(cols), max(cols)
    top, left, width = _frame_of(first_row, first_col, last_col)
    mask = sum(1 << ((r - top) * width + c - left) for r, c in kingdom)
    return top, left, width, mask, first_row, first_col, last_col


def _frame_of(first_row: int, first_col: int, last_col: int) -> tuple[int, int, int]:
    """The top, left and width of the frame for cells from `first_row` down, between these columns."""
    top = (first_row - JOIN_MARGIN) // FRAME_STEP * FRAME_STEP
    left = (first_col - JOIN_MARGIN) // FRAME_STEP * FRAME_STEP
    width = -(-(last_col + JOIN_MARGIN + 1 - left) // (2 * FRAME_STEP)) * 2 * FRAME_STEP
    return top, left, width


def _grown(land: Land, kingdom: Mapping[Cell, str], cells: Iterable[Cell]) -> Land:
    """`land` with `cells` added (they are in `kingdom` already), as `land_of(kingdom)` gives it. A frame
    only grows up and to the sides: the cells already in it move by one shift of the mask while its width
    holds, and row by row when it widens."""
    top, left, width, mask, first_row, first_col, last_col = land
    if not mask:
        return land_of(kingdom)
    for r, c in cells:
        if r < first_row:
            first_row = r
        if c < first_col:
            first_col = c
        elif c > last_col:
            last_col = c
    new_top, new_left, new_width = _frame_of(first_row, first_col, last_col)
    if new_width == width:
        mask <<= (top - new_top) * width + left - new_left
    else:
        mask = _relaid(mask, width, new_width, (top - new_top) * new_width + left - new_left)
    for r, c in cells:
        mask |= 1 << ((r - new_top) * new_width + c - new_left)
    return new_top, new_left, new_width, mask, first_row, first_col, last_col


def _relaid(mask: int, width: int, new_width: int, shift: int) -> int:
    """`mask`'s rows of `width` bits laid `new_width` bits apart instead, the first one `shift` bits on."""
    row = (1 << width) - 1
    laid = 0
    while mask:
        laid |= (mask & row) << shift
        mask >>= width
        shift += new_width
    return laid


def joins(kingdom: Mapping[Cell, str], piece: Sequence[tuple[Cell, str]]) -> list[Join]:
    """Every legal way to join `piece` (card cells with codes) to `kingdom`, in a fixed order: by turns,
    then by the anchor's row and column."""
    return cast(list[Join], list(_joins_to(land_of(kingdom), _form_of(tuple(cell for cell, _ in piece)))))


def _joins_to(land: Land, form: _Form) -> list[Action] | _Joins:
    """`joins` of a piece of this form to the kingdom `land` stands for."""
    if not land[3]:
        return [join_action(0, 0, turns) for turns in range(4)]  # the first piece is the kingdom
    return _Joins(land, form)


class _Joins(ListedActions):
    """The joins of a piece to a non-empty kingdom, kept as each turn's anchors: a bitmask in the kingdom's
    frame (bit row * width + col, counted from its top-left). Counting them is a popcount per turn, and one
    of them is found by a search through its turn's bits, so a random player's join costs no list of them.

    A Join of whole numbers is listed when its turn's bit is set: it is then the very join the game would
    list (join_action gives one object per join), or an equal one, as good on the checked path."""

    __slots__ = ("anchors", "counts", "left", "length", "top", "width")

    def __init__(self, land: Land, form: _Form) -> None:
        top, left, width, mask, _, _, _ = land
        frontier = (mask << 1 | mask >> 1 | mask << width | mask >> width) & ~mask
        anchors: list[int] = []
        for turns, offsets in enumerate(form.offsets(width)):
            alike = form.first_alike[turns]
            if alike < turns:  # the same cells as an earlier turn: the same anchors
                anchors.append(anchors[alike])
                continue
            # Anchors putting some piece cell on the frontier, less those putting one on the kingdom.
            touching = overlapping = 0
            for offset in offsets:
                touching |= frontier >> offset
                overlapping |= mask >> offset
            anchors.append(touching & ~overlapping)
        self.top, self.left, self.width = top, left, width
        self.anchors = tuple(anchors)
        self.counts = tuple(bits.bit_count() for bits in anchors)
        self.length = sum(self.counts)

    def __len__(self) -> int:
        return self.length

    def _at(self, index: int) -> Action:
        turns = 0
        while index >= self.counts[turns]:
            index -= self.counts[turns]
            turns += 1
        # The turn's (index + 1)-th lowest set bit: its binary digits, highest first, split off before that
        # many ones from the right leave as many digits as there are bits above it (and "0b").
        digits = bin(self.anchors[turns])
        bit = len(digits) - 1 - len(digits.rsplit("1", index + 1)[0])
        return join_action(self.top + bit // self.width, self.left + bit % self.width, turns)

    def __iter__(self) -> Iterator[Action]:
        found: list[Join] = []
        for by_bit, bits in zip(_frame(self.top, self.left, self.width), self.anchors, strict=True):
            # The anchors' bits, lowest first, as a byte per bit (1 where set): the joins they pick out of
            # the frame's are taken without a Python loop.
            flags = bin(bits)[:1:-1].encode().translate(_BIT_FLAGS)
            found.extend(compress(by_bit.reaching(len(flags)), flags))
        return iter(found)

    def holds(self, action: Action) -> bool:
        if type(action) is not Join:
            return False
        row, col, turns = action.row, action.col, action.turns
        if type(row) is not int or type(col) is not int or type(turns) is not int or not 0 <= turns <= 3:
            return False
        row, col = row - self.top, col - self.left
        return row >= 0 and 0 <= col < self.width and self.anchors[turns] >> (row * self.width + col) & 1 == 1

    __contains__ = holds  # type: ignore[assignment]


def joined_cells(piece: Sequence[tuple[Cell, str]], join: Join) -> list[tuple[Cell, str]]:
    row, col = join.row, join.col
    return [((row + r, col + c), code) for (r, c), code in _turned_piece(tuple(piece), join.turns % 4)]


def pair(a: Cell, b: Cell) -> Pair:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class Kingdom:
    """One player's kingdom with its placed towers, walls and bridges: the model the rules, the score and
    the bots share (regions, what the krakens reach, which monsters a dragon may eat). Its regions are
    worked out once, so its cells must not change after it is made."""

    cells: Mapping[Cell, str]
    towers: frozenset[Cell] = frozenset()
    walls: frozenset[Pair] = frozenset()
    bridges: frozenset[Pair] = frozenset()

    def terrain(self, cell: Cell) -> str:
        return self.cells[cell][0]

    def monster(self, cell: Cell) -> str:
        thing = self.cells[cell][1]
        return thing if thing in MONSTERS else ""

    def regions(self) -> list[list[Cell]]:
        """The regions: cells of one terrain joined side by side where no wall stands, or by a bridge;
        each region in reading order, the regions in the order of their first cells."""
        return [list(region) for region in self._regions]

    def region_of(self, cell: Cell) -> list[Cell]:
        return list(self._region_of_cell[cell])

    @cached_property
    def _regions(self) -> tuple[tuple[Cell, ...], ...]:
        return _regions_of(frozenset(self.cells.items()), self.walls, self.bridges)

    @cached_property
    def _region_of_cell(self) -> dict[Cell, tuple[Cell, ...]]:
        return {cell: region for region in self._regions for cell in region}

    @cached_property
    def _region_monsters(self) -> tuple[tuple[int, tuple[tuple[Cell, str], ...]], ...]:
        """Each region's size and its monsters (cell, letter), for the regions that hold any: the score
        reads only these, and most cells hold none."""
        cells = self.cells
        found = []
        for region in self._regions:
            monsters = tuple((cell, cells[cell][1]) for cell in region if cells[cell][1] != NOTHING)
            if monsters:
                found.append((len(region), monsters))
        return tuple(found)

    @cached_property
    def _walled_cells(self) -> frozenset[Cell]:
        """The cells beside a wall."""
        return frozenset(cell for wall in self.walls for cell in wall)

    def kraken_reach(self, kraken: Cell) -> list[Cell]:
        """Kingdom cells a kraken reaches: its 8 neighbours unless walled off, and cells bridged to it."""
        r, c = kraken
        cells, walls = self.cells, self.walls
        # A wall can keep the kraken from a cell only if it stands beside one of the two.
        walled = self._walled_cells if walls else frozenset()
        kraken_walled = kraken in walled
        reach = []
        for dr, dc in AROUND:
            target = (r + dr, c + dc)
            if target not in cells:
                continue
            if kraken_walled or target in walled:
                if dr == 0 or dc == 0:
                    open_way = pair(kraken, target) not in walls
                else:
                    # Diagonal: open unless both two-step routes (via the row, via the column) cross a wall.
                    open_way = any(
                        pair(kraken, middle) not in walls and pair(middle, target) not in walls
                        for middle in ((r + dr, c), (r, c + dc))
                    )
                if not open_way:
                    continue
            reach.append(target)
        if not self.bridges:
            return reach  # in reading order already, as AROUND is
        reach.extend(b if a == kraken else a for a, b in self.bridges if kraken in (a, b))
        return sorted(set(reach))

    def kraken_catch(self) -> frozenset[Cell]:
        """The monsters the krakens eat, all at once (each counted once): not krakens, not towered."""
        cells, towers = self.cells, self.towers
        eaten: set[Cell] = set()
        for kraken, code in cells.items():
            if code[1] == "K":
                eaten.update(
                    cell for cell in self.kraken_reach(kraken) if cells[cell][1] in KRAKEN_PREY and cell not in towers
                )
        return frozenset(eaten)

    def prey(self, dragon: Cell, eaten: Iterable[Cell]) -> list[Cell]:
        """What a dragon may eat: a monster of its own region, not a dragon, not towered, not eaten yet."""
        gone, cells, towers = set(eaten), self.cells, self.towers
        return [
            cell
            for cell in self._region_of_cell[dragon]
            if cells[cell][1] in DRAGON_PREY and cell not in towers and cell not in gone
        ]

    def dragons(self) -> list[Cell]:
        return sorted(cell for cell, code in self.cells.items() if code[1] == "D")


_sides_of = cache(neighbours4)  # made once per cell: kingdoms keep to a few hundred cells near 0,0


@lru_cache(maxsize=256)
def _regions_of(
    codes: frozenset[tuple[Cell, str]], walls: frozenset[Pair], bridges: frozenset[Pair]
) -> tuple[tuple[Cell, ...], ...]:
    """A kingdom's regions (see Kingdom.regions), kept for the kingdoms last asked about: the hunt, the
    dragons' choices and the score all ask about the same finished kingdoms."""
    # One pass in reading order: a cell takes the region of the cell above it or to its left when it meets
    # one (same terrain, no wall between), or starts a region. Two regions that meet at a cell, or at a
    # bridge, are merged into the older one. Gathering the cells in reading order then gives each region in
    # order and the regions in the order of their first cells, with no sorting.
    if not codes:
        return ()
    # Each cell as one number, its place in rows `width` wide from the first column, with a free column
    # after the last: the numbers sort in reading order, and the cells above and to the left are one
    # subtraction away, where pairs of numbers would be made and hashed for every look.
    columns = [c for (_, c), _ in codes]
    first_col = min(columns)
    width = max(columns) - first_col + 2
    cell_at: dict[int, Cell] = {}
    terrain_at: dict[int, str] = {}
    for cell, code in codes:
        spot = cell[0] * width + cell[1] - first_col
        cell_at[spot], terrain_at[spot] = cell, code[0]

    def spot_of(cell: Cell) -> int | None:
        spot = cell[0] * width + cell[1] - first_col
        return spot if cell_at.get(spot) == cell else None

    walled = {(spot_of(a), spot_of(b)) for a, b in walls}
    in_order = sorted(terrain_at)
    group: dict[int, int] = {}
    merged_into: list[int] = []  # a region's number -> the older region it joined (itself if none)

    def root(number: int) -> int:
        while merged_into[number] != number:
            number = merged_into[number]
        return number

    def meet(a: int, b: int) -> int:
        a, b = root(a), root(b)
        if a != b:
            a, b = min(a, b), max(a, b)
            merged_into[b] = a
        return a

    for spot in in_order:
        terrain = terrain_at[spot]
        above, left = spot - width, spot - 1
        number = -1
        if terrain_at.get(above) == terrain and not (walled and (above, spot) in walled):
            number = group[above]
        if terrain_at.get(left) == terrain and not (walled and (left, spot) in walled):
            number = group[left] if number < 0 else meet(number, group[left])
        if number < 0:
            number = len(merged_into)
            merged_into.append(number)
        group[spot] = number
    for a, b in bridges:
        ends = spot_of(a), spot_of(b)
        if ends[0] is not None and ends[1] is not None and terrain_at[ends[0]] == terrain_at[ends[1]]:
            meet(group[ends[0]], group[ends[1]])
    regions: dict[int, list[Cell]] = {}
    for spot in in_order:
        number = group[spot]
        if merged_into[number] != number:
            number = root(number)
        regions.setdefault(number, []).append(cell_at[spot])
    return tuple(tuple(region) for region in regions.values())


@dataclass(frozen=True)
class HuntStep:
    """One step of a kingdom's hunt as the game recorded it: a kraken's catch or a dragon's meal.

    `prey` are the monsters eaten at this step (a monster two krakens reach is the first one's, in reading
    order). For a kraken, `walled` are the monsters next to it that walls keep it from, `towered` the ones in
    its reach that towers save, `walls` the walls that stop it and `bridges` the bridges it eats over. For a
    dragon, `walls` are the walls on its region's edge between cells of one terrain (each splits a region
    it would otherwise hunt in) and `bridges` the bridges inside its region."""

    seat: int
    hunter: Cell
    kind: str  # "kraken" or "dragon"
    prey: tuple[Cell, ...]
    walled: tuple[Cell, ...] = ()
    towered: tuple[Cell, ...] = ()
    walls: tuple[Pair, ...] = ()
    bridges: tuple[Pair, ...] = ()


def kraken_steps(seat: int, kingdom: Kingdom, caught: Collection[Cell]) -> list[HuntStep]:
    """The krakens' part of the hunt (`caught`: the catch the game recorded), a step per kraken that eats
    or is kept from a monster, krakens in reading order."""
    steps = []
    shown: set[Cell] = set()
    for kraken in sorted(cell for cell, code in kingdom.cells.items() if code[1] == "K"):
        reach = kingdom.kraken_reach(kraken)
        prey = tuple(cell for cell in reach if cell in caught and cell not in shown)
        shown.update(prey)
        towered = tuple(cell for cell in reach if cell in kingdom.towers and kingdom.monster(cell) not in ("", "K"))
        r, c = kraken
        walled, walls = [], []
        for near in sorted((r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc):
            if near in reach or near not in kingdom.cells or kingdom.monster(near) in ("", "K"):
                continue
            walled.append(near)
            middles = [near] if near[0] == r or near[1] == c else [(near[0], c), (r, near[1])]
            for middle in middles:
                for wall in (pair(kraken, middle), pair(middle, near)):
                    if wall in kingdom.walls and wall not in walls:
                        walls.append(wall)
        bridges = tuple(sorted(b for b in kingdom.bridges if kraken in b and (b[0] in prey or b[1] in prey)))
        if prey or walled or towered:
            steps.append(HuntStep(seat, kraken, "kraken", prey, tuple(walled), towered, tuple(walls), bridges))
    return steps


def dragon_step(seat: int, kingdom: Kingdom, dragon: Cell, prey: Cell) -> HuntStep:
    region = set(kingdom.region_of(dragon))
    walls = tuple(
        sorted(
            (a, b)
            for a, b in kingdom.walls
            if (a in region) != (b in region) and kingdom.terrain(a) == kingdom.terrain(b)
        )
    )
    bridges = tuple(sorted(b for b in kingdom.bridges if b[0] in region))
    return HuntStep(seat, dragon, "dragon", (prey,), walls=walls, bridges=bridges)


SCORE_LINES = (
    "krakens' catches (2 each)",
    "goblins (per region: 1 2, 2 5, 3 9, 4+ 14)",
    "centaurs (per region with one: its cells)",
    "dragon pairs (7 per region with exactly two)",
    "turtles (in all: 1 10, 2 5, 3+ 0)",
    "frogs (-2 each)",
    "tokens kept (1 each)",
)
GOBLIN_POINTS = (0, 2, 5, 9, 14)
TURTLE_POINTS = {1: 10, 2: 5}


def score_lines(kingdom: Kingdom, caught: Iterable[Cell], eaten: Iterable[Cell], kept: int) -> list[int]:
    """The points of each of SCORE_LINES: `caught` are the krakens' catches, `eaten` every eaten monster."""
    caught = set(caught)
    gone = caught | set(eaten)
    goblins = centaurs = pairs = turtles = frogs = 0
    # A kingdom cell shows a monster letter or "."; counting letters needs no lookup of which is which.
    for size, monsters in kingdom._region_monsters:
        alive = [letter for cell, letter in monsters if cell not in gone]
        goblins += GOBLIN_POINTS[min(alive.count("G"), 4)]
        centaurs += size if "C" in alive else 0
        pairs += 7 if alive.count("D") == 2 else 0
        turtles += alive.count("T")
        frogs += alive.count("F")
    return [2 * len(caught), goblins, centaurs, pairs, TURTLE_POINTS.get(turtles, 0), -2 * frogs, kept]


def predicted_hunt(kingdom: Kingdom) -> tuple[frozenset[Cell], list[tuple[Cell, Cell]]]:
    """The krakens' catch, then each dragon in reading order eating what leaves the best score (first such
    prey on a tie): the hunt a player who looks one dragon ahead would choose."""
    caught = kingdom.kraken_catch()
    eaten: list[tuple[Cell, Cell]] = []
    for dragon in kingdom.dragons():
        if dragon in caught:
            continue
        gone = set(caught) | {prey for _, prey in eaten}
        options = kingdom.prey(dragon, gone)
        if options:
            best = max(options, key=lambda cell: sum(score_lines(kingdom, caught, gone | {cell}, 0)))
            eaten.append((dragon, best))
    return caught, eaten


@dataclass(frozen=True)
class _TokenSpots:
    """Where a kingdom can take a token: `actions` in the order legal lists give them, the kind (an index
    into TOKEN_KINDS) of each, and the index of each by the spot it takes, which says its kind itself: a
    tower's is a cell, a wall's two cells side by side, a bridge's two cells two apart."""

    actions: tuple[Action, ...]
    kinds: bytes
    index: dict[Cell | Pair, int]

    @cached_property
    def _of_kinds(self) -> dict[tuple[bool, ...], bytearray]:
        return {}

    def open_to(self, held: Mapping[str, int], placed: Mapping[str, Collection[Any]]) -> list[Action]:
        """The placements of the kinds still `held`, less the spots taken already (`placed` by kind)."""
        wanted = tuple(held[kind] > 0 for kind in TOKEN_KINDS)
        flags = self._of_kinds.get(wanted)
        if flags is None:  # each spot's kind turned into whether it is wanted, by a table at C speed
            flags = self._of_kinds[wanted] = bytearray(self.kinds.translate(bytes(wanted).ljust(256, b"\0")))
        taken = [self.index[spot] for kind, spots in placed.items() if held[kind] for spot in spots]
        if not taken:
            return list(compress(self.actions, flags))
        flags = flags.copy()
        for k in taken:
            flags[k] = 0
        return list(compress(self.actions, flags))


@cache
def _spots_beside(cell: Cell) -> tuple[tuple[Cell, Cell, Pair, Wall, Pair, Bridge], ...]:
    """For each of east and south: the next cell, the one beyond, and the spots and actions of a wall to the
    next and a bridge to the one beyond, made once per cell as _sides_of is."""
    r, c = cell
    beside = []
    for side, heading in (("east", 1), ("south", 2)):  # places in _sides_of's north, east, south, west
        near = _sides_of(cell)[heading]
        far = _sides_of(near)[heading]
        wall, bridge = wall_action(side, r, c), bridge_action(side, r, c)
        beside.append((near, far, (cell, near), wall, (cell, far), bridge))
    return tuple(beside)


def _token_spots(codes: Mapping[Cell, str]) -> _TokenSpots:
    """Where a kingdom with these cells can take a token. A kingdom does not change while its tokens are
    placed, so this is worked out once per kingdom, when its seat begins to place."""
    in_order = sorted(codes)
    keys: list[Cell | Pair] = [cell for cell in in_order if codes[cell][1] in MONSTERS]
    actions: list[Action] = [tower_action(*cell) for cell in keys]
    kinds = bytearray(len(keys))  # towers are kind 0
    beside = [(codes[cell][0], _spots_beside(cell)) for cell in in_order]
    for side in (0, 1):
        for terrain, spots in beside:
            near, far, wall_key, wall, bridge_key, bridge = spots[side]
            if near in codes:
                keys.append(wall_key)
                actions.append(wall)
                kinds.append(1)
            beyond = codes.get(far)
            if beyond is not None and beyond[0] == terrain:
                keys.append(bridge_key)
                actions.append(bridge)
                kinds.append(2)
    return _TokenSpots(tuple(actions), bytes(kinds), dict(zip(keys, range(len(keys)), strict=True)))


# ----- the game ---------------------------------------------------------------------------------------


class Cutterland(State):
    """A game of Cutterland. Phases: deal, cut, take, join, tokens, dragons, over."""

    CODEC: ClassVar[ActionCodec] = ActionCodec(Deal, Cut, Take, Join, Tower, Wall, Bridge, Keep, Feed)
    # A game is about 85 (3 players) to 140 (4 players) log entries. A snapshot costs about as much as an
    # action, and replaying a whole 3-player game from its start for a rewind takes under a millisecond.
    CHECKPOINT_EVERY: ClassVar[int] = 128

    def _setup(self) -> None:
        n = self.players
        self.cards_each = 4 if self.four_pieces else 3
        self.phase = "deal"
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.cutter = 0
        self.cut_card = 0
        self.cut_labels: tuple[int, ...] = ()
        self.pieces_left: list[int] = []
        self.pick_order: list[int] = []
        self.picks_made = 0
        self.holding: tuple[tuple[Cell, str], ...] = ()  # the piece being joined, in card cells
        self.held: _Form | None = None  # the form of the piece being joined
        self.kingdoms: list[dict[Cell, str]] = [{} for _ in range(n)]
        self.lands: list[Land] = [land_of({})] * n  # each kingdom as joins() reads it, kept as it grows
        self.tokens: list[dict[str, int]] = [dict.fromkeys(TOKEN_KINDS, 0) for _ in range(n)]
        self.towers: list[set[Cell]] = [set() for _ in range(n)]
        self.walls: list[set[Pair]] = [set() for _ in range(n)]
        self.bridges: list[set[Pair]] = [set() for _ in range(n)]
        self.placing = 0  # the seat placing tokens
        self.placing_spots: _TokenSpots | None = None  # where the placing seat's kingdom takes tokens
        self.caught: list[list[Cell]] = [[] for _ in range(n)]  # the krakens' catch of each kingdom
        self.fed: list[list[tuple[Cell, Cell]]] = [[] for _ in range(n)]  # (dragon, prey) in order
        self.hungry: list[tuple[int, Cell]] = []  # dragons still to eat, in order
        self.hunted: list[Kingdom] = []  # from the hunt on, each finished kingdom with its tokens
        start = self.config.start_fields()
        if start is not None:
            _begin_at(self, start)

    DERIVED: ClassVar[frozenset[str]] = frozenset({"lands", "held", "placing_spots", "hunted"})

    # ----- facts ----------------------------------------------------------------------------------

    @property
    def four_pieces(self) -> bool:
        return self.players == 2 and bool(self.option("two_player_four_pieces"))

    @property
    def pieces_per_card(self) -> int:
        return 4 if self.four_pieces else self.players

    def kingdom(self, seat: int) -> Kingdom:
        return Kingdom(
            dict(self.kingdoms[seat]),
            frozenset(self.towers[seat]),
            frozenset(self.walls[seat]),
            frozenset(self.bridges[seat]),
        )

    def pick_order_of(self, cutter: int) -> list[int]:
        """Who takes the pieces of a card `cutter` cuts, in order: from the cutter's left clockwise, the
        cutter last (with four pieces for two, the two alternate, the other player first)."""
        if self.four_pieces:
            other = 1 - cutter
            return [other, cutter, other, cutter]
        return [(cutter + k) % self.players for k in range(1, self.players + 1)]

    def picker(self) -> int:
        return self.pick_order[self.picks_made]

    def _held(self) -> _Form:
        """The form of the piece being joined, made from `holding` if this copy came without it."""
        if self.held is None:
            self.held = _form_of(tuple(cell for cell, _ in self.holding))
        return self.held

    def piece_on_table(self, piece: int) -> list[tuple[Cell, str]]:
        """A piece of the card being cut, with its codes as printed (token icons still on it)."""
        return list(_printed(self.cut_card, _cells_of_piece(self.cut_labels, piece)))

    def to_move(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == "cut":
            return (self.cutter,)
        if phase in ("take", "join"):
            return (self.pick_order[self.picks_made],)  # self.picker(), without the call: asked for on every step
        if phase == "tokens":
            return (self.placing,)
        if phase == "dragons":
            return (self.hungry[0][0],)
        return ()

    def _chance(self) -> ChanceNode | None:
        if self.phase != "deal":
            return None
        # The next card off the shuffled deck, any card not dealt yet, equally likely, to the next seat.
        dealt = frozenset(chain.from_iterable(self.hands))
        return NextCard(dealt, len(dealt) % self.players)

    # ----- legality -------------------------------------------------------------------------------

    def _legal(self, player: int) -> list[Action] | ListedActions:
        phase = self.phase
        if phase == "cut":
            return _HandCuts(self.hands[player], self.pieces_per_card)
        if phase == "take":
            return [TAKES[piece] for piece in self.pieces_left]
        if phase == "join":
            return _joins_to(self.lands[player], self._held())
        if phase == "tokens":
            return [*self.token_placements(player), KEEP]
        dragon = self.hungry[0][1]
        return [Feed(*dragon, *prey) for prey in self.hunted[player].prey(dragon, self.eaten(player))]

    def _is_legal(self, player: int, action: Action) -> bool:
        # A cut is checked on its own: listing thousands of cuts to find one would cost the checked path most
        # of its time. A join is found in its listed joins by one bit test (_Joins.__contains__).
        if self.phase == "cut":
            return (
                isinstance(action, Cut)
                and action.card in self.hands[player]
                and action.labels() in _partition_set(self.pieces_per_card)
            )
        if self.phase == "tokens" and isinstance(action, Tower | Wall | Bridge | Keep):
            return self._may_place(player, action)
        return action in self._legal(player)

    def _may_place(self, seat: int, action: Tower | Wall | Bridge | Keep) -> bool:
        """Whether a token action is one of `_legal(seat)` in the tokens phase, found without listing them."""
        if isinstance(action, Keep):
            return True
        if type(action.row) is not int or type(action.col) is not int:
            return action in self._legal(seat)
        cell = (action.row, action.col)
        spot: Cell | Pair
        if isinstance(action, Tower):
            kind, spot = "tower", cell
        elif action.side in ("east", "south"):
            dr, dc = STEP[action.side]
            reach = 1 if isinstance(action, Wall) else 2
            kind, spot = ("wall" if reach == 1 else "bridge"), (cell, (cell[0] + reach * dr, cell[1] + reach * dc))
        else:
            return False
        return self.tokens[seat][kind] > 0 and spot in self._spots(seat).index and spot not in self._placed(seat)[kind]

    def _spots(self, seat: int) -> _TokenSpots:
        if seat == self.placing and self.phase == "tokens" and self.placing_spots is not None:
            return self.placing_spots
        return _token_spots(self.kingdoms[seat])

    def _placed(self, seat: int) -> dict[str, set[Any]]:
        return {"tower": self.towers[seat], "wall": self.walls[seat], "bridge": self.bridges[seat]}

    def token_placements(self, seat: int) -> list[Action]:
        return self._spots(seat).open_to(self.tokens[seat], self._placed(seat))

    def eaten(self, seat: int) -> set[Cell]:
        return set(self.caught[seat]) | {prey for _, prey in self.fed[seat]}

    def _normalize(self, player: int, action: Action) -> Action:
        # A cut may number its pieces in any order; a wall or bridge may be named from either end.
        if isinstance(action, Cut):
            labels = action.labels()
            if labels is not None:
                canonical = renumbered(labels)
                return action if canonical == labels else cut_of(action.card, canonical)
        if isinstance(action, Wall | Bridge) and action.side in ("west", "north"):
            dr, dc = STEP[action.side]
            reach = 1 if isinstance(action, Wall) else 2
            back = "east" if action.side == "west" else "south"
            return type(action)(back, action.row + reach * dr, action.col + reach * dc)
        return action

    # ----- moving ---------------------------------------------------------------------------------

    def _apply(self, player: int, action: Action) -> None:
        if isinstance(action, Deal):
            self.hands[action.seat].append(action.card)
            if sum(map(len, self.hands)) == self.cards_each * self.players:
                self.phase = "cut"
        elif isinstance(action, Cut):
            self._cut(player, action)
        elif isinstance(action, Take):
            shape = _cells_of_piece(self.cut_labels, action.piece)
            self.holding, self.held = _printed(self.cut_card, shape), _form_of(shape)
            self.pieces_left.remove(action.piece)
            for _, code in self.holding:
                if code[1] in TOKENS:
                    self.tokens[player][TOKENS[code[1]]] += 1
            self.phase = "join"
        elif isinstance(action, Join):
            kingdom, row, col = self.kingdoms[player], action.row, action.col
            cells = []
            # In reading order of the cells it lands on, as joined_cells lists them; token icons stay behind.
            holding = self.holding
            for r, c, index in self._held().landing[action.turns % 4]:
                code = holding[index][1]
                cell = (row + r, col + c)
                kingdom[cell] = code if code[1] in MONSTERS else code[0] + NOTHING
                cells.append(cell)
            self.lands[player] = _grown(self.lands[player], kingdom, cells)
            self.holding, self.held = (), None
            self._after_join()
        elif isinstance(action, Keep):
            self._next_placer(player + 1)
        elif isinstance(action, Feed):
            self.fed[player].append(((action.row, action.col), (action.prey_row, action.prey_col)))
            self.hungry.pop(0)
            self._feed_dragons()
        else:
            self._place_token(player, action)

    def _cut(self, player: int, action: Cut) -> None:
        labels = action.labels()
        assert labels is not None
        self.hands[player].remove(action.card)
        self.cut_card, self.cut_labels = action.card, labels
        pieces = self.pieces_per_card
        self.pieces_left = list(range(1, pieces + 1))
        self.pick_order = self.pick_order_of(player)
        self.picks_made = 0
        self.phase = "take"

    def _after_join(self) -> None:
        self.picks_made += 1
        if self.picks_made < len(self.pick_order):
            self.phase = "take"
            return
        self.cut_card, self.cut_labels, self.pick_order, self.picks_made = 0, (), [], 0
        n = self.players
        for k in range(1, n + 1):
            seat = (self.cutter + k) % n
            if self.hands[seat]:
                self.cutter = seat
                self.phase = "cut"
                return
        self._next_placer(0)

    def _place_token(self, player: int, action: Action) -> None:
        if isinstance(action, Tower):
            self.towers[player].add((action.row, action.col))
            kind = "tower"
        elif isinstance(action, Wall):
            dr, dc = STEP[action.side]
            self.walls[player].add(pair((action.row, action.col), (action.row + dr, action.col + dc)))
            kind = "wall"
        else:
            assert isinstance(action, Bridge)
            dr, dc = STEP[action.side]
            self.bridges[player].add(pair((action.row, action.col), (action.row + 2 * dr, action.col + 2 * dc)))
            kind = "bridge"
        self.tokens[player][kind] -= 1
        if not any(self.tokens[player].values()):
            self._next_placer(player + 1)

    def _next_placer(self, seat: int) -> None:
        """Token placing passes to the next seat holding a token; after the last, the hunt."""
        for candidate in range(seat, self.players):
            if any(self.tokens[candidate].values()):
                self.placing = candidate
                self.placing_spots = _token_spots(self.kingdoms[candidate])
                self.phase = "tokens"
                return
        self._hunt()

    def _hunt(self) -> None:
        """The krakens eat all at once; then each surviving dragon, seat by seat in reading order, eats."""
        # Nothing changes a kingdom from here on: the dragons' choices and the score read these.
        self.hunted = [self.kingdom(seat) for seat in range(self.players)]
        for seat, kingdom in enumerate(self.hunted):
            caught = kingdom.kraken_catch()
            self.caught[seat] = sorted(caught)
            self.hungry.extend((seat, dragon) for dragon in kingdom.dragons() if dragon not in caught)
        self._feed_dragons()

    def _feed_dragons(self) -> None:
        """Dragons with nothing to eat go hungry, one with one choice eats it; the owner chooses otherwise."""
        while self.hungry:
            seat, dragon = self.hungry[0]
            options = self.hunted[seat].prey(dragon, self.eaten(seat))
            if len(options) > 1:
                self.phase = "dragons"
                return
            if options:
                self.fed[seat].append((dragon, options[0]))
            self.hungry.pop(0)
        self.phase = "over"

    # ----- scores and the end ---------------------------------------------------------------------

    def hunt_steps(self) -> list[HuntStep]:
        """The hunt so far, step by step, read from the game's record of it (the krakens' catch and the
        dragons' meals): every kingdom's krakens at once, then the dragons kingdom by kingdom in the order
        they ate. Empty before the hunt."""
        if self.phase not in ("dragons", "over"):
            return []
        kingdoms = self.hunted
        steps = [step for seat in range(self.players) for step in kraken_steps(seat, kingdoms[seat], self.caught[seat])]
        for seat in range(self.players):
            steps += [dragon_step(seat, kingdoms[seat], dragon, prey) for dragon, prey in self.fed[seat]]
        return steps

    def kept(self, seat: int) -> int:
        return sum(self.tokens[seat].values())

    def score_lines(self, seat: int) -> list[int]:
        """The points of each of SCORE_LINES: after the hunt, the real ones; before, the hunt as it would
        go now (dragons eating as `predicted_hunt` says)."""
        if self.phase in ("dragons", "over"):
            return score_lines(self.hunted[seat], self.caught[seat], self.eaten(seat), self.kept(seat))
        kingdom = self.kingdom(seat)
        caught, eaten = predicted_hunt(kingdom)
        return score_lines(kingdom, caught, (prey for _, prey in eaten), self.kept(seat))

    def outcome(self) -> Outcome | None:
        if self.phase != "over":
            return None
        scores = [sum(self.score_lines(seat)) for seat in range(self.players)]
        return Outcome.ranked(scores, GAME_OVER)

    def _sample_hidden(self, rng: random.Random) -> None:
        # Every card dealt is face up and the deal draws from the seed when it happens: a view hides
        # only the seed, so the deck's order is what a sample (with its fresh seed) draws anew.
        return None

    def _why_illegal(self, player: int, action: Action) -> tuple[str, str]:
        from .explain import why_illegal

        return why_illegal(self, player, action)

    def __str__(self) -> str:
        from .explain import render

        return render(self)

    def _repr_svg_(self) -> str:
        # Drawing is imported only when a picture is asked for: the rules know no screen.
        from cliplab.ui.svg import render

        from .board import describe

        return render(describe(self))


# ----- start positions ----------------------------------------------------------------------------------

POSITION_FIELDS = ("hands", "kingdoms", "tokens", "towers", "walls", "bridges", "cutter", "phase", "placing")
POSITION_PHASES = ("cut", "tokens")


def position(
    players: int = 3,
    seed: int = 0,
    *,
    hands: Sequence[Sequence[int]] | None = None,
    kingdoms: Sequence[Sequence[tuple[int, int, str]]] | None = None,
    tokens: Sequence[Mapping[str, int]] | None = None,
    towers: Sequence[Sequence[Cell]] | None = None,
    walls: Sequence[Sequence[Pair]] | None = None,
    bridges: Sequence[Sequence[Pair]] | None = None,
    cutter: int = 0,
    phase: str | None = None,
    placing: int = 0,
    **options: Any,
) -> Cutterland:
    """A game of Cutterland that begins at the position these fields describe (PositionError if none can).

    hands     each seat's uncut cards (deck numbers); left out with every other field: the ordinary deal
    kingdoms  each seat's kingdom cells as (row, col, code), a code being a terrain letter (M, S, W) and a
              monster letter (C D T G F K) or "." (token icons are taken with the pieces, never joined)
    tokens    each seat's unplaced tokens, e.g. {"tower": 1, "wall": 0, "bridge": 2} (default none)
    towers, walls, bridges
              each seat's placed tokens: towers on cells with monsters; walls as two side-by-side cells;
              bridges as two cells of one terrain two apart in a row or column
    cutter    the seat to cut next (phase "cut"); it must hold a card
    phase     "cut" (a turn begins) or "tokens" (every card is cut; seats place tokens from `placing` on);
              left out: "cut" while any seat holds a card, else "tokens"
    placing   phase "tokens": the seat placing now (seats before it are done)
    options   the game's options (two_player_four_pieces)

    A game's last turn: player 1 cuts its last card; player 0 holds a wall.

    >>> game = position(2, hands=[[], [5]], kingdoms=[[(0, 0, "MC"), (0, 1, "M.")], [(0, 0, "WK")]],
    ...                 tokens=[{"wall": 1}, {}], cutter=1)
    >>> game.phase, game.to_move(), len(game.legal_actions())
    ('cut', (1,), 146)

    Placing tokens, then the hunt: the kraken at 0,0 would eat the goblin at 1,1 unless a tower saves it.

    >>> hunt = position(2, kingdoms=[[(0, 0, "WK"), (0, 1, "S."), (1, 0, "S."), (1, 1, "SG")], [(0, 0, "MC")]],
    ...                 tokens=[{"tower": 1}, {}])
    >>> str(hunt.apply("tower on 1,1")), hunt.outcome().scores
    ('tower on 1,1', (2, 1))
    """
    if all(value is None for value in (hands, kingdoms, tokens, towers, walls, bridges, phase)) and not cutter:
        return Cutterland(SPEC.config(players, seed, **options))
    n = players
    fields: dict[str, Any] = {
        "hands": [[] for _ in range(n)] if hands is None else [list(hand) for hand in hands],
        "kingdoms": [[] for _ in range(n)] if kingdoms is None else [list(k) for k in kingdoms],
        "tokens": [{} for _ in range(n)] if tokens is None else [dict(t) for t in tokens],
        "towers": [[] for _ in range(n)] if towers is None else [sorted(t) for t in towers],
        "walls": [[] for _ in range(n)] if walls is None else [sorted(pair(*w) for w in ws) for ws in walls],
        "bridges": [[] for _ in range(n)] if bridges is None else [sorted(pair(*b) for b in bs) for bs in bridges],
        "cutter": cutter,
        "placing": placing,
    }
    if phase is not None:
        fields["phase"] = phase
    return Cutterland(SPEC.config(players, seed, **options).starting_at(fields))


def position_of(game: Cutterland) -> dict[str, Any]:
    """The fields of `position` that describe the game as it stands (at the start of a cut or while
    tokens are placed)."""
    if game.phase not in POSITION_PHASES:
        raise PositionError("phase", f"a position is read when a cut begins or tokens are placed, not in {game.phase}")
    n = game.players
    return {
        "hands": [list(hand) for hand in game.hands],
        "kingdoms": [[(r, c, code) for (r, c), code in sorted(game.kingdoms[s].items())] for s in range(n)],
        "tokens": [dict(game.tokens[s]) for s in range(n)],
        "towers": [sorted(game.towers[s]) for s in range(n)],
        "walls": [sorted(game.walls[s]) for s in range(n)],
        "bridges": [sorted(game.bridges[s]) for s in range(n)],
        "cutter": game.cutter,
        "phase": game.phase,
        "placing": game.placing,
    }


def _cell(value: Any, where: str) -> Cell:
    found = items(value, where, 2)
    return integer(found[0], f"{where}[0]"), integer(found[1], f"{where}[1]")


def _begin_at(game: Cutterland, fields: dict[str, Any]) -> None:
    """Check a start position's fields and set the game up there (called by _setup)."""
    check_fields(fields, POSITION_FIELDS)
    n = game.players
    seen: dict[int, str] = {}
    hands = []
    for seat, hand in enumerate(items(fields.get("hands"), "hands", n)):
        numbers = []
        for k, value in enumerate(items(hand, f"hands[{seat}]")):
            where = f"hands[{seat}][{k}]"
            number = integer(value, where)
            if number not in deck():
                raise PositionError(where, f"there is no card {number} in the deck")
            if number in seen:
                raise PositionError(where, f"card {number} is in {seen[number]} already")
            seen[number] = f"hands[{seat}]"
            numbers.append(number)
        if len(numbers) > game.cards_each:
            raise PositionError(f"hands[{seat}]", f"a player holds at most {game.cards_each} cards")
        hands.append(numbers)
    kingdoms = [
        _read_kingdom(value, f"kingdoms[{seat}]")
        for seat, value in enumerate(items(fields.get("kingdoms"), "kingdoms", n))
    ]
    tokens = []
    for seat, held in enumerate(items(fields.get("tokens"), "tokens", n)):
        if not isinstance(held, Mapping):
            raise PositionError(f"tokens[{seat}]", f"takes named counts (tower, wall, bridge), not {held!r}")
        for name in held:
            word(name, f"tokens[{seat}]", TOKEN_KINDS)
        tokens.append(
            {
                kind: integer(held.get(kind, 0), f"tokens[{seat}].{kind}", 0, CELLS * game.cards_each)
                for kind in TOKEN_KINDS
            }
        )
    game.hands, game.kingdoms, game.tokens = hands, kingdoms, tokens
    game.lands = [land_of(kingdom) for kingdom in kingdoms]
    for seat in range(n):
        _read_tokens_placed(game, seat, fields)
    phase = word(fields.get("phase", "cut" if any(hands) else "tokens"), "phase", POSITION_PHASES)
    if phase == "cut":
        cutter = integer(fields.get("cutter", 0), "cutter", 0, n - 1)
        if not hands[cutter]:
            raise PositionError("cutter", f"seat {cutter} holds no card to cut")
        game.cutter, game.phase = cutter, "cut"
        return
    if any(hands):
        raise PositionError("hands", "tokens are placed once every card is cut: the hands must be empty")
    placing = integer(fields.get("placing", 0), "placing", 0, n - 1)
    game._next_placer(placing)


def _read_kingdom(value: Any, where: str) -> dict[Cell, str]:
    cells: dict[Cell, str] = {}
    for k, entry in enumerate(items(value, where)):
        at = f"{where}[{k}]"
        row, col, code = items(entry, at, 3)
        cell = (integer(row, f"{at}[0]"), integer(col, f"{at}[1]"))
        if not isinstance(code, str) or len(code) != 2 or code[0] not in TERRAINS:
            raise PositionError(
                f"{at}[2]", f"a cell code is a terrain letter (M, S, W) and what it shows, not {code!r}"
            )
        thing = code[1]
        if thing != NOTHING and (thing not in MONSTERS or code[0] not in HOMES[thing]):
            raise PositionError(
                f"{at}[2]", f"{code!r}: a kingdom cell shows a monster of its terrain or '.' (token icons are taken)"
            )
        if cell in cells:
            raise PositionError(at, f"cell {cell} is listed twice")
        cells[cell] = code
    if len(cells) > 4 * CELLS * 4:
        raise PositionError(where, "a kingdom holds at most the cells of the cards dealt")
    return cells


def _read_tokens_placed(game: Cutterland, seat: int, fields: dict[str, Any]) -> None:
    cells = game.kingdoms[seat]
    for k, value in enumerate(items(fields["towers"][seat] if "towers" in fields else [], f"towers[{seat}]")):
        at = f"towers[{seat}][{k}]"
        cell = _cell(value, at)
        if cell not in cells or cells[cell][1] not in MONSTERS:
            raise PositionError(at, f"a tower stands on a kingdom cell with a monster; {cell} is not one")
        game.towers[seat].add(cell)
    for name, reach, store in (("walls", 1, game.walls), ("bridges", 2, game.bridges)):
        for k, value in enumerate(items(fields[name][seat] if name in fields else [], f"{name}[{seat}]")):
            at = f"{name}[{seat}][{k}]"
            a, b = (_cell(end, f"{at}[{e}]") for e, end in enumerate(items(value, at, 2)))
            apart = sorted((abs(a[0] - b[0]), abs(a[1] - b[1])))
            if a not in cells or b not in cells or apart != [0, reach]:
                raise PositionError(at, f"{a} and {b} are not two kingdom cells {reach} apart in a row or column")
            if reach == 2 and cells[a][0] != cells[b][0]:
                raise PositionError(at, "a bridge joins two cells of the same terrain")
            store[seat].add(pair(a, b))


def _max_length(players: int, options: Mapping[str, OptionValue]) -> int:
    # The deal; per card a cut, and a take and a join per piece; tokens and dragons at most one per cell.
    four = players == 2 and bool(options["two_player_four_pieces"])
    cards = players * (4 if four else 3)
    pieces = 4 if four else players
    return cards + cards * (1 + 2 * pieces) + 2 * players * 4 * CELLS * 4 + players


SPEC = register(
    GameSpec(
        name="cutterland",
        title="Cutterland",
        summary="Cut landscape cards into one piece per player, draft them into kingdoms, then monsters hunt.",
        min_players=2,
        max_players=4,
        default_players=3,
        options=(
            Option(
                "two_player_four_pieces",
                bool,
                False,
                "with 2 players: 4 cards each, each cut into 4 pieces, picks alternating from the other player",
            ),
        ),
        state_class=Cutterland,
        max_length=_max_length,
        variants={"four_pieces": {"two_player_four_pieces": True}},
        simultaneous=False,
        hidden_information=False,
        chance=True,
    )
)

__all__ = [
    "CHANCE",
    "SCORE_LINES",
    "SPEC",
    "Bridge",
    "Cut",
    "Cutterland",
    "Deal",
    "Feed",
    "HuntStep",
    "Join",
    "Keep",
    "Kingdom",
    "Take",
    "Tower",
    "Wall",
    "cut_problem",
    "partitions",
    "pieces_cut_by",
    "position",
    "position_of",
    "predicted_hunt",
]
