"""Swap Clops card game picture: what each screen shows of the offers chosen in step 2, and where each card
on the table came from.

With open offers (offers=in_turn) an offer is drawn at the end of its offerer's hand row, face up and
marked, on every screen (the later offerers and the active player decide knowing it); a secret offer shows
only on its offerer's own screen, the others learning only that it has been chosen.
"""

from __future__ import annotations

import re

from cliplab.games.swap_clops_cards.board import describe
from cliplab.games.swap_clops_cards.rules import SwapClopsCards, position
from cliplab.ui.scene import Board, Scene
from cliplab.ui.svg import render

HANDS = [["blue_circle", "blue_square"], ["red_square", "red_triangle", "white_circle"], ["white_square"]]


def offering(offers: str) -> SwapClopsCards:
    """Player 0 has placed and the deck has turned up a yellow circle; player 1 offers two red cards."""
    game = position(3, hands=HANDS, deck=["yellow_circle"] * 6, offers=offers)
    game.apply("place blue_circle in set 1")
    game.apply("offer red_square and red_triangle" + (" face down" if offers == "simultaneous" else ""), 1)
    assert game.phase == "offer" and game.to_move() == (2,)
    return game


def screen(game: SwapClopsCards, viewer: int | None) -> Scene:
    """The picture on `viewer`'s screen (None: the table between screens)."""
    view = game.view(viewer)
    assert isinstance(view, SwapClopsCards)
    return describe(view)


def seat_board(game: SwapClopsCards, viewer: int | None, seat: int) -> Board:
    return next(board for board in screen(game, viewer).boards if board.id == f"seat{seat}")


def hand_row(board: Board) -> list[str]:
    return [cell.label for cell in sorted(board.cells, key=lambda cell: cell.at[1]) if cell.at[0] == 0]


def test_an_open_offer_shows_beside_its_offerer_to_the_later_offerer_and_the_active_player() -> None:
    game = offering("in_turn")
    for viewer in (2, 0, None):  # the next offerer, the active player, the table between screens
        board = seat_board(game, viewer, 1)
        row = hand_row(board)
        assert row[0] == "a face-down card"  # the card player 1 keeps stays hidden
        assert row[1].startswith("red square") and row[2].startswith("red triangle")
        assert all("offered openly to player 0" in label for label in row[1:])
        assert board.label == "Player 1: hand (offered) and sets 1-3"
        assert {mark.at for mark in board.marks if mark.style == "last"} == {(0, 1), (0, 2)}
        assert "offered openly to player 0" in render(screen(game, viewer))


def test_an_open_offer_of_nothing_is_said_on_the_offerers_board() -> None:
    game = position(3, hands=HANDS, deck=["yellow_circle"] * 6, offers="in_turn")
    game.apply("place blue_circle in set 1")
    game.apply("offer nothing", 1)
    board = seat_board(game, 2, 1)
    assert board.label == "Player 1: hand (offered) and sets 1-3" and hand_row(board) == ["a face-down card"] * 3


def test_a_secret_offer_shows_only_on_its_offerers_own_screen() -> None:
    game = offering("simultaneous")
    own = seat_board(game, 1, 1)
    assert own.label == "Player 1: hand (offered) and sets 1-3"
    assert [label.split(",")[0] for label in hand_row(own)] == ["white circle", "red square", "red triangle"]
    assert all("offered face down to player 0" in label for label in hand_row(own)[1:])
    for viewer in (2, 0, None):
        board = seat_board(game, viewer, 1)
        assert board.label == "Player 1: hand (offered) and sets 1-3"
        assert hand_row(board) == ["a face-down card"] * 3
        assert not [mark for mark in board.marks if mark.style == "last"]
        assert "red square" not in render(screen(game, viewer))


def test_offers_leave_the_hand_rows_once_they_are_on_the_table() -> None:
    game = offering("in_turn")
    game.apply("offer white_square", 2)
    assert game.phase == "accept"
    board = seat_board(game, 0, 1)
    assert board.label == "Player 1: hand (top row) and sets 1-3" and hand_row(board) == ["a face-down card"]


def test_each_card_on_the_table_says_where_it_came_from_under_it() -> None:
    game = offering("in_turn")
    game.apply("offer white_square", 2)
    table = next(board for board in screen(game, 0).boards if board.id == "table")
    cards = {cell.at[1]: cell.label for cell in table.cells if cell.at[0] == 0}
    captions = [cell.text for cell in sorted(table.cells, key=lambda cell: cell.at[1]) if cell.at[0] == 1]
    assert captions == ["deck", "pile", "top", "P1", "P1", "P2"]
    assert cards[2].startswith("yellow circle") and cards[5].startswith("white square")


def places(game: SwapClopsCards, viewer: int | None) -> dict[str, str]:
    """Where the picture puts each board (the translate of its group in the SVG)."""
    svg = render(screen(game, viewer))
    return dict((board, at) for at, board in re.findall(r'translate\(([^)]*)\)"><g [^>]*data-board="(\w+)"', svg))


def test_a_chosen_offer_leaves_every_board_in_its_place_on_the_screen() -> None:
    for offers in ("in_turn", "simultaneous"):
        game = position(3, hands=HANDS, deck=["yellow_circle"] * 6, offers=offers)
        game.apply("place blue_circle in set 1")
        before = {viewer: places(game, viewer) for viewer in (0, 1, 2, None)}
        assert len(before[0]) == 4
        game.apply(game.legal_actions(1)[-1], 1)  # player 1's last offer: two cards
        assert {viewer: places(game, viewer) for viewer in (0, 1, 2, None)} == before
