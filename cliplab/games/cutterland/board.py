"""Cutterland drawn as board descriptions: the cards in hand or on the table, and each kingdom.

A cell is filled with its terrain's colour (meadow green with a tree, wasteland yellow with a sun, water
sky blue with a wave), so no terrain is told by colour alone; a monster is its letter, a token icon or a
placed tower a badge. Cuts are lines between cells, walls thick lines, a bridge the two railings of the
position it spans. A kingdom is unbounded: its board is a window round its cells (`Window`), with room
for a piece to be joined on any side while one is being joined.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from cliplab.grid import segment_points
from cliplab.ui.scene import PALETTE, Board, Cell, Edge, Kind, Mark, Preview, Scene

from .content import CARD_COLS, CARD_ROWS, MONSTERS, TERRAINS, TOKENS, card
from .rules import Cutterland, HuntStep, Pair, piece_cells

Coord = tuple[int, int]
FILLS = {"M": "green", "S": "yellow", "W": "sky"}
# While a card is being cut each piece has its own fill (none a terrain's); the terrain stays as the glyph.
PIECE_FILLS = ("orange", "blue", "vermillion", "purple", "black")
JOIN_ROOM = 4  # a piece's longest side: the room left round a kingdom while a piece is joined
EATEN_MARK = "\u00d7"  # a multiplication sign before the eaten monster's letter


@dataclass(frozen=True)
class Window:
    """The part of an unbounded kingdom a board shows: kingdom cell (r, c) is board cell (r - top, c - left)."""

    top: int
    left: int
    rows: int
    cols: int

    def board_cell(self, cell: Coord) -> Coord:
        return (cell[0] - self.top, cell[1] - self.left)

    def kingdom_cell(self, at: Coord) -> Coord:
        return (at[0] + self.top, at[1] + self.left)


def window(game: Cutterland, seat: int) -> Window:
    """The window round `seat`'s kingdom: one cell of room, or room for any piece while one is joined."""
    cells = game.kingdoms[seat]
    joining = game.phase == "join" and game.to_move() == (seat,)
    if not cells:
        return Window(0, 0, JOIN_ROOM, JOIN_ROOM) if joining else Window(0, 0, 1, 1)
    room = JOIN_ROOM if joining else 1
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return Window(
        min(rows) - room, min(cols) - room, max(rows) - min(rows) + 1 + 2 * room, max(cols) - min(cols) + 1 + 2 * room
    )


def code_words(code: str) -> str:
    terrain, thing = code[0], code[1]
    words = TERRAINS[terrain]
    if thing in MONSTERS:
        return f"{words} with a {MONSTERS[thing]}"
    if thing in TOKENS:
        return f"{words} with a {TOKENS[thing]} icon"
    return words


def land_cell(at: Coord, code: str, towered: bool = False, eaten: str = "") -> Cell:
    """One cell of land: terrain fill, monster letter, token icon or tower badge; `eaten` says by whom."""
    terrain, thing = code[0], code[1]
    text = thing if thing in MONSTERS else ""
    badge = TOKENS.get(thing, "tower" if towered else "")
    label = code_words(code) + (", in a tower" if towered else "")
    if eaten:
        text, label = EATEN_MARK + thing, f"{label}, eaten by {eaten}"
    return Cell(at, fill=FILLS[terrain], text=text, badge=badge, label=label)


def wall_edge(wall: Pair, shift: Window | None = None) -> Edge:
    a, b = wall if shift is None else (shift.board_cell(wall[0]), shift.board_cell(wall[1]))
    return Edge(*segment_points((a, b)), style="wall")


def bridge_edges(bridge: Pair, shift: Window) -> list[Edge]:
    """The two railings of the position a bridge spans (its sides along the bridge)."""
    (r1, c1), (r2, c2) = (shift.board_cell(end) for end in bridge)
    mr, mc = (r1 + r2) // 2, (c1 + c2) // 2
    if r1 == r2:
        sides = [((mr, mc), (mr, mc + 1)), ((mr + 1, mc), (mr + 1, mc + 1))]
    else:
        sides = [((mr, mc), (mr + 1, mc)), ((mr, mc + 1), (mr + 1, mc + 1))]
    return [Edge(a, b, style="bridge") for a, b in sides]


def eaten_in(steps: Iterable[HuntStep], seat: int) -> dict[Coord, str]:
    """The monsters of `seat`'s kingdom eaten in these steps of the hunt, each by whom."""
    return {
        prey: "a kraken" if step.kind == "kraken" else f"the dragon at {step.hunter[0]},{step.hunter[1]}"
        for step in steps
        if step.seat == seat
        for prey in step.prey
    }


def eaten_by(game: Cutterland, seat: int) -> dict[Coord, str]:
    return eaten_in(game.hunt_steps(), seat)


def kingdom_board(
    game: Cutterland,
    seat: int,
    marks: Iterable[Mark] = (),
    clickable: tuple[Kind, ...] = (),
    previews: tuple[Preview, ...] = (),
    accepts_pieces: bool = False,
    eaten: Mapping[Coord, str] | None = None,
) -> Board:
    """`seat`'s kingdom; the monsters eaten are crossed out (`eaten`, each by whom: by default, all that the
    hunt has eaten so far)."""
    shift = window(game, seat)
    kingdom = game.kingdoms[seat]
    if eaten is None:
        eaten = eaten_by(game, seat)
    cells = []
    for r in range(shift.rows):
        for c in range(shift.cols):
            spot = shift.kingdom_cell((r, c))
            if spot in kingdom:
                cells.append(land_cell((r, c), kingdom[spot], spot in game.towers[seat], eaten.get(spot, "")))
            else:
                cells.append(Cell((r, c), fill="paper", glyph="", label=f"no land ({spot[0]},{spot[1]})"))
    edges = [wall_edge(wall, shift) for wall in sorted(game.walls[seat])]
    for bridge in sorted(game.bridges[seat]):
        edges += bridge_edges(bridge, shift)
    return Board(
        f"kingdom-{seat}",
        f"Kingdom of player {seat}",
        shift.rows,
        shift.cols,
        tuple(cells),
        tuple(edges),
        (),
        tuple(marks),
        clickable=clickable,
        accepts_pieces=accepts_pieces,
        previews=previews,
    )


def cut_edges(labels: tuple[int, ...], gone: Collection[int] = ()) -> list[Edge]:
    """The lines between cells of different pieces of a cut card (not between two pieces taken away)."""
    found = []
    for r in range(CARD_ROWS):
        for c in range(CARD_COLS):
            for near in ((r, c + 1), (r + 1, c)):
                if near[0] >= CARD_ROWS or near[1] >= CARD_COLS:
                    continue
                here, there = labels[r * CARD_COLS + c], labels[near[0] * CARD_COLS + near[1]]
                if here != there and not (here in gone and there in gone):
                    found.append(Edge(*segment_points(((r, c), near)), style="cut"))
    return found


def card_board(
    number: int,
    board_id: str,
    label: str,
    labels: tuple[int, ...] | None = None,
    gone: Collection[int] = (),
    marks: Iterable[Mark] = (),
    clickable: tuple[Kind, ...] = (),
    previews: tuple[Preview, ...] = (),
    piece_fills: bool = False,
) -> Board:
    """A card, cut into `labels` pieces when given (the pieces in `gone` already taken, shown as holes);
    with `piece_fills` each piece is filled with its own colour, its terrains shown by their glyphs."""
    printed = card(number)
    cells = []
    for r in range(CARD_ROWS):
        for c in range(CARD_COLS):
            piece = labels[r * CARD_COLS + c] if labels else 0
            cell = land_cell((r, c), printed.code(r, c))
            if piece:
                fill = PIECE_FILLS[(piece - 1) % len(PIECE_FILLS)] if piece_fills else cell.fill
                cell = Cell(
                    cell.at,
                    fill,
                    PALETTE[cell.fill][1] if piece_fills else None,
                    f"piece {piece}: {cell.label}",
                    cell.text,
                    False,
                    piece in gone,
                    cell.badge,
                )
            cells.append(cell)
    edges = cut_edges(labels, gone) if labels else []
    return Board(
        board_id, label, CARD_ROWS, CARD_COLS, tuple(cells), tuple(edges), (), tuple(marks), clickable, False, previews
    )


def table_board(
    game: Cutterland, marks: Iterable[Mark] = (), clickable: tuple[Kind, ...] = (), previews: tuple[Preview, ...] = ()
) -> Board:
    """The card being shared out, its pieces outlined, the pieces taken already gone."""
    labels = game.cut_labels
    gone = [p for p in range(1, game.pieces_per_card + 1) if p not in game.pieces_left]
    return card_board(game.cut_card, "table", f"Card {game.cut_card}, cut", labels, gone, marks, clickable, previews)


def piece_marks(game: Cutterland, piece: int, style: str = "target") -> tuple[Mark, ...]:
    return tuple(Mark("cell", cell, style=style) for cell in piece_cells(game.cut_labels, piece))  # type: ignore[arg-type]


def status_line(game: Cutterland) -> str:
    scores = ", ".join(f"player {seat}: {sum(game.score_lines(seat))}" for seat in range(game.players))
    if game.phase == "over":
        return f"The hunt is over. Scores: {scores}."
    cards = sum(len(hand) for hand in game.hands)
    return f"Cards still to cut: {cards}. Scores if the hunt came now: {scores}."


def describe(state: Cutterland, seat: int | None = None) -> Scene:
    """The still picture: the card on the table (while its pieces are taken), the cards in hand, and every
    kingdom (or only `seat`'s)."""
    boards: list[Board] = []
    if state.phase in ("take", "join") and state.cut_labels:
        boards.append(table_board(state))
    seats = range(state.players) if seat is None else [seat]
    for who in seats:
        boards.append(kingdom_board(state, who))
    return Scene(tuple(boards), title="Cutterland", status=status_line(state), zoom=1.0)


__all__ = ["Window", "card_board", "describe", "kingdom_board", "table_board", "window"]
