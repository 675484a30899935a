"""Scenario tests for Click & Crack, one or more per rule paragraph of seeds/002 with RULINGS.md.

Positions are set up through the placement phase where the rules allow it; cracks, broken-off tiles,
lost penguins and scores from earlier play are written into the state directly.
"""

from __future__ import annotations

import random

import pytest
from click_crack_positions import arrange, set_tiles

from cliplab.engine import CHANCE, Hidden, IllegalAction, from_json, new_game, to_json
from cliplab.games.click_crack import ClickCrack
from cliplab.games.click_crack.rules import (
    ALL_PLACES,
    ALL_SETTINGS,
    FEW_PENGUINS,
    FLOE,
    FLOE_SMALL,
    PASS,
    ROUND_LIMIT,
    SCORE_REACHED,
    Place,
)
from cliplab.grid import segment

Point = tuple[int, int]


def where(game: ClickCrack, *penguins: int) -> list[Point | None]:
    return [game.pos[p] for p in penguins]


# ----- placement -------------------------------------------------------------------------------------


def test_placement_each_player_places_one_then_the_second_in_the_same_order() -> None:
    game = new_game("click_crack", players=3)
    seen = []
    for k in range(6):
        (seat,) = game.to_move()
        seen.append(seat)
        game.apply(f"place at {k},{k}")
    assert seen == [0, 1, 2, 0, 1, 2]
    assert game.pos == [(0, 0), (3, 3), (1, 1), (4, 4), (2, 2), (5, 5)]
    assert game.phase == "program"


def test_placement_snake_option_reverses_the_order_for_second_penguins() -> None:
    game = new_game("click_crack", players=3, variant="snake")
    seen = []
    for k in range(6):
        seen.append(game.current_player())
        game.apply(f"place at 0,{k}")
    assert seen == [0, 1, 2, 2, 1, 0]


def test_placement_on_an_occupied_intersection_is_refused() -> None:
    game = new_game("click_crack", players=2)
    game.apply("place at 2,2")
    before = game.clone()
    with pytest.raises(IllegalAction, match="already stands") as refused:
        game.apply("place at 2,2")
    assert refused.value.rule == "placement"
    assert game == before
    with pytest.raises(IllegalAction, match="intersections"):
        game.apply("place at 6,0")


def test_placement_and_setting_are_judged_as_the_legal_list_says() -> None:
    # Placements and settings are checked without listing every legal one: the check must agree with the list.
    game = new_game("click_crack", players=2)
    game.apply("place at 2,2")
    oddities = [Place(5, 0), Place(-1, 2), ALL_SETTINGS[0]]
    for action in [*ALL_PLACES, *oddities]:
        trial = game.clone()
        listed = action in game.legal_actions()
        try:
            trial.apply(action)
        except IllegalAction:
            assert not listed, action
            assert trial == game
        else:
            assert listed, action
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    assert game.phase == "program"
    for action in [*ALL_SETTINGS, ALL_PLACES[0]]:
        trial = game.clone()
        try:
            trial.apply(action, 0)
        except IllegalAction:
            assert action not in game.legal_actions(0), action
        else:
            assert action in game.legal_actions(0), action


def test_start_player_marker_drawn_from_the_seed_when_asked() -> None:
    starts = set()
    for seed in range(12):
        game = new_game("click_crack", players=4, seed=seed, random_start=True)
        (seat, event) = game.log[0]
        assert seat == CHANCE and str(event).startswith("start player is")
        assert game.to_move() == (game.start,)
        starts.add(game.start)
    assert len(starts) > 1


# ----- secret tiles -----------------------------------------------------------------------------------


def test_secret_tiles_every_player_with_penguins_sets_both_at_once() -> None:
    game = arrange(3, {})
    assert game.to_move() == (0, 1, 2)
    game.apply("set break E and walk N", 1)
    assert game.to_move() == (0, 2)
    assert game.phase == "program"
    with pytest.raises(IllegalAction, match="turn"):
        game.apply("set walk N and walk N", 1)
    game.apply("set walk S and walk S", 2)
    game.apply("set walk W and break W", 0)
    assert game.phase == "perform"
    assert game.tiles[1] == (("break", "E"), ("walk", "N"))


def test_secret_tiles_stay_hidden_from_other_players_until_all_are_revealed() -> None:
    game = arrange(3, {})
    game.apply("set break E and walk N", 0)
    other, own = game.view(1), game.view(0)
    assert isinstance(other.log[-1][1], Hidden)
    assert other.tiles[0] == ()
    assert str(own.log[-1][1]) == "set break E and walk N"
    assert own.tiles[0] == (("break", "E"), ("walk", "N"))
    set_tiles(game, {})
    revealed = game.view(1)
    assert revealed.tiles[0] == (("break", "E"), ("walk", "N"))
    assert str(revealed.log[-3][1]) == "set break E and walk N"


# ----- the two passes -----------------------------------------------------------------------------------


def test_two_passes_run_clockwise_from_the_start_player() -> None:
    game = arrange(3, {0: (4, 0), 1: (4, 1), 2: (4, 2), 3: (4, 3), 4: (4, 4), 5: (4, 5)})
    set_tiles(game, {seat: "walk N and walk N" for seat in range(3)})
    order = []
    for _ in range(6):
        seat = game.current_player()
        order.append(seat)
        game.apply(f"walk N with penguin {2 * seat}")
    assert order == [0, 1, 2, 0, 1, 2]
    assert game.phase == "program" and game.round == 2


def test_both_tiles_may_be_carried_out_by_the_same_penguin() -> None:
    game = arrange(2, {0: (3, 2)})
    set_tiles(game, {0: "walk E and walk E"})
    game.apply("walk E with penguin 0")
    game.apply(game.legal_actions()[0])
    game.apply("walk E with penguin 0")
    assert game.pos[0] == (3, 4)


def test_a_tile_set_twice_is_offered_once_and_stays_open_until_carried_out_twice() -> None:
    game = arrange(2, {0: (3, 2), 1: (1, 1)})
    set_tiles(game, {0: "walk E and walk E"})
    assert game.unused_tiles(0) == (("walk", "E"),)
    assert [str(action) for action in game.legal_actions()] == ["walk E with penguin 0", "walk E with penguin 1"]
    game.apply("walk E with penguin 1")
    assert game.unused_tiles(0) == (("walk", "E"),) and game.used[0] == [True, False]
    game.apply(game.legal_actions()[0])
    game.apply("walk E with penguin 0")
    assert game.unused_tiles(0) == () and game.used[0] == [True, True]


def test_the_tiles_still_open_are_those_not_carried_out_in_the_order_set() -> None:
    game = arrange(3, {0: (3, 2), 2: None, 3: None})
    set_tiles(game, {0: "walk E and break N"})
    assert game.unused_tiles(0) == (("break", "N"), ("walk", "E"))
    assert game.unused_tiles(1) == (), "a seat with no penguin set no tiles this round"
    game.apply("walk E with penguin 0")
    assert game.unused_tiles(0) == (("break", "N"),) and game.used[0] == [False, True]


def test_a_used_tile_cannot_be_used_again() -> None:
    game = arrange(2, {0: (3, 2)})
    set_tiles(game, {0: "walk E and break N"})
    game.apply("walk E with penguin 0")
    game.apply(game.legal_actions()[0])
    with pytest.raises(IllegalAction, match="already carried out") as refused:
        game.apply("walk E with penguin 0")
    assert refused.value.rule == "action tiles"
    with pytest.raises(IllegalAction, match="your tiles this round are"):
        game.apply("walk S with penguin 0")


# ----- must act -------------------------------------------------------------------------------------


def test_must_act_a_pass_is_refused_while_a_tile_can_be_carried_out() -> None:
    game = arrange(2, {0: (0, 0), 1: (2, 2)})
    set_tiles(game, {0: "walk N and walk N"})
    assert [str(a) for a in game.legal_actions()] == ["walk N with penguin 1"]
    before = game.clone()
    with pytest.raises(IllegalAction, match="walk N with penguin 1") as refused:
        game.apply("pass")
    assert refused.value.rule == "must act"
    assert game == before
    with pytest.raises(IllegalAction, match="walk off the floe"):
        game.apply("walk N with penguin 0")


def test_must_act_pass_only_when_nothing_is_possible_then_either_tile_in_the_second_pass() -> None:
    # Seat 0 is stuck: penguin 1 sits in a corner, and penguin 0's walk north would push penguin 2
    # off the floe, with the east side blocked by penguin 3 against a broken-off tile.
    game = arrange(2, {0: (1, 0), 1: (0, 5), 2: (0, 0), 3: (0, 1)}, gone=[(0, 1)])
    set_tiles(game, {0: "walk N and break W", 1: "walk S and walk S"})
    assert [str(a) for a in game.legal_actions()] == ["pass"]
    with pytest.raises(IllegalAction, match="neither side") as refused:
        game.apply("walk N with penguin 0")
    assert refused.value.rule == "push"
    game.apply("pass")
    game.apply("walk S with penguin 3", 1)
    assert game.current_player() == 0 and game.second_pass
    assert game.used[0] == [False, False]
    assert [str(a) for a in game.legal_actions()] == ["walk N with penguin 0"]
    game.apply("walk N with penguin 0")
    assert where(game, 0, 2) == [(0, 0), (0, 1)]


# ----- walking and pushing -----------------------------------------------------------------------------


def test_walk_moves_a_penguin_one_intersection_and_crosses_cracks() -> None:
    game = arrange(2, {0: (2, 2)}, cracks=[((1, 2), (2, 2))])
    set_tiles(game, {0: "walk E and walk E"})
    game.apply("walk E with penguin 0")
    assert game.pos[0] == (2, 3)


def test_walk_off_the_floe_is_refused_at_the_edge_and_beside_broken_off_tiles() -> None:
    game = arrange(2, {0: (0, 3), 1: (1, 1)}, gone=[(0, 0), (0, 1)])
    set_tiles(game, {0: "walk N and walk N"})
    assert game.legal_actions() == [game.parse("pass")]
    for penguin in (0, 1):
        with pytest.raises(IllegalAction, match="walk off the floe"):
            game.apply(f"walk N with penguin {penguin}")


def test_a_walk_pushes_a_line_of_three_penguins() -> None:
    game = arrange(3, {0: (4, 2), 2: (3, 2), 4: (2, 2), 1: (1, 2)})
    set_tiles(game, {0: "walk N and walk N"})
    game.apply("walk N with penguin 0")
    assert where(game, 0, 2, 4, 1) == [(3, 2), (2, 2), (1, 2), (0, 2)]


def test_a_push_toward_the_edge_goes_sideways_to_the_side_the_active_player_picks() -> None:
    game = arrange(2, {0: (1, 2), 2: (0, 2), 3: (0, 1)})
    set_tiles(game, {0: "walk N and walk N"})
    game.apply("walk N with penguin 0")
    assert game.phase == "push" and game.to_move() == (0,)
    assert sorted(str(a) for a in game.legal_actions()) == ["push aside E", "push aside W"]
    chooser = game.clone()
    chooser.apply("push aside E")
    assert where(chooser, 0, 2, 3) == [(0, 2), (0, 3), (0, 1)]
    game.apply("push aside W")
    # Going west, penguin 2 pushes penguin 3 along in a chain.
    assert where(game, 0, 2, 3) == [(0, 2), (0, 1), (0, 0)]
    assert game.phase == "perform" and game.current_player() == 1


def test_a_push_sideways_with_one_open_side_needs_no_choice() -> None:
    game = arrange(2, {0: (1, 0), 2: (0, 0)})
    set_tiles(game, {0: "walk N and walk N"})
    game.apply("walk N with penguin 0")
    assert game.phase == "perform"
    assert where(game, 0, 2) == [(0, 0), (0, 1)]


def test_push_choice_outside_a_push_is_refused() -> None:
    game = arrange(2, {0: (1, 2), 2: (0, 2)})
    set_tiles(game, {})
    with pytest.raises(IllegalAction, match="not now") as refused:
        game.apply("push aside E")
    assert refused.value.rule == "push"


# ----- breaking --------------------------------------------------------------------------------------


def test_break_cracks_the_segment_and_the_penguin_stays() -> None:
    game = arrange(2, {0: (2, 2)})
    set_tiles(game, {0: "break E and break E"})
    game.apply("break E with penguin 0")
    assert game.cracks == {segment((1, 2), (2, 2))}
    assert game.pos[0] == (2, 2)
    assert len(game.main) == 25 and game.scores == [0, 0]


def test_break_needs_two_floe_tiles_and_no_crack_there_yet() -> None:
    game = arrange(2, {0: (0, 2), 1: (2, 2)}, cracks=[((1, 2), (2, 2))])
    set_tiles(game, {0: "break E and break E"})
    assert game.legal_actions() == [game.parse("pass")]
    with pytest.raises(IllegalAction, match="not two floe tiles"):
        game.apply("break E with penguin 0")
    with pytest.raises(IllegalAction, match="already cracked") as refused:
        game.apply("break E with penguin 1")
    assert refused.value.rule == "break"


def test_breaking_the_smaller_part_breaks_off_and_scores_a_point_per_tile() -> None:
    game = arrange(2, {0: (1, 0), 2: (0, 0), 3: (0, 1)}, cracks=[((0, 0), (0, 1))])
    set_tiles(game, {0: "break E and break E"})
    game.apply("break E with penguin 0")
    assert game.main == FLOE - {(0, 0)}
    # Penguin 2 stood only on the broken-off tile: lost, costing the active player a point.
    # Penguin 3 and the cracker still touch the main floe.
    assert where(game, 0, 2, 3) == [(1, 0), None, (0, 1)]
    assert game.scores == [1 - 1, 0]


def test_a_penguin_on_the_crack_line_stays() -> None:
    game = arrange(2, {0: (1, 1), 2: (1, 0)}, cracks=[((0, 0), (0, 1))])
    set_tiles(game, {0: "break W and break W"})
    game.apply("break W with penguin 0")
    assert game.main == FLOE - {(0, 0)}
    assert where(game, 0, 2) == [(1, 1), (1, 0)]
    assert game.scores == [1, 0]


def test_penguins_on_the_broken_off_part_leave_and_each_costs_the_active_player_a_point() -> None:
    corner = [((0, 1), (0, 2)), ((0, 0), (1, 0))]
    game = arrange(3, {0: (1, 1), 1: (0, 1), 2: (0, 0), 4: (1, 0)}, cracks=corner)
    set_tiles(game, {0: "break E and break E"})
    game.apply("break E with penguin 0")  # the crack between (0,1) and (1,1) frees tiles (0,0) and (0,1)
    assert game.main == FLOE - {(0, 0), (0, 1)}
    # Penguins 1 (the active player's own) and 2 stood only on freed tiles; penguin 4 still touches (1,0).
    assert where(game, 0, 1, 2, 4) == [(1, 1), None, None, (1, 0)]
    assert game.scores == [2 - 2, 0, 0]


def test_the_cracker_falls_when_three_tiles_break_off_but_costs_no_point() -> None:
    fence = [((0, 2), (0, 3)), ((0, 0), (1, 0)), ((0, 1), (1, 1))]
    game = arrange(2, {0: (1, 2), 2: (1, 0)}, cracks=fence)
    set_tiles(game, {0: "break E and break E"})
    game.apply("break E with penguin 0")
    assert game.main == FLOE - {(0, 0), (0, 1), (0, 2)}
    assert game.pos[0] is None
    assert game.pos[2] == (1, 0)  # on the crack line: stays
    assert game.scores == [3, 0]


def test_the_cracker_stays_when_two_tiles_break_off() -> None:
    fence = [((0, 1), (0, 2)), ((0, 0), (1, 0))]
    game = arrange(2, {0: (1, 2)}, cracks=fence)
    set_tiles(game, {0: "break W and break W"})
    game.apply("break W with penguin 0")
    assert game.main == FLOE - {(0, 0), (0, 1)}
    assert game.pos[0] == (1, 2)
    assert game.scores == [2, 0]


def test_equal_halves_let_the_active_player_choose_which_breaks_off() -> None:
    # Rows 4 are gone; cracking the last segment between rows 1 and 2 leaves 10 tiles on each side.
    between = [((1, c), (2, c)) for c in range(4)]
    penguins = {0: (2, 4), 1: (4, 1), 2: (0, 0), 3: (4, 3)}
    game = arrange(2, penguins, cracks=between, gone=[(4, c) for c in range(5)])
    set_tiles(game, {0: "break E and break E"})
    game.apply("break E with penguin 0")
    assert game.phase == "break" and game.to_move() == (0,)
    assert sorted(str(a) for a in game.legal_actions()) == [
        "break off the part with tile 0,0",
        "break off the part with tile 2,0",
    ]
    keep_top = game.clone()
    keep_top.apply("break off the part with tile 3,4")  # any tile of a half names it
    assert keep_top.main == {(r, c) for r in range(2) for c in range(5)}
    with pytest.raises(IllegalAction, match="neither half"):
        game.apply("break off the part with tile 4,0")  # broken off long ago
    game.apply("break off the part with tile 0,0")
    assert str(game.log[-1][1]) == "break off the part with tile 0,0"
    assert game.main == {(r, c) for r in range(2, 4) for c in range(5)}
    assert game.pos[2] is None  # it stood on the half that went
    assert game.pos[0] is None  # ten tiles broke off: the cracker fell too
    assert game.scores[0] == 10 - 1


# ----- sitting out and the start marker -------------------------------------------------------------------


def test_start_marker_passes_clockwise_each_round() -> None:
    game = arrange(3, {})
    starts = []
    for _ in range(3):
        starts.append(game.start)
        set_tiles(game, {seat: "walk S and walk N" for seat in range(3)})
        while game.phase == "perform":
            game.apply(game.legal_actions()[0])
    assert starts == [0, 1, 2]


def test_a_player_without_penguins_sits_out_and_the_start_marker_skips_them() -> None:
    game = arrange(3, {2: None, 3: None})
    assert game.to_move() == (0, 2)
    set_tiles(game, {})
    actors = []
    while game.phase == "perform":
        actors.append(game.current_player())
        game.apply(game.legal_actions()[0])
    assert actors == [0, 2, 0, 2]
    assert game.start == 2


# ----- who is to move ----------------------------------------------------------------------------------


def seats_the_rules_name(game: ClickCrack) -> tuple[int, ...]:
    """Who must decide now, read from the rules and the position (not from the game's own record of it)."""
    if game.is_over():
        return ()
    if game.phase == "place":
        return (game.placement_order()[game.placed],)
    if game.phase == "program":  # every seat with a penguin on the floe, until it has set its tiles
        return tuple(seat for seat in range(game.players) if seat not in game.secret_at and game.penguins_of(seat))
    return (game.active,)  # a tile, or a choice within it, is one seat's at a time


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_seats_to_move_follow_every_change_copy_and_reload_of_a_game(players: int) -> None:
    """The game keeps who is to move from action to action: it must agree with the rules after either path,
    a refused action and an undo, and on a clone, every view, a determinized sample and a reloaded save."""
    for seed, options in enumerate([{}, {"placement_order": "snake", "random_start": True}]):
        game = new_game("click_crack", players=players, seed=seed, **options)
        assert isinstance(game, ClickCrack)
        rng, samples = random.Random(seed), random.Random(-seed)
        step = 0
        while True:
            expected = seats_the_rules_name(game)
            assert game.to_move() == expected, (seed, len(game.log))
            assert game.clone().to_move() == expected
            for seat in (None, *range(players)):
                assert game.view(seat).to_move() == expected
            assert game.view(players - 1).determinize(samples).to_move() == expected
            if step % 10 == 0:
                assert from_json(to_json(game)).to_move() == expected
            if not expected:
                break
            seat = rng.choice(expected)
            with pytest.raises(IllegalAction):
                game.apply(PASS if game.phase == "place" else ALL_PLACES[0], seat)
            assert game.to_move() == expected
            action = rng.choice(game.legal_actions(seat))
            if step % 9 == 4:
                game.apply(action, seat)
                game.undo()
                assert game.to_move() == expected
            if step % 2:
                game.apply(action, seat)
            else:
                game.apply_fast(action, seat)
            step += 1
        assert step > 40


def test_fingerprints_hold_the_position_only_and_stay_what_they_were() -> None:
    """The search bot seeds itself from its view's fingerprint, so a fingerprint that changed would change
    seeded bot games: the seats to move, kept for speed, are no part of it. Pinned from seeded random play."""
    game = new_game("click_crack", players=3, seed=5)
    rng = random.Random(5)
    seen = []
    for step in range(40):
        seat = rng.choice(game.to_move())
        game.apply(rng.choice(game.legal_actions(seat)), seat)
        if step in (5, 20, 39):
            seen.append((game.fingerprint(), game.view(0).fingerprint()))
    assert seen == [
        ("53199c621f60adba", "8e14442fa989ac1e"),
        ("d6c77d01995d6622", "0a163d5fc8a2bb40"),
        ("73298e55321f1d6c", "3c03201fd5610680"),
    ]


# ----- the end -----------------------------------------------------------------------------------------


def test_game_ends_at_once_when_a_player_reaches_seven_points() -> None:
    game = arrange(3, {0: (1, 1)}, cracks=[((0, 0), (0, 1))], scores=[6, 0, 0])
    set_tiles(game, {0: "break W and break W"})
    game.apply("break W with penguin 0")
    assert game.is_over() and game.to_move() == ()
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.termination == SCORE_REACHED
    assert outcome.winners == (0,) and outcome.scores == (7, 0, 0)
    assert game.legal_actions(1) == []
    with pytest.raises(IllegalAction, match="ended"):
        game.apply("walk S with penguin 2", 1)


def test_game_ends_when_the_main_floe_is_six_tiles_or_fewer() -> None:
    keep = {(3, 0), (3, 1), (4, 0), (4, 1), (3, 2), (4, 2), (3, 3), (4, 3)}
    penguins = {0: (4, 3), 1: (4, 1), 2: (4, 0), 3: (4, 2)}
    game = arrange(2, penguins, cracks=[((3, 2), (3, 3))], gone=FLOE - keep)
    set_tiles(game, {0: "break S and break S"})
    game.apply("break S with penguin 0")  # frees (3,3) and (4,3)
    outcome = game.outcome()
    assert outcome is not None and outcome.termination == FLOE_SMALL
    assert len(game.main) == 6


def test_game_ends_when_fewer_than_three_penguins_are_left() -> None:
    game = arrange(2, {0: (1, 1), 1: None, 2: (0, 0)}, cracks=[((0, 0), (0, 1))])
    set_tiles(game, {0: "break W and break W"})
    game.apply("break W with penguin 0")
    outcome = game.outcome()
    assert outcome is not None and outcome.termination == FEW_PENGUINS
    assert outcome.scores == (0, 0) and outcome.winners == (0, 1)  # a tie is shared


def test_round_limit_ends_the_game_after_its_last_round() -> None:
    game = arrange(2, {}, round_limit=1)
    set_tiles(game, {0: "walk N and walk N", 1: "walk N and walk N"})
    while not game.is_over():
        game.apply(game.legal_actions()[0])
    outcome = game.outcome()
    assert outcome is not None and outcome.termination == ROUND_LIMIT
    # The arranged game begins after placement: its log holds round 1 only.
    settings, tiles = 2, 4
    assert len(game.log) == settings + tiles <= game.spec.longest(game.config)


def test_most_points_wins() -> None:
    game = arrange(3, {0: (1, 1)}, cracks=[((0, 0), (0, 1))], scores=[6, 2, 2])
    set_tiles(game, {0: "break W and break W"})
    game.apply("break W with penguin 0")
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winners == (0,) and outcome.ranks == (1, 2, 2)
