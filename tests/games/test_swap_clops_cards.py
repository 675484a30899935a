"""Swap Clops card game scenarios, one per rule of seeds/003 (first part) and RULINGS.md.

Positions come from the rules' position builder. A deck of one kind of card makes the deck's draws and
reveals certain, so a scenario knows what comes off the deck.
"""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from cliplab.engine import (
    CHANCE,
    Hidden,
    HiddenChance,
    IllegalAction,
    PositionError,
    from_json,
    replay,
    to_json,
)
from cliplab.games.swap_clops_cards.content import deck
from cliplab.games.swap_clops_cards.rules import (
    DECK_THROUGH,
    NOTHING_LEFT,
    SPEC,
    AcceptOffer,
    Draw,
    EndTurn,
    Lock,
    OfferOne,
    PlaceOne,
    PlaceTwo,
    Reveal,
    Score,
    SecretOfferTwo,
    StopAccepting,
    SwapClopsCards,
    offered_cards,
    position,
    position_of,
)

CHARTS = deck().traits
EMPTY_SETS = [[], [], []]
REVEAL = "yellow_circle"  # the one kind of card in short decks, so the deck's reveal is known


def circles(count: int) -> list[str]:
    """A deck of `count` circles of three colours (draws from it are left to chance)."""
    colours = ("yellow", "blue", "green")
    return [f"{colours[k % 3]}_circle" for k in range(count)]


def refused(game: SwapClopsCards, action: str, player: int | None = None) -> IllegalAction:
    """Try an illegal action: it raises, and the game is exactly as it was."""
    before = game.fingerprint(), len(game.log)
    with pytest.raises(IllegalAction) as err:
        game.apply(action, player)
    assert (game.fingerprint(), len(game.log)) == before
    return err.value


def at_offers(**fields: object) -> SwapClopsCards:
    """Player 0 has placed a blue circle into an empty set and the deck has turned up a yellow circle."""
    hands = fields.pop(
        "hands", [["blue_circle", "blue_square"], ["red_square", "red_triangle"], ["white_square", "yellow_square"]]
    )
    game = position(3, hands=hands, deck=[REVEAL] * 6, offers=fields.pop("offers", "simultaneous"), **fields)
    game.apply("place blue_circle in set 1")
    return game


# ----- setup ------------------------------------------------------------------------------------------


def test_setup_five_cards_dealt_to_each_player_three_empty_sets_the_rest_is_the_deck() -> None:
    for players in (2, 3, 4):
        game = SPEC.new(players, 3)
        assert [len(hand) for hand in game.hands] == [5] * players
        assert game.sets == [[[], [], []] for _ in range(players)]
        assert len(game.deck) == len(deck().copies) - 5 * players
        assert game.to_move() == (0,) and game.phase == "place"
        dealt = [action for seat, action in game.log if seat == CHANCE]
        assert all(isinstance(action, Draw) for action in dealt) and len(dealt) == 5 * players


def test_setup_the_deal_depends_on_the_seed() -> None:
    assert SPEC.new(3, 1).hands != SPEC.new(3, 2).hands
    assert SPEC.new(3, 1).hands == SPEC.new(3, 1).hands


# ----- step 1 and sets ----------------------------------------------------------------------------------


def test_step_one_place_one_card_into_an_empty_set() -> None:
    game = position(2, hands=[["red_circle", "blue_square"], ["white_triangle"]], deck=[REVEAL] * 4)
    game.apply("place red_circle in set 2")
    assert game.sets[0] == [[], ["red_circle"], []] and game.hands[0] == ["blue_square"]
    assert game.phase == "offer"


def test_step_one_place_two_cards_sharing_a_trait_into_one_set() -> None:
    game = position(2, hands=[["red_circle", "red_square"], ["white_triangle"]], deck=[REVEAL] * 4)
    game.apply("place red_circle and red_square in set 1")
    assert game.sets[0][0] == ["red_circle", "red_square"] and game.locks[0][0] == "colour"


def test_step_one_two_cards_sharing_nothing_are_refused() -> None:
    game = position(2, hands=[["red_circle", "blue_square"], ["white_triangle"]], deck=[REVEAL] * 4)
    err = refused(game, "place red_circle and blue_square in set 1")
    assert err.rule == "step 1 placing" and "share neither a shape nor a colour" in err.reason


def test_step_one_a_card_not_in_hand_is_refused() -> None:
    game = position(2, hands=[["red_circle", "blue_square"], ["white_triangle"]], deck=[REVEAL] * 4)
    err = refused(game, "place white_triangle in set 1")
    assert err.rule == "step 1 placing" and "no white_triangle" in err.reason
    err = refused(game, "place red_circle and red_circle in set 1")
    assert "to spare" in err.reason


def test_step_one_placing_is_not_optional() -> None:
    game = position(2, hands=[["red_circle"], ["white_triangle"]], deck=[REVEAL] * 4)
    assert all(isinstance(action, PlaceOne | PlaceTwo) for action in game.legal_actions())
    err = refused(game, "end the turn")
    assert err.rule == "step 1 placing"


def test_sets_a_lone_card_takes_any_card_sharing_its_shape_or_its_colour() -> None:
    sets = [[["red_circle"], ["red_circle"], ["white_square", "white_triangle"]], EMPTY_SETS]
    game = position(
        2, hands=[["red_square", "blue_circle", "green_triangle"], ["white_triangle"]], sets=sets, deck=[REVEAL] * 4
    )
    legal = {str(action) for action in game.legal_actions()}
    assert {"place red_square in set 1", "place blue_circle in set 1"} <= legal
    assert "place green_triangle in set 1" not in legal
    err = refused(game, "place green_triangle in set 1")
    assert err.rule == "locking a set's trait" and "shares neither shape nor colour" in err.reason


def test_sets_the_first_two_cards_lock_the_trait_they_share() -> None:
    game = position(
        2, hands=[["red_square"], ["white_triangle"]], sets=[[["red_circle"], [], []], EMPTY_SETS], deck=[REVEAL] * 4
    )
    game.apply("place red_square in set 1")
    assert game.locks[0][0] == "colour"


def test_sets_a_locked_set_refuses_a_card_without_its_trait() -> None:
    sets = [[["red_circle", "red_square"], ["blue_circle"], ["white_triangle"]], EMPTY_SETS]
    game = position(2, hands=[["blue_square", "red_triangle"], ["white_triangle"]], sets=sets, deck=[REVEAL] * 4)
    err = refused(game, "place blue_square in set 1")
    assert err.rule == "locking a set's trait" and "keeps red cards (its colour)" in err.reason
    game.apply("place red_triangle in set 1")
    assert game.sets[0][0] == ["red_circle", "red_square", "red_triangle"]


def test_sets_two_cards_sharing_shape_and_colour_the_owner_declares_the_trait() -> None:
    game = position(2, hands=[["red_circle", "red_circle"], ["white_triangle"]], deck=[REVEAL] * 4)
    game.apply("place red_circle and red_circle in set 3")
    assert game.phase == "lock" and game.to_move() == (0,)
    assert set(game.legal_actions()) == {Lock(3, "shape"), Lock(3, "colour")}
    err = refused(game, "set 1 keeps its shape")
    assert err.rule == "locking a set's trait" and "set 3" in err.reason
    game.apply("set 3 keeps its shape")
    assert game.locks[0][2] == "shape" and game.phase == "offer"


def test_making_room_when_nothing_fits_and_every_slot_is_used_a_set_is_scored_first() -> None:
    sets = [
        [["red_circle", "red_square"], ["blue_circle", "blue_square"], ["white_triangle", "white_square"]],
        EMPTY_SETS,
    ]
    game = position(2, hands=[["green_triangle", "yellow_triangle"], ["white_circle"]], sets=sets, deck=[REVEAL] * 4)
    assert set(game.legal_actions()) == {Score(1), Score(2), Score(3)}
    err = refused(game, "place green_triangle in set 1")
    assert err.rule == "making room" and "score a set first" in err.reason
    game.apply("score set 2")  # two blues score nothing: making room may cost a set
    assert game.points[0] == CHARTS["blue"].points(2) == 0 and game.sets[0][1] == []
    assert game.discard == ["blue_circle", "blue_square"]
    err = refused(game, "place green_triangle in set 1")
    assert err.rule == "making room" and "place into it" in err.reason
    game.apply("place green_triangle and yellow_triangle in set 2")
    assert game.sets[0][1] == ["green_triangle", "yellow_triangle"] and game.locks[0][1] == "shape"


def test_making_room_is_not_allowed_while_a_card_fits() -> None:
    sets = [
        [["red_circle", "red_square"], ["blue_circle", "blue_square"], ["white_triangle", "white_square"]],
        EMPTY_SETS,
    ]
    game = position(2, hands=[["red_triangle"], ["white_circle"]], sets=sets, deck=[REVEAL] * 4)
    err = refused(game, "score set 1")
    assert err.rule == "making room" and "only to make room" in err.reason


def test_step_one_is_skipped_with_an_empty_hand() -> None:
    game = position(2, hands=[[], ["white_circle"]], deck=[REVEAL] * 4)
    assert game.phase == "offer" and game.deck_card == REVEAL and game.to_move() == (1,)


# ----- step 2: offers -----------------------------------------------------------------------------------


def test_step_two_the_deck_shows_its_top_card_and_every_opponent_offers_at_once_in_secret() -> None:
    game = at_offers()
    assert game.deck_card == REVEAL and isinstance(game.log[-1][1], Reveal)
    assert game.to_move() == (1, 2)
    legal = game.legal_actions(1)
    assert SecretOfferTwo("red_square", "red_triangle") in legal and len(legal) == 4  # nothing, one, other, both
    game.apply("offer red_square and red_triangle face down", 1)
    assert game.to_move() == (2,)
    for viewer in (0, 2, None):
        view = game.view(viewer)
        assert isinstance(view.log[-1][1], Hidden) and "red_square" not in str(view.chosen)
    assert game.view(1).log[-1][1] == SecretOfferTwo("red_square", "red_triangle")
    reveals = len(game.reveals)
    game.apply("offer yellow_square face down", 2)
    assert len(game.reveals) == reveals + 1 and game.reveals[-1][1] is None  # both turned up together
    assert game.offers == [[], ["red_square", "red_triangle"], ["yellow_square"]]
    assert game.hands[1] == [] and game.hands[2] == ["white_square"]
    assert not isinstance(game.view(0).log[-2][1], Hidden)


def test_step_two_an_opponent_may_offer_nothing() -> None:
    game = at_offers()
    game.apply("offer nothing face down", 1)
    game.apply("offer nothing face down", 2)
    assert game.phase == "accept" and game.table_cards() == [(REVEAL, -1)]


def test_step_two_an_offer_comes_from_the_offerers_hand_two_cards_at_most() -> None:
    game = at_offers()
    err = refused(game, "offer white_square face down", 1)
    assert err.rule == "step 2 offers" and "no white_square" in err.reason
    err = refused(game, "offer red_square face down", 0)
    assert err.rule == "turn order"
    assert sorted(len(offered_cards(action)) for action in game.legal_actions(1)) == [0, 1, 1, 2]


def test_step_two_in_turn_offers_go_clockwise_from_the_left_openly() -> None:
    game = at_offers(offers="in_turn")
    assert game.to_move() == (1,)
    err = refused(game, "offer red_square face down", 1)
    assert "openly, in turn" in err.reason
    game.apply("offer red_square", 1)
    assert game.to_move() == (2,) and game.view(2).log[-1][1] == OfferOne("red_square")
    game.apply("offer nothing", 2)
    assert game.offers[1] == ["red_square"] and game.phase == "accept"


def test_step_two_an_opponent_with_an_empty_hand_is_not_asked() -> None:
    game = at_offers(hands=[["blue_circle"], [], ["yellow_square"]])
    assert game.to_move() == (2,)


@pytest.mark.parametrize(
    ("offers", "nothing", "waiting"),
    [
        ("simultaneous", "offer nothing face down", [(0, 1, 3), (1, 3), (3,)]),  # all at once, by seat number
        ("in_turn", "offer nothing", [(3,), (0,), (1,)]),  # one by one from the active player's left
    ],
)
def test_step_two_the_offerers_are_the_other_seats_from_the_active_players_left(
    offers: str, nothing: str, waiting: list[tuple[int, ...]]
) -> None:
    hands = [["red_square"], ["white_square"], ["blue_circle"], ["yellow_square"]]
    game = position(4, hands=hands, deck=[REVEAL] * 6, active=2, offers=offers)
    game.apply("place blue_circle in set 1")
    for seats in waiting:
        assert game.phase == "offer" and game.to_move() == seats
        game.apply(nothing, seats[0])
    assert game.phase == "accept" and game.to_move() == (2,)


# ----- step 3: accepting --------------------------------------------------------------------------------


def offered(game: SwapClopsCards, one: str, two: str) -> SwapClopsCards:
    game.apply(one, 1)
    game.apply(two, 2)
    return game


def test_step_three_an_accepted_card_earns_its_offerer_its_offer_value() -> None:
    game = offered(at_offers(), "offer red_square and red_triangle face down", "offer yellow_square face down")
    value = deck().cards["red_triangle"].offer
    game.apply("accept red_triangle from player 1 into set 2")
    assert game.earned == [0, value, 0] and game.sets[0][1] == ["red_triangle"]
    assert game.score_of(1) == value


def test_step_three_the_deck_card_earns_nobody_anything() -> None:
    game = offered(at_offers(), "offer nothing face down", "offer nothing face down")
    game.apply("take the deck's yellow_circle into set 1")
    assert game.sets[0][0] == ["blue_circle", REVEAL] and game.locks[0][0] == "shape"
    assert game.earned == [0, 0, 0]


def test_step_three_at_most_two_cards_are_accepted_the_rest_are_discarded() -> None:
    game = offered(at_offers(), "offer red_square and red_triangle face down", "offer yellow_square face down")
    game.apply("accept red_square from player 1 into set 2")
    game.apply("accept yellow_square from player 2 into set 2")
    assert game.phase in ("draw", "score") and game.offers == [[], [], []] and game.deck_card == ""
    assert game.discard == sorted([REVEAL, "red_triangle"])
    assert game.sets[0][1] == ["red_square", "yellow_square"] and game.locks[0][1] == "shape"


def test_step_three_accepting_nothing_discards_everything() -> None:
    game = offered(at_offers(), "offer red_square face down", "offer nothing face down")
    game.apply("accept no more")
    assert game.discard == sorted([REVEAL, "red_square"]) and game.earned == [0, 0, 0]


def test_step_three_an_offered_card_must_fit_the_set_it_goes_into() -> None:
    game = offered(at_offers(), "offer red_square face down", "offer nothing face down")
    err = refused(game, "accept red_square from player 1 into set 1")
    assert err.rule == "locking a set's trait"
    err = refused(game, "accept white_square from player 1 into set 2")
    assert err.rule == "step 3 accepting" and "no white_square on offer" in err.reason


def test_step_three_two_alike_cards_from_one_giver_are_one_choice_until_one_is_taken() -> None:
    hands = [["blue_circle", "blue_square"], ["red_square", "red_square"], ["red_square", "yellow_square"]]
    game = offered(at_offers(hands=hands), "offer red_square and red_square face down", "offer red_square face down")
    assert game.table_cards() == [(REVEAL, -1), ("red_square", 1), ("red_square", 2)]
    from_one = [a for a in game.legal_actions() if isinstance(a, AcceptOffer) and a.giver == 1]
    assert from_one == [AcceptOffer("red_square", 1, 2), AcceptOffer("red_square", 1, 3)]  # set 1 holds a blue circle
    game.apply("accept red_square from player 1 into set 2")
    assert game.offers[1] == ["red_square"] and ("red_square", 1) in game.table_cards()


def test_step_three_a_card_that_fits_no_set_needs_a_set_scored_to_make_room() -> None:
    sets = [[["red_circle", "red_square"], ["blue_circle", "blue_square"], []], EMPTY_SETS, EMPTY_SETS]
    game = position(3, hands=[["red_triangle"], ["white_triangle"], ["yellow_square"]], sets=sets, deck=[REVEAL] * 4)
    game.apply("place red_triangle in set 1")
    offered(game, "offer white_triangle face down", "offer nothing face down")
    game.apply("take the deck's yellow_circle into set 3")
    assert game.sets[0][2] == [REVEAL]
    err = refused(game, "accept white_triangle from player 1 into set 3")
    assert err.rule == "locking a set's trait"  # it fits none of the sets: room must be made first
    legal = set(game.legal_actions())
    assert {Score(1), Score(2), Score(3), StopAccepting()} <= legal
    game.apply("score set 3")
    assert game.room_slot == 2
    assert set(game.legal_actions()) == {AcceptOffer("white_triangle", 1, 3)}
    game.apply("accept white_triangle from player 1 into set 3")
    assert game.sets[0][2] == ["white_triangle"] and game.earned[1] == deck().cards["white_triangle"].offer


def test_step_three_no_room_is_made_while_every_offered_card_fits() -> None:
    game = offered(at_offers(), "offer red_square face down", "offer nothing face down")
    err = refused(game, "score set 1")
    assert err.rule == "making room" and "scoring waits for the end of the turn" in err.reason


# ----- step 4 and scoring ---------------------------------------------------------------------------------


def test_step_four_draw_up_to_five() -> None:
    game = position(2, hands=[["red_square", "blue_square"], ["white_triangle"]], deck=circles(9))
    game.apply("place red_square in set 1")
    game.apply("offer nothing face down", 1)
    game.apply("accept no more")
    assert len(game.hands[0]) == 5 and game.phase == "score" and len(game.deck) == 9 - 1 - 4
    draws = [action for _, action in game.log[-4:]]
    assert all(isinstance(action, Draw) and action.seat == 0 for action in draws)
    assert game.hands[0] == sorted(["blue_square", *(action.card for action in draws)])


def test_scoring_at_the_end_of_the_turn_any_sets_by_their_traits_chart() -> None:
    sets = [[["red_circle", "red_square", "red_triangle"], ["blue_circle"], []], EMPTY_SETS]
    game = position(2, hands=[["red_circle"], ["white_triangle"]], sets=sets, deck=circles(9))
    game.apply("place red_circle in set 1")
    game.apply("offer nothing face down", 1)
    game.apply("accept no more")
    assert set(game.legal_actions()) == {Score(1), Score(2), EndTurn()}
    game.apply("score set 1")
    assert game.points[0] == CHARTS["red"].points(4) and game.sets[0][0] == []
    assert game.scored[0] == [("red", 4, CHARTS["red"].points(4))]
    game.apply("score set 2")  # a lone card has no trait yet: it scores nothing
    assert game.points[0] == CHARTS["red"].points(4)
    assert game.phase == "place" and game.active == 1


def test_scoring_a_set_scores_only_its_locked_trait() -> None:
    four_circles = ["red_circle", "blue_circle", REVEAL, "yellow_circle"]
    sets = [[four_circles, [], []], EMPTY_SETS]
    game = position(2, hands=[["white_circle"], ["white_triangle"]], sets=sets, deck=circles(9))
    assert game.locks[0][0] == "shape"
    game.apply("place white_circle in set 1")
    game.apply("offer nothing face down", 1)
    game.apply("accept no more")
    game.apply("score set 1")
    assert game.points[0] == CHARTS["circle"].points(5)


def test_scoring_the_charts_rarer_traits_need_fewer_cards() -> None:
    cards = deck()
    for kind in ("shape", "colour"):
        traits = sorted((t for t in cards.traits.values() if t.kind == kind), key=lambda t: t.count)
        for rarer, commoner in pairwise(traits):
            if rarer.count < commoner.count:
                assert all(a <= b for a, b in zip(rarer.chart, commoner.chart, strict=True))


def test_scoring_the_chart_needed_cards_for_each_point() -> None:
    circle = CHARTS["circle"]
    assert [circle.points(n) for n in (circle.chart[0] - 1, *circle.chart)] == [0, 1, 2, 3, 4]
    assert circle.points(99) == 4


def test_scoring_ending_the_turn_leaves_sets_in_place() -> None:
    sets = [[["red_circle", "red_square"], [], []], EMPTY_SETS]
    game = position(2, hands=[["blue_circle"], ["white_triangle"]], sets=sets, deck=circles(9))
    game.apply("place blue_circle in set 2")
    game.apply("offer nothing face down", 1)
    game.apply("accept no more")
    game.apply("end the turn")
    assert game.sets[0][0] == ["red_circle", "red_square"] and game.points == [0, 0]


# ----- the deck, reshuffles and the end -------------------------------------------------------------------


def test_reshuffle_when_the_deck_runs_out_the_discard_pile_becomes_the_deck() -> None:
    hand = ["blue_circle", "blue_square", "red_square", "white_square", "green_triangle"]
    game = position(
        3,
        hands=[hand, ["red_triangle"], ["white_triangle"]],
        deck=[REVEAL] * 3,
        discard=["yellow_triangle", "yellow_square"],
    )
    game.apply("place blue_circle and blue_square in set 1")
    offered(game, "offer nothing face down", "offer nothing face down")
    game.apply("take the deck's yellow_circle into set 2")  # nothing else on offer: two draws empty the deck
    assert game.run_outs == 1 and not game.final
    assert game.deck == ["yellow_square", "yellow_triangle"] and game.discard == []
    assert game.epoch_decks == [
        tuple(sorted([REVEAL] * 3 + hand + ["red_triangle", "white_triangle"])),
        tuple(game.deck),
    ]
    assert game.hands[0] == sorted([REVEAL, REVEAL, "red_square", "white_square", "green_triangle"])


def test_end_two_players_the_first_run_out_ends_the_game_at_the_end_of_that_turn() -> None:
    sets = [[["red_circle", "red_square", "red_triangle"], [], []], EMPTY_SETS]
    game = position(
        2, hands=[["red_circle"], ["white_triangle"]], sets=sets, deck=[REVEAL] * 2, discard=["yellow_square"] * 4
    )
    game.apply("place red_circle in set 1")
    game.apply("offer nothing face down", 1)
    assert game.run_outs == 0
    game.apply("accept no more")
    assert game.run_outs == 1 and game.final and not game.is_over()
    game.apply("score set 1")  # the final turn's scoring still happens (with no set left, the turn ends)
    outcome = game.outcome()
    assert outcome is not None and outcome.termination == DECK_THROUGH
    assert outcome.scores[0] == CHARTS["red"].points(4)


@pytest.mark.parametrize(("players", "run_outs"), [(2, 1), (3, 2), (4, 3)])
def test_end_run_outs_by_player_count(players: int, run_outs: int) -> None:
    game = SPEC.new(players, 11)
    rng = random.Random(players)
    ended_at = -1
    while not game.is_over():
        seat = game.to_move()[-1]
        if game.run_outs == run_outs and ended_at < 0:
            ended_at = game.turn
        game.apply(rng.choice(game.legal_actions(seat)), seat)
    assert game.outcome().termination == DECK_THROUGH
    assert game.turn == ended_at  # the turn of the last run-out was the last turn


def test_end_the_deck_and_discard_pile_running_out_together_end_the_game() -> None:
    game = position(3, hands=[["blue_circle"], ["red_square"], ["white_square"]], deck=[REVEAL])
    game.apply("place blue_circle in set 1")  # the reveal takes the last card; the discard pile is empty
    assert game.run_outs == 1 and game.final and game.deck == []
    offered(game, "offer nothing face down", "offer nothing face down")
    game.apply("accept no more")
    game.apply("end the turn")
    assert game.outcome().termination == NOTHING_LEFT


def test_end_unscored_sets_score_nothing_offers_count() -> None:
    sets = [[["red_circle", "red_square", "red_triangle", "red_circle"], [], []], EMPTY_SETS]
    game = position(2, hands=[["blue_circle"], ["white_triangle"]], sets=sets, deck=[REVEAL], earned=[0, 3])
    game.apply("place blue_circle in set 2")
    game.apply("offer nothing face down", 1)
    game.apply("accept no more")
    game.apply("end the turn")
    assert game.outcome().scores == (0, 3)


# ----- hidden information -------------------------------------------------------------------------------


def test_hidden_a_view_shows_only_its_own_hand_and_the_decks_size() -> None:
    game = SPEC.new(3, 5)
    view = game.view(1)
    assert view.hands[1] == game.hands[1]
    assert view.hands[0] == ["?"] * 5 and view.hands[2] == ["?"] * 5
    assert view.deck == ["?"] * len(game.deck)
    hidden = [index for index, (_, action) in enumerate(view.log) if isinstance(action, HiddenChance)]
    assert hidden == sorted(game.draws_at[0] + game.draws_at[2])


def test_hidden_samples_deal_other_hands_from_the_unseen_cards_never_the_real_ones_only() -> None:
    game = SPEC.new(3, 5)
    view = game.view(1)
    others = set()
    for number in range(12):
        sample = view.determinize(random.Random(number))
        assert sample.hands[1] == game.hands[1] and sample.view(1) == view
        others.add(tuple(map(tuple, (sample.hands[0], sample.hands[2]))))
    assert len(others) > 1


def test_hidden_samples_keep_the_cards_another_seat_played_in_its_hand_until_it_played_them() -> None:
    game = SPEC.new(3, 8)
    rng = random.Random(3)
    for _ in range(60):
        seat = game.to_move()[-1]
        game.apply(rng.choice(game.legal_actions(seat)), seat)
    sample = game.view(2).determinize(random.Random(1))
    rebuilt = sample.clone()
    rebuilt.rewind(len(rebuilt.log))
    assert rebuilt == sample and sample.sets == game.sets and sample.discard == game.discard


def test_hidden_samples_list_the_legal_actions_of_their_sampled_hands_not_of_the_view_they_came_from() -> None:
    game = SPEC.new(3, 8)
    rng = random.Random(5)
    while len(game.to_move()) < 2:  # play on to a secret offer step, where other seats decide
        seat = game.to_move()[-1]
        game.apply(rng.choice(game.legal_actions(seat)), seat)
    viewer, other = game.to_move()[0], game.to_move()[1]
    view = game.view(viewer)
    view.legal_actions(other)  # worked out from the face-down hand the view shows
    sample = view.determinize(random.Random(2))
    rebuilt = sample.clone()
    rebuilt.rewind(len(rebuilt.log))
    assert sample.hands[other] != view.hands[other]
    assert sample.legal_actions(other) == rebuilt.legal_actions(other)


def test_undo_rewinding_past_snapshots_gives_the_position_its_log_replays_to() -> None:
    game = SPEC.new(4, 1)  # four players run the deck out three times: a long game
    rng = random.Random(1)
    while not game.is_over():
        seat = game.to_move()[-1]
        game.apply(rng.choice(game.legal_actions(seat)), seat)
    every = SwapClopsCards.CHECKPOINT_EVERY
    assert len(game.log) > 2 * every  # the game passed two snapshots
    for length in (every - 1, every, every + 1, 2 * every + 1, len(game.log) - 1):
        rewound = game.clone()
        rewound.rewind(length)
        assert rewound == replay(game.config, game.log[:length]), length


# ----- positions and saves ------------------------------------------------------------------------------


def test_position_refusals_name_the_field() -> None:
    with pytest.raises(PositionError) as err:
        position(2, hands=[["red_circle"] * 6, []])
    assert err.value.field == "hands[0]"
    with pytest.raises(PositionError) as err:
        position(2, sets=[[["red_circle", "blue_square"], [], []], EMPTY_SETS])
    assert err.value.field == "sets[0][0]"
    with pytest.raises(PositionError) as err:
        position(2, sets=[[["red_circle", "red_circle"], [], []], EMPTY_SETS])
    assert err.value.field == "locks[0][0]"
    with pytest.raises(PositionError) as err:
        position(2, hands=[["white_circle"] * 5, []])
    assert err.value.field == "white_circle"


def test_position_of_reads_the_fields_back() -> None:
    game = position(
        2,
        hands=[["red_circle"], ["white_triangle"]],
        sets=[[["blue_circle"], [], []], EMPTY_SETS],
        deck=[REVEAL] * 4,
        earned=[1, 2],
    )
    again = position(2, **position_of(game))
    assert position_of(again) == position_of(game)
    assert again.hands == game.hands and again.earned == [1, 2]


def test_save_and_load_keep_the_game() -> None:
    game = at_offers()
    game.apply("offer red_square face down", 1)
    loaded = from_json(to_json(game))
    assert loaded == game


def test_refused_chance_and_other_kinds_of_action() -> None:
    game = at_offers()
    err = refused(game, "the deck shows red_circle")
    assert err.rule == "chance"
    err = refused(game, "take the deck's yellow_circle into set 1", 0)
    assert err.rule == "turn order" and "waiting for player 1 and player 2" in err.reason
