"""Paper World drawn as board descriptions: the centre piles, then each player's landscape.

The centre is one row of five cells, each a pile's top card (its value, its colour with that colour's
glyph, the pile's size in words, a badge for the scissors logo). A landscape is a 5 x 5 window around
the first stack (landscape cell (r, c) is drawn at (r + 2, c + 2)), so the 3 x 3 the landscape ends up in
always fits whichever way it grows; each stack shows its top card and its height.
"""

from __future__ import annotations

from cliplab.ui.scene import Board, Cell, Kind, Mark, Scene

from .rules import BURIED, PaperWorld, card

# The game's colours on the Okabe-Ito palette (each with its glyph, so colour is never alone).
FILL = {"yellow": "yellow", "blue": "blue", "green": "green", "black": "black"}
WINDOW = 5
OFFSET = 2  # landscape (0, 0) is drawn at cell (2, 2)


def card_cell(at: tuple[int, int], number: int, words: str) -> Cell:
    shown = card(number)
    return Cell(
        at,
        fill=FILL[shown.colour],
        label=f"{shown}{words}",
        text=str(shown.value),
        badge="cross" if shown.scissors else "",
    )


def centre_board(game: PaperWorld, marks: tuple[Mark, ...] = (), clickable: tuple[Kind, ...] = ()) -> Board:
    cells = []
    for pile, top in enumerate(game.tops()):
        size = len(game.piles[pile])
        if top is None or top == BURIED:
            cells.append(Cell((0, pile), fill="empty", glyph="", label=f"pile {pile}: empty"))
        else:
            cells.append(card_cell((0, pile), top, f" on pile {pile}, {size} card{'s' * (size != 1)}"))
    return Board("centre", "Centre piles", 1, 5, tuple(cells), marks=marks, clickable=clickable)


def landscape_board(
    game: PaperWorld, seat: int, marks: tuple[Mark, ...] = (), clickable: tuple[Kind, ...] = ()
) -> Board:
    cells = []
    for (r, c), stack in sorted(game.lands[seat].items()):
        token = game.scissors is not None and game.scissors == (seat, r, c)
        words = f", stack of {len(stack)}" + (", under the scissors token" if token else "")
        cell = card_cell((r + OFFSET, c + OFFSET), stack[-1], words)
        if token:
            cell = Cell(cell.at, cell.fill, "cross", cell.label, cell.text, True, False, cell.badge)
        cells.append(cell)
    scissors = " (holds the scissors)" if game.holds_scissors(seat) else ""
    return Board(
        f"land-{seat}",
        f"Player {seat}'s landscape{scissors}",
        WINDOW,
        WINDOW,
        tuple(cells),
        marks=marks,
        clickable=clickable,
    )


def describe(game: PaperWorld) -> Scene:
    """The whole table as a still picture: centre and every landscape, scores in the status line."""
    boards = (centre_board(game), *(landscape_board(game, seat) for seat in range(game.players)))
    scores = ", ".join(f"player {seat}: {game.score(seat)}" for seat in range(game.players))
    return Scene(boards, title="Paper World", status=f"Scores now: {scores}")
