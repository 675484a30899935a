"""Paper World's table picture: what each click means, what is lit, and which buttons stand beside the board."""

from __future__ import annotations

from typing import Any

import pytest

from cliplab.engine import Action, IllegalAction
from cliplab.games.paper_world.board import OFFSET
from cliplab.games.paper_world.content import deck
from cliplab.games.paper_world.picture import PaperWorldPicture
from cliplab.games.paper_world.rules import BURIED, Discard, PaperWorld, PlaceCard, TakeColour, TakeValue, position
from cliplab.ui import Intent


class App:
    """The little of the table app a picture uses: names, and actions from its buttons."""

    def __init__(self) -> None:
        self.done: list[Action] = []

    def who(self, seat: int) -> str:
        return f"Player {seat}"

    def do(self, action: Action) -> None:
        self.done.append(action)


def number(colour: str, value: int, used: set[int]) -> int:
    found = next(
        c.number
        for c in deck().cards
        if (c.colour, c.value, c.scissors, c.start, c.players) == (colour, value, False, False, 2)
        and c.number not in used
    )
    used.add(found)
    return found


def table() -> tuple[PaperWorld, PaperWorldPicture, App, dict[str, int]]:
    used: set[int] = set()
    cards = {code: number(colour, value, used) for code, colour, value in
             [("y1", "yellow", 1), ("y2", "yellow", 2), ("b3", "blue", 3), ("y3", "yellow", 3), ("k5", "black", 5),
              ("b1", "blue", 1)]}  # fmt: skip
    piles = [[cards["b3"]], [cards["y3"]], [cards["k5"]], [], []]
    game = position(2, 1, piles=piles, hands=[[cards["y1"], cards["y2"]], [cards["b1"]]])
    app = App()
    return game, PaperWorldPicture(app), app, cards


def view_of(game: PaperWorld, seat: int | None) -> PaperWorld:
    view = game.view(seat)
    assert isinstance(view, PaperWorld)
    return view


def labels(controls: tuple[str, list[Any]]) -> list[str]:
    return [widget.description for widget in controls[1]]


def test_a_pile_top_click_offers_its_colour_and_its_value_with_their_counts() -> None:
    game, picture, app, _ = table()
    view = game.view(0)
    assert picture.click(view, 0, Intent("centre", "cell", (0, 1))) is None
    assert labels(picture.controls(view, 0)) == ["Take every yellow top (1 card)", "Take every 3 on top (2 cards)"]
    picture.controls(view, 0)[1][1].click()
    assert app.done == [TakeValue(3)]
    picture.controls(view, 0)[1][0].click()
    assert app.done[-1] == TakeColour("yellow")


def test_an_empty_pile_click_is_refused_with_a_reason() -> None:
    game, picture, _, _ = table()
    with pytest.raises(IllegalAction) as err:
        picture.click(game.view(0), 0, Intent("centre", "cell", (0, 4)))
    assert "empty" in err.value.reason


def test_a_hand_card_lights_its_legal_spots_and_a_spot_click_places_it() -> None:
    game, picture, _, cards = table()
    view = view_of(game, 0)
    at = view.hands[0].index(cards["y1"])
    assert picture.click(view, 0, Intent("hand", "cell", (0, at))) is None
    scene = picture.scene(view, 0, True)
    land = scene.board("land-0")
    assert [mark.at for mark in land.marks] == [(OFFSET, OFFSET)]
    action = picture.click(view, 0, Intent("land-0", "cell", (OFFSET, OFFSET)))
    assert action == PlaceCard(cards["y1"], 0, 0)


def test_a_landscape_click_without_a_card_says_what_to_do() -> None:
    game, picture, _, _ = table()
    with pytest.raises(IllegalAction) as err:
        picture.click(game.view(0), 0, Intent("land-0", "cell", (OFFSET, OFFSET)))
    assert "click a card in your hand first" in err.value.reason


def test_a_skip_spot_is_named_and_its_discard_is_a_hand_click() -> None:
    game, picture, _, cards = table()
    view = view_of(game, 0)
    picture.click(view, 0, Intent("hand", "cell", (0, view.hands[0].index(cards["y2"]))))
    status, _ = picture.controls(view, 0)
    assert "uses your skip" in status and "costs a discard" in status
    game.apply(PlaceCard(cards["y2"], 0, 0))  # a new stack at 2: the skip
    picture.reset()
    view = view_of(game, 0)
    assert "discard" in picture.controls(view, 0)[0]
    assert picture.click(view, 0, Intent("hand", "cell", (0, 0))) == Discard(cards["y1"])


def test_another_players_hand_is_never_drawn() -> None:
    game, picture, _, _ = table()
    spectator = view_of(game, None)
    assert BURIED in spectator.hands[0]
    boards = [board.id for board in picture.scene(spectator, 0, False).boards]
    assert "hand" not in boards and "land-0" in boards and "land-1" in boards
