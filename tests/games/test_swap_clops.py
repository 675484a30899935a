"""Swap Clops (tile game) scenarios, one per rule of seeds/003 (second part) and RULINGS.md.

Boards are sketched with `layout`: a code per space, shape letter (c, s, t), face letter (A angry,
W worried, S serious, B bleeeh, H happy), an optional wall side (n, e, s, w), ".." for an empty space.
The filler rows alternate faces so that they hold no group of their own.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cliplab.engine import CHANCE, IllegalAction, PositionError, SaveError, from_json, replay, to_json
from cliplab.games.swap_clops.content import FACES, LIKES, SHAPES, tile, tile_set
from cliplab.games.swap_clops.rules import (
    NOBODY_CAN_SWAP,
    ROUND_LIMIT,
    SPEC,
    SUPPLY_OUT,
    Draw,
    Pass,
    Swap,
    SwapClops,
    layout,
    place_of,
    position,
    position_of,
    quiet_fill,
    space_of,
)


def fill(board: list[list[int]], supply_size: int | None = None) -> tuple[list[list[int]], list[int]]:
    """`board` made playable by the rules' quiet fill, and the supply (or its first `supply_size` tiles)."""
    filled, rest = quiet_fill(board)
    return filled, rest if supply_size is None else rest[:supply_size]


def sketch(*rows: str, full: bool = False, players: int = 2, **fields: object) -> SwapClops:
    """A game whose board begins with `rows`: the rest of the board empty and the supply empty, or with
    `full` the rest filled with clops that join nothing and the other tiles in the supply."""
    board = layout([*rows, *[""] * (8 - len(rows))])
    if full:
        board, supply = fill(board)
        fields.setdefault("supply", supply)
    else:
        fields.setdefault("supply", [])
    seed = fields.pop("seed", 3)
    return position(players, seed, board=board, **fields)  # type: ignore[arg-type]


def new_game(players: int, seed: int) -> SwapClops:
    game = SPEC.new(players, seed)
    assert isinstance(game, SwapClops)
    return game


def refused(game: SwapClops, action: object, rule: str, words: str) -> None:
    before = game.fingerprint()
    with pytest.raises(IllegalAction) as err:
        game.apply(action)  # type: ignore[arg-type]
    assert err.value.rule == rule
    assert words in err.value.reason
    assert game.fingerprint() == before


def play_turn(game: SwapClops, text: str) -> None:
    game.apply(text)


# ----- the tiles ----------------------------------------------------------------------------------


def test_tiles_ninety_three_shapes_five_faces_five_likes_six_of_every_pair() -> None:
    tiles = tile_set().tiles
    assert len(tiles) == 90 and [t.number for t in tiles] == list(range(1, 91))
    pairs = Counter((t.shape, t.face) for t in tiles)
    assert set(pairs) == {(s, f) for s in SHAPES for f in FACES} and set(pairs.values()) == {6}
    assert Counter(t.like for t in tiles) == dict.fromkeys(LIKES, 18)


def test_tiles_fifteen_walls_their_sides_spread_evenly() -> None:
    sides = Counter(t.wall for t in tile_set().tiles if t.wall)
    assert sum(sides.values()) == 15
    assert sorted(sides.values()) == [3, 4, 4, 4]


# ----- setup ----------------------------------------------------------------------------------------


def test_setup_an_8x8_board_drawn_from_the_supply_the_rest_is_the_supply() -> None:
    game = new_game(3, seed=11)
    on_board = [n for n in game.board if n]
    assert len(on_board) == 64 and len(set(on_board)) == 64
    assert sorted(on_board + game.supply) == list(range(1, 91))
    # One chance event deals the whole board, in reading order.
    assert [(seat, type(action)) for seat, action in game.log] == [(CHANCE, Draw)]
    assert list(game.log[0][1].tiles) == game.board  # type: ignore[attr-defined]
    assert game.to_move() == (0,)


def test_setup_draws_depend_on_the_seed() -> None:
    assert new_game(2, seed=1).board != new_game(2, seed=2).board
    assert new_game(2, seed=1).board == new_game(2, seed=1).board


# ----- swapping ----------------------------------------------------------------------------------


def test_swap_two_clops_of_the_same_shape_at_any_distance() -> None:
    game = sketch("cA sB", "tH", "sB", "", "", "", "", "cW")
    assert Swap(0, 0, 7, 0) in game.legal_actions()  # corner to corner of a column: no adjacency needed
    first, far = game.tile_at(0, 0), game.tile_at(7, 0)
    play_turn(game, "swap 0,0 with 7,0")
    assert (game.tile_at(0, 0), game.tile_at(7, 0)) == (far, first)


def test_swap_of_two_shapes_is_refused_naming_both() -> None:
    game = sketch("cA sB")
    refused(game, "swap 0,0 with 0,1", "swap", "only clops of the same shape swap: 0,0 is a circle and 0,1 is a square")


def test_swap_refusals_off_the_board_same_space() -> None:
    game = sketch("cA sB")
    refused(game, "swap 0,0 with 8,0", "swap", "off the board")
    refused(game, "swap 0,0 with 0,0", "swap", "two different spaces")


def test_swap_that_makes_no_group_is_legal_and_collects_nothing() -> None:
    game = sketch("cA cW")
    before = list(game.board)
    play_turn(game, "swap 0,0 with 0,1")
    assert game.collected == [[], []]
    assert game.board[0:2] == [before[1], before[0]] and game.board[2:] == before[2:]
    assert game.to_move() == (1,)


def test_swap_named_from_its_later_space_is_the_same_swap() -> None:
    game = sketch("cA cW")
    assert game.apply("swap 0,1 with 0,0") == Swap(0, 0, 0, 1)


def test_swap_tiles_keep_their_orientation_walls_move_with_their_tile() -> None:
    game = sketch("cAn cW")
    walled = game.tile_at(0, 0)
    play_turn(game, "swap 0,0 with 0,1")
    assert game.tile_at(0, 1) == walled and tile(walled).wall == "N"


# ----- collecting ------------------------------------------------------------------------------------


def test_collect_a_group_of_four_made_by_a_swap() -> None:
    # Three angry clops in a row, a fourth angry circle far away swaps in next to them.
    game = sketch("cA cA cA cW", "", "", "", "", "", "", "sB tH sS tW sB tH sS cA")
    taken = [game.tile_at(0, c) for c in range(3)] + [game.tile_at(7, 7)]
    play_turn(game, "swap 0,3 with 7,7")
    assert sorted(game.collected[0]) == sorted(taken)


def test_collect_needs_four_a_group_of_three_stays() -> None:
    game = sketch("cA cA cW sB", "", "", "", "", "", "", "sB tH sS tW sB tH sS cA")
    play_turn(game, "swap 0,2 with 7,7")
    assert game.collected == [[], []]


def test_collect_orthogonal_joins_only_not_diagonal() -> None:
    # A staircase of four angry clops touches only corner to corner.
    game = sketch("cA sB", "tH cA", "sW tS cA", "tB sH tW cW", "", "", "", "sB tH sS tW sB tH sS cA")
    play_turn(game, "swap 3,3 with 7,7")
    assert game.collected == [[], []]


def test_collect_walls_cut_joins_on_their_side() -> None:
    # Four angry in a row, but the second carries a wall on its east side: 2 + 2, nothing collected.
    game = sketch("sA sAe sA cW", "", "", "", "", "", "", "sB tH sS tW sB tH sS cA")
    play_turn(game, "swap 0,3 with 7,7")
    assert game.collected == [[], []]


def test_collect_a_wall_on_a_side_away_from_the_group_does_not_cut() -> None:
    game = sketch("cA cAn cA cW", "", "", "", "", "", "", "sB tH sS tW sB tH sS cA")
    play_turn(game, "swap 0,3 with 7,7")
    assert len(game.collected[0]) == 4


def test_collect_the_neighbours_wall_cuts_the_join_too() -> None:
    # Worried clops this time: the wall sits on the west side of the third, cutting its join with the second.
    game = sketch("tW tW tWw cA", "", "", "", "", "", "", "sB tH sS tS sB tH sS cW")
    play_turn(game, "swap 0,3 with 7,7")
    assert game.collected == [[], []]


def test_collect_only_groups_holding_a_swapped_tile() -> None:
    # A standing group of four happy triangles in row 2 is not touched by the swap in row 0.
    game = sketch("cA cA cA cW", "sB tS sB tS", "tH tH tH tH", "", "", "", "", "sB sH sS tW sB sH sS cA")
    standing = [game.tile_at(2, c) for c in range(4)]
    play_turn(game, "swap 0,3 with 7,7")
    assert len(game.collected[0]) == 4 and not set(standing) & set(game.collected[0])
    assert [game.tile_at(2, c) for c in range(4)] == standing


def test_collect_two_groups_in_one_swap() -> None:
    # The swap puts an angry circle beside three angry and a worried circle beside three worried.
    game = sketch("cA cA cA cW", "cW cW cW cA")
    play_turn(game, "swap 0,3 with 1,3")
    assert len(game.collected[0]) == 8


def test_collect_a_group_standing_before_the_swap_when_a_swapped_tile_is_in_it() -> None:
    # Two angry circles swapped inside a standing group of four collect it (RULINGS).
    game = sketch("cA cA cA cA")
    play_turn(game, "swap 0,0 with 0,3")
    assert len(game.collected[0]) == 4


# ----- refill ----------------------------------------------------------------------------------------


def test_refill_in_reading_order_from_the_supply() -> None:
    # The swap collects rows 0 and 1, columns 0-3: the draws fill row 0 first, each left to right.
    game = sketch("cA cA cA cW", "cW cW cW cA", full=True)
    supply = set(game.supply)
    dealt = len(game.log)
    play_turn(game, "swap 0,3 with 1,3")
    ((seat, draw),) = game.log[dealt + 1 :]
    assert seat == CHANCE and isinstance(draw, Draw) and len(draw.tiles) == 8
    holes = [(r, c) for r in (0, 1) for c in range(4)]
    assert [game.tile_at(r, c) for r, c in holes] == list(draw.tiles)
    assert game.last_refilled == [space_of(r, c) for r, c in holes]
    assert set(draw.tiles) <= supply and len(game.supply) == len(supply) - 8
    assert 0 not in game.board


def test_refill_groups_wait_until_a_swap_touches_them() -> None:
    # Whatever the refill forms is not collected by the refill: the only tiles collected are the swap's.
    for seed in range(30):
        game = sketch("cA cA cA cW", "", "", "", "", "", "", "sB tH sS tW sB tH sS cA", full=True, seed=seed)
        game.apply("swap 0,3 with 7,7")
        assert len(game.collected[0]) == 4 and game.collected[1] == []


def test_refill_order_is_hidden_views_hold_no_seed_samples_draw_their_own() -> None:
    game = sketch("cA cA cA cW", "", "", "", "", "", "", "sB tH sS tW sB tH sS cA", full=True)
    view = game.view(0)
    assert view.config.seed is None
    refills = set()
    for k in range(8):
        sample = view.determinize(random.Random(k))
        sample.apply("swap 0,3 with 7,7")
        refills.add(tuple(sample.board[0:3]))  # type: ignore[attr-defined]
    assert len(refills) > 1


# ----- passing and the end -------------------------------------------------------------------------


def test_pass_only_without_a_legal_swap() -> None:
    game = sketch("cA cA")
    refused(game, "pass", "pass", "you may pass only when no swap is possible")


def test_pass_when_no_two_clops_share_a_shape() -> None:
    board = layout(["cA sW tB"] + [""] * 7)
    game = position(2, board=board, supply=[], triggered=True, seat=1)
    assert game.legal_actions() == [Pass()]
    game.apply("pass")
    assert game.outcome() is not None  # seat 1 ended the last round


def test_pass_by_every_seat_in_a_round_ends_the_game() -> None:
    board = layout(["cA sW tB"] + [""] * 7)
    game = position(3, board=board, supply=[], seat=0)
    game.apply("pass")
    game.apply("pass")
    assert game.outcome() is None
    game.apply("pass")
    outcome = game.outcome()
    assert outcome is not None and outcome.termination == NOBODY_CAN_SWAP


def test_end_a_refill_that_cannot_fill_every_space_triggers_the_end_and_the_round_is_finished() -> None:
    board, spare = fill(layout(["cA cA cA cW"] + [""] * 6 + ["sB tH sS tW sB tH sS cA"]), supply_size=2)
    game = position(3, seed=1, board=board, supply=spare)
    game.apply("swap 0,3 with 7,7")  # collects 4, the supply has 2
    assert game.triggered and game.supply == [] and game.board.count(0) == 2
    assert game.outcome() is None and game.to_move() == (1,)
    game.apply(game.legal_actions()[0])
    assert game.outcome() is None
    game.apply(game.legal_actions()[0])
    outcome = game.outcome()
    assert outcome is not None and outcome.termination == SUPPLY_OUT
    assert game.board.count(0) >= 2  # spaces left empty stay empty


def test_end_a_refill_that_empties_the_supply_exactly_triggers_the_end() -> None:
    board, spare = fill(layout(["cA cA cA cW"] + [""] * 6 + ["sB tH sS tW sB tH sS cA"]), supply_size=4)
    game = position(2, seed=1, board=board, supply=spare)
    game.apply("swap 0,3 with 7,7")
    assert game.supply == [] and 0 not in game.board and game.triggered
    game.apply(game.legal_actions()[0])
    assert game.outcome() is not None


def test_end_triggered_by_the_last_seat_ends_at_once() -> None:
    board, _ = fill(layout(["cA cA cA cW"] + [""] * 6 + ["sB tH sS tW sB tH sS cA"]))
    game = position(2, board=board, supply=[], seat=1)
    game.apply("swap 0,3 with 7,7")
    assert game.outcome() is not None and game.outcome().termination == SUPPLY_OUT  # type: ignore[union-attr]


def test_end_round_limit_house_rule() -> None:
    game = sketch("cA cW", full=True, round=2, round_limit=2)
    game.apply("swap 0,0 with 0,1")
    game.apply("swap 0,0 with 0,1")
    assert game.outcome() is not None and game.outcome().termination == ROUND_LIMIT  # type: ignore[union-attr]


def test_end_seat_zero_starts_and_every_seat_has_as_many_turns() -> None:
    rng = random.Random(5)
    for seed in range(10):
        game = new_game(3, seed)
        while not game.is_over():
            game.apply_fast(rng.choice(game.legal_actions()), game.current_player())
        turns = Counter(seat for seat, _ in game.log if seat >= 0)
        assert game.log[1][0] == 0  # after the deal
        assert len(set(turns.values())) == 1 and len(turns) == 3


# ----- scoring -------------------------------------------------------------------------------------


def _by_like(like: str) -> list[int]:
    return [t.number for t in tile_set().tiles if t.like == like]


def test_score_one_per_tile_plus_five_per_like_majority() -> None:
    sun, moon = _by_like("sunshine"), _by_like("moon")
    collected = [sun[:3] + moon[:1], sun[3:4] + moon[1:3]]
    board = layout(["cA sW tB"] + [""] * 7)
    game = position(2, board=board, supply=[], collected=collected, seat=0, round=1)
    assert game.likes_won() == [["sunshine"], ["moon"]]
    assert game.scores() == [4 + 5, 3 + 5]


def test_score_like_ties_shared_by_default() -> None:
    sun = _by_like("sunshine")
    game = position(2, board=layout(["cA"] + [""] * 7), supply=[], collected=[sun[:2], sun[2:4]])
    assert game.scores() == [2 + 5, 2 + 5]


def test_score_like_ties_none_option_gives_nobody_the_bonus() -> None:
    sun = _by_like("sunshine")
    game = position(2, board=layout(["cA"] + [""] * 7), supply=[], collected=[sun[:2], sun[2:4]], like_ties="none")
    assert game.scores() == [2, 2]


def test_score_like_bonus_needs_at_least_one_tile_of_it() -> None:
    game = position(2, board=layout(["cA"] + [""] * 7), supply=[], collected=[[], []])
    assert game.likes_won() == [[], []] and game.scores() == [0, 0]


def test_score_outcome_ranks_and_the_winner() -> None:
    sun = _by_like("sunshine")
    game = position(2, board=layout(["cA sW tB"] + [""] * 7), supply=[], collected=[sun[:3], sun[3:4]], seat=0)
    game.apply("pass")
    game.apply("pass")
    outcome = game.outcome()
    assert outcome is not None and outcome.scores == (8, 1) and outcome.winners == (0,)


# ----- positions, saves ------------------------------------------------------------------------------


def test_position_fields_read_back_and_replay() -> None:
    game = sketch("cA cA cA cW", "", "", "", "", "", "", "sB tH sS tW sB tH sS cA", full=True)
    game.apply("swap 0,3 with 7,7")
    again = position(2, seed=3, **position_of(game))
    assert again.board == game.board and again.collected == game.collected and again.seat == game.seat
    assert from_json(to_json(game)) == game
    assert replay(game.config, game.log) == game


def test_a_saved_deal_that_the_supply_cannot_give_is_refused_on_replay() -> None:
    game = new_game(2, seed=8)
    (seat, deal), *rest = game.log
    assert isinstance(deal, Draw)
    tampered = [Draw((deal.tiles[1], *deal.tiles[1:])), Draw(deal.tiles[:-1]), Draw((*deal.tiles[:-1], 91))]
    for draw in tampered:
        with pytest.raises(SaveError, match=r"log\[0\].*not possible at this point"):
            replay(game.config, [(seat, draw), *rest])


def test_the_checked_path_allows_exactly_the_listed_swaps() -> None:
    # The rules answer "is this swap legal?" without listing every swap: the answer must equal the list's.
    # Both spaces orders are tried (the later space first names the same swap), with spaces off the board.
    game = new_game(2, seed=6)
    rng = random.Random(6)
    pairs = [(a, b) for a in range(64) for b in range(a + 1, 64)]
    for _ in range(5):
        listed = set(game.legal_actions())
        for a, b in [*rng.sample(pairs, 200), (-1, 1), (0, 64)]:
            written_up = Swap(*place_of(a), *place_of(b))
            written_down = Swap(*place_of(b), *place_of(a))
            for action in (written_up, written_down):
                trial = game.clone()
                try:
                    trial.apply(action)
                    allowed = True
                except IllegalAction:
                    allowed = False
                assert allowed == (written_up in listed), action
        trial = game.clone()
        with pytest.raises(IllegalAction, match="two different spaces"):
            trial.apply(Swap(0, 0, 0, 0))
        with pytest.raises(IllegalAction, match="pass only"):
            trial.apply(Pass())
        game.apply_fast(rng.choice(sorted(listed, key=str)), game.current_player())


def test_position_refuses_a_tile_twice_and_empty_spaces_beside_a_supply() -> None:
    with pytest.raises(PositionError, match="already"):
        position(2, board=layout(["cA"] + [""] * 7), supply=[2])
    with pytest.raises(PositionError, match="empty while the supply"):
        position(2, board=layout(["cA"] + [""] * 7))
    with pytest.raises(PositionError, match="not a tile code"):
        layout(["xx"] + [""] * 7)


def test_pass_action_refused_when_swaps_exist_keeps_the_fingerprint() -> None:
    game = new_game(2, seed=4)
    refused(game, Pass(), "pass", "you can 'swap")
