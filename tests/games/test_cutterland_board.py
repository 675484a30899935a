"""Cutterland's drawing and table picture: the kingdom's window grows with it, a card's cuts become pieces,
and clicks stand for the actions the dashboard promises."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from cliplab.engine import IllegalAction
from cliplab.games.cutterland.board import Window, describe, kingdom_board, window
from cliplab.games.cutterland.picture import CutterlandPicture
from cliplab.games.cutterland.rules import Bridge, Cut, Join, Take, Tower, Wall, pieces_cut_by, position
from cliplab.grid import segment_points
from cliplab.ui import Intent
from cliplab.ui.table import PERSON, HotSeatTable
from cliplab.ui.table_app import TableApp


def land(*rows: str) -> list[tuple[int, int, str]]:
    return [(r, c, code) for r, row in enumerate(rows) for c, code in enumerate(row.split()) if code != "--"]


def picture() -> CutterlandPicture:
    return CutterlandPicture(SimpleNamespace(who=lambda seat: f"Player {seat}", refresh=lambda: None, table=None))


def test_the_kingdoms_window_grows_with_it_and_leaves_room_for_a_join() -> None:
    small = position(2, kingdoms=[land("M."), []], tokens=[{"wall": 1}, {}])
    assert window(small, 0) == Window(-1, -1, 3, 3)
    wide = position(2, kingdoms=[[(0, 0, "M."), (-5, 9, "S.")], []], tokens=[{"wall": 1}, {}])
    shift = window(wide, 0)
    assert (shift.top, shift.left, shift.rows, shift.cols) == (-6, -1, 8, 12)
    board = kingdom_board(wide, 0)
    assert (board.rows, board.cols) == (8, 12)
    joining = position(2, hands=[[1], []], kingdoms=[[], land("M.")])
    joining.apply("cut card 1 as 1111 1111 2222")
    joining.apply("take piece 1")
    shift = window(joining, 1)
    assert (shift.top, shift.left, shift.rows, shift.cols) == (-4, -4, 9, 9)


def test_cut_lines_make_the_pieces_they_enclose() -> None:
    across = {((1, c), (2, c)) for c in range(4)}
    assert pieces_cut_by(across) == (1,) * 8 + (2,) * 4
    # A line that encloses nothing leaves the card whole.
    assert pieces_cut_by({((0, 0), (0, 1))}) == (1,) * 12


def test_clicked_lines_and_the_cut_button_make_the_cut() -> None:
    game = position(2, hands=[[1], []])
    shown = picture()
    for c in range(4):
        a, b = segment_points(((1, c), (2, c)))
        assert shown.click(game, 0, Intent("card-1", "segment", a, b)) is None
    assert shown.cuts[1] == {((1, c), (2, c)) for c in range(4)}
    assert shown._status(game, 0) == "Card 1: 2 pieces, ready to cut."
    a, b = segment_points(((1, 0), (2, 0)))
    shown.click(game, 0, Intent("card-1", "segment", a, b))  # a second click mends the line
    assert shown._status(game, 0) == (
        "Card 1, not cut yet: a card is cut into exactly 2 pieces, one per piece to take; this cut makes 1 (too few)."
    )
    with pytest.raises(IllegalAction):
        shown.click(game, 0, Intent("card-1", "segment", (0, 0), (0, 1)))  # the card's own edge


def test_a_click_on_a_piece_takes_it_and_a_click_on_the_kingdom_joins_there() -> None:
    game = position(2, hands=[[1], []], kingdoms=[[], land("M.")])
    game.apply(Cut(1, 1111, 1111, 2222))
    shown = picture()
    assert shown.click(game, 1, Intent("table", "cell", (2, 3))) == Take(2)
    game.apply("take piece 2")
    shift = window(game, 1)
    shown._turn()  # the turn button
    assert shown.click(game, 1, Intent("kingdom-1", "cell", shift.board_cell((1, 0)))) == Join(1, 0, 1)
    dropped = Intent("kingdom-1", "drop", shift.board_cell((0, 1)), piece="held", turns=2)
    assert shown.click(game, 1, dropped) == Join(0, 1, 2)
    scene = shown.scene(game, 1, True)
    assert scene.pieces and scene.board("kingdom-1").accepts_pieces


def test_token_clicks_place_towers_walls_and_bridges() -> None:
    game = position(2, kingdoms=[land("MC S. MT"), []], tokens=[{"tower": 1, "wall": 1, "bridge": 1}, {}])
    shown = picture()
    shift = window(game, 0)
    at = shift.board_cell
    assert shown.click(game, 0, Intent("kingdom-0", "cell", at((0, 0)))) == Tower(0, 0)
    a, b = segment_points((at((0, 0)), at((0, 1))))
    assert shown.click(game, 0, Intent("kingdom-0", "segment", a, b)) == Wall("east", 0, 0)
    shown.cell_token = "bridge"
    assert shown.click(game, 0, Intent("kingdom-0", "cell", at((0, 2)))) is None
    assert shown.click(game, 0, Intent("kingdom-0", "cell", at((0, 0)))) == Bridge("east", 0, 0)


def test_the_still_picture_shows_every_kingdom_and_the_hunt_marks_the_eaten() -> None:
    game = position(2, kingdoms=[land("WK WF"), land("MC")])
    scene = describe(game)
    assert [board.id for board in scene.boards] == ["kingdom-0", "kingdom-1"]
    eaten = [cell for cell in scene.board("kingdom-0").cells if "eaten by a kraken" in cell.label]
    assert len(eaten) == 1 and eaten[0].text.endswith("F")


def test_the_pieces_a_cut_makes_are_filled_each_with_its_own_colour_as_they_form() -> None:
    game = position(3, hands=[[1], [], []])
    shown = picture()
    for r, c in ((1, 0), (1, 1), (1, 2), (1, 3), (0, 1)):
        a, b = segment_points(((r, c), (r + 1, c)) if r == 1 else ((r, c), (r, c + 1)))
        shown.click(game, 0, Intent("card-1", "segment", a, b))
    board = shown.scene(game, 0, True).board("card-1")
    fills = {cell.at: cell.fill for cell in board.cells}
    labels = pieces_cut_by(shown.cuts[1])
    assert labels == (1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2)  # the short line in the top row parts nothing
    by_piece = {piece: {fills[divmod(i, 4)] for i, label in enumerate(labels) if label == piece} for piece in (1, 2)}
    assert all(len(found) == 1 for found in by_piece.values()) and by_piece[1] != by_piece[2]
    assert not {"green", "yellow", "sky"} & set(fills.values())  # no piece takes a terrain's colour


def test_an_illegal_cut_is_explained_beside_the_line_just_clicked() -> None:
    game = position(3, hands=[[1], [], []])
    shown = picture()
    first = Intent("card-1", "segment", *segment_points(((1, 0), (2, 0))))
    shown.click(game, 0, first)
    assert shown.note(game, 0, first) == (
        "Not a legal cut yet: a card is cut into exactly 3 pieces, one per piece to take; this cut makes 1 (too few)"
    )
    for c in (1, 2, 3):
        shown.click(game, 0, Intent("card-1", "segment", *segment_points(((1, c), (2, c)))))
    across = Intent("card-1", "segment", *segment_points(((0, 1), (0, 2))))
    shown.click(game, 0, across)
    assert "exactly 3 pieces" in (shown.note(game, 0, across) or "")  # still 2 pieces: the line ends in one
    down = Intent("card-1", "segment", *segment_points(((1, 1), (1, 2))))
    shown.click(game, 0, down)
    assert shown.note(game, 0, down) is None  # three pieces: a legal cut, nothing to explain


def test_once_the_game_is_over_the_hunt_plays_on_the_board_one_step_at_a_time() -> None:
    game = position(
        2,
        kingdoms=[land("WK SG WT", "SG SG --", "WF -- --"), land("MD MC MC")],
        walls=[[((0, 0), (0, 1))], []],
        bridges=[[((0, 0), (0, 2)), ((0, 0), (2, 0))], []],
        towers=[[(1, 1)], []],
    )
    game.apply("dragon at 0,0 eats 0,1")
    app = TableApp("cutterland", players=2)
    app.use(HotSeatTable([PERSON, PERSON], game))
    shown = app.picture
    assert isinstance(shown, CutterlandPicture)
    assert shown.hunt_player in app.panel.children and shown.hunt_play.max == 2
    assert "The hunt took 2 steps" in shown.hunt_words.value
    kraken, dragon = game.hunt_steps()
    expected = {
        1: (kraken, {(0, 2), (1, 0), (2, 0)}, {(0, 1), (1, 1)}, "a wall keeps it from the goblin at 0,1"),
        2: (dragon, {(0, 1)}, set(), "Player 1: the dragon at 0,0 eats the centaur at 0,1."),
    }
    for number, (step, prey, lit, words) in expected.items():
        shown.show_hunt_step(number)
        assert shown.hunt_play.value == number
        board = app.grid.scene.boards[0]
        assert board.id == f"kingdom-{step.seat}"
        shift = window(app.game, step.seat)
        at = {
            style: {shift.kingdom_cell(m.at) for m in board.marks if m.kind == "cell" and m.style == style}
            for style in ("last", "fresh", "target")
        }
        assert at["last"] == {step.hunter} and at["fresh"] == prey and at["target"] == lit
        eaten = {shift.kingdom_cell(cell.at) for cell in board.cells if "eaten by" in cell.label}
        assert eaten == set(step.prey) | ({(0, 2), (1, 0), (2, 0)} if step.seat == 0 else set())
        assert f"Step {number} of 2" in shown.hunt_words.value and words in shown.hunt_words.value
    shown.show_hunt_step(9)  # past the end: stays at the last step
    assert shown.hunt_step == 2
    shown.show_hunt_step(0)
    assert app.grid.scene.boards[0].id == "kingdom-0" and "The hunt is over" in app.grid.scene.status
