"""Click & Crack: penguins on the intersections of a 5x5 ice floe, secret walk/break tiles, cracks that
break the floe. Rules from seeds/002 with RULINGS.md; the rule names used in errors follow the rulebook's
sections (placement, secret tiles, must act, walk, push, break, breaking off, game end).

Geometry: floe tiles are cells (row, col) 0..4; penguins stand on lattice points (row, col) 0..5, the
point (r, c) being the top-left corner of tile (r, c). A crack is the segment between two tiles.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from cliplab.engine import (
    CHANCE,
    Action,
    ActionCodec,
    ChanceNode,
    GameSpec,
    Hidden,
    Option,
    OptionValue,
    Outcome,
    PositionError,
    State,
    UniformChoice,
    register,
    round_limit,
)
from cliplab.engine.position import boolean, check_fields, integer, items, place, word
from cliplab.grid import PERPENDICULAR, Cell, Point, Segment, cells_at_point, edge_between, parts, rectangle, step

SIZE = 5  # tiles per side
POINTS = SIZE + 1  # intersections per side
WINNING_SCORE = 7
SMALLEST_FLOE = 6  # the game ends when the main floe has this many tiles or fewer
FEWEST_PENGUINS = 3  # the game ends when fewer penguins than this are on the floe
TOPPLE_SIZE = 3  # a break-off this large takes the cracking penguin with it
KINDS = ("walk", "break")
DIRS = ("N", "E", "S", "W")
FLOE = rectangle(SIZE, SIZE)

# For each point and direction still on the board: the point reached and the segment walked along.
EDGES: dict[tuple[Point, str], tuple[Point, Segment]] = {}
for _r in range(POINTS):
    for _c in range(POINTS):
        for _d in DIRS:
            _q = step((_r, _c), _d)
            if 0 <= _q[0] < POINTS and 0 <= _q[1] < POINTS:
                EDGES[(_r, _c), _d] = (_q, edge_between((_r, _c), _q))


# ----- actions -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StartPlayer(Action):
    TEMPLATE: ClassVar[str] = "start player is {seat}"
    CHANCE: ClassVar[bool] = True
    seat: int


@dataclass(frozen=True, slots=True)
class Place(Action):
    TEMPLATE: ClassVar[str] = "place at {row},{col}"
    row: int
    col: int


@dataclass(frozen=True, slots=True)
class SetTiles(Action):
    """A player's secret setting of both action tiles; the pair is unordered, so it is kept sorted."""

    TEMPLATE: ClassVar[str] = "set {kind1} {dir1} and {kind2} {dir2}"
    SECRET: ClassVar[bool] = True
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"kind1": KINDS, "dir1": DIRS, "kind2": KINDS, "dir2": DIRS}
    kind1: str
    dir1: str
    kind2: str
    dir2: str

    def __post_init__(self) -> None:
        # Mistyped fields (an action built in Python) are left as given for the engine to refuse by name.
        tiles_are_words = all(type(word) is str for word in (self.kind1, self.dir1, self.kind2, self.dir2))
        if tiles_are_words and (self.kind2, self.dir2) < (self.kind1, self.dir1):
            first, second = (self.kind2, self.dir2), (self.kind1, self.dir1)
            object.__setattr__(self, "kind1", first[0])
            object.__setattr__(self, "dir1", first[1])
            object.__setattr__(self, "kind2", second[0])
            object.__setattr__(self, "dir2", second[1])

    @property
    def tiles(self) -> tuple[tuple[str, str], tuple[str, str]]:
        return (self.kind1, self.dir1), (self.kind2, self.dir2)


@dataclass(frozen=True, slots=True)
class Perform(Action):
    """Carry out one of one's revealed tiles with one of one's penguins."""

    TEMPLATE: ClassVar[str] = "{kind} {direction} with penguin {penguin}"
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"kind": KINDS, "direction": DIRS}
    kind: str
    direction: str
    penguin: int


@dataclass(frozen=True, slots=True)
class Pass(Action):
    TEMPLATE: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class PushAside(Action):
    """The active player's choice of the side a penguin at the floe's edge is pushed to."""

    TEMPLATE: ClassVar[str] = "push aside {direction}"
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"direction": DIRS}
    direction: str


@dataclass(frozen=True, slots=True)
class BreakOff(Action):
    """The active player's choice, after a crack splits the floe in equal halves, of the half that goes."""

    TEMPLATE: ClassVar[str] = "break off the part with tile {row},{col}"
    row: int
    col: int


ALL_SETTINGS = tuple(
    SetTiles(k1, d1, k2, d2)
    for i, (k1, d1) in enumerate((k, d) for k in KINDS for d in DIRS)
    for (k2, d2) in [(k, d) for k in KINDS for d in DIRS][i:]
)
ALL_PLACES = tuple(Place(r, c) for r in range(POINTS) for c in range(POINTS))
PLACES_AT = tuple((place, (place.row, place.col)) for place in ALL_PLACES)  # each with its point
# For checking a setting or a placement without listing every legal one.
SETTINGS_KNOWN = frozenset(ALL_SETTINGS)
PLACES_KNOWN = frozenset(ALL_PLACES)


# Every tile a penguin (0-7: two per seat, at most four seats) can carry out, made once, and passing.
PERFORMS = {(k, d, p): Perform(k, d, p) for k in KINDS for d in DIRS for p in range(8)}
PASS = Pass()

# Ways the game ends (Outcome.termination).
SCORE_REACHED = "a player reached 7 points"
FLOE_SMALL = "the main floe is down to 6 tiles or fewer"
FEW_PENGUINS = "fewer than 3 penguins are left on the floe"
ROUND_LIMIT = "the round limit was reached"


# ----- the floe model ----------------------------------------------------------------------------------
# Walking, cracking and breaking off, on plain data (where the penguins stand, the main floe, the cracks,
# the scores). The game applies these functions; the bots plan on the same ones, through `Floe`. Splits are
# found with bit masks and remembered, so that looking many moves ahead stays fast.

# Each intersection's four tiles, and each tile's neighbours with the segment between them.
AROUND: dict[Point, tuple[Cell, ...]] = {(r, c): cells_at_point((r, c)) for r in range(POINTS) for c in range(POINTS)}
_LINKS: dict[Cell, tuple[tuple[Cell, Segment], ...]] = {
    (r, c): tuple(
        (nb, ((r, c), nb) if (r, c) < nb else (nb, (r, c)))
        for nb in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1))
        if 0 <= nb[0] < SIZE and 0 <= nb[1] < SIZE
    )
    for r in range(SIZE)
    for c in range(SIZE)
}
# Floe tiles as bits (bit 5 * row + col), for fast flood fills.
_BIT = {(r, c): 1 << (SIZE * r + c) for r in range(SIZE) for c in range(SIZE)}
_CELL_OF = {bit: cell for cell, bit in _BIT.items()}
_NOT_EAST_EDGE = sum(bit for (r, c), bit in _BIT.items() if c < SIZE - 1)
_NOT_WEST_EDGE = sum(bit for (r, c), bit in _BIT.items() if c > 0)
CACHE_KEPT = 50_000
"""Entries each of the floe model's caches keeps before it starts afresh."""

Gone = tuple[frozenset[Cell], ...]
_MASKS: dict[frozenset[Cell], int] = {}
_WALLS: dict[frozenset[Segment], tuple[int, int]] = {}
_SPLITS: dict[tuple[frozenset[Cell], frozenset[Segment], Segment], Gone] = {}
_BRIDGES: dict[tuple[frozenset[Cell], frozenset[Segment]], dict[Segment, Gone]] = {}
_STRANDING: dict[tuple[frozenset[Cell], frozenset[Cell]], frozenset[Point]] = {}


def _remember(cache: dict[Any, Any], key: Any, value: Any, kept: int = CACHE_KEPT) -> None:
    if len(cache) >= kept:
        cache.clear()
    cache[key] = value


def may_step(main: frozenset[Cell], at: Point, direction: str) -> bool:
    """A penguin may step along a segment that borders a main-floe tile (cracks don't block)."""
    edge = EDGES.get((at, direction))
    if edge is None:
        return False
    a, b = edge[1]
    return a in main or b in main


def crack_segment(main: frozenset[Cell], cracks: frozenset[Segment], at: Point, direction: str) -> Segment | None:
    """The segment a penguin at `at` cracks breaking `direction`, if it may: one between two main-floe tiles
    and not cracked yet."""
    edge = EDGES.get((at, direction))
    if edge is None:
        return None
    segment = edge[1]
    if segment[0] in main and segment[1] in main and segment not in cracks:
        return segment
    return None


def walk_moves(
    pos: Sequence[Point | None], main: frozenset[Cell], penguin: int, direction: str
) -> dict[str | None, list[tuple[int, Point]]]:
    """The moves a walk makes, keyed by the side an edge penguin is pushed to (None: no side needed).

    Empty when the walk is illegal. Pushed penguins move the same way in a chain; one that would leave the
    floe goes to a side instead and pushes the chain that way; a side is open only if that whole sideways
    chain stays on the floe.
    """
    start = pos[penguin]
    if start is None or not may_step(main, start, direction):
        return {}
    here = EDGES[start, direction][0]
    moves = [(penguin, here)]
    if here not in pos:  # a step onto a free point (the common case) pushes nobody
        return {None: moves}
    occupant = {at: p for p, at in enumerate(pos) if at is not None}
    while here in occupant:
        pushed = occupant[here]
        if may_step(main, here, direction):
            here = EDGES[here, direction][0]
            moves.append((pushed, here))
            continue
        sides: dict[str | None, list[tuple[int, Point]]] = {}
        for side in PERPENDICULAR[direction]:
            chain = _straight_chain(main, pushed, here, side, occupant)
            if chain is not None:
                sides[side] = moves + chain
        return sides
    return {None: moves}


def _straight_chain(
    main: frozenset[Cell], penguin: int, at: Point, direction: str, occupant: Mapping[Point, int]
) -> list[tuple[int, Point]] | None:
    """Moves pushing `penguin` and those in line behind it one step; None if one would leave the floe."""
    chain = []
    while True:
        if not may_step(main, at, direction):
            return None
        at = EDGES[at, direction][0]
        chain.append((penguin, at))
        if at not in occupant:
            return chain
        penguin = occupant[at]


def _mask(cells: frozenset[Cell]) -> int:
    found = _MASKS.get(cells)
    if found is None:
        found = sum(_BIT[cell] for cell in cells)
        _remember(_MASKS, cells, found)
    return found


def _cracked(cracks: frozenset[Segment]) -> tuple[int, int]:
    """Bits of the tiles whose east side, and of those whose south side, is cracked."""
    found = _WALLS.get(cracks)
    if found is None:
        east = south = 0
        for a, b in cracks:
            if a[0] == b[0]:
                east |= _BIT.get(a, 0)
            else:
                south |= _BIT.get(a, 0)
        found = (east, south)
        _remember(_WALLS, cracks, found)
    return found


def _cells(mask: int) -> Iterable[Cell]:
    while mask:
        low = mask & -mask
        yield _CELL_OF[low]
        mask ^= low


def gone_options(main: frozenset[Cell], cracks: frozenset[Segment], segment: Segment) -> Gone:
    """What breaks off when `segment` cracks: () if the floe holds, (the smaller part,), or both equal halves
    (the active player chooses which goes).

    `main` must be one piece under `cracks` (as it always is between actions).
    """
    key = (main, cracks, segment)
    found = _SPLITS.get(key)
    if found is not None:
        return found
    floe = _mask(main)
    east, south = _cracked(cracks)
    if segment[0][0] == segment[1][0]:
        east |= _BIT[segment[0]]
    else:
        south |= _BIT[segment[0]]
    west = east << 1  # a tile's west side is its western neighbour's east side
    north = south << SIZE
    goal = _BIT[segment[1]]
    reach = _BIT[segment[0]]
    found = ()
    while True:
        grown = reach
        grown |= (reach & ~east & _NOT_EAST_EDGE) << 1
        grown |= (reach & ~west & _NOT_WEST_EDGE) >> 1
        grown |= (reach & ~south) << SIZE
        grown |= (reach & ~north) >> SIZE
        grown &= floe
        if grown & goal:
            break
        if grown == reach:
            part = frozenset(_cells(reach))
            rest = main - part
            found = (part,) if len(part) < len(rest) else (rest,) if len(rest) < len(part) else (part, rest)
            break
        reach = grown
    _remember(_SPLITS, key, found)
    return found


def splitting(main: frozenset[Cell], cracks: frozenset[Segment]) -> dict[Segment, Gone]:
    """Every segment whose crack would break something off, with what would (as `gone_options`, though equal
    halves may come in either order): the bridges of the floe's tiles joined across uncracked segments,
    found in one depth-first search."""
    key = (main, cracks)
    found = _BRIDGES.get(key)
    if found is not None:
        return found
    found = {}
    entered: dict[Cell, int] = {}
    low: dict[Cell, int] = {}
    order: list[Cell] = []
    size = len(main)

    def visit(cell: Cell, via: Segment | None) -> None:
        entered[cell] = low[cell] = len(order)
        order.append(cell)
        for nb, seg in _LINKS[cell]:
            if seg == via or nb not in main or seg in cracks:
                continue
            if nb in entered:
                low[cell] = min(low[cell], entered[nb])
                continue
            first = len(order)
            visit(nb, seg)
            low[cell] = min(low[cell], low[nb])
            if low[nb] > entered[cell]:
                part = frozenset(order[first:])
                if 2 * len(part) < size:
                    found[seg] = (part,)
                else:
                    rest = main - part
                    found[seg] = (rest,) if 2 * len(part) > size else (part, rest)

    if main:
        visit(min(main), None)
    _remember(_BRIDGES, key, found, CACHE_KEPT // 10)
    return found


def stranded_points(main: frozenset[Cell], gone: frozenset[Cell]) -> frozenset[Point]:
    """The intersections left touching no floe tile when `gone` breaks off `main`."""
    key = (main, gone)
    found = _STRANDING.get(key)
    if found is None:
        rest = main - gone
        corners = {(r + dr, c + dc) for r, c in gone for dr in (0, 1) for dc in (0, 1)}
        found = frozenset(at for at in corners if not any(cell in rest for cell in AROUND[at]))
        _remember(_STRANDING, key, found)
    return found


def break_off(
    pos: Sequence[Point | None],
    scores: Sequence[int],
    main: frozenset[Cell],
    gone: frozenset[Cell],
    seat: int,
    actor: int,
) -> tuple[list[Point | None], list[int], frozenset[Cell]]:
    """Penguins, scores and main floe after `gone` breaks off, cracked by `seat`'s penguin `actor`: each tile
    scores 1 for the seat, each penguin left touching no tile leaves and costs the seat 1 (its own too), and
    a break-off of TOPPLE_SIZE tiles or more takes the cracking penguin with it at no cost."""
    lost = stranded_points(main, gone)
    after, points = list(pos), list(scores)
    points[seat] += len(gone)
    for penguin, at in enumerate(after):
        if at in lost:
            after[penguin] = None
            points[seat] -= 1
    if len(gone) >= TOPPLE_SIZE:
        after[actor] = None
    return after, points, main - gone


def end_reason(scores: Sequence[int], main: frozenset[Cell], pos: Sequence[Point | None]) -> str:
    """Why the game is over in this position ("" while it goes on)."""
    if max(scores) >= WINNING_SCORE:
        return SCORE_REACHED
    if len(main) <= SMALLEST_FLOE:
        return FLOE_SMALL
    if len(pos) - pos.count(None) < FEWEST_PENGUINS:
        return FEW_PENGUINS
    return ""


class Floe:
    """A position in brief (where each penguin stands, None once gone; the floe tiles; the cracks; the
    scores) and where each tile would lead from it: the model the bots look ahead with."""

    __slots__ = ("cracks", "main", "pos", "scores")

    def __init__(
        self, pos: list[Point | None], main: frozenset[Cell], cracks: frozenset[Segment], scores: list[int]
    ) -> None:
        self.pos = pos
        self.main = main
        self.cracks = cracks
        self.scores = scores

    @classmethod
    def of(cls, state: ClickCrack) -> Floe:
        return cls(list(state.pos), state.main, state.cracks, list(state.scores))

    def copy(self) -> Floe:
        return Floe(list(self.pos), self.main, self.cracks, list(self.scores))

    def placed(self, penguin: int, at: Point) -> Floe:
        """This position with `penguin` placed at `at`."""
        pos = list(self.pos)
        pos[penguin] = at
        return Floe(pos, self.main, self.cracks, list(self.scores))

    def penguins_of(self, seat: int) -> list[int]:
        return [p for p in (2 * seat, 2 * seat + 1) if self.pos[p] is not None]

    def over(self) -> bool:
        return bool(end_reason(self.scores, self.main, self.pos))

    def perform(self, seat: int, kind: str, direction: str, penguin: int) -> list[Floe]:
        """The positions a tile can lead to (one per choice the active player makes in it); [] if illegal."""
        if kind == "break":
            return self.crack(seat, penguin, direction)
        return self.walk(penguin, direction)

    def walk(self, penguin: int, direction: str) -> list[Floe]:
        outcomes = walk_moves(self.pos, self.main, penguin, direction)
        return [self._moved(moves) for moves in outcomes.values()]

    def _moved(self, moves: Iterable[tuple[int, Point]]) -> Floe:
        pos = list(self.pos)
        for penguin, target in moves:
            pos[penguin] = target
        return Floe(pos, self.main, self.cracks, list(self.scores))

    def crack(self, seat: int, penguin: int, direction: str) -> list[Floe]:
        at = self.pos[penguin]
        segment = None if at is None else crack_segment(self.main, self.cracks, at, direction)
        if segment is None:
            return []
        cracks = self.cracks | {segment}
        options = splitting(self.main, self.cracks).get(segment, ())
        if not options:
            return [Floe(list(self.pos), self.main, cracks, list(self.scores))]
        results = []
        for gone in options:
            pos, scores, main = break_off(self.pos, self.scores, self.main, gone, seat, penguin)
            results.append(Floe(pos, main, cracks, scores))
        return results


# ----- the state -------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _placement_order(start: int, players: int, snake: bool) -> tuple[int, ...]:
    """The seats in the order they place their penguins: round from the start player, then again (backwards
    in a snake)."""
    seats = tuple((start + k) % players for k in range(players))
    return seats + (seats[::-1] if snake else seats)


class ClickCrack(State):
    """A game of Click & Crack. Penguin i belongs to seat i // 2."""

    CODEC: ClassVar[ActionCodec] = ActionCodec(StartPlayer, Place, SetTiles, Perform, Pass, PushAside, BreakOff)
    DERIVED: ClassVar[frozenset[str]] = frozenset({"movers"})

    def _setup(self) -> None:
        n = self.players
        self.phase = "setup" if self.option("random_start") else "place"
        self.start = 0
        self.round = 0
        self.placed = 0
        self.pos: list[Point | None] = [None] * (2 * n)
        self.main: frozenset[tuple[int, int]] = FLOE
        self.cracks: frozenset[Segment] = frozenset()
        self.scores = [0] * n
        self.tiles: list[tuple[tuple[str, str], ...]] = [()] * n
        self.used: list[list[bool]] = [[False, False] for _ in range(n)]
        self.secret_at: dict[int, int] = {}  # seat -> log index of this round's still-secret setting
        self.second_pass = False
        self.actor_offset = 0  # the active seat is (start + actor_offset) % players
        # The tile being carried out, by which penguin, while the active player makes a choice within it.
        self.tile_in_play: tuple[str, str] = ("", "")
        self.actor_penguin = -1
        self.push_sides: dict[str, list[tuple[int, Point]]] = {}  # side -> moves, while choosing a side
        self.halves: tuple[frozenset[tuple[int, int]], ...] = ()  # the equal halves, while choosing one
        self.ended = ""
        start = self.config.start_fields()
        if start is not None:
            _begin_at(self, start)
        self._find_movers()

    # ----- who moves ----------------------------------------------------------------------------

    @property
    def active(self) -> int:
        return (self.start + self.actor_offset) % self.config.players  # asked each tile: no second property

    def placement_order(self) -> list[int]:
        return list(_placement_order(self.start, self.players, self.option("placement_order") == "snake"))

    def penguins_of(self, seat: int) -> list[int]:
        return [p for p in (2 * seat, 2 * seat + 1) if self.pos[p] is not None]

    def has_penguins(self, seat: int) -> bool:
        pos = self.pos
        return pos[2 * seat] is not None or pos[2 * seat + 1] is not None

    def on_floe(self) -> list[int]:
        return [p for p, at in enumerate(self.pos) if at is not None]

    def to_move(self) -> tuple[int, ...]:
        return self.movers

    def _find_movers(self) -> None:
        """Work out `movers` (asked for several times an action) once the setup or an action is done: every
        field it depends on (phase, start, placed, penguins, secret settings, actor_offset) changes only then."""
        phase = self.phase
        # The phases most actions are taken in come first.
        if phase == "perform" or phase == "push" or phase == "break":
            self.movers: tuple[int, ...] = (self.active,)
        elif phase == "place":
            order = _placement_order(self.start, self.players, self.option("placement_order") == "snake")
            self.movers = (order[self.placed],)
        elif phase == "program":
            secret = self.secret_at
            self.movers = tuple(s for s in range(self.players) if s not in secret and self.has_penguins(s))
        else:
            self.movers = ()

    def _chance(self) -> ChanceNode | None:
        if self.phase == "setup":
            return UniformChoice(tuple(StartPlayer(s) for s in range(self.players)))
        return None

    # ----- legality -----------------------------------------------------------------------------

    def can_step(self, at: Point, direction: str) -> bool:
        """A penguin may step along a segment that borders a main-floe tile (cracks don't block)."""
        return may_step(self.main, at, direction)

    def walk_outcomes(self, penguin: int, direction: str) -> dict[str | None, list[tuple[int, Point]]]:
        """The moves a walk makes, keyed by the side an edge penguin is pushed to (see `walk_moves`)."""
        return walk_moves(self.pos, self.main, penguin, direction)

    def _tile_legal(self, kind: str, direction: str, penguin: int) -> bool:
        at = self.pos[penguin]
        if at is None:
            return False
        if kind == "break":
            return crack_segment(self.main, self.cracks, at, direction) is not None
        if not may_step(self.main, at, direction):
            return False
        # A step onto a free point pushes nobody (the common case): the push chain need not be worked out.
        return EDGES[at, direction][0] not in self.pos or bool(self.walk_outcomes(penguin, direction))

    def unused_tiles(self, seat: int) -> tuple[tuple[str, str], ...]:
        """The seat's revealed tiles not carried out yet this round, in order; a tile set twice is named once."""
        tiles = self.tiles[seat]
        if not tiles:  # the seat had no penguin when the round began, so it set none
            return ()
        (first, second), (first_used, second_used) = tiles, self.used[seat]
        if first_used:
            return () if second_used else (second,)
        return (first,) if second_used or second == first else (first, second)

    def _legal(self, player: int) -> list[Action]:
        phase = self.phase
        if phase == "place":
            pos = self.pos
            return [place for place, at in PLACES_AT if at not in pos]
        if phase == "program":
            return list(ALL_SETTINGS)
        if phase == "push":
            return [PushAside(side) for side in self.push_sides]
        if phase == "break":
            return [BreakOff(*min(half)) for half in self.halves]
        actions: list[Action] = []
        for kind, direction in self.unused_tiles(player):
            for penguin in (2 * player, 2 * player + 1):
                if self._tile_legal(kind, direction, penguin):  # never for a penguin off the floe
                    actions.append(PERFORMS[kind, direction, penguin])
        return actions or [PASS]

    def _is_legal(self, player: int, action: Action) -> bool:
        # A tile carried out (the commonest action), a setting or a placement is checked alone, without
        # listing every legal one.
        phase = self.phase
        if phase == "program":
            return action in SETTINGS_KNOWN
        if phase == "place":
            return type(action) is Place and action in PLACES_KNOWN and (action.row, action.col) not in self.pos
        if type(action) is Perform and phase == "perform":
            first = 2 * player
            if action.penguin == first:
                penguin = first
            elif action.penguin == first + 1:
                penguin = first + 1
            else:
                return False
            unused = (action.kind, action.direction) in self.unused_tiles(player)
            return unused and self._tile_legal(action.kind, action.direction, penguin)
        return super()._is_legal(player, action)

    # ----- applying -----------------------------------------------------------------------------

    def _apply(self, player: int, action: Action) -> None:
        if isinstance(action, Perform):
            self._perform(player, action)
        elif isinstance(action, SetTiles):
            self.tiles[player] = action.tiles
            self.used[player] = [False, False]
            self.secret_at[player] = len(self.log)
            if self.movers == (player,):  # the last seat to set its tiles
                self._start_performing()
        elif isinstance(action, Pass):
            self._next_actor()
        elif isinstance(action, PushAside):
            moves = self.push_sides[action.direction]
            self.push_sides = {}
            self._finish_walk(moves)
        elif isinstance(action, BreakOff):
            gone = next(half for half in self.halves if (action.row, action.col) in half)
            self.halves = ()
            self._break_off(gone)
        elif isinstance(action, Place):
            self.pos[2 * player + (self.placed >= self.players)] = (action.row, action.col)
            self.placed += 1
            if self.placed == 2 * self.players:
                self._new_round()
        elif isinstance(action, StartPlayer):
            self.start = action.seat
            self.phase = "place"
        self._find_movers()

    def _use_tile(self, seat: int, tile: tuple[str, str]) -> None:
        used = self.used[seat]
        # The first of the seat's two tiles that is this one and still unused (both may show the same tile).
        used[0 if self.tiles[seat][0] == tile and not used[0] else 1] = True

    def _perform(self, player: int, action: Perform) -> None:
        self.tile_in_play = (action.kind, action.direction)
        self.actor_penguin = action.penguin
        if action.kind == "walk":
            sides = self.walk_outcomes(action.penguin, action.direction)
            if None in sides:
                self._finish_walk(sides[None])
            elif len(sides) == 1:
                self._finish_walk(next(iter(sides.values())))
            else:
                self.phase = "push"
                self.push_sides = {side: moves for side, moves in sides.items() if side is not None}
            return
        at = self.pos[action.penguin]
        assert at is not None
        segment = EDGES[at, action.direction][1]
        options = gone_options(self.main, self.cracks, segment)
        self.cracks = self.cracks | {segment}
        if not options:
            self._done()
        elif len(options) == 2:
            self.phase = "break"
            self.halves = tuple(sorted(options, key=min))
        else:
            self._break_off(options[0])

    def _finish_walk(self, moves: Iterable[tuple[int, Point]]) -> None:
        for penguin, target in moves:
            self.pos[penguin] = target
        self._done()

    def _break_off(self, gone: frozenset[tuple[int, int]]) -> None:
        """Remove the broken-off tiles: they score for the active player, stranded penguins cost him."""
        after = break_off(self.pos, self.scores, self.main, gone, self.active, self.actor_penguin)
        self.pos, self.scores, self.main = after
        self._done()

    def _done(self) -> None:
        """An action tile has been carried out: mark it, check the end, hand over to the next player."""
        self._use_tile(self.active, self.tile_in_play)
        # Nothing is in play between tiles (so a position reached by play equals the same one built).
        self.tile_in_play, self.actor_penguin = ("", ""), -1
        self.phase = "perform"
        if not self._check_end():
            self._next_actor()

    def _check_end(self) -> bool:
        self.ended = end_reason(self.scores, self.main, self.pos)
        if self.ended:
            self.phase = "over"
        return bool(self.ended)

    def _start_performing(self) -> None:
        self.secret_at = {}
        self._reveal()  # every setting is turned face up together
        self.phase = "perform"
        self.second_pass = False
        self.actor_offset = -1
        self._next_actor()

    def _next_actor(self) -> None:
        """Hand over to the next seat, clockwise from the start player, that still has a penguin."""
        offset, players = self.actor_offset + 1, self.config.players
        while True:
            if offset == players:
                if self.second_pass:
                    self._end_round()
                    return
                self.second_pass = True
                offset = 0
            if self.has_penguins((self.start + offset) % players):
                self.actor_offset = offset
                return
            offset += 1

    def _end_round(self) -> None:
        if self.round >= self.option("round_limit"):
            self.ended = ROUND_LIMIT
            self.phase = "over"
            return
        for k in range(1, self.players + 1):
            seat = (self.start + k) % self.players
            if self.has_penguins(seat):
                self.start = seat
                break
        self._new_round()

    def _new_round(self) -> None:
        self.round += 1
        self.phase = "program"
        self.tiles = [()] * self.players
        self.used = [[False, False] for _ in range(self.players)]
        self.second_pass, self.actor_offset = False, 0

    # ----- the end ------------------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        if not self.ended:
            return None
        return Outcome.ranked(self.scores, self.ended, f"after {self.round} rounds")

    # ----- what each player sees and why actions fail ----------------------------------------------

    def _normalize(self, player: int, action: Action) -> Action:
        # A half of the floe may be named by any of its tiles; the log names it by its first.
        if isinstance(action, BreakOff) and self.phase == "break":
            for half in self.halves:
                if (action.row, action.col) in half:
                    return BreakOff(*min(half))
        return action

    def _hidden_entries(self, seat: int | None) -> Iterable[int]:
        return [index for setter, index in self.secret_at.items() if setter != seat]

    def _redact(self, seat: int | None) -> None:
        # Settings are secret only until everyone has set theirs and they are revealed together.
        if self.phase == "program":
            self.tiles = [tiles if setter == seat else () for setter, tiles in enumerate(self.tiles)]

    def _sample_hidden(self, rng: random.Random) -> None:
        # The only hidden things are this round's settings not yet revealed: any of them is possible.
        for setter, index in self.secret_at.items():
            if isinstance(self.log[index][1], Hidden):
                setting = ALL_SETTINGS[rng.randrange(len(ALL_SETTINGS))]
                self.tiles[setter] = setting.tiles
                self.log[index] = (setter, setting)

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


# ----- start positions ---------------------------------------------------------------------------------

POSITION_FIELDS = (
    "penguins",
    "cracks",
    "gone",
    "scores",
    "phase",
    "round",
    "start_player",
    "tiles",
    "used",
    "acting",
    "second_pass",
)
POSITION_PHASES = ("place", "program", "perform")


def position(
    players: int = 3,
    seed: int = 0,
    *,
    penguins: Sequence[Point | None] | None = None,
    cracks: Iterable[tuple[Point, Point]] = (),
    gone: Iterable[tuple[int, int]] = (),
    scores: Sequence[int] | None = None,
    phase: str | None = None,
    round: int | None = None,
    start_player: int = 0,
    tiles: Sequence[Sequence[tuple[str, str]]] | None = None,
    used: Sequence[Sequence[bool]] | None = None,
    acting: int | None = None,
    second_pass: bool = False,
    **options: Any,
) -> ClickCrack:
    """A game of Click & Crack that begins at the position these fields describe (PositionError if none can).

    penguins      where penguin i (seat i // 2) stands: an intersection (row, col), 0-5 each way, touching a
                  tile of the main floe; None if it is off the floe (fallen in, or not placed yet); left out:
                  no penguin is placed yet
    cracks        cracks, each as the two floe tiles (row, col), 0-4, on either side of it
    gone          tiles broken off the main floe; what is left must be one piece under the cracks
    scores        each seat's points (default all 0); a score of 7 would have ended the game
    phase         "place" (penguins are being placed: those placed are the first of the placement order),
                  "program" (a new round: nobody has set their tiles yet) or "perform" (tiles revealed);
                  left out: "place" if no penguins are given, else "program"
    round         the round (default 1; 0 while placing)
    start_player  the seat holding the start marker (it must have a penguin once placing is over)
    tiles, used   perform only: each seat's two revealed tiles as (kind, direction) and which are carried out
    acting        perform only: the seat to carry out a tile now (default the start player)
    second_pass   perform only: whether the second pass of the round has begun
    options       the game's options (placement_order, round_limit, ...)

    The result is a game like any other: it saves and loads with its start position, and undo goes back to
    this position and no further. `position_of` reads these fields back from a game.

    A round about to begin, player 0's second penguin already fallen in, two tiles broken off:

    >>> floe = position(2, penguins=[(2, 2), None, (3, 4), (1, 4)], gone=[(0, 0), (0, 1)],
    ...                 cracks=[((1, 0), (1, 1))], scores=[2, 0])
    >>> floe.phase, floe.to_move(), len(floe.main)
    ('program', (0, 1), 23)

    Player 1 carrying out its first tile, after player 0 carried out its walk:

    >>> turn = position(2, penguins=[(2, 2), (2, 3), (3, 4), (1, 4)], phase="perform",
    ...                 tiles=[[("walk", "N"), ("break", "E")], [("walk", "S"), ("walk", "W")]],
    ...                 used=[[False, True], [False, False]], acting=1)
    >>> [str(action) for action in turn.legal_actions(1)][:2]
    ['walk S with penguin 2', 'walk S with penguin 3']
    """
    if phase is None:
        phase = "place" if penguins is None else "program"
    fields: dict[str, Any] = {
        "penguins": [None] * (2 * players) if penguins is None else list(penguins),
        "cracks": {_ordered(crack) for crack in cracks},
        "gone": set(gone),
        "scores": [0] * players if scores is None else list(scores),
        "phase": phase,
        "round": (0 if phase == "place" else 1) if round is None else round,
        "start_player": start_player,
        "second_pass": second_pass,
    }
    if phase == "perform" or tiles is not None or used is not None or acting is not None:
        # Filled in whole so that one position always gives one configuration.
        fields["tiles"] = tiles
        fields["used"] = [[False, False]] * players if used is None else used
        fields["acting"] = start_player if acting is None else acting
    game = ClickCrack(SPEC.config(players, seed, **options).starting_at(fields))
    return game


def _ordered(pair: Any) -> Any:
    """A crack named by its tiles in either order is the same crack (anything else is left for the checks)."""
    try:
        return tuple(sorted(tuple(part) for part in pair))
    except TypeError:
        return pair


def position_of(game: ClickCrack) -> dict[str, Any]:
    """The fields of `position` that describe the game as it stands (between tiles, with no secret settings)."""
    if game.phase not in POSITION_PHASES:
        raise PositionError(
            "phase", f"a position is read between tiles (place, program or perform), not in {game.phase}"
        )
    if game.secret_at:
        raise PositionError("tiles", "some tiles are set in secret; a position in the program phase has none set")
    fields: dict[str, Any] = {
        "penguins": list(game.pos),
        "cracks": sorted(game.cracks),
        "gone": sorted(FLOE - game.main),
        "scores": list(game.scores),
        "phase": game.phase,
        "round": game.round,
        "start_player": game.start,
        "second_pass": game.second_pass,
    }
    if game.phase == "perform":
        fields.update(tiles=list(game.tiles), used=[list(flags) for flags in game.used], acting=game.active)
    return fields


def _begin_at(game: ClickCrack, fields: dict[str, Any]) -> None:
    """Check a start position's fields and set the game up there (called by _setup)."""
    check_fields(fields, POSITION_FIELDS)
    n = game.players
    phase = word(fields.get("phase", "program"), "phase", POSITION_PHASES)
    gone = [
        place(tile, f"gone[{i}]", SIZE, SIZE, "tile") for i, tile in enumerate(items(fields.get("gone", []), "gone"))
    ]
    main = FLOE - frozenset(gone)
    cracks = frozenset(
        _crack(value, f"cracks[{i}]") for i, value in enumerate(items(fields.get("cracks", []), "cracks"))
    )
    pieces = parts(main, cracks)
    if len(pieces) != 1:
        raise PositionError("gone", f"the main floe is in {len(pieces)} pieces; name the tiles that broke off in gone")
    if len(main) <= SMALLEST_FLOE:
        raise PositionError(
            "gone", f"a main floe of {len(main)} tiles has ended the game (it needs more than {SMALLEST_FLOE})"
        )
    pos: list[Point | None] = []
    for i, value in enumerate(items(fields.get("penguins"), "penguins", 2 * n)):
        where = f"penguins[{i}]"
        at = None if value is None else place(value, where, POINTS, POINTS, "intersection")
        if at is not None and not any(tile in main for tile in cells_at_point(at)):
            raise PositionError(where, f"intersection {at} touches no tile of the main floe")
        if at is not None and at in pos:
            raise PositionError(where, f"penguin {pos.index(at)} stands on {at} already")
        pos.append(at)
    scores = [integer(v, f"scores[{i}]") for i, v in enumerate(items(fields.get("scores", [0] * n), "scores", n))]
    for seat, score in enumerate(scores):
        if score >= WINNING_SCORE:
            raise PositionError(
                f"scores[{seat}]", f"a score of {score} has ended the game (it ends at {WINNING_SCORE})"
            )
    start = integer(fields.get("start_player", 0), "start_player", 0, n - 1)
    game.phase, game.start, game.pos, game.main, game.cracks, game.scores = phase, start, pos, main, cracks, scores
    if phase == "place":
        _begin_placing(game, fields)
        return
    if len(game.on_floe()) < FEWEST_PENGUINS:
        raise PositionError("penguins", f"fewer than {FEWEST_PENGUINS} penguins on the floe have ended the game")
    game.placed = 2 * n
    game.round = integer(fields.get("round", 1), "round", 1, game.option("round_limit"))
    if phase == "program":
        if not game.penguins_of(start):
            raise PositionError("start_player", f"seat {start} has no penguin on the floe to start the round with")
        for name in ("tiles", "used", "acting"):
            if name in fields:
                raise PositionError(name, "tiles are secret until all are set: a program position has none set yet")
        if fields.get("second_pass", False) is not False:
            raise PositionError("second_pass", "the passes begin once the tiles are revealed")
        return
    _begin_performing(game, fields)


def _crack(value: Any, where: str) -> Segment:
    pair = items(value, where, 2)
    a, b = (place(tile, f"{where}[{k}]", SIZE, SIZE, "tile") for k, tile in enumerate(pair))
    if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
        raise PositionError(where, f"tiles {a} and {b} are not side by side, so no crack runs between them")
    return (a, b) if a < b else (b, a)


def _begin_placing(game: ClickCrack, fields: dict[str, Any]) -> None:
    n = game.players
    for name in ("cracks", "gone", "tiles", "used", "acting"):
        if fields.get(name):
            raise PositionError(name, "nothing cracks and no tiles are set while penguins are being placed")
    if any(game.scores):
        raise PositionError("scores", "nobody scores while penguins are being placed")
    order = game.placement_order()
    placed = sum(at is not None for at in game.pos)
    for slot, seat in enumerate(order):
        penguin = 2 * seat + (slot >= n)
        if (game.pos[penguin] is not None) != (slot < placed):
            raise PositionError(
                f"penguins[{penguin}]",
                f"penguins are placed in turn ({', '.join(f'seat {s}' for s in order)}): with {placed} placed,"
                f" penguin {penguin} {'is' if slot < placed else 'is not'} one of them",
            )
    game.placed = placed
    game.round = integer(fields.get("round", 0), "round", 0, 0)
    if placed == 2 * n:
        raise PositionError("phase", "every penguin is placed: the position is in the program phase")


def _begin_performing(game: ClickCrack, fields: dict[str, Any]) -> None:
    n = game.players
    tiles: list[tuple[tuple[str, str], ...]] = []
    for seat, value in enumerate(items(fields.get("tiles"), "tiles", n)):
        where = f"tiles[{seat}]"
        # A seat that lost its last penguin this round keeps the tiles it revealed.
        chosen = items(value, where, 2 if game.penguins_of(seat) or value else 0)
        pairs = []
        for k, tile in enumerate(chosen):
            kind, direction = items(tile, f"{where}[{k}]", 2)
            pairs.append((word(kind, f"{where}[{k}]", KINDS), word(direction, f"{where}[{k}]", DIRS)))
        tiles.append(SetTiles(*pairs[0], *pairs[1]).tiles if pairs else ())
    used = []
    for seat, value in enumerate(items(fields.get("used", [[False, False]] * n), "used", n)):
        used.append([boolean(flag, f"used[{seat}][{k}]") for k, flag in enumerate(items(value, f"used[{seat}]", 2))])
    acting = integer(fields.get("acting", game.start), "acting", 0, n - 1)
    if not game.penguins_of(acting):
        raise PositionError("acting", f"seat {acting} has no penguin on the floe and sits out")
    second_pass = boolean(fields.get("second_pass", False), "second_pass")
    offset = (acting - game.start) % n
    for k in range(n):
        seat = (game.start + k) % n
        # Tiles carried out so far: one per pass this seat has had its turn in (a pass uses none).
        turns = second_pass + (k < offset)
        if sum(used[seat]) > turns:
            raise PositionError(
                f"used[{seat}]", f"seat {seat} has had {turns} turn(s) this round, not {sum(used[seat])}"
            )
    if all(used[acting]):
        raise PositionError("acting", f"seat {acting} has carried out both its tiles")
    game.tiles, game.used, game.second_pass, game.actor_offset = tiles, used, second_pass, offset


def _max_length(players: int, options: Mapping[str, OptionValue]) -> int:
    # A chance draw, two placements each, then per round: a setting, two tiles and two choices each.
    rounds = options["round_limit"]
    assert isinstance(rounds, int)
    return 1 + 2 * players + rounds * 5 * players


SPEC = register(
    GameSpec(
        name="click_crack",
        title="Click & Crack",
        summary="Penguins on a 5x5 ice floe set secret walk/break tiles; cracks break off parts of the floe.",
        min_players=2,
        max_players=4,
        default_players=3,
        options=(
            Option(
                "placement_order",
                str,
                "repeat",
                "order of the second penguins: repeat the first order, or snake back from the last seat",
                choices=("repeat", "snake"),
            ),
            Option("random_start", bool, False, "draw the start player from the seed instead of seat 0"),
            round_limit(40),
        ),
        state_class=ClickCrack,
        max_length=_max_length,
        variants={"snake": {"placement_order": "snake"}, "random_start": {"random_start": True}},
        simultaneous=True,
        hidden_information=True,
        chance=True,
    )
)

__all__ = [
    "CHANCE",
    "SPEC",
    "BreakOff",
    "ClickCrack",
    "Pass",
    "Perform",
    "Place",
    "PushAside",
    "SetTiles",
    "position",
    "position_of",
]
