"""Swap Clops, the tile game: swap two clops of one shape, collect groups of four or more of one face.

Rules from seeds/003 (second part) with RULINGS.md. The board is 8x8 spaces, numbered in reading order
(space = 8 * row + col); a space holds a tile number (1-90, see content.py) or 0 when empty. The supply
is the set of tiles not yet drawn; which tiles it holds is public (every tile was seen or is still in it),
its order is not: each refill draw is a chance event drawn from the seed when it is needed, so a view (no
seed) knows nothing of what comes next and a determinized sample draws its own refills.

Turn: the active seat swaps two tiles of the same shape anywhere (or passes when no swap exists); every
4+ group of one face (orthogonal joins, walls cut them) holding a swapped tile is collected; empty spaces
refill in reading order; groups the refill makes wait. A turn whose refill empties the supply, or cannot
fill every space, triggers the end: the round (seat 0 starts it) is finished and the game is scored.
House rule: `round_limit` stops a game in which nobody collects (a swap that collects nothing is legal).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

import numpy as np

from cliplab.engine import (
    CHANCE,
    Action,
    ActionCodec,
    ActionsInParts,
    ChanceNode,
    GameSpec,
    Option,
    OptionValue,
    Outcome,
    PositionError,
    State,
    register,
    round_limit,
)
from cliplab.engine.position import boolean, check_fields, integer, items

from .content import FACES, LIKES, SHAPES, TILE_COUNT, tile, tile_set

SIZE = 8
SPACES = SIZE * SIZE
GROUP = 4  # the smallest group collected
LIKE_BONUS = 5
DEFAULT_ROUND_LIMIT = 150

# Ways the game ends (Outcome.termination).
SUPPLY_OUT = "the supply could not refill the board and the round was finished"
NOBODY_CAN_SWAP = "no seat could swap for a whole round"
ROUND_LIMIT = "the round limit was reached"

# Per tile number (index 0: an empty space): shape, face, like and wall side, for fast lookups.
_TILES = tile_set().tiles
SHAPE_OF: tuple[str, ...] = ("", *(t.shape for t in _TILES))
FACE_OF: tuple[str, ...] = ("", *(t.face for t in _TILES))
LIKE_OF: tuple[str, ...] = ("", *(t.like for t in _TILES))
WALL_OF: tuple[str, ...] = ("", *(t.wall for t in _TILES))
# bytes(board).translate(_SHAPE_CODES): the board as shape codes (0 empty, 1-3 a shape), a cheap cache key.
_SHAPE_CODES = bytes(SHAPES.index(shape) + 1 if shape else 0 for shape in SHAPE_OF).ljust(256, b"\0")
_OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
# For each space: (neighbouring space, the side of this space it lies on, the side of it facing this space).
NEIGHBOURS: tuple[tuple[tuple[int, str, str], ...], ...] = tuple(
    tuple(
        (8 * (r + dr) + c + dc, side, _OPPOSITE[side])
        for side, dr, dc in (("N", -1, 0), ("E", 0, 1), ("S", 1, 0), ("W", 0, -1))
        if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE
    )
    for r in range(SIZE)
    for c in range(SIZE)
)


def space_of(row: int, col: int) -> int:
    return SIZE * row + col


def place_of(space: int) -> tuple[int, int]:
    return divmod(space, SIZE)


def group_at(board: Sequence[int], space: int) -> list[int]:
    """The spaces of the group holding `space`: tiles of its face joined orthogonally, walls cutting joins."""
    here = board[space]
    if not here:
        return []
    face = FACE_OF[here]
    found = [space]
    seen = {space}
    for at in found:
        wall_here = WALL_OF[board[at]]
        for other, side, facing in NEIGHBOURS[at]:
            if other in seen:
                continue
            there = board[other]
            # Joined: the group's face and no wall between the two.
            if there and FACE_OF[there] == face and wall_here != side and WALL_OF[there] != facing:
                seen.add(other)
                found.append(other)
    return found


def collected_by(board: Sequence[int], swapped: Sequence[int]) -> list[int]:
    """The spaces collected when the tiles at `swapped` have just been swapped on `board`: every group of
    GROUP or more holding one of them, in reading order."""
    taken: set[int] = set()
    for space in swapped:
        if space not in taken:
            group = group_at(board, space)
            if len(group) >= GROUP:
                taken.update(group)
    return sorted(taken)


def swaps_on(board: Sequence[int]) -> tuple[Swap, ...]:
    """Every legal swap on `board`, in reading order of the first space, then the second. Boards with the
    same shapes in the same spaces have the same swaps, so the answer is kept per shape layout."""
    return _swaps(_layout_of(board))


def _layout_of(board: Sequence[int]) -> bytes:
    """The shape code (0 empty) of each space's tile."""
    return bytes(board).translate(_SHAPE_CODES)


# A few hundred layouts cover a game and a search bot's samples of it; each list is ~5 KB.
@lru_cache(maxsize=1024)
def _swaps(shapes: bytes) -> tuple[Swap, ...]:
    """Every legal swap on a board whose spaces hold tiles of these shape codes (0 empty), in reading order."""
    codes = np.frombuffer(shapes, dtype=np.uint8)
    first = codes[_PAIR_FIRST]
    return tuple(_SWAP_ARRAY[(first == codes[_PAIR_SECOND]) & (first != 0)].tolist())


def like_bonus(collected: Sequence[Sequence[int]], like_ties: str) -> list[list[str]]:
    """The likes whose bonus each seat earns: the most tiles of that like (at least one); tied seats all
    earn it with like_ties "shared", none of them with "none"."""
    won: list[list[str]] = [[] for _ in collected]
    for like in LIKES:
        counts = [sum(LIKE_OF[t] == like for t in tiles) for tiles in collected]
        best = max(counts)
        leaders = [seat for seat, count in enumerate(counts) if count == best]
        if best == 0 or (len(leaders) > 1 and like_ties == "none"):
            continue
        for seat in leaders:
            won[seat].append(like)
    return won


# ----- actions -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """Swap the tiles at two spaces (written with the earlier space in reading order first)."""

    TEMPLATE: ClassVar[str] = "swap {row_a},{col_a} with {row_b},{col_b}"
    row_a: int
    col_a: int
    row_b: int
    col_b: int


# Every swap there can be, made once, in reading order of its first space, then its second (listing legal
# swaps then costs no new objects), with the two spaces of each as arrays for comparing shapes at once.
_PAIRS = [(first, second) for first in range(SPACES) for second in range(first + 1, SPACES)]
ALL_SWAPS: tuple[Swap, ...] = tuple(Swap(*divmod(first, SIZE), *divmod(second, SIZE)) for first, second in _PAIRS)
_PAIR_FIRST = np.array([first for first, _ in _PAIRS], dtype=np.intp)
_PAIR_SECOND = np.array([second for _, second in _PAIRS], dtype=np.intp)
_SWAP_ARRAY = np.empty(len(ALL_SWAPS), dtype=object)
_SWAP_ARRAY[:] = ALL_SWAPS
_SPACES_OF = {id(swap): pair for swap, pair in zip(ALL_SWAPS, _PAIRS, strict=True)}  # a listed swap's two spaces


class LayoutSwaps(ActionsInParts):
    """The legal swaps of one layout of shapes, handed out as the tuple kept for it. Whether a chosen swap is
    one of them is asked of the shapes at its two spaces: a few lookups, where a walk through ~650 swaps to
    find the object would cost the checked path a third of its time."""

    __slots__ = ("shapes",)

    def __init__(self, shapes: bytes) -> None:
        super().__init__([_swaps(shapes)])
        self.shapes = shapes

    def holds(self, action: Action) -> bool:
        spaces = _SPACES_OF.get(id(action))
        if spaces is None:
            return False
        shape = self.shapes[spaces[0]]
        return shape != 0 and shape == self.shapes[spaces[1]]


@dataclass(frozen=True, slots=True)
class Pass(Action):
    TEMPLATE: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Tiles drawn from the supply into the empty spaces, in reading order (chance: the supply's order is
    hidden). One event fills every hole: the whole deal at the start, or a turn's refill."""

    TEMPLATE: ClassVar[str] = "draw tiles {tiles}"
    CHANCE: ClassVar[bool] = True
    tiles: tuple[int, ...]


@dataclass(slots=True)  # made for every refill: not frozen, which makes it cheaper to build
class SupplyDraw(ChanceNode):
    """`holes` empty spaces get tiles from `supply`, every ordered choice of distinct tiles equally likely
    (all of the supply when it holds fewer)."""

    holes: int
    supply: tuple[int, ...]

    def draw(self, rng: random.Random) -> Action:
        return Draw(tuple(rng.sample(self.supply, min(self.holes, len(self.supply)))))

    def allows(self, event: Action) -> bool:
        if not isinstance(event, Draw) or len(event.tiles) != min(self.holes, len(self.supply)):
            return False
        return len(set(event.tiles)) == len(event.tiles) and set(event.tiles) <= set(self.supply)


# ----- the state -----------------------------------------------------------------------------------


class SwapClops(State):
    """A game of Swap Clops for 2-4 players."""

    CODEC: ClassVar[ActionCodec] = ActionCodec(Swap, Pass, Draw)
    # A snapshot copies the board, the supply and the collected tiles: taken less often than the engine's
    # default, it costs random playouts less, while an undo replays at most 63 entries (a few ms).
    CHECKPOINT_EVERY: ClassVar[int] = 64

    def _setup(self) -> None:
        n = self.players
        self.board = [0] * SPACES
        self.supply = list(range(1, TILE_COUNT + 1))  # sorted: which tiles, never their order
        self.collected: list[list[int]] = [[] for _ in range(n)]
        self.seat = 0
        self.round = 1
        self.phase = "deal"  # deal, play, refill, over
        self.triggered = False  # the end is triggered: this round is the last
        self.passes = 0  # passes in a row
        self.ended = ""
        # The last turn, for pictures and words: its swap (two spaces), what it collected, what it refilled.
        self.last_swap: tuple[int, ...] = ()
        self.last_collected: list[int] = []
        self.last_refilled: list[int] = []
        start = self.config.start_fields()
        if start is not None:
            _begin_at(self, start)

    # ----- chance: the deal and the refill -------------------------------------------------------------

    def _chance(self) -> ChanceNode | None:
        if self.phase not in ("deal", "refill"):
            return None
        return SupplyDraw(self.board.count(0), tuple(self.supply))

    def _place_drawn(self, draw: Draw) -> None:
        board = self.board
        holes = [space for space in range(SPACES) if not board[space]][: len(draw.tiles)]
        for space, number in zip(holes, draw.tiles, strict=True):
            board[space] = number
        drawn = set(draw.tiles)
        self.supply = [number for number in self.supply if number not in drawn]
        if self.phase == "deal":
            self.phase = "play"
        else:
            self.last_refilled = holes
            self._end_turn(refilling=True)

    # ----- the turn -----------------------------------------------------------------------------------

    def to_move(self) -> tuple[int, ...]:
        return (self.seat,) if self.phase == "play" else ()

    def tile_at(self, row: int, col: int) -> int:
        """The tile number at a space (0: empty)."""
        return self.board[space_of(row, col)]

    def swaps(self) -> list[Swap]:
        """Every swap the board allows now: two tiles of the same shape, any distance apart."""
        return list(swaps_on(self.board))

    def _legal(self, player: int) -> list[Action] | LayoutSwaps:
        # The board's ~650 swaps are handed out as the kept tuple itself: a list of them would be made and
        # freed for every move, touching every swap object twice.
        swaps = LayoutSwaps(_layout_of(self.board))
        return swaps if swaps else [Pass()]

    def outcome_of(self, swap: Swap) -> list[int]:
        """The spaces a swap would collect (none changes here)."""
        board = list(self.board)
        first, second = space_of(swap.row_a, swap.col_a), space_of(swap.row_b, swap.col_b)
        board[first], board[second] = board[second], board[first]
        return collected_by(board, (first, second))

    def _normalize(self, player: int, action: Action) -> Action:
        # A swap named from its later space first is the same swap.
        if isinstance(action, Swap) and (
            action.row_b < action.row_a or (action.row_b == action.row_a and action.col_b < action.col_a)
        ):
            return Swap(action.row_b, action.col_b, action.row_a, action.col_a)
        return action

    def _is_legal(self, player: int, action: Action) -> bool:
        # The same answer as looking the action up in the ~650 legal swaps, without listing them.
        if isinstance(action, Swap):
            row_a, col_a, row_b, col_b = action.row_a, action.col_a, action.row_b, action.col_b
            if not (0 <= row_a < SIZE and 0 <= col_a < SIZE and 0 <= row_b < SIZE and 0 <= col_b < SIZE):
                return False
            first, second = SIZE * row_a + col_a, SIZE * row_b + col_b
            shape = SHAPE_OF[self.board[first]]
            return first < second and shape != "" and shape == SHAPE_OF[self.board[second]]
        return isinstance(action, Pass) and not swaps_on(self.board)

    def _apply(self, player: int, action: Action) -> None:
        if player == CHANCE:
            assert isinstance(action, Draw)
            self._place_drawn(action)
            return
        self.last_collected = []
        self.last_refilled = []
        if isinstance(action, Pass):
            self.last_swap = ()
            self.passes += 1
            self._end_turn(refilling=False)
            return
        assert isinstance(action, Swap)
        self.passes = 0
        first, second = space_of(action.row_a, action.col_a), space_of(action.row_b, action.col_b)
        board = self.board
        board[first], board[second] = board[second], board[first]
        self.last_swap = (first, second)
        taken = collected_by(board, (first, second))
        self.last_collected = taken
        for space in taken:
            self.collected[player].append(board[space])
            board[space] = 0
        if 0 in board:
            if self.supply:
                self.phase = "refill"
            else:
                self._end_turn(refilling=True)
        else:
            self._end_turn(refilling=False)

    def _end_turn(self, refilling: bool) -> None:
        """After a turn and its refill: the end's trigger, the round, the next seat."""
        self.phase = "play"
        if refilling and not self.supply:
            self.triggered = True
        last_of_round = self.seat == self.players - 1
        if self.passes >= self.players:
            self.ended = NOBODY_CAN_SWAP
        elif last_of_round and self.triggered:
            self.ended = SUPPLY_OUT
        elif last_of_round and self.round >= self.option("round_limit"):
            self.ended = ROUND_LIMIT
        if self.ended:
            self.phase = "over"
            return
        if last_of_round:
            self.round += 1
        self.seat = (self.seat + 1) % self.players

    def _why_illegal(self, player: int, action: Action) -> tuple[str, str]:
        from .explain import why_illegal

        return why_illegal(self, player, action)

    def _sample_hidden(self, rng: random.Random) -> None:
        # Nothing on the table is hidden: only the supply's order, which the fresh seed draws anew.
        return None

    # ----- scores ----------------------------------------------------------------------------------

    def likes_won(self) -> list[list[str]]:
        """The likes each seat would earn the bonus for if the game ended now."""
        return like_bonus(self.collected, self.option("like_ties"))

    def scores(self) -> list[int]:
        """1 per collected tile, LIKE_BONUS per like won."""
        return [len(tiles) + LIKE_BONUS * len(won) for tiles, won in zip(self.collected, self.likes_won(), strict=True)]

    def outcome(self) -> Outcome | None:
        if not self.ended:
            return None
        rounds = "1 round" if self.round == 1 else f"{self.round} rounds"
        return Outcome.ranked(self.scores(), self.ended, f"after {rounds}")

    def __str__(self) -> str:
        from .explain import render

        return render(self)

    def _repr_svg_(self) -> str:
        # Drawing is imported only when a picture is asked for: the rules know no screen.
        from cliplab.ui.svg import render

        from .board import describe

        return render(describe(self))


def _max_length(players: int, options: Mapping[str, OptionValue]) -> int:
    limit = options["round_limit"]
    assert isinstance(limit, int)
    return TILE_COUNT + players * limit


SPEC = register(
    GameSpec(
        name="swap_clops",
        title="Swap Clops",
        summary="Swap two clops of one shape anywhere on the board and collect groups of four or more faces.",
        min_players=2,
        max_players=4,
        default_players=2,
        options=(
            Option(
                "like_ties",
                str,
                "shared",
                "players tied for the most of a like: shared (each gets the 5 points) or none (nobody does)",
                choices=("shared", "none"),
            ),
            round_limit(DEFAULT_ROUND_LIMIT),
        ),
        state_class=SwapClops,
        max_length=_max_length,
        chance=True,
    )
)


# ----- start positions -----------------------------------------------------------------------------

POSITION_FIELDS = ("board", "supply", "collected", "seat", "round", "triggered", "passes")
FACE_LETTERS = {"A": "angry", "W": "worried", "S": "serious", "B": "bleeeh", "H": "happy"}
SHAPE_LETTERS = {"c": "circle", "s": "square", "t": "triangle"}
EMPTY = ".."


def layout(rows: Sequence[str], taken: Sequence[int] = ()) -> list[list[int]]:
    """A board of tile numbers from a sketch: one text line per row of 8 codes separated by spaces.

    A code is a shape letter (c circle, s square, t triangle), a face letter (A angry, W worried,
    S serious, B bleeeh, H happy) and optionally a wall side (n, e, s, w); ".." is an empty space. Each
    code takes the lowest-numbered unused tile that fits; tiles in `taken` are not used.

    >>> layout(["cA cA sW ..", "tHn"] + [""] * 6)[0][:4]
    [1, 2, 31, 0]
    """
    used = set(taken)
    board = []
    for r, line in enumerate(items(rows, "layout", SIZE)):
        codes = str(line).split()
        if len(codes) > SIZE:
            raise PositionError(f"layout[{r}]", f"a row has {SIZE} spaces, not {len(codes)}")
        row = []
        for c, code in enumerate(codes + [EMPTY] * (SIZE - len(codes))):
            row.append(0 if code == EMPTY else _pick(code, used, f"layout[{r}][{c}]"))
        board.append(row)
    return board


def quiet_fill(board: Sequence[Sequence[int]]) -> tuple[list[list[int]], list[int]]:
    """`board` with its empty spaces filled in reading order by clops that join nothing (no angry ones,
    none of a neighbour's face), and the tiles left over for the supply: a sketch made playable."""
    filled = [list(row) for row in board]
    used = {number for row in filled for number in row if number}
    spare = [t for t in _TILES if t.number not in used and t.face != "angry"]
    for space in range(SPACES):
        r, c = place_of(space)
        if filled[r][c]:
            continue
        near = {FACE_OF[filled[o // SIZE][o % SIZE]] for o, *_ in NEIGHBOURS[space] if filled[o // SIZE][o % SIZE]}
        allowed = Counter(t.face for t in spare if t.face not in near)
        face = allowed.most_common(1)[0][0]
        chosen = next(t for t in spare if t.face == face)
        spare.remove(chosen)
        filled[r][c] = chosen.number
    on_board = {number for row in filled for number in row}
    return filled, [t.number for t in _TILES if t.number not in on_board]


def _pick(code: str, used: set[int], where: str) -> int:
    shape = SHAPE_LETTERS.get(code[:1])
    face = FACE_LETTERS.get(code[1:2])
    wall = {"": "", "n": "N", "e": "E", "s": "S", "w": "W"}.get(code[2:])
    if shape is None or face is None or wall is None:
        raise PositionError(where, f"{code!r} is not a tile code (shape c/s/t, face A/W/S/B/H, wall n/e/s/w)")
    for candidate in tile_set().tiles:
        fits = (candidate.shape, candidate.face, candidate.wall) == (shape, face, wall)
        if fits and candidate.number not in used:
            used.add(candidate.number)
            return candidate.number
    raise PositionError(where, f"no unused {face} {shape} tile {'with a wall ' + wall if wall else 'without a wall'}")


def position(
    players: int = 2,
    seed: int = 0,
    *,
    board: Sequence[Sequence[int]] | None = None,
    supply: Sequence[int] | None = None,
    collected: Sequence[Sequence[int]] | None = None,
    seat: int = 0,
    round: int = 1,
    triggered: bool = False,
    passes: int = 0,
    **options: Any,
) -> SwapClops:
    """A game of Swap Clops beginning at the position these fields describe (PositionError if none can).

    board      8 rows of 8 tile numbers (1-90), 0 for an empty space (`layout` sketches one); None: the
               ordinary start, the board dealt from the supply by the seed
    supply     the tiles still in the supply (default: every tile not on the board or collected); its order
               is never given: the seed draws each refill
    collected  the tiles each seat has collected so far
    seat       the seat to move; round: the round being played (seat 0 begins every round)
    triggered  whether the end is triggered (the round is then the last; the supply must be empty)
    passes     passes in a row just before this turn
    options    like_ties, round_limit

    An empty space is possible only once the supply is empty. `position_of` reads the fields back.

    Late in a game: five clops left, the supply empty; swapping 0,3 with 0,4 would collect four angry ones:

    >>> game = position(2, board=layout(["cA cA cA cW cA"] + [""] * 7), supply=[], triggered=True)
    >>> game.outcome_of(Swap(0, 3, 0, 4)), len(game.supply)
    ([0, 1, 2, 3], 0)
    """
    config = SPEC.config(players, seed, **options)
    if board is None:
        if (supply, collected, seat, round, triggered, passes) != (None, None, 0, 1, False, 0):
            raise PositionError("board", "a position that sets other fields gives the board too")
        return SwapClops(config)
    fields: dict[str, Any] = {
        "board": [list(row) for row in items(board, "board", SIZE)],
        "supply": None if supply is None else list(supply),
        "collected": [[] for _ in range(players)] if collected is None else [list(t) for t in collected],
        "seat": seat,
        "round": round,
        "triggered": triggered,
        "passes": passes,
    }
    return SwapClops(config.starting_at(fields))


def _begin_at(game: SwapClops, fields: dict[str, Any]) -> None:
    check_fields(fields, POSITION_FIELDS)
    seen: dict[int, str] = {}

    def claim(number: Any, where: str) -> int:
        number = integer(number, where, 1, TILE_COUNT)
        if number in seen:
            raise PositionError(where, f"tile {number} is already {seen[number]}")
        seen[number] = f"at {where}"
        return number

    board = [0] * SPACES
    for r, row in enumerate(items(fields.get("board"), "board", SIZE)):
        for c, number in enumerate(items(row, f"board[{r}]", SIZE)):
            if number != 0:
                board[space_of(r, c)] = claim(number, f"board[{r}][{c}]")
    collected_fields = items(fields.get("collected"), "collected", game.players)
    collected = [
        [claim(number, f"collected[{s}][{k}]") for k, number in enumerate(items(tiles, f"collected[{s}]"))]
        for s, tiles in enumerate(collected_fields)
    ]
    given_supply = fields.get("supply")
    if given_supply is None:
        supply = [number for number in range(1, TILE_COUNT + 1) if number not in seen]
    else:
        supply = sorted(claim(number, f"supply[{k}]") for k, number in enumerate(items(given_supply, "supply")))
    triggered = boolean(fields.get("triggered"), "triggered")
    if supply and 0 in board:
        r, c = place_of(board.index(0))
        raise PositionError(f"board[{r}][{c}]", "a space is empty while the supply holds tiles: the refill fills it")
    if triggered and supply:
        raise PositionError("triggered", "the end is triggered only once the supply is empty")
    game.board = board
    game.supply = supply
    game.collected = collected
    game.seat = integer(fields.get("seat"), "seat", 0, game.players - 1)
    game.round = integer(fields.get("round"), "round", 1, game.option("round_limit"))
    game.triggered = triggered
    game.passes = integer(fields.get("passes"), "passes", 0, game.players - 1)
    game.phase = "play"


def position_of(game: SwapClops) -> dict[str, Any]:
    """The position builder's fields of a game as it stands now (between turns)."""
    return {
        "board": [[game.board[space_of(r, c)] for c in range(SIZE)] for r in range(SIZE)],
        "supply": list(game.supply),
        "collected": [list(tiles) for tiles in game.collected],
        "seat": game.seat,
        "round": game.round,
        "triggered": game.triggered,
        "passes": game.passes,
    }


__all__ = [
    "FACES",
    "LIKES",
    "SHAPES",
    "SPEC",
    "Draw",
    "Pass",
    "Swap",
    "SwapClops",
    "layout",
    "position",
    "position_of",
    "tile",
]
