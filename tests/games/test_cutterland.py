"""Cutterland scenarios, one per rule of seeds/001 and the Cutterland section of RULINGS.md.

Kingdoms are sketched with `land`: rows of two-letter cell codes (terrain M, S or W, then a monster
letter C D T G F K or "."), "--" where there is no cell; the sketch's top-left cell is 0,0.
"""

from __future__ import annotations

import random

import pytest

from cliplab.engine import IllegalAction, ListedActions, PositionError, from_json, replay, to_json
from cliplab.games.cutterland.content import deck
from cliplab.games.cutterland.rules import (
    SCORE_LINES,
    SPEC,
    Bridge,
    Cell,
    Cut,
    Cutterland,
    Join,
    Kingdom,
    Tower,
    Wall,
    cut_of,
    joined_cells,
    joins,
    land_of,
    partitions,
    position,
    position_of,
    turned,
)
from cliplab.grid import parts


def land(*rows: str) -> list[tuple[int, int, str]]:
    return [(r, c, code) for r, row in enumerate(rows) for c, code in enumerate(row.split()) if code != "--"]


def kingdom_of(*rows: str, **tokens: object) -> Kingdom:
    return Kingdom({(r, c): code for r, c, code in land(*rows)}, **tokens)  # type: ignore[arg-type]


def refused(game: Cutterland, action: str, rule: str, words: str) -> None:
    before = game.fingerprint()
    with pytest.raises(IllegalAction) as err:
        game.apply(action)
    assert err.value.rule == rule
    assert words in err.value.reason, err.value.reason
    assert game.fingerprint() == before


def line(game: Cutterland, seat: int, starts: str) -> int:
    """The points of the scoring line whose words begin with `starts`."""
    index = next(k for k, words in enumerate(SCORE_LINES) if words.startswith(starts))
    return game.score_lines(seat)[index]


def hunted(*kingdoms: list[tuple[int, int, str]], **fields: object) -> Cutterland:
    """A game whose cards are all cut, with these kingdoms (and towers, walls, bridges placed)."""
    return position(max(2, len(kingdoms)), kingdoms=[*kingdoms, *[[]] * (2 - len(kingdoms))], **fields)  # type: ignore[arg-type]


def random_game(seed: int) -> Cutterland:
    rng = random.Random(seed)
    game = position(3, seed)
    while not game.is_over():
        game.apply(rng.choice(game.legal_actions()))
    return game


def cut_game(players: int = 3, cutter: int = 0, hand: int = 1, **options: object) -> Cutterland:
    hands: list[list[int]] = [[] for _ in range(players)]
    hands[cutter] = [hand]
    return position(players, hands=hands, cutter=cutter, **options)  # type: ignore[arg-type]


# ----- the deal and the turns ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_is_dealt_three_cards_and_seat_zero_cuts_first(players: int) -> None:
    game = SPEC.new(players, 7)
    assert isinstance(game, Cutterland)
    assert [len(hand) for hand in game.hands] == [3] * players
    assert len({number for hand in game.hands for number in hand}) == 3 * players
    assert game.phase == "cut" and game.to_move() == (0,)


def test_two_player_four_pieces_deals_four_cards_each_cut_into_four() -> None:
    game = SPEC.new(2, 7, "four_pieces")
    assert isinstance(game, Cutterland)
    assert [len(hand) for hand in game.hands] == [4, 4]
    assert len(game.legal_actions()) == 4 * len(partitions(4))


def test_the_cutter_may_cut_any_card_in_hand_into_any_legal_partition_card_by_card() -> None:
    game = SPEC.new(3, 5)
    assert isinstance(game, Cutterland)
    expected = [cut_of(number, labels) for number in game.hands[0] for labels in partitions(3)]
    listed = game.legal_actions()
    assert listed == expected and [listed[i] for i in range(len(expected))] == expected
    cut = expected[-1]
    game.apply(cut)
    while game.phase != "cut" or game.to_move() != (0,):
        game.apply(game.legal_actions()[0])
    assert game.legal_actions() == [action for action in expected if action.card != cut.card]


def test_with_three_players_the_four_pieces_option_changes_nothing() -> None:
    game = SPEC.new(3, 7, two_player_four_pieces=True)
    assert isinstance(game, Cutterland)
    assert [len(hand) for hand in game.hands] == [3, 3, 3]
    assert game.pieces_per_card == 3


def test_turns_go_clockwise_one_card_each_until_every_card_is_cut() -> None:
    game = position(3, hands=[[1], [2], [3]], cutter=1)
    cutters = []
    while game.phase != "over":
        if game.phase == "cut":
            cutters.append(game.to_move()[0])
        game.apply(game.legal_actions()[0])
    assert cutters == [1, 2, 0]


# ----- cutting ------------------------------------------------------------------------------------------


def test_a_card_is_cut_along_cell_borders_into_one_connected_piece_per_player() -> None:
    # An independent count: every labelling of the 12 cells with 2 piece numbers, kept when both
    # pieces hang together (grid components) and piece 1 holds the first cell.
    cells = [(r, c) for r in range(3) for c in range(4)]
    count = 0
    for bits in range(1 << 12):
        first = [cell for k, cell in enumerate(cells) if not bits >> k & 1]
        second = [cell for k, cell in enumerate(cells) if bits >> k & 1]
        if bits & 1 == 0 and second and len(parts(first)) == 1 and len(parts(second)) == 1:
            count += 1
    assert len(partitions(2)) == count
    for pieces in (2, 3, 4):
        for labels in partitions(pieces):
            assert sorted(set(labels)) == list(range(1, pieces + 1))
            for piece in range(1, pieces + 1):
                assert len(parts([cells[k] for k, label in enumerate(labels) if label == piece])) == 1


def test_a_cut_into_too_many_pieces_is_refused() -> None:
    refused(cut_game(3), "cut card 1 as 1122 1122 3344", "cutting", "exactly 3 pieces")
    refused(cut_game(3), "cut card 1 as 1122 1122 3344", "cutting", "too many")


def test_a_cut_into_too_few_pieces_is_refused() -> None:
    refused(cut_game(3), "cut card 1 as 1111 1111 2222", "cutting", "makes 2 (too few)")


def test_a_cut_with_a_piece_that_does_not_hang_together_is_refused() -> None:
    # Piece 1 is the top-left corner and the bottom-right corner.
    refused(cut_game(3), "cut card 1 as 1222 2223 3331", "cutting", "piece 1 (cells 0,0 2,3) is not connected")
    # Pieces touching only at a corner do not hang together either.
    refused(cut_game(2), "cut card 1 as 1222 2122 2222", "cutting", "piece 1 (cells 0,0 1,1) is not connected")


def test_only_a_card_of_ones_own_hand_is_cut() -> None:
    refused(cut_game(3), "cut card 2 as 1122 1122 3333", "cutting", "card 2 is not one of your uncut cards")


def test_a_cut_names_each_row_as_four_piece_numbers() -> None:
    refused(cut_game(3), "cut card 1 as 112 1122 3333", "cutting", "4 piece numbers from 1 to 9")


def test_a_cut_may_number_its_pieces_in_any_order() -> None:
    game = cut_game(3)
    game.apply("cut card 1 as 3322 3322 1111")
    assert str(game.log[-1][1]) == "cut card 1 as 1122 1122 3333"


def test_the_cut_card_leaves_its_cutters_hand() -> None:
    game = position(3, hands=[[1, 2], [], []])
    game.apply("cut card 2 as 1122 1122 3333")
    assert game.hands[0] == [1]


# ----- picking ------------------------------------------------------------------------------------------


def test_pieces_are_picked_from_the_cutters_left_clockwise_the_cutter_last() -> None:
    game = cut_game(4, cutter=1)
    game.apply("cut card 1 as 1122 1122 3344")
    pickers = []
    while game.phase in ("take", "join"):
        if game.phase == "take":
            pickers.append(game.to_move()[0])
        game.apply(game.legal_actions()[0])
    assert pickers == [2, 3, 0, 1]


def test_the_cutter_gets_the_piece_left_over() -> None:
    game = cut_game(2, cutter=0)
    game.apply("cut card 1 as 1111 1111 2222")
    game.apply("take piece 2")
    game.apply(game.legal_actions()[0])
    assert game.to_move() == (0,)
    assert [str(a) for a in game.legal_actions()] == ["take piece 1"]


def test_with_two_players_and_four_pieces_the_picks_alternate_from_the_other_player() -> None:
    game = position(2, hands=[[1], []], cutter=0, two_player_four_pieces=True)
    game.apply("cut card 1 as 1122 1122 3344")
    pickers = []
    while game.phase in ("take", "join"):
        if game.phase == "take":
            pickers.append(game.to_move()[0])
        game.apply(game.legal_actions()[0])
    assert pickers == [1, 0, 1, 0]


def test_a_piece_taken_is_no_longer_on_the_table() -> None:
    game = cut_game(3)
    game.apply("cut card 1 as 1122 1122 3333")
    game.apply("take piece 2")
    game.apply(game.legal_actions()[0])
    refused(game, "take piece 2", "picking", "piece 2 is not on the table (pieces left: 1, 3)")


def test_the_tokens_shown_on_a_piece_go_to_its_taker_and_leave_the_land() -> None:
    # Card 1: a wall icon at 0,2 and a tower icon at 2,0.
    game = cut_game(2, cutter=0)
    game.apply("cut card 1 as 1111 1111 2222")
    game.apply("take piece 1")
    assert game.tokens[1] == {"tower": 0, "wall": 1, "bridge": 0}
    game.apply("join at 0,0 turned 0")
    assert game.kingdoms[1][(0, 2)] == "S."
    game.apply("take piece 2")
    assert game.tokens[0] == {"tower": 1, "wall": 0, "bridge": 0}


# ----- joining ------------------------------------------------------------------------------------------


def test_the_first_piece_goes_anywhere_and_only_its_turn_matters() -> None:
    game = cut_game(2)
    game.apply("cut card 1 as 1111 1111 2222")
    game.apply("take piece 1")
    assert game.legal_actions() == [Join(0, 0, turns) for turns in range(4)]
    refused(game, "join at 5,5 turned 0", "joining", "first piece goes with its top-left corner at 0,0")


def test_a_piece_is_turned_clockwise_and_never_flipped() -> None:
    piece = [((0, 0), "MC"), ((0, 1), "S."), ((1, 0), "W.")]
    assert turned(piece, 1) == [((0, 0), "W."), ((0, 1), "MC"), ((1, 1), "S.")]
    assert turned(piece, 4) == turned(piece, 0)
    game = cut_game(2)
    game.apply("cut card 1 as 1111 1111 2222")
    game.apply("take piece 1")
    refused(game, "join at 0,0 turned 4", "joining", "0 to 3 quarter turns")


def test_a_later_piece_shares_a_cell_edge_with_the_kingdom() -> None:
    game = position(2, hands=[[1], []], kingdoms=[[], [(0, 0, "M.")]])
    game.apply("cut card 1 as 1222 2222 2222")
    game.apply("take piece 1")  # one cell
    refused(game, "join at 1,1 turned 0", "joining", "share a cell edge")
    game.apply("join at 1,0 turned 0")
    assert (1, 0) in game.kingdoms[1]


def test_a_piece_may_not_lie_over_the_kingdom() -> None:
    game = position(2, hands=[[1], []], kingdoms=[[], [(0, 0, "M."), (0, 1, "M.")]])
    game.apply("cut card 1 as 1122 2222 2222")
    game.apply("take piece 1")
    refused(game, "join at 0,1 turned 0", "joining", "lie over your kingdom's cell 0,1")


def test_gaps_are_allowed_and_the_kingdom_is_unbounded() -> None:
    kingdom = {(0, 0): "M.", (0, 2): "M."}
    piece = [((0, 0), "S.")]
    spots = {(j.row, j.col) for j in joins(kingdom, piece)}
    assert spots == {(-1, 0), (1, 0), (0, -1), (0, 1), (-1, 2), (1, 2), (0, 3)}
    game = position(2, hands=[[1], []], kingdoms=[[], [(0, 0, "M.")]])
    game.apply("cut card 1 as 1222 2222 2222")
    game.apply("take piece 1")
    game.apply("join at -1,0 turned 0")
    assert (-1, 0) in game.kingdoms[1]


# ----- towers, walls and bridges ------------------------------------------------------------------------


def test_tokens_are_placed_after_the_last_piece_seat_by_seat() -> None:
    game = cut_game(2, cutter=0)
    game.apply("cut card 1 as 1111 1111 2222")
    for action in ("take piece 1", "join at 0,0 turned 0", "take piece 2", "join at 0,0 turned 0"):
        game.apply(action)
    assert game.phase == "tokens" and game.to_move() == (0,)
    game.apply("keep the other tokens")
    assert game.to_move() == (1,)


def test_a_tower_stands_on_a_monster() -> None:
    game = hunted(land("MC M."), tokens=[{"tower": 1}, {}])
    refused(game, "tower on 0,1", "tokens", "this cell has none")
    refused(game, "tower on 3,3", "tokens", "3,3 is not a cell of your kingdom")
    game.apply("tower on 0,0")
    assert game.towers[0] == {(0, 0)}


def test_a_wall_stands_between_two_side_by_side_kingdom_cells() -> None:
    game = hunted(land("MC M.", "-- M."), tokens=[{"wall": 2}, {}])
    refused(game, "wall south of 0,0", "tokens", "1,0 is not one")
    game.apply("wall east of 0,0")
    refused(game, "wall west of 0,1", "tokens", "a wall stands there already")
    game.apply("wall south of 0,1")
    assert game.walls[0] == {((0, 0), (0, 1)), ((0, 1), (1, 1))}


def test_a_token_not_held_is_not_placed() -> None:
    game = hunted(land("MC M."), tokens=[{"wall": 1}, {}])
    refused(game, "tower on 0,0", "tokens", "you hold no tower")


def test_a_bridge_joins_two_cells_of_one_terrain_over_one_position_of_anything() -> None:
    game = hunted(land("M. S. M. -- M.", "W. -- -- -- --", "M."), tokens=[{"bridge": 3}, {}])
    refused(game, "bridge east from 0,1", "tokens", "0,3 is not one")
    game.apply("bridge east from 0,0")  # over a wasteland cell
    game.apply("bridge east from 0,2")  # over an empty position
    game.apply("bridge south from 0,0")  # over water
    assert game.bridges[0] == {((0, 0), (0, 2)), ((0, 2), (0, 4)), ((0, 0), (2, 0))}


def test_a_bridge_over_different_terrains_is_refused() -> None:
    game = hunted(land("M. S. W."), tokens=[{"bridge": 1}, {}])
    refused(game, "bridge east from 0,0", "tokens", "these are meadow and water")


def test_walls_split_regions_and_bridges_join_them() -> None:
    assert kingdom_of("M. M.").regions() == [[(0, 0), (0, 1)]]
    assert kingdom_of("M. M.", walls=frozenset({((0, 0), (0, 1))})).regions() == [[(0, 0)], [(0, 1)]]
    assert kingdom_of("M. S. M.").regions() == [[(0, 0)], [(0, 1)], [(0, 2)]]
    bridged = kingdom_of("M. S. M.", bridges=frozenset({((0, 0), (0, 2))}))
    assert bridged.regions() == [[(0, 0), (0, 2)], [(0, 1)]]


def test_a_region_is_every_cell_its_terrain_reaches_however_it_winds() -> None:
    # The meadow reaches its top-right cell only through the row below, and the wasteland its second column
    # only over a bridge: each is still one region, its cells in reading order, regions by their first cell.
    winding = kingdom_of("M. S. M.", "M. M. M.", "S. W. S.", bridges=frozenset({((2, 0), (2, 2))}))
    assert winding.regions() == [[(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)], [(0, 1)], [(2, 0), (2, 2)], [(2, 1)]]
    walled = kingdom_of("M. S. M.", "M. M. M.", walls=frozenset({((1, 1), (1, 2))}))
    assert walled.regions() == [[(0, 0), (1, 0), (1, 1)], [(0, 1)], [(0, 2), (1, 2)]]


def regions_by_flood_fill(kingdom: Kingdom) -> list[list[Cell]]:
    """The regions as parts of each terrain's cells (walls cut, bridges link), in reading order."""
    found = []
    for terrain in "MSW":
        cells = [cell for cell, code in kingdom.cells.items() if code[0] == terrain]
        found += parts(cells, kingdom.walls, kingdom.bridges)
    return sorted(sorted(part) for part in found)


def test_regions_are_found_as_a_flood_fill_finds_them_wherever_the_cells_lie() -> None:
    # Regions are found with each cell numbered by its row and column in rows as wide as the kingdom: cells
    # at a row's last column and the next row's first, at negative columns, or far apart are no neighbours;
    # a wall or a bridge at cells beyond the kingdom's columns touches none of its cells.
    apart = Kingdom(
        {(0, 9): "M.", (1, -3): "M.", (1, -2): "M.", (-4, 40): "M.", (-3, 40): "MC", (0, -3): "S."},
        walls=frozenset({((0, 42), (0, 43))}),
        bridges=frozenset({((0, 9), (0, 43))}),
    )
    assert (
        apart.regions()
        == regions_by_flood_fill(apart)
        == [[(-4, 40), (-3, 40)], [(0, -3)], [(0, 9)], [(1, -3), (1, -2)]]
    )
    # Walls and bridges of finished kingdoms of seeded games.
    checked = 0
    for seed in range(6):
        game = position(3, seed)
        rng = random.Random(seed)
        while not game.is_over():
            seat = game.to_move()[0]
            game.apply(rng.choice(game.legal_actions(seat)), seat)
        for seat in range(3):
            kingdom = game.kingdom(seat)
            assert kingdom.regions() == regions_by_flood_fill(kingdom)
            checked += bool(kingdom.walls or kingdom.bridges)
    assert checked > 5


def test_the_kingdom_kept_as_bits_while_joining_is_the_kingdom_laid_out_afresh() -> None:
    # The rules keep each kingdom as a bitmask in a frame that grows with it (for listing joins); after every
    # join it must be exactly what the kingdom's cells give when framed anew, or joins would be missed.
    for players, seed in ((2, 3), (3, 5), (4, 8)):
        rng = random.Random(seed)
        game = position(players, seed)
        while not game.is_over():
            seat = game.to_move()[0]
            game.apply(rng.choice(game.legal_actions(seat)), seat)
            assert game.lands == [land_of(kingdom) for kingdom in game.kingdoms]


def test_unplaced_tokens_score_one_each() -> None:
    game = hunted(land("MC M."), tokens=[{"tower": 1, "wall": 2, "bridge": 1}, {}])
    game.apply("wall east of 0,0")
    game.apply("keep the other tokens")
    assert line(game, 0, "tokens kept") == 3


# ----- the hunt -----------------------------------------------------------------------------------------


def test_a_kraken_eats_every_monster_around_it_but_krakens_and_towered_ones() -> None:
    game = hunted(land("SG MC WT", "WF WK WK", "MD SG M."), towers=[[(0, 2)], []])
    assert game.phase == "over"
    assert sorted(game.caught[0]) == [(0, 0), (0, 1), (1, 0), (2, 0), (2, 1)]
    assert line(game, 0, "krakens") == 10
    assert line(game, 0, "turtles") == 10  # the towered turtle lives


def test_krakens_hunt_all_at_once_and_a_catch_counts_once() -> None:
    game = hunted(land("WK WF WK"))
    assert game.caught[0] == [(0, 1)]
    assert line(game, 0, "krakens") == 2


def test_a_wall_stops_a_kraken_reaching_across_it() -> None:
    game = hunted(land("WK WF"), walls=[[((0, 0), (0, 1))], []])
    assert game.caught[0] == []
    assert line(game, 0, "frogs") == -2


def test_a_diagonal_is_blocked_only_when_both_routes_cross_a_wall() -> None:
    one_wall = kingdom_of("WK W.", "W. WF", walls=frozenset({((0, 0), (0, 1))}))
    assert one_wall.kraken_catch() == {(1, 1)}
    # One wall on each route (east of the kraken; west of the frog): both routes are crossed.
    both = kingdom_of("WK W.", "W. WF", walls=frozenset({((0, 0), (0, 1)), ((1, 0), (1, 1))}))
    assert both.kraken_catch() == frozenset()
    # Both walls next to the frog: again both routes are crossed.
    far_steps = kingdom_of("WK W.", "W. WF", walls=frozenset({((0, 1), (1, 1)), ((1, 0), (1, 1))}))
    assert far_steps.kraken_catch() == frozenset()
    # Both walls next to the kraken, none next to the frog: still both routes are crossed.
    near_steps = kingdom_of("WK W.", "W. WF", walls=frozenset({((0, 0), (0, 1)), ((0, 0), (1, 0))}))
    assert near_steps.kraken_catch() == frozenset()


def test_a_diagonal_route_through_a_position_with_no_cell_is_open() -> None:
    kingdom = kingdom_of("WK --", "W. WF", walls=frozenset({((0, 0), (1, 0))}))
    assert kingdom.kraken_catch() == {(1, 1)}


def test_a_bridge_makes_a_kraken_reach_the_cell_at_its_other_end() -> None:
    kingdom = kingdom_of("WK S. WF", bridges=frozenset({((0, 0), (0, 2))}))
    assert kingdom.kraken_catch() == {(0, 2)}
    assert kingdom_of("WK S. WF").kraken_catch() == frozenset()


def test_each_surviving_dragon_eats_one_monster_of_its_region_the_owner_choosing() -> None:
    game = hunted(land("MD MC MT -- SG"))
    assert game.phase == "dragons" and game.to_move() == (0,)
    assert [str(a) for a in game.legal_actions()] == ["dragon at 0,0 eats 0,1", "dragon at 0,0 eats 0,2"]
    refused(game, "dragon at 0,0 eats 0,4", "hunt", "a monster of its own region")
    game.apply("dragon at 0,0 eats 0,2")
    assert game.phase == "over"
    assert line(game, 0, "turtles") == 0 and line(game, 0, "centaurs") == 3


def test_a_dragon_eats_no_dragon_and_no_towered_monster() -> None:
    game = hunted(land("MD MD MC MT"), towers=[[(0, 3)], []])
    # The first dragon has one choice, the centaur, and eats it; the second has nothing left.
    assert game.phase == "over"
    assert game.fed[0] == [((0, 0), (0, 2))]
    assert line(game, 0, "dragon pairs") == 7


def test_a_dragon_refused_the_choice_of_a_dragon_or_a_towered_monster() -> None:
    game = hunted(land("MD MD MC MT MC"), towers=[[(0, 3)], []])
    refused(game, "dragon at 0,0 eats 0,1", "hunt", "does not eat another dragon")
    refused(game, "dragon at 0,0 eats 0,3", "hunt", "in a tower")
    refused(game, "dragon at 0,1 eats 0,2", "hunt", "the dragon at 0,0 eats now")


def test_a_dragon_eaten_by_a_kraken_does_not_hunt() -> None:
    game = hunted(land("WK SD SG"))
    assert game.caught[0] == [(0, 1)]
    assert game.fed[0] == [] and game.phase == "over"
    assert line(game, 0, "goblins") == 2


def test_a_wall_saves_a_goblin_from_its_dragon() -> None:
    game = hunted(land("SD SG"), walls=[[((0, 0), (0, 1))], []])
    assert game.fed[0] == [] and line(game, 0, "goblins") == 2
    eaten = hunted(land("SD SG"))
    assert eaten.fed[0] == [((0, 0), (0, 1))] and line(eaten, 0, "goblins") == 0


def test_the_hunt_step_by_step_is_the_games_record_krakens_first_then_each_dragons_meal() -> None:
    game = hunted(
        land("WK SG WT", "SG SG --", "WF -- --"),
        land("MD MC MC"),
        walls=[[((0, 0), (0, 1))], []],
        bridges=[[((0, 0), (0, 2)), ((0, 0), (2, 0))], []],
        towers=[[(1, 1)], []],
    )
    assert game.phase == "dragons" and game.to_move() == (1,)
    assert game.hunt_steps()[-1].kind == "kraken"  # the dragon has not eaten yet
    game.apply("dragon at 0,0 eats 0,2")
    kraken, dragon = game.hunt_steps()
    # The kraken eats over its bridges and at its side; the wall keeps it from one goblin, the tower another.
    assert (kraken.seat, kraken.hunter, kraken.kind) == (0, (0, 0), "kraken")
    assert kraken.prey == ((0, 2), (1, 0), (2, 0)) and sorted(kraken.prey) == sorted(game.caught[0])
    assert kraken.walled == ((0, 1),) and kraken.walls == (((0, 0), (0, 1)),)
    assert kraken.towered == ((1, 1),)
    assert kraken.bridges == (((0, 0), (0, 2)), ((0, 0), (2, 0)))
    assert (dragon.seat, dragon.hunter, dragon.prey) == (1, (0, 0), ((0, 2),))
    assert [(dragon.hunter, dragon.prey[0])] == game.fed[1]


def test_the_hunt_steps_name_each_caught_monster_once_and_every_meal_in_order() -> None:
    for seed in range(12):
        game = random_game(seed)
        steps = game.hunt_steps()
        for seat in range(game.players):
            caught = [cell for step in steps if step.seat == seat and step.kind == "kraken" for cell in step.prey]
            assert sorted(caught) == sorted(game.caught[seat]), seed
            meals = [(step.hunter, step.prey[0]) for step in steps if step.seat == seat and step.kind == "dragon"]
            assert meals == game.fed[seat], seed
        kinds = [step.kind for step in steps]
        assert kinds == sorted(kinds, key=lambda kind: kind == "dragon"), "krakens hunt before dragons"


def test_before_the_hunt_there_are_no_steps() -> None:
    assert cut_game().hunt_steps() == []


# ----- scoring ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("goblins", "points"), [(1, 2), (2, 5), (3, 9), (4, 14), (5, 14)])
def test_goblins_score_by_their_count_in_each_region(goblins: int, points: int) -> None:
    game = hunted(land(" ".join(["SG"] * goblins) + " W. SG"))
    assert line(game, 0, "goblins") == points + 2


def test_a_region_with_a_centaur_scores_its_cells() -> None:
    game = hunted(land("MC M. M. S. MC MC", "M. -- -- -- -- --"))
    assert line(game, 0, "centaurs") == 4 + 2


def test_seven_for_each_region_with_exactly_two_dragons() -> None:
    game = hunted(land("MD MD S. SD SD SD W. MD"))
    assert line(game, 0, "dragon pairs") == 7


@pytest.mark.parametrize(("turtles", "points"), [(0, 0), (1, 10), (2, 5), (3, 0), (4, 0)])
def test_turtles_score_for_the_whole_kingdom(turtles: int, points: int) -> None:
    cells = [(0, 3 * k, "WT") for k in range(turtles)] + [(5, 0, "M.")]
    game = hunted(cells)
    assert line(game, 0, "turtles") == points


def test_each_frog_costs_two() -> None:
    game = hunted(land("SF W. WF S. SF"))
    assert line(game, 0, "frogs") == -6


def test_eaten_monsters_score_nothing_else() -> None:
    # The kraken eats the frog (no -2) and the centaur (its region scores nothing).
    game = hunted(land("WK WF", "MC M."))
    assert line(game, 0, "frogs") == 0 and line(game, 0, "centaurs") == 0
    assert line(game, 0, "krakens") == 4


def test_most_points_wins_and_scores_are_whole_numbers() -> None:
    game = hunted(land("MC M. M."), land("SG"))
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.scores == (3, 2) and all(type(score) is int for score in outcome.scores)
    assert outcome.winners == (0,)


def test_a_tie_is_shared() -> None:
    game = hunted(land("SG"), land("SG"))
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == (0, 1)


def test_the_score_lines_add_up_to_the_score() -> None:
    game = SPEC.new(3, 11)
    assert isinstance(game, Cutterland)
    while game.outcome() is None:
        game.apply(game.legal_actions()[-1])
    outcome = game.outcome()
    assert outcome is not None
    assert list(outcome.scores) == [sum(game.score_lines(seat)) for seat in range(3)]


# ----- positions, saves ---------------------------------------------------------------------------------


def test_a_game_saves_and_replays() -> None:
    game = SPEC.new(3, 5)
    for _ in range(20):
        game.apply(game.legal_actions()[len(game.log) % len(game.legal_actions())])
    again = from_json(to_json(game))
    assert again == game
    assert replay(game.config, game.log) == game


def test_position_of_reads_back_the_fields() -> None:
    game = position(2, hands=[[4], [9]], kingdoms=[land("MC"), land("WK")], tokens=[{"wall": 1}, {}], cutter=1)
    fields = position_of(game)
    assert fields["hands"] == [[4], [9]] and fields["cutter"] == 1
    again = position(2, **fields)
    assert position_of(again) == fields
    assert again.legal_actions() == game.legal_actions()


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"hands": [[999], []]}, "hands[0][0]", "no card 999"),
        ({"hands": [[4], [4]]}, "hands[1][0]", "card 4 is in hands[0] already"),
        ({"hands": [[1, 2, 3, 4], []]}, "hands[0]", "at most 3 cards"),
        ({"hands": [[], [4]], "cutter": 0}, "cutter", "holds no card"),
        ({"kingdoms": [[(0, 0, "XC")], []]}, "kingdoms[0][0][2]", "terrain letter"),
        ({"kingdoms": [[(0, 0, "WC")], []]}, "kingdoms[0][0][2]", "monster of its terrain"),
        ({"kingdoms": [[(0, 0, "M."), (0, 0, "M.")], []]}, "kingdoms[0][1]", "listed twice"),
        ({"kingdoms": [[(0, 0, "M.")], []], "towers": [[(0, 0)], []]}, "towers[0][0]", "with a monster"),
        (
            {"kingdoms": [[(0, 0, "M."), (0, 2, "S.")], []], "bridges": [[((0, 0), (0, 2))], []]},
            "bridges[0][0]",
            "same terrain",
        ),
        ({"kingdoms": [[(0, 0, "M."), (1, 1, "M.")], []], "walls": [[((0, 0), (1, 1))], []]}, "walls[0][0]", "1 apart"),
        ({"tokens": [{"sword": 1}, {}]}, "tokens[0]", "sword"),
        ({"hands": [[4], []], "phase": "tokens"}, "hands", "must be empty"),
    ],
)
def test_a_position_that_no_game_reaches_is_refused(fields: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(PositionError) as err:
        position(2, **fields)  # type: ignore[arg-type]
    assert err.value.field == field
    assert words in str(err.value)


def test_every_card_of_the_deck_can_be_dealt() -> None:
    dealt: set[int] = set()
    for seed in range(40):
        game = SPEC.new(4, seed)
        assert isinstance(game, Cutterland)
        dealt.update(number for hand in game.hands for number in hand)
    assert dealt <= set(deck()) and len(dealt) > len(deck()) // 2


def test_a_cut_action_spells_its_rows() -> None:
    assert str(Cut(3, 1122, 1122, 3344)) == "cut card 3 as 1122 1122 3344"


def seeded_decisions(players: int, games: int) -> list[tuple[Cutterland, int]]:
    """Every decision of a few seeded random games: a copy of the game and the seat to act."""
    found = []
    for seed in range(games):
        rng, game = random.Random(seed), SPEC.new(players, seed)
        while not game.is_over():
            for seat in game.to_move():
                found.append((game.clone(), seat))
                game.apply_fast(rng.choice(game.legal_actions(seat)), seat)
    assert isinstance(found[0][0], Cutterland)
    return found  # type: ignore[return-value]


@pytest.mark.parametrize("players", [2, 4])
def test_the_joins_offered_are_those_of_the_kingdom_as_it_stands(players: int) -> None:
    # The game keeps each kingdom's outline as it grows; what it offers is what the cells themselves allow.
    checked = 0
    for game, seat in seeded_decisions(players, 6):
        if game.phase == "join":
            assert game.legal_actions(seat) == joins(game.kingdoms[seat], game.holding)
            checked += 1
    assert checked > 20


STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def every_join_that_touches_and_does_not_overlap(kingdom: dict[Cell, str], piece: list[tuple[Cell, str]]) -> list[Join]:
    """Each join tried at every anchor near the kingdom, in the order by turns, row and column."""
    rows, cols = [r for r, _ in kingdom], [c for _, c in kingdom]
    found = []
    for turns in range(4):
        for row in range(min(rows) - 5, max(rows) + 6):
            for col in range(min(cols) - 5, max(cols) + 6):
                cells = [cell for cell, _ in joined_cells(piece, Join(row, col, turns))]
                touches = any((r + dr, c + dc) in kingdom for r, c in cells for dr, dc in STEPS)
                if touches and not any(cell in kingdom for cell in cells):
                    found.append(Join(row, col, turns))
    return found


def test_a_piece_may_join_wherever_an_edge_touches_the_kingdom_and_no_cell_overlaps_it() -> None:
    # The joins are kept as bitmasks of anchors and read one at a time: counted, indexed from either end,
    # walked through and asked about, they must be exactly the joins found by trying every anchor.
    checked = 0
    for game, seat in seeded_decisions(3, 3):
        if game.phase != "join" or not game.kingdoms[seat]:
            continue
        offered = game.legal_actions(seat)
        expected = every_join_that_touches_and_does_not_overlap(game.kingdoms[seat], game.holding)
        assert isinstance(offered, ListedActions) and len(offered) == len(expected)
        assert list(offered) == [offered[i] for i in range(len(offered))] == expected
        assert [offered[i] for i in range(-len(offered), 0)] == expected and offered[1:3] == expected[1:3]
        assert all(join in offered and offered.holds(join) for join in expected)
        row, col = expected[0].row, expected[0].col
        for stranger in (Join(row, col, 4), Join(row - 99, col, 0), Join(row, col + 99, 1), Join(row, col, True)):
            assert stranger not in offered and not offered.holds(stranger)
        checked += 1
    assert checked > 10


def test_only_the_very_join_or_cut_handed_out_by_index_passes_without_the_rules() -> None:
    # The engine takes the action a kept legal list last handed out by index as listed, asking no rule: an
    # equal action spelled with a float must still be refused, and the one handed out is carried out.
    tried = 0
    for game, seat in seeded_decisions(3, 2):
        if game.phase not in ("join", "cut") or not game.kingdoms[seat]:
            continue
        offered = game.legal_actions(seat)
        assert isinstance(offered, ListedActions)
        picked = offered[len(offered) // 2]
        assert offered.handed is picked
        if isinstance(picked, Join):
            twin: Join | Cut = Join(float(picked.row), picked.col, picked.turns)  # type: ignore[arg-type]
        else:
            assert isinstance(picked, Cut)
            twin = Cut(float(picked.card), picked.top, picked.middle, picked.bottom)  # type: ignore[arg-type]
        assert twin == picked
        trial = game.clone()
        with pytest.raises(IllegalAction):
            trial.apply(twin, seat)
        assert trial == game
        assert trial.apply(picked, seat) is picked
        tried += 1
    assert tried > 20


def test_a_token_action_is_accepted_exactly_when_it_is_listed() -> None:
    # The checked path looks a token action up instead of listing them all: both must agree, for the
    # actions listed and for towers, walls and bridges at every cell that are not (spot taken, kind not held,
    # no such spot), named from either end.
    tried = 0
    for game, seat in seeded_decisions(3, 8):
        if game.phase != "tokens":
            continue
        listed = {str(action) for action in game.legal_actions(seat)}
        for r, c in list(game.kingdoms[seat])[:12]:
            for action in (
                Tower(r, c),
                *(Wall(side, r, c) for side in ("east", "south", "west", "north")),
                *(Bridge(side, r, c) for side in ("east", "south", "west", "north")),
            ):
                trial = game.clone()
                try:
                    done = str(trial.apply(action, seat))
                except IllegalAction:
                    assert trial == game
                    done = ""
                named = str(action)
                assert (done in listed) == bool(done), named
                if named in listed:
                    assert done == named
                tried += 1
    assert tried > 500
