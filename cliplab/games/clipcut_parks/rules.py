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
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import ClassVar

from cliplab.engine import (
    CHANCE,
    Action,
    ActionCodec,
    ChanceNode,
    GameSpec,
    Option,
    OptionValue,
    Outcome,
    State,
    UniformChoice,
    register,
    round_limit,
)
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


class SheetCuts:
    """One player's sheet as the cutting rules see it: squares left, lines cut, cut ends, this round's cuts.

    The game asks it about the real sheet; the planning bot about sheets it imagines cutting.
    """

    __slots__ = ("cells", "cuts", "ends", "round_cuts")

    def __init__(
        self,
        cells: frozenset[Cell],
        cuts: frozenset[Segment],
        ends: frozenset[Point],
        round_cuts: Sequence[tuple[Point, Point, str]],
    ) -> None:
        self.cells = cells
        self.cuts = cuts
        self.ends = ends
        self.round_cuts = round_cuts

    def is_start(self, point: Point) -> bool:
        """A cut starts on the sheet's boundary as it is now, or at an end of an earlier cut."""
        cells = self.cells
        return point in self.ends or any(cell not in cells for cell in cells_at_point(point))

    def problem(self, cut: Cut) -> tuple[str, str] | None:
        """Why `cut` may not be made now as geometry (rule, reason), or None if it may; lengths are not checked."""
        points = cut.points
        if not all(0 <= r <= SHEET_ROWS and 0 <= c <= SHEET_COLS for r, c in points):
            return "cut", "the cut would run off the park sheet"
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

    def legal(self, lengths: Collection[int], first_only: bool = False) -> list[Cut]:
        """Every legal cut of the given lengths (the same rules as cut_problem, walked one step at a time)."""
        sheet, cut_already = self.cells, self.cuts
        longest = max(lengths, default=0)
        # End points of this round's cuts, per axis: a cut on the same axis may not touch them.
        round_ends: dict[str, set[Point]] = {"h": set(), "v": set()}
        for start, end, axis in self.round_cuts:
            round_ends[axis].update((start, end))
        found: list[Cut] = []
        for point in LATTICE:
            if not self.is_start(point):
                continue
            for direction in DIRS:
                blocked = round_ends[_AXIS[direction]]
                if point in blocked:
                    continue
                here = point
                for length in range(1, longest + 1):
                    step_to = _STEPS.get((here, direction))
                    if step_to is None:
                        break
                    here, (a, b) = step_to
                    if a not in sheet or b not in sheet or (a, b) in cut_already:
                        break
                    if length in lengths and here not in blocked:
                        found.append(Cut(length, point[0], point[1], direction))
                        if first_only:
                            return found
        return found


# ----- what a placement needs -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fit:
    """A legal way to lay a section on a card: which sheet square goes on which space, and the tokens it costs."""

    action: Place
    mapping: tuple[tuple[Cell, Cell], ...]  # (sheet square, card space)
    cost: tuple[tuple[str, int], ...]  # (token, how many), only tokens actually spent


TOKENS = ("wildlife", "recycling", "gardener")


def _cost(card: ParkCard, sheet: Sheet, mapping: tuple[tuple[Cell, Cell], ...]) -> dict[str, int] | None:
    """Tokens needed for the requirements the squares do not meet; None if a walkway is split."""
    covered = {space for _, space in mapping}
    for walkway in card.walkways:
        inside = sum(space in covered for space in walkway)
        if inside and inside != len(walkway):
            return None
    need: dict[str, int] = {}
    for square_at, space in mapping:
        wanted = card.requirement(space)
        if wanted == "blank":
            continue
        square = sheet.square(square_at)
        if wanted in COLOURS:
            if square.colour != wanted:
                need["gardener"] = need.get("gardener", 0) + 1
        elif square.icon != wanted:
            need[wanted] = need.get(wanted, 0) + 1
    return need


# ----- the state -------------------------------------------------------------------------------------


class ClipCutParks(State):
    """A game of ClipCut Parks for 1-4 players. Each seat's data sits in lists indexed by seat."""

    CODEC: ClassVar[ActionCodec] = ActionCodec(TearSheet, Deal, Roll, Cut, Keep, Place, Crumple, Score)

    def _setup(self) -> None:
        n = self.players
        self.solo = n == 1
        self.grand_count = self.option("grand_parks")
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
        self.sheet = [SHEET_CELLS] * n  # squares still in the sheet
        self.cuts: list[frozenset[Segment]] = [frozenset()] * n
        self.cut_ends: list[frozenset[Point]] = [frozenset()] * n
        # This round's cuts (bonus cuts included) as (start, end, axis): for the no-straight-extension rule.
        self.round_cuts: list[list[tuple[Point, Point, str]]] = [[] for _ in range(n)]
        self.to_cut: list[list[int]] = [[] for _ in range(n)]  # lengths the die still asks for
        self.skipped: list[list[int]] = [[] for _ in range(n)]  # lengths that could not be cut this round
        self.stage = ["done"] * n  # cut, keep, bonus, build, check, done
        self.resume = ["build"] * n  # the stage a Keep choice returns to
        self.tied: list[tuple[frozenset[Cell], ...]] = [() for _ in range(n)]  # parts to choose from
        self.sections: list[dict[int, tuple[Cell, ...]]] = [{} for _ in range(n)]  # every freed section
        self.pending: list[list[int]] = [[] for _ in range(n)]  # freed, not yet placed or crumpled
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

    # ----- chance ---------------------------------------------------------------------------------

    def _chance(self) -> ChanceNode | None:
        if self.phase == "setup":
            if -1 in self.sheet_number:
                torn = set(self.sheet_number)
                seat = self.sheet_number.index(-1)
                return UniformChoice(tuple(TearSheet(seat, k) for k in range(1, PAD_SIZE + 1) if k not in torn))
            seat, kind = self._next_deal()
            dealt = {ref for seat_cards in self._all_cards() for ref in seat_cards}
            deck = grand_park_cards() if kind == "grand" else park_cards()
            return UniformChoice(
                tuple(Deal(kind, c.number, seat) for c in deck if (kind, c.number) not in dealt)
            )
        if self.phase == "roll":
            return UniformChoice(tuple(Roll(face) for face in range(1, len(DIE_FACES) + 1)))
        return None

    def _all_cards(self) -> list[list[CardRef]]:
        return [self.face_up[s] + self.pile[s] for s in range(self.players)]

    def _next_deal(self) -> tuple[int, str]:
        """The seat and the deck of the next card to deal: grand parks first, then park cards, seat by seat."""
        for kind, count in (("grand", self.grand_count), ("park", self.park_deal)):
            for seat in range(self.players):
                have = sum(ref[0] == kind for ref in self.face_up[seat] + self.pile[seat])
                if have < count:
                    return seat, kind
        raise AssertionError("everything is dealt")

    def _deal(self, action: Deal) -> None:
        seat, ref = action.seat, (action.kind, action.card)
        parks_up = sum(r[0] == "park" for r in self.face_up[seat])
        if action.kind == "grand" or parks_up < self.face_up_parks:
            self.face_up[seat].append(ref)
        else:
            self.pile[seat].append(ref)
        self.dealt_at[ref] = len(self.log)
        self.dealt[seat] += 1
        if all(d == self.grand_count + self.park_deal for d in self.dealt):
            self._start_round()

    # ----- who moves --------------------------------------------------------------------------------

    def to_move(self) -> tuple[int, ...]:
        if self.phase != "play":
            return ()
        return tuple(seat for seat, stage in enumerate(self.stage) if stage != "done")

    # ----- cutting --------------------------------------------------------------------------------

    def cutting(self, seat: int) -> SheetCuts:
        """The cutting rules' picture of a player's sheet as it is now."""
        return SheetCuts(self.sheet[seat], self.cuts[seat], self.cut_ends[seat], self.round_cuts[seat])

    def is_start(self, seat: int, point: Point) -> bool:
        return self.cutting(seat).is_start(point)

    def cut_problem(self, seat: int, cut: Cut) -> tuple[str, str] | None:
        """Why `cut` may not be made now as geometry (rule, reason), or None if it may; lengths are not checked."""
        return self.cutting(seat).problem(cut)

    def legal_cuts(self, seat: int, first_only: bool = False) -> list[Cut]:
        if self.stage[seat] == "bonus":
            return self.cutting(seat).legal(BONUS_CUT_LENGTHS, first_only)
        return self.cutting(seat).legal(self.to_cut[seat], first_only)

    def _cut(self, seat: int, cut: Cut) -> None:
        points = cut.points
        segments = {edge_between(p, q) for p, q in pairwise(points)}
        self.cuts[seat] = self.cuts[seat] | segments
        self.cut_ends[seat] = self.cut_ends[seat] | {points[0], points[-1]}
        self.round_cuts[seat].append((points[0], points[-1], _AXIS[cut.direction]))
        if self.stage[seat] == "bonus":
            self.resume[seat] = "build"
        else:
            self.to_cut[seat].remove(cut.length)
            self.resume[seat] = "cut"
        pieces = parts(self.sheet[seat], self.cuts[seat])
        if len(pieces) == 1:
            self.stage[seat] = self.resume[seat]
            return
        largest = max(len(piece) for piece in pieces)
        tied = tuple(piece for piece in pieces if len(piece) == largest)
        if len(tied) > 1:
            self.stage[seat] = "keep"
            self.tied[seat] = tied
            return
        self._split(seat, pieces, tied[0])

    def _split(self, seat: int, pieces: list[frozenset[Cell]], kept: frozenset[Cell]) -> None:
        """The kept part stays the sheet; every other part comes free as a section to build."""
        self.sheet[seat] = kept
        sections = self.sections[seat]
        for piece in pieces:
            if piece != kept:
                number = len(sections) + 1
                sections[number] = tuple(sorted(piece))
                self.pending[seat].append(number)
        self.tied[seat] = ()
        self.stage[seat] = self.resume[seat]

    # ----- building ----------------------------------------------------------------------------------

    def free_spaces(self, seat: int, ref: CardRef) -> frozenset[Cell]:
        return card_of(ref).cells - self.covered[seat].get(ref, {}).keys()

    def fits(self, seat: int, section: int, ref: CardRef | None = None) -> list[Fit]:
        """Every legal way to lay `section` on one face-up card (or on any of them)."""
        squares = self.sections[seat][section]
        sheet = sheet_of(self.sheet_number[seat])
        held = self.tokens[seat]
        flips = self.option("allow_flip")
        found: list[Fit] = []
        for card_ref in self.face_up[seat] if ref is None else [ref]:
            card = card_of(card_ref)
            for placement in placements(squares, self.free_spaces(seat, card_ref), flips):
                need = _cost(card, sheet, placement.mapping)
                if need is None or any(held[token] < count for token, count in need.items()):
                    continue
                transform = placement.transform
                row, col = placement.offset
                place = Place(section, card_ref[0], card_ref[1], row, col, transform.turns + 4 * transform.flipped)
                found.append(Fit(place, placement.mapping, tuple(sorted(need.items()))))
        return found

    def _build_actions(self, seat: int) -> list[Action]:
        actions: list[Action] = []
        voluntary = self.option("voluntary_crumple")
        for section in self.pending[seat]:
            fits = self.fits(seat, section)
            actions.extend(fit.action for fit in fits)
            if voluntary or not fits:
                actions.append(Crumple(section))
        return actions

    def mapping_of(self, seat: int, place: Place) -> tuple[tuple[Cell, Cell], ...]:
        """Which sheet square of the section lands on which card space for a Place (legal or not)."""
        squares = self.sections[seat][place.section]
        where = orient(squares, place.transform)
        return tuple((s, (where[s][0] + place.row, where[s][1] + place.col)) for s in squares)

    def _place(self, seat: int, place: Place) -> None:
        ref = (place.kind, place.card)
        mapping = self.mapping_of(seat, place)
        need = _cost(card_of(ref), sheet_of(self.sheet_number[seat]), mapping) or {}
        for token, count in need.items():
            self.tokens[seat][token] -= count
        spaces = self.covered[seat].setdefault(ref, {})
        for square_at, space in mapping:
            spaces[space] = (place.section, square_at)
        self.pending[seat].remove(place.section)

    # ----- checking -------------------------------------------------------------------------------------

    def complete_cards(self, seat: int) -> list[CardRef]:
        return [ref for ref in self.face_up[seat] if not self.free_spaces(seat, ref)]

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
                elif not self.legal_cuts(seat, first_only=True):
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
                if self.legal_cuts(seat, first_only=True):
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
        if self.phase != "play" or any(stage != "done" for stage in self.stage):
            return
        # Straight extensions are forbidden within a round only: the end checks look at a fresh round.
        self.round_cuts = [[] for _ in range(self.players)]
        if any(len(done) == self.dealt[seat] for seat, done in enumerate(self.completed)) and not self.solo:
            self.ended = ALL_CARDS_DONE
        elif not self.solo and not any(self.cutting(seat).legal((1,), first_only=True) for seat in range(self.players)):
            self.ended = SHEETS_SPENT
        elif self.round >= self.option("round_limit"):
            self.ended = ROUND_LIMIT
        if self.ended:
            self.phase = "over"
            return
        self.roller = (self.roller + 1) % self.players
        self._start_round()

    # ----- the engine's hooks ------------------------------------------------------------------------

    def _legal(self, player: int) -> list[Action]:
        stage = self.stage[player]
        if stage in ("cut", "bonus"):
            return [*self.legal_cuts(player)]
        if stage == "keep":
            return [Keep(*min(piece)) for piece in self.tied[player]]
        if stage == "build":
            return self._build_actions(player)
        if stage == "check":
            return [Score(*ref) for ref in self.complete_cards(player)]
        return []

    def _apply(self, player: int, action: Action) -> None:
        if player == CHANCE:
            if isinstance(action, Roll):
                self._after_roll(action)
            elif isinstance(action, Deal):
                self._deal(action)
            elif isinstance(action, TearSheet):
                self.sheet_number[action.seat] = action.sheet
            return
        if isinstance(action, Cut):
            self._cut(player, action)
        elif isinstance(action, Keep):
            kept = next(piece for piece in self.tied[player] if (action.row, action.col) in piece)
            self._split(player, parts(self.sheet[player], self.cuts[player]), kept)
        elif isinstance(action, Place):
            self._place(player, action)
        elif isinstance(action, Crumple):
            self.pending[player].remove(action.section)
            self.crumpled[player].append(action.section)
        elif isinstance(action, Score):
            self._resolve(player, (action.kind, action.card))
        self._advance(player)
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
        if isinstance(action, Cut) and self.stage[player] in ("cut", "bonus") and action.length > 0:
            # The same line named from its other end: legal if that end is where a cut may start.
            sheet = self.cutting(player)
            if sheet.problem(action) is not None:
                end = action.points[-1]
                reverse = Cut(action.length, end[0], end[1], OPPOSITE[action.direction])
                if sheet.problem(reverse) is None:
                    return reverse
        return action

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
        self._start_piles(self.pile)

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
        self._start_piles(self.pile)

    def _start_piles(self, piles: Sequence[Sequence[CardRef]]) -> None:
        """Make a start position's piles end in `piles`: a view's must hide them as the piles are hidden."""
        fields = self.config.start_fields()
        if fields is None or "seats" not in fields:
            return
        for record, pile in zip(fields["seats"], piles, strict=True):
            begun = record.get("pile", [])
            record["pile"] = begun[: len(begun) - len(pile)] + [list(ref) for ref in pile]
        self.config = self.config.starting_at(fields)

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
        )

    def __str__(self) -> str:
        from .explain import render

        return render(self)

    def _repr_svg_(self) -> str:
        # Drawing is imported only when a picture is asked for: the rules know no screen.
        from cliplab.ui.svg import render

        from .board import describe

        return render(describe(self))


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
    "TearSheet",
    "card_of",
    "sheet_of",
]
