"""Swap Clops card game bots: what the heuristic chooses in telling positions, and that no bot's choice
depends on another seat's hand or on what the deck holds (two different real games, one view)."""

from __future__ import annotations

import random

import pytest

from cliplab.engine import State
from cliplab.games.swap_clops_cards.bots import HeuristicBot, SearchBot
from cliplab.games.swap_clops_cards.rules import (
    AcceptOffer,
    EndTurn,
    OfferOne,
    OfferTwo,
    Score,
    StopAccepting,
    SwapClopsCards,
    TakeDeckCard,
    offered_cards,
    position,
)
from cliplab.kit import declaration

EMPTY_SETS = [[], [], []]


def offering_position() -> SwapClopsCards:
    """Player 0 holds a red set of three and two lone cards; player 1 is to offer."""
    game = position(
        2,
        hands=[["yellow_circle"], ["red_circle", "blue_square", "blue_triangle", "green_circle", "yellow_triangle"]],
        sets=[[["red_square", "red_triangle", "red_circle"], ["blue_circle"], []], EMPTY_SETS],
        deck=["white_circle"] * 4,
    )
    game.apply("place yellow_circle in set 3")
    return game


def test_heuristic_offers_earn_without_feeding_the_active_players_best_set() -> None:
    game = offering_position()
    for seed in range(5):
        action = HeuristicBot(seed).choose(game.view(1), 1)
        assert isinstance(action, OfferOne | OfferTwo)
        cards = offered_cards(action)
        assert "red_circle" not in cards  # it would feed the red set
        assert "blue_triangle" in cards  # the card that pays most of those the red set cannot take


def test_heuristic_accepts_with_the_offerers_gain_in_mind() -> None:
    sets = [[["blue_circle"], ["red_circle", "red_square"], ["white_circle", "white_square"]], EMPTY_SETS]
    game = position(2, hands=[["red_triangle"], ["blue_triangle"]], sets=sets, deck=["yellow_circle"] * 4)
    game.apply("place red_triangle in set 2")
    game.apply("offer blue_triangle face down", 1)
    legal = game.legal_actions(0)
    assert AcceptOffer("blue_triangle", 1, 1) in legal
    # The blue triangle would help the lone blue circle a little but pay its offerer 2: the deck's free
    # yellow circle (which joins the circle too) is taken instead, and the offer is left.
    bot = HeuristicBot(0)
    assert bot.choose(game.view(0), 0) == TakeDeckCard("yellow_circle", 1)
    game.apply("take the deck's yellow_circle into set 1")
    assert bot.choose(game.view(0), 0) == StopAccepting()


def test_heuristic_scores_a_set_at_the_top_of_its_chart_and_keeps_one_short_of_a_step() -> None:
    white_top = ["white_circle"] * 2 + ["white_square"] * 2 + ["white_triangle"]
    sets = [[white_top, ["blue_circle", "blue_square", "blue_triangle", "blue_circle"], []], EMPTY_SETS]
    game = position(2, hands=[["green_circle"], ["yellow_square"]], sets=sets,
                    deck=["yellow_circle"] * 6 + ["green_circle"] * 4 + ["yellow_square"] * 4)  # fmt: skip
    game.apply("place green_circle in set 3")
    game.apply("offer nothing face down", 1)
    game.apply("accept no more")
    assert game.phase == "score"
    bot = HeuristicBot(0)
    assert bot.choose(game.view(0), 0) == Score(1)  # five whites: the chart's top, 4 points
    game.apply("score set 1")
    # Four blues pay 1, one card short of the next step: keep collecting.
    assert not game.final and bot.choose(game.view(0), 0) == EndTurn()


def test_heuristic_makes_no_room_for_a_card_that_would_only_start_a_set() -> None:
    sets = [[["red_circle", "red_square", "red_triangle"], ["blue_circle", "blue_square"], ["green_circle"]],
            EMPTY_SETS, EMPTY_SETS]  # fmt: skip
    game = position(3, hands=[["green_square"], ["yellow_triangle"], ["white_triangle"]], sets=sets,
                    deck=["yellow_circle"] * 6)  # fmt: skip
    game.apply("place green_square in set 3")
    game.apply("offer yellow_triangle face down", 1)
    game.apply("offer white_triangle face down", 2)
    assert Score(1) in game.legal_actions(0)  # nothing on offer fits a set: room may be made
    # Giving up a set for a card that would only start a new one is not worth it.
    assert HeuristicBot(0).choose(game.view(0), 0) == StopAccepting()


def start_fields(game: SwapClopsCards) -> dict[str, object]:
    return {"hands": [list(hand) for hand in game.hands], "deck": list(game.deck)}


def swapped_hidden_cards(fields: dict[str, object], seat: int, players: int) -> dict[str, object]:
    """The same start, but the next seat's hand swapped with cards of the deck: `seat` cannot tell."""
    hands = [list(hand) for hand in fields["hands"]]  # type: ignore[attr-defined]
    other = (seat + 1) % players
    pool = hands[other] + list(fields["deck"])  # type: ignore[call-overload]
    random.Random(seat).shuffle(pool)
    hands[other] = sorted(pool[: len(hands[other])])
    return {"hands": hands, "deck": sorted(pool[len(hands[other]) :])}


@pytest.mark.parametrize("bot", ["random", "heuristic", "search"])
def test_no_bot_choice_depends_on_another_seats_hand_or_the_deck(bot: str) -> None:
    kit = declaration("swap_clops_cards")
    for seed in range(3):
        dealt = position(3, seed)  # the builder deals the hands from the deck by the seed
        assert isinstance(dealt, SwapClopsCards)
        fields = start_fields(dealt)
        seat = dealt.active
        games = [position(3, 99, **fields), position(3, 99, **swapped_hidden_cards(fields, seat, 3))]
        assert games[0].hands[seat + 1] != games[1].hands[seat + 1], "the games differ in another hand"
        assert games[0].deck != games[1].deck, "and in what the deck holds"
        assert games[0].view(seat) == games[1].view(seat), "the seat to move cannot tell them apart"
        chosen = [kit.make_bot(bot, 5).choose(game.view(seat), seat) for game in games]
        assert chosen[0] == chosen[1]


def test_search_chooses_a_legal_action_from_a_view_within_its_iterations() -> None:
    game = offering_position()
    view: State = game.view(1)
    assert view.hands[0] == [] and view.deck == ["?"] * len(game.deck)
    bot = SearchBot(0, iterations=6)
    action = bot.choose(view, 1)
    assert action in game.legal_actions(1) and bot.last_iterations == 6
