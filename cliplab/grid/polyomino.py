"""Polyominoes: normal forms, rotations and mirror images, and placements on a set of cells.

A shape is a frozenset of cells. Transforms act on raw coordinates; ``normalize`` then
translates the result so that its minimum row and minimum column are 0.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import lru_cache

from cliplab.grid.geometry import Cell

Shape = frozenset[Cell]
_Pairs = tuple[tuple[Cell, Cell], ...]


def normalize(cells: Iterable[Cell]) -> Shape:
    """Translate ``cells`` so that the minimum row and the minimum column are both 0."""
    cs = tuple(cells)
    if not cs:
        return frozenset()
    r0 = min(r for r, _ in cs)
    c0 = min(c for _, c in cs)
    return frozenset((r - r0, c - c0) for r, c in cs)


@dataclass(frozen=True, slots=True)
class Transform:
    """A symmetry of the square grid: an optional left-right mirror, then clockwise quarter turns."""

    turns: int = 0
    flipped: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.turns <= 3:
            raise ValueError(f"turns must be 0..3, got {self.turns}")

    def apply(self, cell: Cell) -> Cell:
        """Transform one cell about the origin (no normalisation)."""
        r, c = cell
        if self.flipped:
            c = -c
        # With rows pointing south, a clockwise quarter turn sends (r, c) to (c, -r).
        t = self.turns
        if t == 0:
            return (r, c)
        if t == 1:
            return (c, -r)
        if t == 2:
            return (-r, -c)
        return (-c, r)

    def __str__(self) -> str:
        words = []
        if self.flipped:
            words.append("flipped")
        if self.turns:
            words.append(f"rotated {90 * self.turns}°")
        return ", ".join(words) or "identity"


TRANSFORMS: tuple[Transform, ...] = tuple(Transform(t) for t in range(4))
TRANSFORMS_WITH_FLIPS: tuple[Transform, ...] = TRANSFORMS + tuple(Transform(t, True) for t in range(4))


def _transforms(allow_flip: bool) -> tuple[Transform, ...]:
    return TRANSFORMS_WITH_FLIPS if allow_flip else TRANSFORMS


def orient(cells: Iterable[Cell], transform: Transform) -> dict[Cell, Cell]:
    """Map each cell to its position in the normalised, transformed shape."""
    moved = [(cell, transform.apply(cell)) for cell in cells]
    if not moved:
        return {}
    r0 = min(m[0] for _, m in moved)
    c0 = min(m[1] for _, m in moved)
    return {cell: (r - r0, c - c0) for cell, (r, c) in moved}


def orientations(shape: Iterable[Cell], allow_flip: bool = False) -> list[tuple[Transform, Shape]]:
    """The distinct normalised shapes reachable by the allowed transforms.

    Each comes with the first transform (in ``TRANSFORMS`` / ``TRANSFORMS_WITH_FLIPS`` order)
    that produces it, so the order is deterministic and starts with the identity.
    """
    cells = tuple(shape)
    seen: set[Shape] = set()
    result: list[tuple[Transform, Shape]] = []
    for transform in _transforms(allow_flip):
        oriented = normalize(transform.apply(cell) for cell in cells)
        if oriented not in seen:
            seen.add(oriented)
            result.append((transform, oriented))
    return result


def canonical(shape: Iterable[Cell], allow_flip: bool = False) -> Shape:
    """A normal form: equal for shapes that match up to translation and the allowed transforms.

    It is the orientation whose sorted cell tuple is lexicographically smallest, returned as a
    frozenset so it can be compared, hashed and used directly as a shape.
    """
    return _canonical(frozenset(shape), allow_flip)


@lru_cache(maxsize=4096)
def _canonical(shape: Shape, allow_flip: bool) -> Shape:
    # Cached: games compare the same few pieces over and over.
    best = min((tuple(sorted(s)) for _, s in orientations(shape, allow_flip)), default=())
    return frozenset(best)


@dataclass(frozen=True, slots=True)
class Placement:
    """One way to put a polyomino on the board.

    ``mapping`` pairs every source cell (sorted) with the target cell it lands on; equivalently
    ``target = orient(shape, transform)[source] + offset``.
    """

    transform: Transform
    offset: Cell
    mapping: tuple[tuple[Cell, Cell], ...]

    @property
    def cells(self) -> frozenset[Cell]:
        """The target cells covered."""
        return frozenset(t for _, t in self.mapping)


@lru_cache(maxsize=1024)
def _distinct_mappings(shape: Shape, allow_flip: bool) -> tuple[tuple[Transform, _Pairs], ...]:
    """Per transform, the normalised source -> position pairs, dropping exact repeats.

    Two transforms that send every source square to the same place (a symmetric shape) would
    only yield duplicate placements; those that merely cover the same cells differently are
    kept, because which square lands where matters once squares carry colours.
    """
    sources = sorted(shape)
    seen: set[_Pairs] = set()
    result: list[tuple[Transform, _Pairs]] = []
    for transform in _transforms(allow_flip):
        where = orient(sources, transform)
        pairs = tuple((s, where[s]) for s in sources)
        if pairs not in seen:
            seen.add(pairs)
            result.append((transform, pairs))
    return tuple(result)


def placements(shape_cells: Iterable[Cell], target: Collection[Cell], allow_flip: bool = False) -> list[Placement]:
    """Every placement of the polyomino with all of its cells inside ``target``.

    Placements with identical mappings are reported once. Order: by transform (as in
    ``TRANSFORMS_WITH_FLIPS``), then by offset.
    """
    shape = frozenset(shape_cells)
    target_set = target if isinstance(target, AbstractSet) else frozenset(target)
    if not shape or len(shape) > len(target_set):
        return []
    ordered_target = sorted(target_set)
    result: list[Placement] = []
    for transform, pairs in _distinct_mappings(shape, allow_flip):
        # Try the first square on every target cell; the offset then fixes all the others.
        # The anchor is fixed per transform, so offsets come out in sorted order.
        ar, ac = pairs[0][1]
        for tr, tc in ordered_target:
            dr = tr - ar
            dc = tc - ac
            if all((r + dr, c + dc) in target_set for _, (r, c) in pairs):
                mapping = tuple((s, (r + dr, c + dc)) for s, (r, c) in pairs)
                result.append(Placement(transform, (dr, dc), mapping))
    return result


def render(cells: Iterable[Cell]) -> str:
    """ASCII picture of the cells' bounding box: '#' for a cell, '.' for a gap; rows joined by newlines."""
    cs = frozenset(cells)
    if not cs:
        return ""
    r0 = min(r for r, _ in cs)
    r1 = max(r for r, _ in cs)
    c0 = min(c for _, c in cs)
    c1 = max(c for _, c in cs)
    return "\n".join("".join("#" if (r, c) in cs else "." for c in range(c0, c1 + 1)) for r in range(r0, r1 + 1))
