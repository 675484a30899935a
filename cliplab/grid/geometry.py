"""Square-grid geometry shared by the grid games: cells, lattice points, segments and parts.

Conventions:

- A ``Cell`` is ``(row, col)``; rows grow southward, columns eastward.
- A ``Point`` is a lattice point ``(row, col)``: the top-left corner of cell ``(row, col)``.
  A board of R x C cells has points ``(0..R, 0..C)``.
- A ``Segment`` is the side shared by two orthogonally adjacent cells, stored as the pair with
  the smaller cell first, so equal sides compare and hash equal. Cuts, cracks and walls are
  sets of segments.

Nothing here knows the board size: neighbour functions return cells off the board too, and
callers filter with their own cell set (usually a frozenset, so membership is O(1)).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from collections.abc import Set as AbstractSet
from functools import lru_cache

Cell = tuple[int, int]
Point = tuple[int, int]
Segment = tuple[Cell, Cell]

DIRECTIONS: dict[str, tuple[int, int]] = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
OPPOSITE: dict[str, str] = {"N": "S", "E": "W", "S": "N", "W": "E"}
# Order is (right turn, left turn) as seen by something heading in the key direction.
PERPENDICULAR: dict[str, tuple[str, str]] = {
    "N": ("E", "W"),
    "E": ("S", "N"),
    "S": ("W", "E"),
    "W": ("N", "S"),
}


def segment(a: Cell, b: Cell) -> Segment:
    """The canonical segment between two orthogonally adjacent cells (smaller cell first)."""
    if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
        raise ValueError(f"cells {a} and {b} are not orthogonally adjacent")
    return (a, b) if a < b else (b, a)


def neighbours4(cell: Cell) -> tuple[Cell, ...]:
    """Orthogonal neighbours in N, E, S, W order (unbounded)."""
    r, c = cell
    return ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1))


def neighbours8(cell: Cell) -> tuple[Cell, ...]:
    """All eight neighbours clockwise from N: N, NE, E, SE, S, SW, W, NW (unbounded)."""
    r, c = cell
    return (
        (r - 1, c),
        (r - 1, c + 1),
        (r, c + 1),
        (r + 1, c + 1),
        (r + 1, c),
        (r + 1, c - 1),
        (r, c - 1),
        (r - 1, c - 1),
    )


def step(p: tuple[int, int], direction: str) -> tuple[int, int]:
    """Move a cell or a point one unit in ``direction`` ("N", "E", "S" or "W")."""
    dr, dc = DIRECTIONS[direction]
    return (p[0] + dr, p[1] + dc)


def cells_at_point(p: Point) -> tuple[Cell, Cell, Cell, Cell]:
    """The four cells that have ``p`` as a corner, in NW, NE, SW, SE order (unbounded)."""
    r, c = p
    return ((r - 1, c - 1), (r - 1, c), (r, c - 1), (r, c))


def edge_between(p: Point, q: Point) -> Segment:
    """The segment separated by the unit lattice edge from ``p`` to ``q`` (either order)."""
    if q < p:
        p, q = q, p
    r, c = p
    if q == (r, c + 1):
        # Horizontal edge: the cell above it and the cell below it.
        return ((r - 1, c), (r, c))
    if q == (r + 1, c):
        # Vertical edge: the cell to its left and the cell to its right.
        return ((r, c - 1), (r, c))
    raise ValueError(f"points {p} and {q} are not one unit apart")


def segment_points(s: Segment) -> tuple[Point, Point]:
    """The two end points (smaller first) of the lattice edge that forms segment ``s``."""
    a, b = s
    r, c = a
    if b == (r, c + 1):
        # Side by side: the shared side is the vertical edge on the east of ``a``.
        return ((r, c + 1), (r + 1, c + 1))
    if b == (r + 1, c):
        # One above the other: the shared side is the horizontal edge on the south of ``a``.
        return ((r + 1, c), (r + 1, c + 1))
    raise ValueError(f"{s!r} is not a canonical segment (adjacent cells, smaller first)")


def parts(
    cells: Iterable[Cell],
    cut: Collection[Segment] = (),
    links: Iterable[tuple[Cell, Cell]] = (),
) -> list[frozenset[Cell]]:
    """Connected components of ``cells``, sorted by the smallest cell of each part.

    Two cells are joined when they are orthogonally adjacent and their segment is not in
    ``cut``, or when they form one of the ``links`` pairs (a link only counts if both of its
    cells are in ``cells``).
    """
    cell_set = cells if isinstance(cells, AbstractSet) else frozenset(cells)
    # Segment lookups must be O(1); reuse the caller's set rather than copying it.
    cut_set = cut if isinstance(cut, AbstractSet) else frozenset(cut)
    extra: dict[Cell, list[Cell]] = {}
    for a, b in links:
        if a in cell_set and b in cell_set:
            extra.setdefault(a, []).append(b)
            extra.setdefault(b, []).append(a)

    seen: set[Cell] = set()
    result: list[frozenset[Cell]] = []
    # Seeding in sorted order makes each new part's seed its smallest cell, so the output is
    # already in the promised order.
    for start in sorted(cell_set):
        if start in seen:
            continue
        seen.add(start)
        part = [start]
        stack = [start]
        while stack:
            cell = stack.pop()
            r, c = cell
            for nb in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)):
                if nb in seen or nb not in cell_set:
                    continue
                if cut_set and ((nb, cell) if nb < cell else (cell, nb)) in cut_set:
                    continue
                seen.add(nb)
                part.append(nb)
                stack.append(nb)
            if extra:
                for nb in extra.get(cell, ()):
                    if nb not in seen:
                        seen.add(nb)
                        part.append(nb)
                        stack.append(nb)
        result.append(frozenset(part))
    return result


@lru_cache(maxsize=64)
def rectangle(rows: int, cols: int) -> frozenset[Cell]:
    """All cells of a ``rows`` x ``cols`` board (cached: boards are rebuilt often, sizes are few)."""
    if rows < 0 or cols < 0:
        raise ValueError(f"board size must be non-negative, got {rows} x {cols}")
    return frozenset((r, c) for r in range(rows) for c in range(cols))
