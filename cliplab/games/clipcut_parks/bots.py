"""The ClipCut Parks planning bot, which decides from its own player's view only (the game's random bot is
`cliplab.bots.RandomBot`, a uniform pick from the legal actions, whose cuts the engine indexes without listing).

`PlanningBot` works from the park cards back to the sheet. For every face-up card it lists the shapes it could
still receive (the whole free area, or a connected piece of it whose rest stays in one piece) and every spot
on its sheet where such a shape, turned, meets the card's colour and icon requirements (paying tokens where
it has them). For each such region it works out the uncut lines around it, and, when this round's cuts can
cover those lines, the exact cuts (lengths, overshoot, which end to start from, in which order) that free it
(`realize`). Cuts the die asks for that the plan does not need go where they harm least and, if they can,
prepare next round's region (`filler`). Whole plans are judged by what the freed sections are worth on the
cards (`assignment_value`: every way to place them, with the rule that a section that fits must be placed),
plus what the remaining sheet is still good for (`sheet_value`). The plan is made on the round's first cut
and followed while the position is the one it expected. Building, it tries every legal placement of every
pending section and keeps the best arrangement; on a tie for the largest part it keeps the part whose loss
hurts least; with several cards complete it resolves the ones with a token first, cut bonuses last.

The bots read only their own sheet, sections, cards and tokens, and of the draw pile only its size.
Everything is plain data re-done on `Board`, a small copy of one player's sheet and its cuts with the
cutting rules repeated for speed; the tests check it against the rules engine.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from cliplab.engine import Action, State
from cliplab.grid import DIRECTIONS, TRANSFORMS, TRANSFORMS_WITH_FLIPS, edge_between, parts, placements
from cliplab.grid.geometry import Cell, Point, Segment

from .content import COLOURS, SHEET_COLS, SHEET_ROWS, ParkCard, Sheet
from .rules import (
    LATTICE,
    ClipCutParks,
    Crumple,
    Cut,
    Keep,
    Score,
    SheetCuts,
    SheetSquares,
    card_of,
    placement_cost,
    sheet_of,
    sheet_squares,
    waiver,
    waiving_token,
)

CardRef = tuple[str, int]
Cost = tuple[tuple[str, int], ...]
Step = tuple[Cut, Cell | None]  # a cut, and the square of the part to keep if it leaves a tie

# ----- weights (in points of the solo score) -----------------------------------------------------------

PARK_WORTH = 3.0
"""A completed park card."""
GRAND_WORTH = 5.0
"""A completed grand park card (solo scoring; with more players it is one of the cards to complete)."""
BONUS_WORTH = {"wildlife": 1.2, "recycling": 1.2, "gardener": 1.3, "cut": 0.6}
"""A bonus: a token is a point at the end and a waiver meanwhile; a bonus cut is an extra chance to free a section."""
TOKEN_WORTH = 1.0
"""A token still held (spending one costs this)."""
PROGRESS = 0.55
"""Share of a card's worth credited when its hardest spaces are covered but it is not complete yet."""
REQUIREMENT_WEIGHT = {"blank": 0.5, "wildlife": 1.6, "recycling": 1.6}
"""How hard a space is to cover (colour spaces weigh 1); a card's potential grows with the weight covered."""
PIECE_WEIGHT = 1.0
"""Extra difficulty for each separate group of free spaces on a card (each needs its own section)."""
CRUMPLE_COST = 1.0
"""A crumpled section: -1 at the end."""
SQUARE_WORTH = 0.06
"""Each square still in the sheet: material for later sections."""
ROUND_WORTH = 1.6
"""What a round of play is worth to a planning player (solo): the stake when the sheet might not take a cut."""
PREP_WEIGHT = 0.35
"""Share of a promising region's gain credited to a leftover cut, in proportion to the lines around it that it cuts."""
EDGE_COST = 0.04
"""Per uncut line a region still needs, when ranking regions."""
TOP_TARGETS = 10
"""Regions tried in full per plan."""
SECOND_TARGETS = 4
"""Regions tried with the cuts left over after the first region."""
REALIZATIONS = 3
"""Ways of cutting out one region kept for judging."""
SHAPE_CAP = 160
"""Shapes considered per card (connected pieces of its free area)."""
SHAPE_MAX = 9
"""Largest piece of a card's free area tried on its own (the whole area is always tried)."""
REALIZE_BUDGET = 2000
"""Cuts tried at most while looking for ways to free one region (a guard for move time; rarely reached)."""
BUILD_WIDTH = 6
"""Placements of each later section followed when judging an arrangement of several sections."""

# ----- a player's sheet, cut by cut ----------------------------------------------------------------------


def _segment(a: Cell, b: Cell) -> Segment:
    return (a, b) if a < b else (b, a)


class Board(SheetCuts):
    """A sheet the bot imagines cutting: the engine's cutting rules, plus caches for planning."""

    __slots__ = ("_links", "_touched")

    def __init__(
        self,
        cells: frozenset[Cell],
        cuts: frozenset[Segment],
        ends: frozenset[Point],
        round_cuts: Sequence[tuple[Point, Point, str]],
    ) -> None:
        super().__init__(cells, cuts, ends, round_cuts)
        self._links: dict[Cell, list[tuple[Cell, Segment]]] | None = None
        self._touched: frozenset[Point] | None = None

    def links(self) -> dict[Cell, list[tuple[Cell, Segment]]]:
        """Each square's neighbours in the sheet across uncut lines, with the line between them."""
        if self._links is None:
            cells, cuts = self.cells, self.cuts
            found: dict[Cell, list[tuple[Cell, Segment]]] = {}
            for r, c in cells:
                for nb in ((r, c + 1), (r + 1, c)):
                    seg = ((r, c), nb)
                    if nb in cells and seg not in cuts:
                        found.setdefault((r, c), []).append((nb, seg))
                        found.setdefault(nb, []).append(((r, c), seg))
            self._links = found
        return self._links

    @classmethod
    def of(cls, view: ClipCutParks, seat: int) -> Board:
        return cls(view.sheet[seat], view.cuts[seat], view.cut_ends[seat], tuple(view.round_cuts[seat]))

    def next_round(self) -> Board:
        return Board(self.cells, self.cuts, self.ends, ())

    def can_cut(self, cut: Cut) -> bool:
        """Whether the rules allow `cut` now (its length is not checked against the die)."""
        return self.problem(cut) is None

    def cuts_of(self, length: int) -> list[Cut]:
        """Every legal cut of one length now."""
        return self.legal((length,))

    def longest_cut(self, limit: int = 4) -> int:
        """The longest cut (up to `limit`) a fresh round could make on this sheet; 0 if none."""
        best = 0
        cells, cuts = self.cells, self.cuts
        for point in LATTICE:
            if not self.is_start(point):
                continue
            for dr, dc in DIRECTIONS.values():
                p, run = point, 0
                while run < limit:
                    q = (p[0] + dr, p[1] + dc)
                    if not (0 <= q[0] <= SHEET_ROWS and 0 <= q[1] <= SHEET_COLS):
                        break
                    seg = edge_between(p, q)
                    if seg[0] not in cells or seg[1] not in cells or seg in cuts:
                        break
                    run += 1
                    p = q
                if run > best:
                    best = run
                    if best >= limit:
                        return best
        return best

    def apply(self, cut: Cut) -> tuple[Board, list[frozenset[Cell]]]:
        """The board after `cut` (nothing removed yet) and the parts the squares now fall into."""
        dr, dc = DIRECTIONS[cut.direction]
        start = (cut.row, cut.col)
        points = [(start[0] + k * dr, start[1] + k * dc) for k in range(cut.length + 1)]
        new = {edge_between(p, q) for p, q in pairwise(points)}
        board = Board(
            self.cells,
            self.cuts | new,
            self.ends | {points[0], points[-1]},
            (*self.round_cuts, (points[0], points[-1], "h" if dr == 0 else "v")),
        )
        touched = self.touched()
        board._touched = touched.union(points)
        # A cut can only cut something off if a point past its start meets the edge or an earlier cut.
        if not any(p in touched or self.is_start(p) for p in points[1:]):
            return board, [self.cells]
        return board, parts(self.cells, board.cuts)

    def touched(self) -> frozenset[Point]:
        """The lattice points on some cut."""
        if self._touched is None:
            found: set[Point] = set()
            for a, b in self.cuts:
                if a[0] == b[0]:
                    found.add((a[0], b[1]))
                    found.add((a[0] + 1, b[1]))
                else:
                    found.add((b[0], a[1]))
                    found.add((b[0], a[1] + 1))
            self._touched = frozenset(found)
        return self._touched

    def keep(self, part: frozenset[Cell]) -> Board:
        kept = Board(part, self.cuts, self.ends, self.round_cuts)
        kept._touched = self._touched
        return kept


def _components(cells: frozenset[Cell]) -> int:
    return len(parts(cells, frozenset()))


# ----- cards: what fits, and what a card is worth as it fills up ---------------------------------------


@dataclass(frozen=True, slots=True)
class Slot:
    """A face-up card as a plan sees it: which card, which spaces are still free."""

    ref: CardRef
    card: ParkCard
    free: frozenset[Cell]

    def without(self, covered: frozenset[Cell]) -> Slot:
        return Slot(self.ref, self.card, self.free - covered)


def card_worth(card: ParkCard) -> float:
    return (GRAND_WORTH if card.kind == "grand" else PARK_WORTH) + BONUS_WORTH[card.bonus]


def _difficulty(card: ParkCard, free: frozenset[Cell]) -> float:
    weight = sum(REQUIREMENT_WEIGHT.get(card.requirement(cell), 1.0) for cell in free)
    return weight + PIECE_WEIGHT * _components(free)


@lru_cache(maxsize=1 << 16)
def potential(card: ParkCard, free: frozenset[Cell]) -> float:
    """What a card with these spaces still free is worth now: its full worth once complete, less before."""
    if not free:
        return card_worth(card)
    start = _difficulty(card, card.cells)
    return card_worth(card) * PROGRESS * max(0.0, 1.0 - _difficulty(card, free) / start)


def requirement_cost(card: ParkCard, squares: SheetSquares, mapping: Iterable[tuple[Cell, Cell]]) -> Cost | None:
    """Tokens a placement (sheet square -> card space) spends, as the rules count them; None if it splits a
    walkway."""
    need = placement_cost(card, squares, mapping)
    return None if need is None else tuple(sorted(need.items()))


def affordable(cost: Cost, tokens: dict[str, int]) -> bool:
    return all(tokens.get(token, 0) >= count for token, count in cost)


def section_fits(
    section: Sequence[Cell], slots: Sequence[Slot], squares: SheetSquares, tokens: dict[str, int], flips: bool
) -> list[tuple[int, frozenset[Cell], Cost]]:
    """Distinct outcomes of laying a section on a card: (slot index, spaces covered, tokens spent)."""
    found: dict[tuple[int, frozenset[Cell], Cost], None] = {}
    for index, slot in enumerate(slots):
        if len(section) > len(slot.free):
            continue
        card = slot.card
        for placement in placements(section, slot.free, flips):
            cost = requirement_cost(card, squares, placement.mapping)
            if cost is not None and affordable(cost, tokens):
                found[(index, placement.cells, cost)] = None
    return list(found)


@dataclass
class Context:
    """What a plan needs to know about the player besides the sheet: cards, tokens, sections waiting."""

    sheet: Sheet  # (its squares, as plain data, are `squares`)
    squares: SheetSquares
    slots: tuple[Slot, ...]
    tokens: dict[str, int]
    flips: bool
    largest: int  # squares of the largest section already on a card
    pending: tuple[tuple[Cell, ...], ...]  # sections freed earlier this round, not built yet
    solo: bool
    rounds_left: int

    @classmethod
    def of(cls, view: ClipCutParks, seat: int) -> Context:
        sheet = sheet_of(view.sheet_number[seat])
        slots = tuple(Slot(ref, card_of(ref), frozenset(view.free_spaces(seat, ref))) for ref in view.face_up[seat])
        sections = view.sections[seat]
        return cls(
            sheet=sheet,
            squares=sheet_squares(sheet),
            slots=slots,
            tokens=dict(view.tokens[seat]),
            flips=bool(view.option("allow_flip")),
            largest=view.largest_section(seat),
            pending=tuple(sections[number] for number in view.pending[seat]),
            solo=view.solo,
            rounds_left=len(view.pile[seat]) if view.solo else 8,  # the pile's size is on the table for all to see
        )


def _spend(tokens: dict[str, int], cost: Cost) -> dict[str, int]:
    if not cost:
        return tokens
    left = dict(tokens)
    for token, count in cost:
        left[token] -= count
    return left


def _arrangement_value(slots: Sequence[Slot], tokens: dict[str, int], largest: int, crumpled: int) -> float:
    value = sum(potential(slot.card, slot.free) for slot in slots)
    return value + TOKEN_WORTH * sum(tokens.values()) + largest - CRUMPLE_COST * crumpled


def assignment_value(
    sections: Sequence[Sequence[Cell]],
    slots: Sequence[Slot],
    squares: SheetSquares,
    tokens: dict[str, int],
    largest: int,
    flips: bool,
    crumpled: int = 0,
) -> float:
    """The best end of building `sections` in this order: each placed somewhere if it fits, else crumpled."""
    if not sections:
        return _arrangement_value(slots, tokens, largest, crumpled)
    section, rest = sections[0], sections[1:]
    fits = section_fits(section, slots, squares, tokens, flips)
    if not fits:
        return assignment_value(rest, slots, squares, tokens, largest, flips, crumpled + 1)
    options = []
    for index, covered, cost in fits:
        after = list(slots)
        after[index] = slots[index].without(covered)
        left = _spend(tokens, cost)
        options.append((_arrangement_value(after, left, max(largest, len(section)), crumpled), after, left))
    if rest:
        options.sort(key=lambda option: -option[0])
        options = options[:BUILD_WIDTH]
        return max(
            assignment_value(rest, after, squares, left, max(largest, len(section)), flips, crumpled)
            for _, after, left in options
        )
    return max(value for value, _, _ in options)


def _order(sections: Iterable[Sequence[Cell]]) -> list[Sequence[Cell]]:
    return sorted(sections, key=lambda section: -len(section))


def sheet_value(board: Board, context: Context) -> float:
    """What the sheet left is still worth: its squares, and in solo the risk that next round's cuts won't fit."""
    value = SQUARE_WORTH * len(board.cells)
    if context.solo and context.rounds_left > 0:
        longest = board.next_round().longest_cut()
        # Die faces whose longest cut is longer than any cut left: 4 | 3-3, 1-2-3 | 2-2, 1-1-2 | 1-1-1-1.
        failing = {4: 0, 3: 1, 2: 3, 1: 5, 0: 6}[longest]
        value -= failing / 6 * min(context.rounds_left, 6) * ROUND_WORTH
    return value


# ----- regions worth cutting out --------------------------------------------------------------------------


Turned = tuple[tuple[Cell, Cell, str], ...]
"""A piece of a card turned: (position in the turned piece, card space, requirement) for each space, sorted."""


@lru_cache(maxsize=4096)
def _pieces(card: ParkCard, free: frozenset[Cell]) -> tuple[frozenset[Cell], ...]:
    """The connected, walkway-whole pieces of a card's free area worth trying as one section."""
    walkway_of = {cell: frozenset(walkway) for walkway in card.walkways for cell in walkway}
    groups = parts(free, frozenset())
    found: dict[frozenset[Cell], None] = {}
    for group in groups:
        found[group] = None
    # Grow connected subsets from single spaces (a walkway joins whole), largest first, up to SHAPE_CAP.
    frontier: set[frozenset[Cell]] = set()
    for cell in free:
        frontier.add(walkway_of.get(cell, frozenset({cell})))
    seen: set[frozenset[Cell]] = set(frontier)
    layers: list[set[frozenset[Cell]]] = [frontier]
    while frontier and len(seen) < 4 * SHAPE_CAP:
        grown: set[frozenset[Cell]] = set()
        for piece in frontier:
            if len(piece) >= SHAPE_MAX:
                continue
            for r, c in piece:
                for nb in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)):
                    if nb in free and nb not in piece:
                        bigger = piece | walkway_of.get(nb, frozenset({nb}))
                        if bigger not in seen:
                            seen.add(bigger)
                            grown.add(bigger)
        layers.append(grown)
        frontier = grown
    for layer in reversed(layers):
        for piece in sorted(layer, key=sorted):
            group = next(g for g in groups if piece <= g)
            rest = group - piece
            if piece != group and rest and _components(rest) == 1 and len(found) < SHAPE_CAP:
                found[piece] = None
    return tuple(found)


@lru_cache(maxsize=4096)
def shapes(
    card: ParkCard, free: frozenset[Cell], flips: bool
) -> tuple[tuple[frozenset[Cell], tuple[Turned, ...]], ...]:
    """Each piece of the free area with its distinct turns."""
    found = []
    for piece in _pieces(card, free):
        cells = sorted(piece)
        turns: dict[tuple[tuple[Cell, str], ...], Turned] = {}
        for transform in TRANSFORMS_WITH_FLIPS if flips else TRANSFORMS:
            moved = [(transform.apply(cell), cell) for cell in cells]
            r0 = min(p[0] for p, _ in moved)
            c0 = min(p[1] for p, _ in moved)
            turned = tuple(sorted(((p[0] - r0, p[1] - c0), cell, card.requirement(cell)) for p, cell in moved))
            # Turns that ask the same of the same squares (a symmetric piece) are one option.
            turns.setdefault(tuple((p, req) for p, _, req in turned), turned)
        found.append((piece, tuple(turns.values())))
    return tuple(found)


@dataclass(frozen=True, slots=True)
class Target:
    """A region of the sheet that would fit a card: its squares, the card spaces it covers, the estimate."""

    region: frozenset[Cell]
    slot: int
    spaces: frozenset[Cell]
    needed: tuple[Segment, ...]  # lines still to cut around it
    runs: tuple[tuple[str, int, int, int], ...]  # the same lines as straight runs
    gain: float


def needed_lines(board: Board, region: frozenset[Cell]) -> list[Segment]:
    """The uncut lines between `region` and the rest of the sheet (for many regions of one board)."""
    links = board.links()
    return [seg for cell in region for nb, seg in links.get(cell, ()) if nb not in region]


def _lines_around(board: Board, region: frozenset[Cell]) -> list[Segment]:
    """The same for one region of a board (without building the board's table of links)."""
    found = []
    cells, cuts = board.cells, board.cuts
    for r, c in region:
        for nb in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)):
            if nb in cells and nb not in region:
                seg = _segment((r, c), nb)
                if seg not in cuts:
                    found.append(seg)
    return found


def runs_of(lines: Iterable[Segment]) -> list[tuple[str, int, int, int]]:
    """Needed lines grouped into straight runs: (axis, line number, first position, length), sorted."""
    by_line: dict[tuple[str, int], list[int]] = {}
    for a, b in lines:
        if a[0] == b[0]:  # side by side: a north-south line at column b[1], at row a[0]
            by_line.setdefault(("v", b[1]), []).append(a[0])
        else:
            by_line.setdefault(("h", b[0]), []).append(a[1])
    runs = []
    for (axis, number), positions in by_line.items():
        positions.sort()
        first = previous = positions[0]
        for position in positions[1:]:
            if position != previous + 1:
                runs.append((axis, number, first, previous - first + 1))
                first = position
            previous = position
        runs.append((axis, number, first, previous - first + 1))
    runs.sort()
    return runs


def coverable(runs: Sequence[tuple[str, int, int, int]], lengths: Sequence[int]) -> bool:
    """Whether each run can get a cut of its own at least as long (the longest runs the longest cuts)."""
    if len(runs) > len(lengths):
        return False
    need = sorted((run[3] for run in runs), reverse=True)
    have = sorted(lengths, reverse=True)
    return all(n <= h for n, h in zip(need, have, strict=False))


_REGIONS: dict[tuple, list[Target]] = {}
_REGIONS_KEPT = 32


def regions(board: Board, context: Context) -> list[Target]:
    """Every region of the sheet that fits a card's free area (or a piece of it), best estimate first.

    Cached by everything it depends on (a plan asks again for the same sheet and cards).
    """
    key = (
        board.cells,
        board.cuts,
        context.slots,
        tuple(sorted(context.tokens.items())),
        context.flips,
        context.largest,
        context.sheet,
    )
    found = _REGIONS.get(key)
    if found is None:
        if len(_REGIONS) >= _REGIONS_KEPT:
            _REGIONS.clear()
        found = _REGIONS[key] = _find_regions(board, context)
    return found


def targets(board: Board, context: Context, lengths: Sequence[int]) -> list[Target]:
    """The regions that cuts of these lengths could free this round, best estimate first."""
    return [target for target in regions(board, context) if coverable(target.runs, lengths)]


def _find_regions(board: Board, context: Context) -> list[Target]:
    cells = board.cells
    limit = len(cells) // 2
    squares = context.squares
    best: dict[frozenset[Cell], Target] = {}
    by_need: dict[str, list[Cell]] = {}
    for cell in cells:
        colour, icon = squares[cell]
        by_need.setdefault(colour, []).append(cell)
        if icon:
            by_need.setdefault(icon, []).append(cell)
    everywhere = [(r, c) for r in range(SHEET_ROWS) for c in range(SHEET_COLS)]
    tokens = context.tokens
    for index, slot in enumerate(context.slots):
        if not slot.free:
            continue
        before = potential(slot.card, slot.free)
        for piece, turns in shapes(slot.card, slot.free, context.flips):
            if len(piece) > limit:
                continue
            after = potential(slot.card, slot.free - piece)
            base = after - before + max(0, len(piece) - context.largest)
            for turned in turns:
                anchor = _anchor(turned, tokens)
                if anchor is None:
                    offsets: Iterable[Cell] = everywhere
                else:
                    (ar, ac), _, req = anchor
                    offsets = [(r - ar, c - ac) for r, c in by_need.get(req, ())]
                for dr, dc in offsets:
                    spend = _placed_cost(turned, dr, dc, cells, squares, tokens)
                    if spend is None:
                        continue
                    region = frozenset((p[0] + dr, p[1] + dc) for p, _, _ in turned)
                    gain = base - TOKEN_WORTH * spend
                    known = best.get(region)
                    if known is None or known.gain < gain:
                        best[region] = Target(region, index, piece, (), (), gain)
    found = []
    for target in best.values():
        lines = needed_lines(board, target.region)
        if not lines or (_cut_inside(target.region, board.cuts) and len(parts(target.region, board.cuts)) != 1):
            continue
        found.append(
            Target(
                target.region,
                target.slot,
                target.spaces,
                tuple(lines),
                tuple(runs_of(lines)),
                target.gain - EDGE_COST * len(lines),
            )
        )
    found.sort(key=lambda target: (-target.gain, sorted(target.region)))
    return found


def _cut_inside(region: frozenset[Cell], cuts: frozenset[Segment]) -> bool:
    """Whether an earlier cut runs between two squares of the region."""
    for r, c in region:
        for nb in ((r, c + 1), (r + 1, c)):
            if nb in region and ((r, c), nb) in cuts:
                return True
    return False


def still_open(
    board: Board, found: Iterable[Target], slots: Sequence[Slot], lengths: Sequence[int], limit: int
) -> list[Target]:
    """The first `limit` regions of an earlier list still on the sheet, still fitting the card, freeable now."""
    kept: list[Target] = []
    for target in found:
        if len(kept) >= limit:
            break
        if not target.region <= board.cells or not target.spaces <= slots[target.slot].free:
            continue
        lines = needed_lines(board, target.region)
        if not lines:
            continue
        runs = runs_of(lines)
        if coverable(runs, lengths):
            kept.append(Target(target.region, target.slot, target.spaces, tuple(lines), tuple(runs), target.gain))
    return kept


def _anchor(turned: Turned, tokens: dict[str, int]) -> tuple[Cell, Cell, str] | None:
    """The requirement that narrows the spots most and that no token could waive; None if there is none."""
    best = None
    for entry in turned:
        req = entry[2]
        if req == "blank":
            continue
        if tokens.get(waiving_token(req) or "", 0):
            continue
        if best is None or (best[2] in COLOURS and req not in COLOURS):
            best = entry
    return best


def _placed_cost(
    turned: Turned,
    dr: int,
    dc: int,
    cells: frozenset[Cell],
    squares: SheetSquares,
    tokens: dict[str, int],
) -> int | None:
    """Tokens spent laying the turned shape at (dr, dc) of the sheet; None if it does not fit there."""
    need: dict[str, int] = {}
    for (pr, pc), _, req in turned:
        cell = (pr + dr, pc + dc)
        if cell not in cells:
            return None
        token = waiver(req, *squares[cell])
        if token is not None:
            if need.get(token, 0) >= tokens.get(token, 0):
                return None
            need[token] = need.get(token, 0) + 1
    return sum(need.values())


# ----- cutting a region out ---------------------------------------------------------------------------


@dataclass
class Plan:
    """Cuts in order (with the part to keep on a tie), and where they leave the sheet."""

    steps: list[Step]
    board: Board
    freed: list[tuple[Cell, ...]]
    left: tuple[int, ...]  # die lengths not used yet
    slots: tuple[Slot, ...]  # cards as they will be if the regions planned are placed as meant
    estimate: float = 0.0


def _without(lengths: tuple[int, ...], length: int) -> tuple[int, ...]:
    items = list(lengths)
    items.remove(length)
    return tuple(items)


def cut_and_keep(board: Board, cut: Cut, prefer_free: frozenset[Cell] = frozenset()) -> tuple[Board, Step, list]:
    """Make a cut on a copy; the largest part stays (on a tie, one not holding `prefer_free`)."""
    after, pieces = board.apply(cut)
    if len(pieces) == 1:
        return after, (cut, None), []
    largest = max(len(piece) for piece in pieces)
    tied = [piece for piece in pieces if len(piece) == largest]
    kept = next((piece for piece in tied if not piece & prefer_free), tied[0])
    keep_at = min(kept) if len(tied) > 1 else None
    freed = [tuple(sorted(piece)) for piece in pieces if piece is not kept]
    return after.keep(kept), (cut, keep_at), freed


def _covering_cuts(run: tuple[str, int, int, int], length: int) -> list[Cut]:
    """Cuts of `length` along the run's line that contain the whole run, shortest overshoot first."""
    axis, number, first, size = run
    found = []
    for extra in range(length - size + 1):
        for before in range(extra + 1):
            lo = first - before
            hi = lo + length
            if axis == "h":
                found.append(Cut(length, number, lo, "E"))
                found.append(Cut(length, number, hi, "W"))
            else:
                found.append(Cut(length, lo, number, "S"))
                found.append(Cut(length, hi, number, "N"))
    unique: dict[Cut, None] = {}
    for cut in found:
        unique[cut] = None
    return list(unique)


def realize(board: Board, region: frozenset[Cell], lengths: tuple[int, ...], limit: int) -> list[Plan]:
    """Ways to cut `region` free with some of `lengths` this round (each a Plan with no slots filled yet)."""
    found: list[Plan] = []
    seen: set[frozenset[Segment]] = set()
    budget = [REALIZE_BUDGET]

    def search(current: Board, left: tuple[int, ...], steps: list[Step], freed: list) -> None:
        if len(found) >= limit or budget[0] <= 0:
            return
        budget[0] -= 1
        lines = _lines_around(current, region & current.cells)
        if not lines or not region & current.cells:
            if current.cuts not in seen:
                seen.add(current.cuts)
                found.append(Plan(list(steps), current, list(freed), left, ()))
            return
        runs = runs_of(lines)
        if not coverable(runs, left):
            return
        runs.sort(key=lambda run: -run[3])
        for run in runs:
            for length in sorted(set(left)):
                if length < run[3]:
                    continue
                for cut in _covering_cuts(run, length):
                    if not current.can_cut(cut):
                        continue
                    after, step, more = cut_and_keep(current, cut, region)
                    search(after, _without(left, length), [*steps, step], freed + more)
                    if len(found) >= limit:
                        return

    search(board, lengths, [], [])
    return found


# ----- the planner ----------------------------------------------------------------------------------------


def _fill_slot(slots: tuple[Slot, ...], target: Target) -> tuple[Slot, ...]:
    after = list(slots)
    slot = after[target.slot]
    after[target.slot] = slot.without(target.spaces)
    return tuple(after)


def filler(
    board: Board, length: int, context: Context, prepare: Sequence[Target], rng: random.Random
) -> tuple[Board, Step, list] | None:
    """The least harmful cut of `length`, preferring one that cuts lines a promising region will need."""
    best: tuple[float, float] | None = None
    chosen = None
    for cut in board.cuts_of(length):
        after, step, freed = cut_and_keep(board, cut)
        value = 0.0
        if freed:
            value += assignment_value(
                _order(freed), context.slots, context.squares, context.tokens, context.largest, context.flips
            ) - _arrangement_value(context.slots, context.tokens, context.largest, 0)
            value -= SQUARE_WORTH * sum(len(piece) for piece in freed)
        new = after.cuts - board.cuts
        for target in prepare:
            inside = sum(1 for a, b in new if a in target.region and b in target.region)
            if inside:
                continue
            hits = sum(1 for seg in target.needed if seg in new)
            if hits:
                value += PREP_WEIGHT * max(0.0, target.gain) * hits / len(target.needed)
                break
        key = (value, rng.random())
        if best is None or key > best:
            best, chosen = key, (after, step, freed)
    return chosen


def plan_cuts(board: Board, lengths: tuple[int, ...], context: Context, rng: random.Random) -> Plan:
    """The best plan found for making all of `lengths` now: regions to free, then the other cuts."""
    found = regions(board, context)
    candidates: list[Plan] = []
    for target in [target for target in found if coverable(target.runs, lengths)][:TOP_TARGETS]:
        for plan in realize(board, target.region, lengths, REALIZATIONS):
            plan.slots = _fill_slot(context.slots, target)
            plan.estimate = target.gain
            candidates.append(plan)
    candidates.sort(key=lambda plan: -plan.estimate)
    # The cuts a good plan leaves over may free a second region.
    for plan in [plan for plan in candidates if plan.left][:SECOND_TARGETS]:
        for other in still_open(plan.board, found, plan.slots, plan.left, SECOND_TARGETS):
            for more in realize(plan.board, other.region, plan.left, 1):
                candidates.append(
                    Plan(
                        plan.steps + more.steps,
                        more.board,
                        plan.freed + more.freed,
                        more.left,
                        _fill_slot(plan.slots, other),
                        plan.estimate + other.gain,
                    )
                )
    candidates.sort(key=lambda plan: -plan.estimate)
    finalists = candidates[: 2 * TOP_TARGETS]
    finalists.append(Plan([], board, [], lengths, context.slots))
    prepare = found[:TOP_TARGETS]
    best_value, best_plan = None, finalists[-1]
    for plan in finalists:
        current, steps, freed = plan.board, list(plan.steps), list(plan.freed)
        complete = True
        for length in sorted(plan.left, reverse=True):
            made = filler(current, length, context, prepare, rng)
            if made is None:
                complete = False
                break
            current, step, extra = made
            steps.append(step)
            freed += extra
        if not complete:
            continue
        sections = _order([*context.pending, *freed])
        value = assignment_value(
            sections, context.slots, context.squares, context.tokens, context.largest, context.flips
        ) + sheet_value(current, context)
        if best_value is None or value > best_value:
            best_value, best_plan = value, Plan(steps, current, freed, (), plan.slots, value)
    return best_plan


# ----- the bots ---------------------------------------------------------------------------------------------


def _game(view: State) -> ClipCutParks:
    if not isinstance(view, ClipCutParks):
        raise TypeError(f"a ClipCut Parks bot plays ClipCut Parks, not {type(view).__name__}")
    return view


class PlanningBot:
    """Plans each round's cuts to free sections that fit its face-up cards, then places them well.

    See the module docstring. The plan for a round is made on its first cut and kept with the position it
    leads to after each step (seat, round, sheet, cuts, lengths left): the next cut follows it only while the
    game is where the plan expected, so undo, a new game or anything unforeseen makes it plan afresh.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self._plan: tuple[tuple, list[Step]] | None = None
        self._keep_at: tuple | None = None  # (seat, round, sheet, cuts, square): the part a plan keeps on a tie

    def choose(self, view: State, player: int) -> Action:
        game = _game(view)
        stage = game.stage[player]
        if stage == "cut":
            return self._cut(game, player)
        if stage == "bonus":
            return self._bonus(game, player)
        if stage == "keep":
            return self._keep(game, player)
        if stage == "build":
            return self._build(game, player)
        if stage == "check":
            return self._score(game, player)
        actions = game.legal_actions(player)
        return actions[self.rng.randrange(len(actions))]

    # -- cutting

    @staticmethod
    def _key(game: ClipCutParks, player: int, board: Board, lengths: tuple[int, ...]) -> tuple:
        return (
            player,
            game.round,
            game.sheet_number[player],
            board.cells,
            board.cuts,
            tuple(sorted(lengths)),
        )

    def _follow(self, game: ClipCutParks, player: int, board: Board, lengths: tuple[int, ...]) -> Step | None:
        if self._plan is None:
            return None
        key, steps = self._plan
        if key != self._key(game, player, board, lengths) or not steps:
            return None
        step = steps[0]
        return step if board.can_cut(step[0]) and step[0].length in lengths else None

    def _remember(
        self, game: ClipCutParks, player: int, board: Board, lengths: tuple[int, ...], steps: list[Step]
    ) -> None:
        """Store the rest of a plan under the position it will be played from."""
        if not steps:
            self._plan = None
            return
        cut, keep_at = steps[0]
        after, pieces = board.apply(cut)
        if len(pieces) > 1:
            largest = max(len(piece) for piece in pieces)
            tied = [piece for piece in pieces if len(piece) == largest]
            kept = next((p for p in tied if keep_at in p), tied[0]) if keep_at else tied[0]
            after = after.keep(kept)
        left = _without(lengths, cut.length)
        self._plan = (self._key(game, player, after, left), steps[1:])
        self._keep_at = (player, game.round, game.sheet_number[player], after.cuts, keep_at)

    def _cut(self, game: ClipCutParks, player: int) -> Action:
        board = Board.of(game, player)
        lengths = tuple(game.to_cut[player])
        step = self._follow(game, player, board, lengths)
        if step is not None:
            assert self._plan is not None
            self._remember(game, player, board, lengths, self._plan[1])
            return step[0]
        plan = plan_cuts(board, lengths, Context.of(game, player), self.rng)
        if not plan.steps or not board.can_cut(plan.steps[0][0]):
            actions = game.legal_actions(player)
            return actions[self.rng.randrange(len(actions))]
        self._remember(game, player, board, lengths, plan.steps)
        return plan.steps[0][0]

    def _bonus(self, game: ClipCutParks, player: int) -> Action:
        board = Board.of(game, player)
        context = Context.of(game, player)
        best: tuple[float, Cut] | None = None
        for length in game.lengths_to_cut(player):
            if not board.cuts_of(length):
                continue
            plan = plan_cuts(board, (length,), context, self.rng)
            if plan.steps and (best is None or plan.estimate > best[0]):
                best = (plan.estimate, plan.steps[0][0])
        self._plan = None
        if best is None:
            actions = game.legal_actions(player)
            return actions[self.rng.randrange(len(actions))]
        return best[1]

    def _keep(self, game: ClipCutParks, player: int) -> Action:
        tied = game.tied[player]
        if self._keep_at is not None:
            *key, wanted = self._keep_at
            if tuple(key) == (player, game.round, game.sheet_number[player], game.cuts[player]):
                for piece in tied:
                    if wanted is not None and wanted in piece:
                        return Keep(*min(piece))
        board = Board.of(game, player)
        context = Context.of(game, player)
        pieces = parts(board.cells, board.cuts)
        best: tuple[float, Action] | None = None
        for piece in tied:
            freed = [tuple(sorted(other)) for other in pieces if other != piece]
            value = assignment_value(
                _order([*context.pending, *freed]),
                context.slots,
                context.squares,
                context.tokens,
                context.largest,
                context.flips,
            ) + sheet_value(board.keep(piece), context)
            if best is None or value > best[0]:
                best = (value, Keep(*min(piece)))
        assert best is not None
        return best[1]

    # -- building

    def _build(self, game: ClipCutParks, player: int) -> Action:
        context = Context.of(game, player)
        pending = game.pending[player]
        sections = game.sections[player]
        best: tuple[float, Action] | None = None
        for number in pending:
            fits = game.fits(player, number)
            rest = _order(sections[other] for other in pending if other != number)
            if not fits:
                value = assignment_value(
                    rest, context.slots, context.squares, context.tokens, context.largest, context.flips, 1
                )
                if best is None or value > best[0]:
                    best = (value, Crumple(number))
                continue
            for fit in fits:
                place = fit.action
                ref = (place.kind, place.card)
                covered = frozenset(space for _, space in fit.mapping)
                slots = tuple(slot.without(covered) if slot.ref == ref else slot for slot in context.slots)
                left = _spend(context.tokens, fit.cost)
                value = assignment_value(
                    rest, slots, context.squares, left, max(context.largest, len(sections[number])), context.flips
                )
                if best is None or value > best[0]:
                    best = (value, place)
        if best is None:
            actions = game.legal_actions(player)
            return actions[self.rng.randrange(len(actions))]
        return best[1]

    @staticmethod
    def _score(game: ClipCutParks, player: int) -> Action:
        done = game.complete_cards(player)
        done.sort(key=lambda ref: (card_of(ref).bonus == "cut", ref))
        return Score(*done[0])


__all__ = [
    "Board",
    "Context",
    "PlanningBot",
    "assignment_value",
    "plan_cuts",
    "potential",
    "realize",
    "section_fits",
    "targets",
]
