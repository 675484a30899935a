"""Swap Clops drawn as a board description: the 8x8 clops, their walls, and marks for swaps.

A clop is a cell filled with its face's colour, its shape as the glyph, its face's letter as the text and
its like as the badge, so that no trait is told by colour alone; a wall is a thick line on its side.
"""

from __future__ import annotations

from dataclasses import replace

from cliplab.ui.scene import Board, Cell, Edge, Kind, Mark, Preview, Scene

from .content import tile
from .rules import SIZE, SPACES, SwapClops, place_of

# Okabe-Ito stand-ins for the printed colours (white is drawn sky blue: the letter tells it from blue).
FACE_FILLS = {"angry": "vermillion", "worried": "sky", "serious": "blue", "bleeeh": "green", "happy": "yellow"}
FACE_TEXTS = {"angry": "A", "worried": "W", "serious": "S", "bleeeh": "B", "happy": "H"}
LIKE_GLYPHS = {"sunshine": "sun", "apples": "apple", "moon": "moon", "stars": "star", "books": "book"}
SIDE_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}


def wall_points(row: int, col: int, side: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """The lattice points at the ends of a cell's side."""
    return {
        "N": ((row, col), (row, col + 1)),
        "E": ((row, col + 1), (row + 1, col + 1)),
        "S": ((row + 1, col), (row + 1, col + 1)),
        "W": ((row, col), (row + 1, col)),
    }[side]


def tile_words(number: int) -> str:
    found = tile(number)
    walled = f", wall on the {SIDE_WORDS[found.wall]}" if found.wall else ""
    return f"{found.face} {found.shape}, likes {found.like}{walled}"


def clop_cell(at: tuple[int, int], number: int) -> Cell:
    if not number:
        return Cell(at, fill="empty", glyph="", label="empty space")
    found = tile(number)
    return Cell(
        at,
        fill=FACE_FILLS[found.face],
        glyph=found.shape,
        text=FACE_TEXTS[found.face],
        badge=LIKE_GLYPHS[found.like],
        label=tile_words(number),
    )


def describe(
    state: SwapClops,
    marks: tuple[Mark, ...] = (),
    clickable: tuple[Kind, ...] = (),
    previews: tuple[Preview, ...] = (),
    labels: dict[int, str] | None = None,
) -> Scene:
    """The board with `marks` (default: the last swap), taking clicks on `clickable` kinds of place, with
    `previews` shown on hover and `labels` (by space) said after a clop's own words."""
    cells = []
    walls = []
    for space in range(SPACES):
        at = place_of(space)
        number = state.board[space]
        cell = clop_cell(at, number)
        if labels and space in labels:
            cell = replace(cell, label=f"{cell.label}; {labels[space]}")
        cells.append(cell)
        if number and tile(number).wall:
            walls.append(Edge(*wall_points(*at, tile(number).wall), style="wall"))
    if not marks:
        # The last swap, and the spaces its collection emptied and the supply refilled (these flash once).
        marks = tuple(Mark("cell", place_of(space), style="last") for space in state.last_swap)
        marks += tuple(Mark("cell", place_of(space), style="fresh") for space in state.last_refilled)
    board = Board(
        "clops", "The clops", SIZE, SIZE, tuple(cells), tuple(walls), (), marks, clickable=clickable, previews=previews
    )
    # Short enough for four players' scores and the last-round warning to fit the board's width at its scale.
    scores = ", ".join(str(points) for points in state.scores())
    last = " Last round." if state.triggered else ""
    status = f"Round {state.round}, supply {len(state.supply)}. Scores by seat: {scores}.{last}"
    # 48-pixel clops: the board, its status line and the widget's toolbar fit 1280x720 beside the table.
    return Scene((board,), title="Swap Clops", status=status, zoom=1.2)
