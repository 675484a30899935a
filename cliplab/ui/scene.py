"""Board descriptions: what the grid component draws, as plain immutable values.

A Scene holds one or more Boards and a tray of Pieces. Coordinates follow cliplab.grid: a cell is
(row, col); a point is the lattice corner (row, col) at the top-left of cell (row, col); a segment is the
unit lattice edge between two neighbouring points. The same Scene is drawn as static SVG (for
_repr_svg_ and export) and by the widget in the browser, which adds hover, focus and dragging.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

Coord = tuple[int, int]
Kind = Literal["cell", "segment", "point"]
KINDS: tuple[Kind, ...] = ("cell", "segment", "point")

# Okabe-Ito colours, each with the glyph that stands for it where the colour alone can't be told apart.
PALETTE: dict[str, tuple[str, str, str]] = {
    # key: (colour, default glyph, spoken name)
    "orange": ("#E69F00", "triangle", "orange"),
    "sky": ("#56B4E9", "wave", "sky blue"),
    "green": ("#009E73", "tree", "green"),
    "yellow": ("#F0E442", "sun", "yellow"),
    "blue": ("#0072B2", "diamond", "blue"),
    "vermillion": ("#D55E00", "cross", "vermillion"),
    "purple": ("#CC79A7", "person", "reddish purple"),
    "black": ("#000000", "square", "black"),
    # Neutral surfaces: no glyph needed, they are the background of a board.
    "paper": ("#FBF8EF", "", "paper"),
    "ice": ("#EAF4FB", "", "ice"),
    "water": ("#BFD9EA", "", "open water"),
    "empty": ("#D9D9D9", "", "empty"),
}
SEAT_COLOURS = ("blue", "vermillion", "green", "purple")
SEAT_GLYPHS = ("circle", "square", "triangle", "diamond")
SEGMENT_STYLES = ("cut", "crack", "wall", "walkway", "highlight", "bridge", "link")
_SAFE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass(frozen=True, slots=True)
class Cell:
    at: Coord
    fill: str = "paper"
    glyph: str | None = None  # None: the fill's own glyph; "": none
    label: str = ""  # spoken, and shown on hover
    text: str = ""  # a short mark drawn in the cell (a number, a letter)
    emphasis: bool = False
    absent: bool = False  # a hole: not part of the board (cut out, broken off)
    badge: str = ""  # a second, smaller glyph in the bottom-right corner (an icon the square carries)
    vacant: bool = False  # a space still to be filled: a dashed inner outline, told apart by more than colour
    stamp: str = ""  # a glyph on a yellow disc in the top-right corner (a token spent on this space)


@dataclass(frozen=True, slots=True)
class Edge:
    """A drawn segment between two neighbouring lattice points.

    Style "link" is drawn across the segment instead, joining the two cells it separates (a walkway).
    """

    a: Coord
    b: Coord
    style: str = "cut"


@dataclass(frozen=True, slots=True)
class Token:
    """A pawn standing on a point (a penguin on an intersection)."""

    at: Coord
    owner: int
    text: str = ""
    label: str = ""


@dataclass(frozen=True, slots=True)
class Mark:
    """A place highlighted on a board: a legal target, the last move, a ghost preview."""

    kind: Kind
    at: Coord
    to: Coord | None = None  # the second end point of a segment
    # fresh: flashes when drawn; lost: crossed out (a penguin that would fall, a piece that would go)
    style: Literal["target", "last", "ghost", "preview", "fresh", "lost"] = "target"


@dataclass(frozen=True, slots=True)
class Preview:
    """Marks shown only while the pointer or the keyboard focus rests on one clickable place of a board:
    what a click there would do (the clops a swap collects, where a walk lands)."""

    kind: Kind
    at: Coord
    marks: tuple[Mark, ...]
    to: Coord | None = None  # the second end point of a segment
    note: str = ""  # the result in words, shown beside the board while the preview is


@dataclass(frozen=True, slots=True)
class Board:
    id: str
    label: str
    rows: int
    cols: int
    cells: tuple[Cell, ...] = ()
    edges: tuple[Edge, ...] = ()
    tokens: tuple[Token, ...] = ()
    marks: tuple[Mark, ...] = ()
    clickable: tuple[Kind, ...] = ()  # what a click on this board may name
    accepts_pieces: bool = False  # pieces from the tray may be dropped here
    previews: tuple[Preview, ...] = ()  # shown by the widget on hover or focus; hidden in a still picture
    # Numbers along the left and bottom edges: "cells" numbers the rows and columns of cells, "points" the
    # lattice lines (a place cited as "point 2,3" is read off them); "" draws none.
    coordinates: Literal["", "cells", "points"] = ""

    def __post_init__(self) -> None:
        # Ids end up inside element ids and CSS selectors in the browser.
        if not _SAFE_ID.fullmatch(self.id):
            raise ValueError(f"board id {self.id!r}: use letters, digits, '-' and '_' only")


@dataclass(frozen=True, slots=True)
class Piece:
    """A polyomino in the tray: its cells (with their fills) relative to its own corner."""

    id: str
    cells: tuple[Cell, ...]
    label: str = ""

    def __post_init__(self) -> None:
        if not _SAFE_ID.fullmatch(self.id):
            raise ValueError(f"piece id {self.id!r}: use letters, digits, '-' and '_' only")


@dataclass(frozen=True, slots=True)
class Scene:
    boards: tuple[Board, ...]
    pieces: tuple[Piece, ...] = ()
    title: str = ""
    status: str = ""  # one line under the boards: whose turn, what to do
    board_gap: float = 0.6  # space between boards, in cells
    wrap: int = 24  # start a new row of boards past this width, in cells
    # The size relative to 40 pixels a cell. A still picture shrinks to fit its container; the widget keeps
    # this scale (times the viewer's own zoom), so squares keep their size whatever is beside the board.
    zoom: float = 1.0
    tray_label: str = "Pieces"  # the heading over the tray of pieces
    status_gap: float = 0.55  # from the last row of boards (or the tray) down to the status line, in cells
    extra: dict[str, Any] = field(default_factory=dict)

    def board(self, board_id: str) -> Board:
        for board in self.boards:
            if board.id == board_id:
                return board
        raise KeyError(board_id)


def spoken_cell(cell: Cell) -> str:
    """What a screen reader says for a cell: where it is, then what it holds."""
    where = f"row {cell.at[0] + 1}, column {cell.at[1] + 1}"
    if cell.absent:
        return f"{where}: gone"
    what = cell.label or PALETTE.get(cell.fill, ("", "", cell.fill))[2]
    return f"{where}: {what}" if what else where
