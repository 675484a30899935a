"""Paper World scenarios, one per rule of seeds/004 and RULINGS.md's Paper World section.

Positions are built with `position`; cards are named by code through `Pick`: a colour letter (y yellow,
b blue, g green, k black), a value, then "s" for a card with the scissors logo or "*" for a starting 1.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from cliplab.engine import Action, Hidden, IllegalAction, PositionError, SaveError, from_json, to_json
from cliplab.games.paper_world.content import deck, objectives
from cliplab.games.paper_world.rules import (
    BURIED,
    CENTRE_EMPTIED,
    SPEC,
    Discard,
    EndTurn,
    PaperWorld,
    Pass,
    PlaceCard,
    Scissors,
    TakeColour,
    TakeValue,
    card,
    position,
)
from cliplab.games.paper_world.score import breakdown, live_scores

COLOURS = {"y": "yellow", "b": "blue", "g": "green", "k": "black"}


class Pick:
    """Distinct card numbers by code, each card used once per position."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def __call__(self, code: str) -> int:
        colour, value = COLOURS[code[0]], int(code[1])
        scissors, start = code.endswith("s"), code.endswith("*")
        for found in deck().cards:
            shape = (found.colour, found.value, found.scissors, found.start)
            if shape == (colour, value, scissors, start) and found.number not in self.used:
                self.used.add(found.number)
                return found.number
        raise LookupError(f"no card {code} left")

    def many(self, *codes: str) -> list[int]:
        return [self(code) for code in codes]


def objective(name: str) -> int:
    return next(o.number for o in objectives() if o.name == name)


# Objectives that none of the small positions below reaches by accident.
QUIET = [objective("nine stacks"), objective("24 stars showing"), objective("line summing to 11")]


def build(players: int = 2, **fields: object) -> PaperWorld:
    fields.setdefault("objectives", QUIET)
    return position(players, 4, **fields)


def refused(game: PaperWorld, action: Action, rule: str, words: str) -> None:
    before = game.fingerprint()
    with pytest.raises(IllegalAction) as err:
        game.apply(action)
    assert err.value.rule == rule
    assert words in err.value.reason
    assert game.fingerprint() == before


def tops(game: PaperWorld) -> list[str]:
    return ["-" if top is None else str(card(top)) for top in game.tops()]


# ----- content facts --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_deck_per_player_count_is_the_one_rulings_gives(players: int) -> None:
    cards = [card(c) for c in deck().deck(players)]
    assert len(cards) == {2: 52, 3: 72, 4: 92}[players]
    extra = players - 2
    for colour in COLOURS.values():
        counts = Counter(c.value for c in cards if c.colour == colour)
        assert counts == {1: 4 + extra, 2: 3 + extra, 3: 3 + extra, 4: 2 + extra, 5: 1 + extra}
        marked = [c.value for c in cards if c.colour == colour and c.scissors]
        assert len(marked) == 3 + extra
        assert set(marked) <= {1, 2, 3, 4}
    assert not any(c.start for c in cards)


def test_the_four_starting_ones_are_one_ordinary_1_per_colour() -> None:
    starts = [card(c) for c in deck().start_cards()]
    assert sorted(c.colour for c in starts) == sorted(COLOURS.values())
    assert all(c.value == 1 and not c.scissors for c in starts)


def test_stars_rise_with_rarity_and_fives_are_worth_most() -> None:
    stars = deck().stars
    assert [stars[v] for v in range(1, 6)] == sorted(stars[v] for v in range(1, 6))
    assert stars[5] > stars[4]


def test_tokens_are_4_2_1_and_2_1_with_two_players() -> None:
    assert deck().tokens == {2: (2, 1), 3: (4, 2, 1), 4: (4, 2, 1)}


# ----- the set-up -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_deck_is_dealt_into_five_face_up_piles_and_each_player_gets_a_starting_1(players: int) -> None:
    game = SPEC.new(players, 11)
    assert isinstance(game, PaperWorld)
    sizes = [len(pile) for pile in game.piles]
    assert len(sizes) == 5 and max(sizes) - min(sizes) <= 1
    assert sorted(c for pile in game.piles for c in pile) == sorted(deck().deck(players))
    assert len(game.objectives) == 3 and len(set(game.objectives)) == 3
    hands = [hand[0] for hand in game.hands]
    assert all(len(hand) == 1 for hand in game.hands)
    assert len(set(hands)) == players and set(hands) <= set(deck().start_cards())
    # The other starting cards leave the game: they are nowhere.
    left = set(deck().start_cards()) - set(hands)
    assert not left & {c for pile in game.piles for c in pile}
    assert game.to_move() == (0,)


def test_starting_cards_and_the_deal_come_from_the_seed() -> None:
    one, again, other = SPEC.new(3, 5), SPEC.new(3, 5), SPEC.new(3, 6)
    assert one.piles == again.piles and one.hands == again.hands  # type: ignore[attr-defined]
    assert one.piles != other.piles  # type: ignore[attr-defined]


def test_a_view_shows_only_pile_tops_and_its_own_hand_and_discards() -> None:
    pick = Pick()
    game = build(
        3, hands=[pick.many("y1*", "b2"), pick.many("b1*", "g3"), pick.many("g1*")], discards=[[], [pick("k4")], []]
    )
    view = game.view(0)
    for real, seen in zip(game.piles, view.piles, strict=True):  # type: ignore[attr-defined]
        assert seen[-1] == real[-1] and set(seen[:-1]) <= {BURIED} and len(seen) == len(real)
    assert view.hands[0] == game.hands[0]  # type: ignore[attr-defined]
    assert view.hands[1] == [BURIED, BURIED] and view.discards[1] == [BURIED]  # type: ignore[attr-defined]
    sample = view.determinize(random.Random(3))
    assert isinstance(sample, PaperWorld)
    assert sample.tops() == game.tops() and sample.hands[0] == game.hands[0]
    assert [len(h) for h in sample.hands] == [2, 2, 1]


def test_a_dealt_games_view_hides_the_deck_order() -> None:
    game = SPEC.new(2, 8)
    view = game.view(1)
    hidden = [i for i, (_, action) in enumerate(view.log) if isinstance(action, Hidden)]
    # every card under a top (52 - 5) and the other player's starting card
    assert len(hidden) == 52 - 5 + 1
    # which starting card was dealt stays hidden even once it is placed (a 1 of its colour shows)
    assert isinstance(game, PaperWorld)
    start = game.hands[0][0]
    game.apply(PlaceCard(start, 0, 0))
    game.apply(EndTurn())
    view = game.view(1)
    assert len([a for _, a in view.log if isinstance(a, Hidden)]) == 52 - 5 + 1
    sample = view.determinize(random.Random(1))
    assert isinstance(sample, PaperWorld) and sample.lands[0][(0, 0)] == [start]


def test_discards_are_face_down_until_the_end() -> None:
    pick = Pick()
    y1, y3, g5 = pick.many("y1", "y3", "g5")
    game = build(hands=[[y3, g5], []], landscapes=[[[0, 0, [y1]]], []], piles=[[], [], [], [], []], final_turns=2)
    game.apply(PlaceCard(y3, 0, 0))
    game.apply(Discard(g5))
    view = game.view(1)
    assert isinstance(view, PaperWorld) and view.discards[0] == [BURIED]
    assert isinstance(view.log[-1][1], Hidden)
    game.apply(EndTurn())
    game.apply(Pass())
    assert game.is_over()
    final = game.view(1)
    assert isinstance(final, PaperWorld) and final.discards[0] == [g5] and final.log[-3][1] == Discard(g5)


# ----- taking ----------------------------------------------------------------------------------------


def centre(pick: Pick) -> list[list[int]]:
    """Five piles whose tops are yellow 1, yellow 3, blue 3, green 2 and black 5."""
    return [pick.many("k1", "y1"), pick.many("k2", "y3"), pick.many("k3", "b3"), pick.many("g2"), pick.many("k5")]


def test_take_by_colour_takes_every_top_card_of_that_colour() -> None:
    pick = Pick()
    game = build(piles=centre(pick), hands=[pick.many("y1*"), pick.many("b1*")])
    game.apply(TakeColour("yellow"))
    assert sorted(str(card(c)) for c in game.hands[0]) == ["yellow 1", "yellow 1", "yellow 3"]
    assert tops(game) == ["black 1", "black 2", "blue 3", "green 2", "black 5"]
    assert game.to_move() == (1,)


def test_take_by_value_takes_every_top_card_of_that_value() -> None:
    pick = Pick()
    game = build(piles=centre(pick), hands=[pick.many("y1*"), pick.many("b1*")])
    game.apply(TakeValue(3))
    assert sorted(str(card(c)) for c in game.hands[0]) == ["blue 3", "yellow 1", "yellow 3"]
    assert tops(game) == ["yellow 1", "black 2", "black 3", "green 2", "black 5"]


def test_a_take_names_a_colour_or_value_showing_on_a_top() -> None:
    pick = Pick()
    game = build(piles=centre(pick), hands=[pick.many("y1*"), pick.many("b1*")])
    refused(game, TakeValue(4), "take", "shows the value 4")
    pick = Pick()
    game = build(piles=[pick.many("k1", "y1"), pick.many("y3"), [], [], []], hands=[pick.many("y1*"), []])
    refused(game, TakeColour("black"), "take", "shows the colour black")
    assert game.legal_actions()[:3] == [TakeColour("yellow"), TakeValue(1), TakeValue(3)]


def test_the_hand_limit_is_9_and_the_player_chooses_the_excess_to_discard() -> None:
    pick = Pick()
    hand = pick.many("y1*", "b2", "b3", "b4", "g2", "g3", "g4", "k2")
    game = build(piles=centre(pick), hands=[hand, pick.many("b1*")])
    game.apply(TakeColour("yellow"))  # 8 + 2 = 10 cards
    assert len(game.hands[0]) == 10 and game.to_move() == (0,)
    assert game.legal_actions() == [Discard(c) for c in game.hands[0]]
    refused(game, EndTurn(), "hand limit", "discard down to 9")
    chosen = hand[3]
    game.apply(Discard(chosen))
    assert len(game.hands[0]) == 9 and game.discards[0] == [chosen]
    assert game.to_move() == (1,)


def test_a_take_to_exactly_9_needs_no_discard() -> None:
    pick = Pick()
    hand = pick.many("y1*", "b2", "b3", "b4", "g2", "g3", "g4")
    game = build(piles=centre(pick), hands=[hand, pick.many("b1*")])
    game.apply(TakeColour("yellow"))
    assert len(game.hands[0]) == 9 and game.discards[0] == [] and game.to_move() == (1,)


# ----- placing ----------------------------------------------------------------------------------------


def test_a_new_stack_starts_with_a_1() -> None:
    pick = Pick()
    game = build(hands=[pick.many("y3"), pick.many("b1*")])
    refused(game, PlaceCard(game.hands[0][0], 0, 0), "place", "starts with a 1")
    pick = Pick()
    game = build(hands=[pick.many("y1"), pick.many("b1*")], piles=[[], [], [], [], [pick("k5")]])
    game.apply(PlaceCard(game.hands[0][0], 0, 0))
    assert game.landscape(0) == {(0, 0): ("yellow", 1)}


def test_a_stack_keeps_one_colour_and_rises_by_exactly_1() -> None:
    pick = Pick()
    y1 = pick("y1")
    b2, y4, y2 = pick.many("b2", "y4", "y2")
    game = build(hands=[[b2, y4, y2], pick.many("b1*")], landscapes=[[[0, 0, [y1]]], []])
    refused(game, PlaceCard(b2, 0, 0), "place", "a stack keeps one colour")
    refused(game, PlaceCard(y4, 0, 0), "place", "rises by exactly 1, to 2")
    game.apply(PlaceCard(y2, 0, 0))
    assert game.lands[0][(0, 0)] == [y1, y2]


def test_one_placement_may_put_several_cards_on_one_stack() -> None:
    pick = Pick()
    hand = pick.many("y1", "y2", "y3")
    game = build(hands=[hand, pick.many("b1*")])
    for number in hand:
        game.apply(PlaceCard(number, 0, 0))
    game.apply(EndTurn())
    assert game.lands[0] == {(0, 0): hand} and game.hands[0] == [] and game.to_move() == (1,)


def test_the_cards_of_one_placement_are_all_one_colour_or_all_one_value() -> None:
    pick = Pick()
    y1, b1, y2 = pick.many("y1", "b1", "y2")
    game = build(hands=[[y1, b1, y2], pick.many("b1*")])
    game.apply(PlaceCard(y1, 0, 0))
    game.apply(PlaceCard(b1, 0, 1))  # both 1s
    refused(game, PlaceCard(y2, 0, 0), "place", "all of one colour or all of one value")
    game = build(hands=[[y1, b1, y2], pick.many("g1*")])
    game.apply(PlaceCard(y1, 0, 0))
    game.apply(PlaceCard(y2, 0, 0))  # both yellow
    refused(game, PlaceCard(b1, 0, 1), "place", "all of one colour or all of one value")


def test_a_turn_is_a_take_or_a_placement_never_both() -> None:
    pick = Pick()
    game = build(hands=[pick.many("y1"), pick.many("b1*")], piles=centre(pick))
    game.apply(PlaceCard(game.hands[0][0], 0, 0))
    refused(game, TakeColour("yellow"), "turn", "either a take or a placement")
    refused(build(hands=[pick.many("g1"), pick.many("g1*")]), EndTurn(), "turn", "place at least one card")


def test_new_stacks_go_orthogonally_beside_a_stack_within_3_by_3() -> None:
    pick = Pick()
    row = pick.many("y1", "b1", "g1")
    land = [[0, c, [number]] for c, number in enumerate(row)]
    game = build(hands=[pick.many("k1", "k1"), pick.many("b1*")], landscapes=[land, []])
    k1 = game.hands[0][0]
    assert game.open_cells(0) == [(-1, 0), (-1, 1), (-1, 2), (1, 0), (1, 1), (1, 2)]
    refused(game, PlaceCard(k1, 0, 3), "place", "within 3 x 3")
    refused(game, PlaceCard(k1, 0, -1), "place", "within 3 x 3")
    refused(game, PlaceCard(k1, 2, 0), "place", "beside one of yours")
    game.apply(PlaceCard(k1, 1, 1))
    # Now the landscape spans rows 0-1: a stack may still go above or below, never both.
    game.apply(PlaceCard(game.hands[0][0], -1, 2))
    assert (2, 0) not in game.open_cells(0) and (-1, 1) in game.open_cells(0)


def test_the_first_stack_goes_at_0_0_and_a_diagonal_is_not_beside() -> None:
    pick = Pick()
    game = build(hands=[pick.many("y1", "b1"), pick.many("b1*")])
    y1, b1 = game.hands[0]
    refused(game, PlaceCard(y1, 1, 1), "place", "first stack goes at")
    game.apply(PlaceCard(y1, 0, 0))
    refused(game, PlaceCard(b1, 1, 1), "place", "beside one of yours")


# ----- the skip and the scissors ----------------------------------------------------------------------


def test_a_skip_rises_by_2_for_a_discard_once_per_turn() -> None:
    pick = Pick()
    y1, b1 = pick.many("y1", "b1")
    y3, b3, g5 = pick.many("y3", "b3", "g5")
    game = build(hands=[[y3, b3, g5], pick.many("b1*")], landscapes=[[[0, 0, [y1]], [0, 1, [b1]]], []])
    game.apply(PlaceCard(y3, 0, 0))
    assert game.legal_actions() == [Discard(b3), Discard(g5)]
    refused(game, EndTurn(), "skip", "costs a card")
    game.apply(Discard(g5))
    assert game.discards[0] == [g5] and game.lands[0][(0, 0)] == [y1, y3]
    refused(game, PlaceCard(b3, 0, 1), "place", "used this turn's skip")
    game.apply(EndTurn())
    assert game.to_move() == (1,)


def test_a_skip_may_start_a_stack_at_2() -> None:
    pick = Pick()
    y2, k4 = pick.many("y2", "k4")
    game = build(hands=[[y2, k4], pick.many("b1*")])
    game.apply(PlaceCard(y2, 0, 0))
    game.apply(Discard(k4))
    assert game.landscape(0) == {(0, 0): ("yellow", 2)} and game.discards[0] == [k4]


def test_a_skip_needs_another_card_in_hand_to_discard() -> None:
    pick = Pick()
    y1 = pick("y1")
    game = build(hands=[pick.many("y3"), pick.many("b1*")], landscapes=[[[0, 0, [y1]]], []])
    refused(game, PlaceCard(game.hands[0][0], 0, 0), "place", "no other card to discard")


def test_holding_the_scissors_makes_the_skip_free_still_once_per_turn() -> None:
    pick = Pick()
    y1, b1, k2 = pick.many("y1", "b1", "k2s")
    y3, b3 = pick.many("y3", "b3")
    land = [[0, 0, [y1]], [0, 1, [b1]], [0, 2, [pick("k1"), k2]]]
    game = build(hands=[[y3, b3], pick.many("b1*")], landscapes=[land, []], scissors=[0, 0, 2])
    game.apply(PlaceCard(y3, 0, 0))
    assert game.discards[0] == [] and Discard(b3) not in game.legal_actions()
    refused(game, PlaceCard(b3, 0, 1), "place", "used this turn's skip")


def test_nothing_goes_onto_the_stack_under_the_scissors() -> None:
    pick = Pick()
    y1, y2 = pick.many("y1", "y2s")
    game = build(hands=[pick.many("y3"), pick.many("b1*")], landscapes=[[[0, 0, [y1, y2]]], []], scissors=[0, 0, 0])
    refused(game, PlaceCard(game.hands[0][0], 0, 0), "place", "scissors lie on that stack")


def test_placing_a_scissors_card_may_move_the_token_onto_it() -> None:
    pick = Pick()
    y1, y2 = pick("y1"), pick("y2s")
    game = build(hands=[[y2], pick.many("b1*")], landscapes=[[[0, 0, [y1]]], []])
    assert game.scissors is None
    game.apply(PlaceCard(y2, 0, 0))
    assert game.legal_actions() == [Scissors("move"), Scissors("leave")]
    refused(game, EndTurn(), "scissors", "say whether the scissors move")
    before = game.score(0)
    game.apply(Scissors("move"))
    assert game.scissors == (0, 0, 0) and game.holds_scissors(0)
    assert game.score(0) == before + 2


def test_the_scissors_may_be_left_where_they_are() -> None:
    pick = Pick()
    b1, b2 = pick.many("b1", "b2s")
    y1, y2 = pick("y1"), pick("y2s")
    game = build(hands=[[y2], pick.many("g1*")], landscapes=[[[0, 0, [y1]]], [[0, 0, [b1, b2]]]], scissors=[1, 0, 0])
    game.apply(PlaceCard(y2, 0, 0))
    game.apply(Scissors("leave"))
    assert game.scissors == (1, 0, 0)


def test_the_token_moves_from_its_holder_to_whoever_places_the_next_scissors_card() -> None:
    pick = Pick()
    b1, b2 = pick.many("b1", "b2s")
    y1, y2 = pick("y1"), pick("y2s")
    game = build(hands=[[y2], pick.many("b3")], landscapes=[[[0, 0, [y1]]], [[0, 0, [b1, b2]]]], scissors=[1, 0, 0])
    assert game.holds_scissors(1) and not game.holds_scissors(0)
    game.apply(PlaceCard(y2, 0, 0))
    game.apply(Scissors("move"))
    game.apply(EndTurn())
    assert game.holds_scissors(0) and not game.holds_scissors(1)
    game.apply(PlaceCard(game.hands[1][0], 0, 0))  # player 1's stack is free again
    assert game.landscape(1)[(0, 0)] == ("blue", 3)


# ----- objectives -------------------------------------------------------------------------------------


def l_shape_game(players: int) -> PaperWorld:
    """Every player one 1 away from an L of one colour (stacks at (0, 0) and (0, 1), a 1 to put below)."""
    pick = Pick()
    lands, hands = [], []
    for colour in "ybg"[:players]:
        lands.append([[0, 0, [pick(f"{colour}1")]], [0, 1, [pick(f"{colour}1")]]])
        hands.append([pick(f"{colour}1")])
    goals = [objective("L of one colour"), objective("nine stacks"), objective("24 stars showing")]
    return build(players, landscapes=lands, hands=hands, objectives=goals, piles=[[pick("k5")], [], [], [], []])


def test_an_objective_is_claimed_at_the_end_of_the_turn_with_the_highest_token_left() -> None:
    game = l_shape_game(3)
    for seat, token in enumerate((4, 2, 1)):
        game.apply(PlaceCard(game.hands[seat][0], 1, 0))
        assert game.claims[seat] == [0, 0, 0]  # not before the turn ends
        game.apply(EndTurn())
        assert game.claims[seat] == [token, 0, 0]
    assert game.tokens[0] == []


def test_with_two_players_the_tokens_are_2_and_1() -> None:
    game = l_shape_game(2)
    for seat in range(2):
        game.apply(PlaceCard(game.hands[seat][0], 1, 0))
        game.apply(EndTurn())
    assert [claims[0] for claims in game.claims] == [2, 1]


def test_an_objective_is_claimed_once_per_player() -> None:
    game = l_shape_game(2)
    game.apply(PlaceCard(game.hands[0][0], 1, 0))
    game.apply(EndTurn())
    game.apply(TakeValue(5))
    game.apply(Pass()) if game.legal_actions() == [Pass()] else game.apply(game.legal_actions()[0])
    assert game.claims[0] == [2, 0, 0] and game.tokens[0] == [1]


def test_objectives_claimed_when_the_tokens_are_gone_give_nothing() -> None:
    pick = Pick()
    lands = [[[0, 0, [pick("y1")]], [0, 1, [pick("y1")]], [1, 0, [pick("y1")]]], []]
    goals = [objective("L of one colour"), objective("nine stacks"), objective("24 stars showing")]
    game = build(
        2,
        landscapes=lands,
        hands=[[], [pick("b1")]],
        objectives=goals,
        claims=[[0, 0, 0], [0, 0, 0]],
        piles=[[pick("k5")], [], [], [], []],
    )
    game.apply(TakeValue(5))
    assert game.claims[0] == [2, 0, 0]


@pytest.mark.parametrize(
    ("name", "stacks", "met"),
    [
        ("L of one colour", {(0, 0): "y2", (1, 0): "y1", (1, 1): "y3"}, True),
        ("L of one colour", {(0, 0): "y2", (1, 0): "b1", (1, 1): "y3"}, False),
        ("line of one colour", {(0, 0): "g1", (1, 0): "g2", (2, 0): "g1"}, True),
        (
            "three corners of one value",
            {(r, c): "k2" if (r + c) % 2 == 0 else "y1" for r in range(3) for c in range(3)},
            True,
        ),
        ("three corners of one value", {(0, 0): "k2", (0, 2): "k3", (2, 0): "k2", (2, 2): "b1"}, False),
        ("square of four colours", {(0, 0): "y1", (0, 1): "b1", (1, 0): "g1", (1, 1): "k1"}, True),
        ("square of four colours", {(0, 0): "y1", (0, 1): "b1", (1, 0): "g1", (1, 1): "y2"}, False),
        ("line summing to 9", {(0, 0): "y2", (0, 1): "b3", (0, 2): "g4"}, True),
        ("line summing to 9", {(0, 0): "y2", (0, 1): "b3", (1, 1): "g4"}, False),
        ("line rising 1-2-3, 2-3-4 or 3-4-5", {(0, 0): "y5", (0, 1): "b4", (0, 2): "g3"}, True),
        ("line rising 1-2-3, 2-3-4 or 3-4-5", {(0, 0): "y5", (0, 1): "b3", (0, 2): "g4"}, False),
        ("diagonal pair of one colour", {(0, 1): "b1", (1, 0): "b2"}, True),
        ("diagonal pair of one colour", {(0, 0): "b1", (1, 1): "y2", (0, 1): "b1"}, False),
        ("values 1 to 5 all showing", {(0, c): f"y{c + 1}" for c in range(3)} | {(1, 0): "b4", (1, 1): "b5"}, True),
        ("eight stacks", {(r, c): "y1" for r in range(3) for c in range(2)}, False),
        ("eight stacks", {(r, c): "y1" for r in range(3) for c in range(3) if (r, c) != (1, 1)}, True),
        ("line summing to 11", {(0, 0): "y5", (1, 0): "b4", (2, 0): "g2"}, True),
        ("24 stars showing", {(0, 0): "y5", (0, 1): "b5", (0, 2): "g5"}, False),
        ("24 stars showing", {(0, 0): "y5", (0, 1): "b5", (0, 2): "g5", (1, 0): "k5"}, True),
    ],
)
def test_objective_patterns_are_met_by_the_landscapes_they_describe(
    name: str, stacks: dict[tuple[int, int], str], met: bool
) -> None:
    shown = {at: (COLOURS[code[0]], int(code[1])) for at, code in stacks.items()}
    found = next(o for o in objectives() if o.name == name)
    assert found.met(shown, deck().stars) is met


# ----- the end and the score ----------------------------------------------------------------------------


def test_once_two_piles_are_left_everyone_has_one_more_turn() -> None:
    pick = Pick()
    piles = [pick.many("y1"), pick.many("b2"), pick.many("g3", "g4"), [], []]
    game = build(3, piles=piles, hands=[pick.many("y1*"), pick.many("b1*"), pick.many("g1*")])
    game.apply(TakeColour("yellow"))  # two piles left: the end is triggered
    assert game.final_turns == 3
    for seat in (1, 2):
        assert game.to_move() == (seat,) and not game.is_over()
        game.apply(game.legal_actions()[0])
        if game.to_move() == (seat,):
            game.apply(EndTurn())
    assert game.to_move() == (0,), "the player who triggered the end plays once more"
    game.apply(game.legal_actions()[0])
    if not game.is_over():
        game.apply(EndTurn())
    outcome = game.outcome()
    assert outcome is not None and outcome.termination == CENTRE_EMPTIED
    assert game.turns == 4


def test_the_end_waits_for_the_end_of_the_turn_that_empties_the_third_pile() -> None:
    pick = Pick()
    piles = [pick.many("y1"), pick.many("b2"), pick.many("g3"), pick.many("k4"), []]
    game = build(2, piles=piles, hands=[pick.many("y1*"), pick.many("b1*")])
    game.apply(TakeColour("yellow"))  # three piles left
    assert game.final_turns == -1


def test_a_player_who_can_neither_take_nor_place_passes() -> None:
    pick = Pick()
    game = build(2, piles=[[], [], [], [], []], hands=[pick.many("y3"), pick.many("b1*")])
    assert game.legal_actions() == [Pass()]
    game.apply(Pass())
    assert game.to_move() == (1,) and game.final_turns == 2
    refused(game, Pass(), "pass", "neither take nor place")


def test_the_score_is_stars_showing_tokens_and_scissors_less_cards_in_hand_and_discarded() -> None:
    pick = Pick()
    land = [[0, 0, pick.many("y1", "y2", "y3s")], [0, 1, pick.many("b1", "b2", "b3", "b4", "b5")]]
    game = build(
        2,
        landscapes=[land, []],
        scissors=[0, 0, 0],
        claims=[[2, 0, 2], [1, 0, 0]],
        hands=[pick.many("g2", "g3"), pick.many("b1*")],
        discards=[[pick("k1")], []],
    )
    stars = deck().stars
    assert game.score(0) == stars[3] + stars[5] + 4 + 2 - 2 - 1
    lines = breakdown(game)[0]
    assert sum(points for _, points in lines) == game.score(0) == live_scores(game)[0]


def final_position(stacks: list[list[str]], discards: list[list[str]]) -> PaperWorld:
    """Two players, each with one stack and nothing to do on the game's last turn."""
    pick = Pick()
    lands = [[[0, 0, [pick(c) for c in stack]]] for stack in stacks]
    return build(
        2,
        piles=[[], [], [], [], []],
        landscapes=lands,
        hands=[[], []],
        discards=[[pick(c) for c in row] for row in discards],
        final_turns=1,
    )


def test_a_tie_goes_to_the_player_with_fewer_discarded_cards() -> None:
    game = final_position([["y1", "y2", "y3"], ["b1", "b2"]], [["k1"], []])
    game.apply(Pass())
    outcome = game.outcome()
    assert outcome is not None
    assert list(outcome.scores) == [2, 2] and list(outcome.winners) == [1]
    assert outcome.decided_by == "fewer discarded cards"


def test_a_tie_on_score_and_discards_is_shared() -> None:
    game = final_position([["y1", "y2", "y3"], ["b1", "b2", "b3"]], [["k1"], ["g1"]])
    game.apply(Pass())
    outcome = game.outcome()
    assert outcome is not None
    assert list(outcome.scores) == [2, 2] and list(outcome.winners) == [0, 1] and outcome.decided_by == "tied"


def test_positions_reject_what_no_game_reaches() -> None:
    pick = Pick()
    y1, y3 = pick.many("y1", "y3")
    with pytest.raises(PositionError) as err:
        position(2, landscapes=[[[0, 0, [y1, pick("b2")]]], []])
    assert "one colour" in str(err.value)
    with pytest.raises(PositionError) as err:
        position(2, landscapes=[[[0, 0, [y3]]], []])
    assert "rises by 1 from 1" in str(err.value)
    with pytest.raises(PositionError) as err:
        position(2, hands=[[pick("b5"), 60], []])
    assert "not in the deck of a 2-player game" in str(err.value)
    with pytest.raises(PositionError) as err:
        position(2, landscapes=[[[0, 0, [y1]], [1, 1, [pick("g1")]]], []])
    assert "touch side by side" in str(err.value)


def test_a_save_whose_start_position_lacks_a_field_is_refused_naming_it() -> None:
    record = json.loads(to_json(position(2, hands=[[Pick()("b2")], []])))
    del record["start"]["piles"]
    with pytest.raises(SaveError) as err:
        from_json(json.dumps(record))
    assert err.value.where == "start.piles" and "missing" in err.value.problem


def test_a_game_saves_and_loads_midway() -> None:
    game = SPEC.new(3, 2)
    rng = random.Random(2)
    for _ in range(30):
        game.apply(rng.choice(game.legal_actions()))
    again = from_json(to_json(game))
    assert again == game
