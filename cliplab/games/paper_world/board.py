"""Paper World drawn as board descriptions: the centre piles, a hand, and each player's landscape.

The centre is one row of five cells, each a pile's top card (its value, its colour with that colour's
glyph, the pile's size in words, a badge for the scissors logo). A hand is one row of cards, drawn only for
a seat that may see it. A landscape is a 5 x 5 window around the first stack (landscape cell (r, c) is
drawn at (r + 2, c + 2)), so the 3 x 3 the landscape ends up in always fits whichever way it grows; each
stack shows its top card and its height; the stack under the scissors token is emphasised.
"""

from __future__ import annotations

from cliplab.ui.scene import Board, Cell, Kind, Mark, Scene

from .rules import BURIED, HAND_LIMIT, PaperWorld, card

# The game's colours are Okabe-Ito palette keys of the same names (each with its glyph).
FILL = {"yellow": "yellow", "blue": "blue", "green": "green", "black": "black"}
WINDOW = 5
OFFSET = 2  # landscape (0, 0) is drawn at cell (2, 2)
SCISSORS_GLYPH = "scissors"
# 34-pixel cards: four players' landscapes and a hand over its limit fit 1280x720 beside the table.
SCALE = 0.85


def card_cell(at: tuple[int, int], number: int, words: str, emphasis: bool = False) -> Cell:
    shown = card(number)
    return Cell(
        at,
        fill=FILL[shown.colour],
        label=f"{shown}{words}",
        text=str(shown.value),
        emphasis=emphasis,
        badge=SCISSORS_GLYPH if shown.scissors else "",
    )


def centre_board(game: PaperWorld, marks: tuple[Mark, ...] = (), clickable: tuple[Kind, ...] = ()) -> Board:
    cells = []
    for pile, top in enumerate(game.tops()):
        size = len(game.piles[pile])
        if top is None or top == BURIED:
            cells.append(Cell((0, pile), fill="empty", glyph="", label=f"pile {pile + 1}: empty"))
        else:
            cells.append(card_cell((0, pile), top, f" on pile {pile + 1}, {size} card{'s' * (size != 1)}"))
    piles = game.piles_left()
    return Board(
        "centre", f"Centre: {piles} pile{'s' * (piles != 1)} left", 1, 5, tuple(cells), marks=marks, clickable=clickable
    )


def hand_board(
    game: PaperWorld,
    seat: int,
    picked: int | None = None,
    marks: tuple[Mark, ...] = (),
    clickable: tuple[Kind, ...] = (),
) -> Board:
    """A seat's hand in card order; drawn only from a view in which the seat's cards show."""
    hand = game.hands[seat]
    cells = tuple(
        card_cell((0, k), number, " in hand" + (", picked" if k == picked else ""), emphasis=k == picked)
        for k, number in enumerate(hand)
    )
    return Board(
        "hand",
        f"Hand: {len(hand)} card{'s' * (len(hand) != 1)} (limit {HAND_LIMIT})",
        1,
        max(HAND_LIMIT, len(hand)),
        cells,
        marks=marks,
        clickable=clickable,
    )


def landscape_board(
    game: PaperWorld, seat: int, marks: tuple[Mark, ...] = (), clickable: tuple[Kind, ...] = ()
) -> Board:
    cells = []
    for (r, c), stack in sorted(game.lands[seat].items()):
        token = game.scissors == (seat, r, c)
        words = f", stack of {len(stack)}" + (", under the scissors token" if token else "")
        # The token lies on a scissors card (the badge): the emphasis and the words mark it.
        cells.append(card_cell((r + OFFSET, c + OFFSET), stack[-1], words, emphasis=token))
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
    return Scene(boards, title="Paper World", status=f"Scores now: {scores}", zoom=SCALE)
