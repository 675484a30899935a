"""Tests for cliplab.grid: geometry (cells, points, segments, parts) and polyominoes."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cliplab.grid import (
    DIRECTIONS,
    OPPOSITE,
    PERPENDICULAR,
    TRANSFORMS,
    TRANSFORMS_WITH_FLIPS,
    Cell,
    Segment,
    Shape,
    Transform,
    canonical,
    cells_at_point,
    edge_between,
    neighbours4,
    neighbours8,
    normalize,
    orient,
    orientations,
    parts,
    placements,
    rectangle,
    render,
    segment,
    segment_points,
    step,
)

FAST = settings(max_examples=150, deadline=None)

# Shapes drawn with rows downward, as in render().
MONO = frozenset({(0, 0)})
DOMINO = frozenset({(0, 0), (0, 1)})
I3 = frozenset({(0, 0), (0, 1), (0, 2)})
L3 = frozenset({(0, 0), (1, 0), (1, 1)})
I4 = frozenset({(0, 0), (0, 1), (0, 2), (0, 3)})
O4 = frozenset({(0, 0), (0, 1), (1, 0), (1, 1)})
T4 = frozenset({(0, 0), (0, 1), (0, 2), (1, 1)})
S4 = frozenset({(0, 1), (0, 2), (1, 0), (1, 1)})
Z4 = frozenset({(0, 0), (0, 1), (1, 1), (1, 2)})
L4 = frozenset({(0, 0), (1, 0), (2, 0), (2, 1)})
J4 = frozenset({(0, 1), (1, 1), (2, 1), (2, 0)})
F5 = frozenset({(0, 1), (0, 2), (1, 0), (1, 1), (2, 1)})
X5 = frozenset({(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)})


def all_segments(cells: frozenset[Cell]) -> list[Segment]:
    return sorted({segment(a, b) for a in cells for b in neighbours4(a) if b in cells})


def adjacent_pairs(cells: Iterable[Cell]) -> int:
    cs = frozenset(cells)
    return sum(1 for a in cs for b in neighbours4(a) if b in cs and a < b)


def translate(cells: Iterable[Cell], by: Cell) -> Shape:
    return frozenset((r + by[0], c + by[1]) for r, c in cells)


def reference_parts(cells: frozenset[Cell], cut: set[Segment], links: list[tuple[Cell, Cell]]) -> set[frozenset[Cell]]:
    """Union-find, written independently of parts()."""
    root = {c: c for c in cells}

    def find(c: Cell) -> Cell:
        while root[c] != c:
            c = root[c]
        return c

    joins = [(a, b) for a, b in links if a in cells and b in cells]
    joins += [(a, b) for a, b in all_segments(cells) if (a, b) not in cut]
    for a, b in joins:
        root[find(a)] = find(b)
    groups: dict[Cell, set[Cell]] = {}
    for c in cells:
        groups.setdefault(find(c), set()).add(c)
    return {frozenset(g) for g in groups.values()}


BOARD = rectangle(5, 5)
BOARD_SEGMENTS = all_segments(BOARD)
board_cells = st.sampled_from(sorted(BOARD))


@st.composite
def polyominoes(draw: st.DrawFn, max_size: int = 6) -> Shape:
    """A random connected shape grown one orthogonal neighbour at a time."""
    size = draw(st.integers(1, max_size))
    cells = {(0, 0)}
    while len(cells) < size:
        frontier = sorted({nb for cell in cells for nb in neighbours4(cell)} - cells)
        cells.add(draw(st.sampled_from(frontier)))
    return frozenset(cells)


offsets = st.tuples(st.integers(-6, 6), st.integers(-6, 6))


# ---------------------------------------------------------------- directions and neighbours


def test_directions_opposites_and_perpendiculars() -> None:
    for d, (dr, dc) in DIRECTIONS.items():
        assert DIRECTIONS[OPPOSITE[d]] == (-dr, -dc)
        right, left = PERPENDICULAR[d]
        for p in (right, left):
            pr, pc = DIRECTIONS[p]
            assert pr * dr + pc * dc == 0
        assert OPPOSITE[right] == left
    # Right turn first: heading north, the right hand points east.
    assert PERPENDICULAR["N"] == ("E", "W")
    assert PERPENDICULAR["E"] == ("S", "N")


def test_step_moves_and_returns() -> None:
    assert step((2, 3), "N") == (1, 3)
    assert step((2, 3), "E") == (2, 4)
    for d in DIRECTIONS:
        assert step(step((2, 3), d), OPPOSITE[d]) == (2, 3)


def test_neighbours() -> None:
    n4 = neighbours4((2, 2))
    n8 = neighbours8((2, 2))
    assert n4 == ((1, 2), (2, 3), (3, 2), (2, 1))
    assert len(set(n8)) == 8 and set(n4) <= set(n8)
    assert all(max(abs(r - 2), abs(c - 2)) == 1 for r, c in n8)
    # Unbounded: callers filter.
    assert (-1, 0) in neighbours4((0, 0))


# ---------------------------------------------------------------- segments and points


def test_segment_is_canonical_and_checks_adjacency() -> None:
    assert segment((1, 2), (1, 1)) == ((1, 1), (1, 2)) == segment((1, 1), (1, 2))
    assert segment((2, 0), (1, 0)) == ((1, 0), (2, 0))
    with pytest.raises(ValueError, match=r"\(0, 0\).*\(1, 1\)"):
        segment((0, 0), (1, 1))
    with pytest.raises(ValueError):
        segment((0, 0), (0, 0))


def test_cells_at_point() -> None:
    assert cells_at_point((0, 0)) == ((-1, -1), (-1, 0), (0, -1), (0, 0))
    board = rectangle(3, 3)
    assert [c for c in cells_at_point((0, 0)) if c in board] == [(0, 0)]
    assert [c for c in cells_at_point((3, 3)) if c in board] == [(2, 2)]
    assert [c for c in cells_at_point((0, 2)) if c in board] == [(0, 1), (0, 2)]
    assert all(c in board for c in cells_at_point((1, 1)))


def test_edge_between() -> None:
    # Horizontal edge: cell above, cell below.
    assert edge_between((2, 3), (2, 4)) == ((1, 3), (2, 3))
    # Vertical edge: cell left, cell right.
    assert edge_between((2, 3), (3, 3)) == ((2, 2), (2, 3))
    assert edge_between((3, 3), (2, 3)) == edge_between((2, 3), (3, 3))
    for p, q in [((0, 0), (1, 1)), ((0, 0), (0, 0)), ((0, 0), (0, 2))]:
        with pytest.raises(ValueError):
            edge_between(p, q)


def test_segment_points() -> None:
    assert segment_points(((1, 1), (1, 2))) == ((1, 2), (2, 2))
    assert segment_points(((1, 1), (2, 1))) == ((2, 1), (2, 2))
    with pytest.raises(ValueError):
        segment_points(((1, 2), (1, 1)))  # not canonical
    with pytest.raises(ValueError):
        segment_points(((0, 0), (1, 1)))


def test_edge_between_and_segment_points_round_trip() -> None:
    rows, cols = 4, 5
    for s in all_segments(rectangle(rows, cols)):
        assert edge_between(*segment_points(s)) == s
    points = [(r, c) for r in range(rows + 1) for c in range(cols + 1)]
    for p in points:
        for q in ((p[0], p[1] + 1), (p[0] + 1, p[1])):
            assert segment_points(edge_between(p, q)) == (p, q)


# ---------------------------------------------------------------- parts


def test_rectangle() -> None:
    assert rectangle(2, 3) == {(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)}
    assert rectangle(0, 4) == frozenset()
    with pytest.raises(ValueError):
        rectangle(-1, 2)


def test_parts_uncut_board_is_one_part() -> None:
    assert parts(rectangle(3, 3)) == [rectangle(3, 3)]
    assert parts([]) == []


def test_parts_cut_separates_a_column() -> None:
    # The lattice line from point (0, 2) down to (3, 2) fences off column 2.
    cut = {edge_between((r, 2), (r + 1, 2)) for r in range(3)}
    assert cut == {((r, 1), (r, 2)) for r in range(3)}
    result = parts(rectangle(3, 3), cut)
    assert result == [
        frozenset({(r, c) for r in range(3) for c in (0, 1)}),
        frozenset({(0, 2), (1, 2), (2, 2)}),
    ]
    # Any collection of segments works, not only sets.
    assert parts(rectangle(3, 3), sorted(cut)) == result


def test_parts_incomplete_cut_is_one_part() -> None:
    cut = {((0, 1), (0, 2)), ((1, 1), (1, 2))}  # stops one edge short of the border
    assert parts(rectangle(3, 3), cut) == [rectangle(3, 3)]


def test_parts_separated_cells_and_order() -> None:
    result = parts([(2, 2), (0, 0), (0, 1), (2, 0)])
    assert result == [frozenset({(0, 0), (0, 1)}), frozenset({(2, 0)}), frozenset({(2, 2)})]


def test_parts_links_join_separated_cells() -> None:
    cut = {((r, 1), (r, 2)) for r in range(3)}
    assert len(parts(rectangle(3, 3), cut, links=[((1, 1), (1, 2))])) == 1
    # A link to a cell outside the set is ignored.
    assert len(parts(rectangle(3, 3), cut, links=[((1, 1), (1, 5))])) == 2
    # Links may join cells that are not adjacent at all.
    assert parts([(0, 0), (4, 4)], links=[((0, 0), (4, 4))]) == [frozenset({(0, 0), (4, 4)})]


@FAST
@given(
    cells=st.frozensets(board_cells),
    cut=st.sets(st.sampled_from(BOARD_SEGMENTS)),
    links=st.lists(st.tuples(board_cells, board_cells), max_size=3),
)
def test_parts_properties(cells: frozenset[Cell], cut: set[Segment], links: list[tuple[Cell, Cell]]) -> None:
    result = parts(cells, cut, links)
    assert sum(len(p) for p in result) == len(cells)
    assert frozenset().union(*result) == cells  # with the sum: disjoint and covering
    assert all(p for p in result)
    mins = [min(p) for p in result]
    assert mins == sorted(mins)
    # Each part connected and maximal: same components as an independent union-find.
    assert set(result) == reference_parts(cells, cut, links)


# ---------------------------------------------------------------- transforms and shapes


def test_normalize_and_render() -> None:
    assert normalize([(3, 5), (4, 5), (4, 6)]) == L3
    assert normalize([]) == frozenset()
    assert render(L3) == "#.\n##"
    assert render(translate(T4, (7, -3))) == "###\n.#."
    assert render([]) == ""


def test_transform_apply_and_str() -> None:
    # Clockwise with rows pointing south: east goes south, north goes east.
    assert Transform(1).apply((0, 1)) == (1, 0)
    assert Transform(1).apply((-1, 0)) == (0, 1)
    assert Transform(0, flipped=True).apply((0, 1)) == (0, -1)
    # Mirror first, then turn: east -> west -> north.
    assert Transform(1, flipped=True).apply((0, 1)) == (-1, 0)
    assert str(Transform()) == "identity"
    assert str(Transform(1)) == "rotated 90°"
    assert str(Transform(0, True)) == "flipped"
    assert str(Transform(2, True)) == "flipped, rotated 180°"
    assert len(TRANSFORMS) == 4 and len(set(TRANSFORMS_WITH_FLIPS)) == 8
    with pytest.raises(ValueError):
        Transform(4)


def test_orient() -> None:
    # L3 turned clockwise: "#." / "##" becomes "##" / "#.".
    mapping = orient(L3, Transform(1))
    assert mapping == {(0, 0): (0, 1), (1, 0): (0, 0), (1, 1): (1, 0)}
    assert render(mapping.values()) == "##\n#."


@pytest.mark.parametrize(
    ("name", "shape", "rotations", "with_flips"),
    [
        ("monomino", MONO, 1, 1),
        ("domino", DOMINO, 2, 2),
        ("I-tromino", I3, 2, 2),
        ("L-tromino", L3, 4, 4),
        ("I-tetromino", I4, 2, 2),
        ("square", O4, 1, 1),
        ("T-tetromino", T4, 4, 4),
        ("S-tetromino", S4, 2, 4),
        ("L-tetromino", L4, 4, 8),
        ("F-pentomino", F5, 4, 8),
        ("X-pentomino", X5, 1, 1),
    ],
)
def test_orientation_counts(name: str, shape: Shape, rotations: int, with_flips: int) -> None:
    assert len(orientations(shape)) == rotations, name
    assert len(orientations(shape, allow_flip=True)) == with_flips, name
    first_transform, first_shape = orientations(shape)[0]
    assert first_transform == Transform() and first_shape == normalize(shape)


def test_canonical_chirality() -> None:
    assert canonical(S4) != canonical(Z4)
    assert canonical(S4, allow_flip=True) == canonical(Z4, allow_flip=True)
    assert canonical(L4) != canonical(J4)
    assert canonical(L4, allow_flip=True) == canonical(J4, allow_flip=True)
    assert canonical(translate(T4, (3, 3))) == canonical(T4)
    assert canonical(I4) != canonical(O4)
    assert isinstance(canonical(T4), frozenset)


@FAST
@given(shape=polyominoes())
def test_four_quarter_turns_are_identity(shape: Shape) -> None:
    turned = normalize(shape)
    for _ in range(4):
        turned = normalize(Transform(1).apply(c) for c in turned)
    assert turned == normalize(shape)
    flipped_twice = normalize(Transform(0, True).apply(Transform(0, True).apply(c)) for c in shape)
    assert flipped_twice == normalize(shape)


@FAST
@given(shape=polyominoes(), index=st.integers(0, 7))
def test_orient_preserves_size_and_adjacency(shape: Shape, index: int) -> None:
    mapping = orient(shape, TRANSFORMS_WITH_FLIPS[index])
    assert set(mapping) == shape
    moved = set(mapping.values())
    assert len(moved) == len(shape)
    assert normalize(moved) == moved
    assert adjacent_pairs(moved) == adjacent_pairs(shape)
    # Adjacent squares stay adjacent (a transform is an isometry).
    for a in shape:
        for b in neighbours4(a):
            if b in shape:
                assert mapping[b] in neighbours4(mapping[a])


@FAST
@given(shape=polyominoes(), index=st.integers(0, 7), by=offsets, allow_flip=st.booleans())
def test_canonical_invariance(shape: Shape, index: int, by: Cell, allow_flip: bool) -> None:
    transforms = TRANSFORMS_WITH_FLIPS if allow_flip else TRANSFORMS
    transform = transforms[index % len(transforms)]
    moved = translate((transform.apply(c) for c in shape), by)
    assert canonical(moved, allow_flip) == canonical(shape, allow_flip)
    assert canonical(shape, allow_flip) in {s for _, s in orientations(shape, allow_flip)}


# ---------------------------------------------------------------- placements


def test_placements_monomino_in_2x2() -> None:
    result = placements(MONO, rectangle(2, 2))
    assert [p.cells for p in result] == [frozenset({c}) for c in sorted(rectangle(2, 2))]
    assert len(placements(MONO, rectangle(2, 2), allow_flip=True)) == 4


def test_placements_square_in_2x2_differ_by_mapping() -> None:
    result = placements(O4, rectangle(2, 2))
    assert len(result) == 4
    assert all(p.cells == rectangle(2, 2) for p in result)
    assert len({p.mapping for p in result}) == 4
    assert result[0].transform == Transform() and result[0].offset == (0, 0)
    assert result[0].mapping == tuple((c, c) for c in sorted(O4))
    assert len(placements(O4, rectangle(2, 2), allow_flip=True)) == 8


def test_placements_symmetric_shapes_have_no_duplicate_mappings() -> None:
    # Domino: 4 distinct mappings (two directions, each either way round), 2 spots each.
    assert len(placements(DOMINO, rectangle(2, 2))) == 8
    # Mirroring a domino only repeats mappings already found by turning.
    assert len(placements(DOMINO, rectangle(2, 2), allow_flip=True)) == 8
    assert len(placements(I3, rectangle(1, 3))) == 2
    assert len(placements(I3, rectangle(1, 3), allow_flip=True)) == 2


def test_placements_mirror_of_l_tromino_is_a_new_mapping() -> None:
    rotations = placements(L3, rectangle(2, 2))
    assert len(rotations) == 4
    assert len({p.cells for p in rotations}) == 4
    # The mirror image covers the same cells but swaps the two arms.
    with_flips = placements(L3, rectangle(2, 2), allow_flip=True)
    assert len(with_flips) == 8
    assert len({p.cells for p in with_flips}) == 4


def test_placements_edge_cases() -> None:
    assert placements(I4, rectangle(3, 3)) == []
    assert placements([], rectangle(3, 3)) == []
    target = [(0, 0), (0, 1), (1, 1)]  # a list target works too
    result = placements(L3, target)
    assert [p.cells for p in result] == [frozenset(target)]
    assert placements(L3, target) == result  # deterministic


@FAST
@given(shape=polyominoes(max_size=5), target=st.frozensets(board_cells, min_size=1), allow_flip=st.booleans())
def test_placements_properties(shape: Shape, target: frozenset[Cell], allow_flip: bool) -> None:
    result = placements(shape, target, allow_flip)
    for p in result:
        assert p.cells <= target
        assert len(p.cells) == len(shape)
        assert [s for s, _ in p.mapping] == sorted(shape)
        where = orient(shape, p.transform)
        assert all(t == (where[s][0] + p.offset[0], where[s][1] + p.offset[1]) for s, t in p.mapping)
    # Exactly the brute-force set of mappings, each once.
    expected = set()
    for transform in TRANSFORMS_WITH_FLIPS if allow_flip else TRANSFORMS:
        where = orient(shape, transform)
        for dr in range(-5, 6):
            for dc in range(-5, 6):
                mapping = tuple((s, (where[s][0] + dr, where[s][1] + dc)) for s in sorted(shape))
                if all(t in target for _, t in mapping):
                    expected.add(mapping)
    assert len(result) == len(expected)
    assert {p.mapping for p in result} == expected
