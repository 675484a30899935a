"""Scenario tests for ClipCut Parks, one or more per rule paragraph of seeds/000 with RULINGS.md.

Most scenarios run on the test sheet and test cards of clipcut_positions (the `content` fixture): every
sheet row is one colour (water, greenery, pavilion, play, water, greenery, pavilion from the top), column 2
carries a wildlife icon and column 5 a recycling icon, and each scenario draws the cards it needs. Setup
and random-play checks run on the real content. Points are lattice points (row, col), the top-left corners
of squares; "cut 2 from 0,3 going S" runs down the line between columns 2 and 3 from the top edge.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import replace

import pytest
from clipcut_positions import (
    ROW_COLOURS,
    arrange,
    card,
    legal,
    new,
    play,
    position,
    refused,
    use_content,
)

from cliplab.engine import CHANCE, from_json, new_game, to_json
from cliplab.games.clipcut_parks import ClipCutParks, Cut, Place, Roll
from cliplab.games.clipcut_parks.content import DIE_FACES
from cliplab.games.clipcut_parks.rules import (
    _CUT_AT,
    ALL_CARDS_DONE,
    CUT_IMPOSSIBLE,
    DIRS,
    PILE_EMPTY,
    ROUND_LIMIT,
    SHEETS_SPENT,
    CutList,
)

P1, P2, P3, P4 = ("park", 1), ("park", 2), ("park", 3), ("park", 4)
G1 = ("grand", 1)
DONE4 = [("park", n) for n in (20, 21, 22, 23)]  # four cards completed in earlier rounds
Laid = tuple[tuple[str, int], list[tuple[int, int]], list[tuple[int, int]]]  # card, sheet squares, card spaces


@pytest.fixture
def content(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """The test sheet and blank filler cards; a test adds its own cards with use_content(content, ...)."""
    use_content(monkeypatch)
    yield monkeypatch


def only_sheet(*squares: tuple[int, int]) -> list[tuple[int, int]]:
    """The squares to mark gone so that only `squares` are left in the sheet."""
    return [(r, c) for r in range(7) for c in range(9) if (r, c) not in squares]


# ----- setup, the die, the round --------------------------------------------------------------------------


def test_setup_two_cards_face_up_three_in_each_pile_from_one_shuffled_deck() -> None:
    game = new_game("clipcut_parks", players=4, seed=5)
    assert isinstance(game, ClipCutParks)
    dealt = []
    for seat in range(4):
        assert len(game.face_up[seat]) == 2 and len(game.pile[seat]) == 3
        assert all(kind == "park" for kind, _ in game.face_up[seat] + game.pile[seat])
        assert game.tokens[seat] == {"wildlife": 0, "recycling": 0, "gardener": 0}
        dealt += game.face_up[seat] + game.pile[seat]
    assert len(set(dealt)) == 20  # no card twice; the other 10 stay in the box
    sheets = game.sheet_number
    assert len(set(sheets)) == 4 and all(1 <= n <= 100 for n in sheets)  # each tears their own pad sheet


def test_the_die_faces() -> None:
    assert sorted(DIE_FACES) == sorted([(1, 1, 1, 1), (1, 2, 3), (4,), (3, 3), (2, 2), (1, 1, 2)])
    assert [Roll(face).lengths for face in range(1, 7)] == list(DIE_FACES)
    first_rolls = set()
    for seed in range(40):
        game = new(1, seed)
        seat, roll = game.log[-1]
        assert seat == CHANCE and isinstance(roll, Roll)
        assert game.to_cut[0] == list(roll.lengths)
        first_rolls.add(roll.face)
    assert first_rolls == {1, 2, 3, 4, 5, 6}


def test_each_round_all_players_cut_the_rolled_lengths_at_once_and_the_die_passes_left(
    content: pytest.MonkeyPatch,
) -> None:
    game = new(3)
    for seat in range(3):
        game = arrange(game, seat, die=[1])
    assert game.to_move() == (0, 1, 2) and game.roller == 0 and game.round == 1
    for seat in (2, 0, 1):
        play(game, "cut 1 from 0,4 going S", seat=seat)
    assert game.round == 2 and game.roller == 1
    roll = game.log[-1][1]
    assert isinstance(roll, Roll) and all(game.to_cut[seat] == list(roll.lengths) for seat in range(3))


def test_players_work_through_a_round_independently(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card("W")})
    game = arrange(arrange(new(2), 0, sections=[[(0, 0)]], face_up=[P1]), 1, die=[2])
    assert game.to_move() == (0, 1)
    play(game, "cut 2 from 0,4 going S", seat=1)
    assert game.to_move() == (0,) and game.stage[1] == "done"
    refused(game, "cut 1 from 0,6 going S", 1, rule="turn order", words=["not your turn", "player 0"])
    play(game, "place section 1 on park 1 at 0,0 turned 0", seat=0)
    assert game.round == 2


def test_an_action_of_another_step_is_refused_with_the_step_to_finish_first(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card("W")})
    game = position(die=[1, 2])
    refused(game, "place section 1 on park 1 at 0,0 turned 0", rule="cut", words=["not now", "cuts the die asks"])
    refused(game, "crumple section 1", rule="cut", words=["not now"])
    game = position(sections=[[(0, 0)]], face_up=[P1])
    refused(game, "cut 1 from 0,4 going S", rule="build", words=["not now", "place or crumple"])


# ----- cutting ------------------------------------------------------------------------------------------


def test_cut_must_start_on_boundary_or_cut_end(content: pytest.MonkeyPatch) -> None:
    game = position(die=[1, 2, 3], earlier=["cut 1 from 0,7 going S"], gone=[(4, 4)])
    refused(
        game, "cut 1 from 3,2 going E", rule="cut", words=["starts on the sheet's edge", "end of an earlier cut", "3,2"]
    )
    play(game, "cut 1 from 7,1 going N")  # from the outside edge
    play(game, "cut 2 from 1,7 going W")  # from the end of a cut of an earlier round
    play(game, "cut 3 from 5,5 going E")  # from the rim of the hole a freed square left (its corner)
    assert game.round == 2


def test_a_cut_may_be_named_from_either_end(content: pytest.MonkeyPatch) -> None:
    game = position(die=[2])
    # 2,3 is inside the sheet, 0,3 on its edge: the same line named from the inside end is the legal cut.
    play(game, "cut 2 from 2,3 going N")
    assert [action for seat, action in game.log if seat == 0][-1] == Cut(2, 0, 3, "S")
    game = position(die=[1])
    refused(game, "cut 1 from 3,3 going N", rule="cut", words=["neither end", "3,3", "2,3"])


def test_cut_may_start_at_the_end_of_a_cut_made_earlier_in_the_round(content: pytest.MonkeyPatch) -> None:
    game = position(die=[1, 2])
    refused(game, "cut 2 from 1,3 going E", rule="cut", words=["starts on the sheet's edge"])
    play(game, "cut 1 from 0,3 going S")
    play(game, "cut 2 from 1,3 going E")
    assert game.cuts[0] == {((0, 2), (0, 3)), ((0, 3), (1, 3)), ((0, 4), (1, 4))}


def test_cut_runs_only_along_lines_between_two_squares_still_in_the_sheet(content: pytest.MonkeyPatch) -> None:
    game = position(die=[1, 2, 3])
    refused(game, "cut 1 from 0,0 going E", rule="cut", words=["along the sheet's edge"])
    refused(game, "cut 3 from 4,9 going S", rule="cut", words=["step 1", "sheet's edge"])
    refused(game, "cut 2 from 0,8 going E", rule="cut", words=["run off the park sheet"])


def test_cut_must_be_a_length_the_die_asks_for(content: pytest.MonkeyPatch) -> None:
    game = position(die=[1, 2, 3])
    refused(game, "cut 4 from 0,4 going S", rule="cut", words=["does not ask for a 4 cut", "1, 2, 3"])
    play(game, "cut 2 from 0,4 going S")
    refused(game, "cut 2 from 0,6 going S", rule="cut", words=["does not ask for a 2 cut", "1, 3"])


def test_rulebook_example_1_a_legal_round_of_a_1_cut_a_2_cut_and_a_3_cut(content: pytest.MonkeyPatch) -> None:
    game = position(die=[1, 2, 3])
    play(game, "cut 1 from 0,3 going S", "cut 2 from 1,3 going E", "cut 3 from 1,5 going S")
    assert game.round == 2 and game.stage[0] == "cut"  # the round ended; the next one is rolled
    assert len(game.cuts[0]) == 6 and not game.sections[0]


def test_rulebook_example_2_a_3_cut_must_cut_exactly_3_sides(content: pytest.MonkeyPatch) -> None:
    game = position(die=[3], earlier=["cut 1 from 2,0 going E", "cut 1 from 0,6 going S"], gone=[(0, 8)])
    # Along an earlier cut for one step: only two new sides would be cut.
    refused(game, "cut 3 from 2,0 going E", rule="cut", words=["step 1", "cut already"])
    # Its last step would run along the rim of the hole square 0,8 left: nothing to cut there.
    refused(game, "cut 3 from 1,6 going E", rule="cut", words=["step 3", "sheet's edge"])
    # Along the outside edge from the start.
    refused(game, "cut 3 from 0,2 going E", rule="cut", words=["step 1", "sheet's edge"])
    # Two sides, or four, are not a 3 cut either.
    refused(game, "cut 2 from 0,6 going S", rule="cut", words=["does not ask for a 2 cut"])
    refused(game, "cut 4 from 0,6 going S", rule="cut", words=["does not ask for a 4 cut"])
    play(game, "cut 3 from 0,4 going S")


def test_rulebook_example_3_a_2_cut_extending_the_1_cut_is_illegal(content: pytest.MonkeyPatch) -> None:
    game = position(die=[1, 2])
    play(game, "cut 1 from 0,3 going S")
    reason = refused(game, "cut 2 from 1,3 going S", rule="cut", words=["straight line", "this round"])
    assert "turn" in reason
    play(game, "cut 2 from 1,3 going W")  # turning at the end is fine


def test_cut_may_not_extend_straight_within_round(content: pytest.MonkeyPatch) -> None:
    # The 2 cut would run on from the start of this round's 1 cut, the other way along the same line.
    game = position(die=[1, 2], earlier=["cut 1 from 0,3 going S"])
    play(game, "cut 1 from 1,3 going E")
    refused(game, "cut 2 from 1,3 going W", rule="cut", words=["straight line"])
    play(game, "cut 2 from 1,3 going S")  # straight on from the earlier round's cut is allowed
    # The other order: a later cut running up to the start of this round's cut, along its line.
    game = position(die=[1, 2], earlier=["cut 1 from 0,1 going S", "cut 1 from 0,3 going S"])
    play(game, "cut 1 from 1,3 going E")
    refused(game, "cut 2 from 1,1 going E", rule="cut", words=["straight line"])


def test_cut_may_extend_straight_a_cut_of_an_earlier_round(content: pytest.MonkeyPatch) -> None:
    game = position(die=[2], earlier=["cut 2 from 0,4 going S"])
    play(game, "cut 2 from 2,4 going S")
    assert ((3, 3), (3, 4)) in game.cuts[0]


def test_cut_may_cross_earlier_cuts(content: pytest.MonkeyPatch) -> None:
    game = position(die=[3], earlier=["cut 2 from 2,0 going E"])
    play(game, "cut 3 from 0,1 going S")  # crosses the earlier cut at 2,1
    assert game.sections[0] == {1: ((0, 0), (1, 0))}  # the two lines together close off two squares


def test_cuts_may_be_made_in_any_order(content: pytest.MonkeyPatch) -> None:
    game = position(die=[1, 2, 3])
    assert {action.length for action in game.legal_actions(0)} == {1, 2, 3}  # type: ignore[attr-defined]
    play(game, "cut 3 from 0,6 going S")
    assert game.to_cut[0] == [1, 2]


def test_largest_part_stays_sheet(content: pytest.MonkeyPatch) -> None:
    game = position(die=[1, 2], earlier=["cut 1 from 0,1 going S"])
    play(game, "cut 1 from 1,0 going E")
    assert game.sections[0] == {1: ((0, 0),)} and game.pending[0] == [1]
    assert len(game.sheet[0]) == 62 and (0, 0) not in game.sheet[0]
    assert game.stage[0] == "cut"  # the 2 cut still waits; sections are built after cutting


def test_tied_largest_parts_player_chooses(content: pytest.MonkeyPatch) -> None:
    # Column 8 is gone and the line between columns 3 and 4 is cut from the top down to row 4: the last
    # 3 cut splits the sheet into two parts of 28 squares.
    game = position(die=[3], earlier=["cut 4 from 0,4 going S"], gone=[(r, 8) for r in range(7)], face_up=[P1], pile=[])
    play(game, "cut 3 from 7,4 going N")
    assert game.stage[0] == "keep"
    assert sorted(legal(game)) == ["keep the part with square 0,0", "keep the part with square 0,4"]
    refused(game, "keep the part with square 0,8", rule="cut", words=["0,8", "equal largest parts"])
    refused(game, "cut 1 from 0,1 going S", rule="cut", words=["not now", "equal largest parts"])
    play(game, "keep the part with square 5,6")  # any square of the part names it
    assert game.sheet[0] == {(r, c) for r in range(7) for c in range(4, 8)}
    assert game.sections[0] == {1: tuple((r, c) for r in range(7) for c in range(4))}
    assert legal(game) == ["crumple section 1"]


def test_tied_parts_after_a_bonus_cut_player_chooses_then_builds(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card("W", bonus="cut"), 3: card("_ _ _ _")})
    game = position(die=[1], gone=only_sheet((0, 0), (0, 1), (0, 2)), face_up=[P1], pile=[P3, P4])
    play(game, "cut 1 from 1,1 going N", "place section 1 on park 1 at 0,0 turned 0")
    assert game.stage[0] == "bonus"
    play(game, "cut 1 from 1,2 going N")  # leaves 0,1 and 0,2 apart: one square each
    assert game.stage[0] == "keep"
    play(game, "keep the part with square 0,2")
    assert game.sheet[0] == {(0, 2)} and game.sections[0][2] == ((0, 1),) and game.stage[0] == "build"


def test_cannot_cut_into_freed_section(content: pytest.MonkeyPatch) -> None:
    game = position(die=[2, 1, 1], earlier=["cut 2 from 0,2 going S"])
    play(game, "cut 2 from 2,0 going E")  # frees the 2x2 block in the top-left corner
    assert game.sections[0][1] == ((0, 0), (0, 1), (1, 0), (1, 1))
    refused(game, "cut 1 from 0,1 going S", rule="cut", words=["came free"])
    refused(game, "cut 1 from 2,1 going N", rule="cut", words=["came free"])
    play(game, "cut 1 from 2,1 going S")  # from the rim of the hole, into the sheet


def test_solo_ends_at_once_when_a_required_cut_is_impossible(content: pytest.MonkeyPatch) -> None:
    # Two rows of two squares are left: no line of 3 can be cut, before the 1 cut or after it.
    game = position(die=[1, 3], gone=only_sheet((0, 0), (0, 1), (1, 0), (1, 1)))
    assert legal(game) and all(text.startswith("cut 1") for text in legal(game))
    play(game, "cut 1 from 0,1 going S")
    assert game.is_over() and game.ended == CUT_IMPOSSIBLE and game.round == 1
    assert game.legal_actions(0) == []
    refused(game, "cut 3 from 2,0 going E", rule="game over", words=["ended"])


def test_multiplayer_skips_an_impossible_cut(content: pytest.MonkeyPatch) -> None:
    game = arrange(new(2), 0, die=[1, 3], gone=only_sheet((0, 0), (0, 1), (1, 0), (1, 1)))
    game = arrange(game, 1, die=[1, 3])
    play(game, "cut 1 from 0,1 going S", seat=0)
    assert not game.is_over()
    assert game.skipped[0] == [3] and game.to_cut[0] == [] and game.stage[0] == "done"
    play(game, "cut 3 from 0,4 going S", "cut 1 from 0,6 going S", seat=1)
    assert game.round == 2 and not game.is_over()


def test_game_ends_when_no_sheet_can_make_a_1_cut_any_more(content: pytest.MonkeyPatch) -> None:
    game = arrange(new(2), 0, die=[1], gone=only_sheet((3, 3), (3, 4)), face_up=[], pile=[])
    game = arrange(game, 1, die=[1], gone=only_sheet((3, 3)))
    assert game.skipped[1] == [1] and game.to_move() == (0,)
    play(game, "cut 1 from 3,4 going S", "keep the part with square 3,3", "crumple section 1")
    assert game.ended == SHEETS_SPENT


def test_the_legal_cuts_are_every_cut_the_cutting_rules_allow_counted_and_indexed_without_listing_them() -> None:
    # Every cut within the frame, asked of the rules one by one, against the cuts the game counts and indexes
    # by their masks, at every cut of a few seeded random games.
    every_cut = list(_CUT_AT.values())

    def rules_order(cut: Cut) -> tuple[int, int, int, int]:  # by start point, direction, length
        return cut.row, cut.col, DIRS.index(cut.direction), cut.length

    positions = 0
    for seed in range(2):
        rng = random.Random(seed)
        game = new_game("clipcut_parks", players=2, seed=seed)
        while not game.is_over():
            for seat in game.to_move():
                legal = game.legal_actions(seat)
                if game.stage[seat] in ("cut", "bonus"):
                    positions += 1
                    sheet, lengths = game.cutting(seat), game.lengths_to_cut(seat)
                    allowed = [cut for cut in every_cut if cut.length in lengths and sheet.problem(cut) is None]
                    assert isinstance(legal, CutList) and len(legal) == len(allowed)
                    assert [legal[k] for k in range(len(legal))] == sorted(allowed, key=rules_order)
                    assert [legal[-k] for k in range(1, len(legal) + 1)] == list(reversed(legal[:]))
                    assert list(legal) == [legal[k] for k in range(len(legal))] == game.legal_cuts(seat)
                    assert all(legal.holds(cut) for cut in allowed)
                    assert not any(legal.holds(cut) for cut in every_cut if cut not in allowed)
                    twin = Cut(allowed[0].length, allowed[0].row, allowed[0].col, allowed[0].direction)
                    assert not legal.holds(twin) and twin in legal  # equal, but not the listed object
                    with pytest.raises(IndexError):
                        legal[len(legal)]
                game.apply(rng.choice(legal), seat)
    assert positions > 100


def test_round_limit_option_ends_the_game(content: pytest.MonkeyPatch) -> None:
    game = arrange(arrange(new(2, round_limit=1), 0, die=[1]), 1, die=[1])
    play(game, "cut 1 from 0,4 going S", seat=0)
    assert not game.is_over()
    play(game, "cut 1 from 0,4 going S", seat=1)
    assert game.ended == ROUND_LIMIT


# ----- building -----------------------------------------------------------------------------------------


def test_section_must_be_placed_when_it_fits(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card("W")})
    game = position(sections=[[(0, 0)]], face_up=[P1])
    assert legal(game) == ["place section 1 on park 1 at 0,0 turned 0"]
    refused(game, "crumple section 1", rule="build", words=["fits on your park 1", "must be placed"])


def test_crumple_only_when_nothing_fits(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card("W"), 2: card("G _")})
    game = position(sections=[[(2, 0), (3, 0)]], face_up=[P1, P2])  # pavilion over play: fits neither
    assert legal(game) == ["crumple section 1"]
    play(game, "crumple section 1")
    assert game.crumpled[0] == [1] and game.pending[0] == []


def test_section_goes_whole_onto_one_card_inside_its_free_spaces(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card("_ _"), 2: card("_")})
    # Section 1 lies on park 1's first space since an earlier round; section 2 waits.
    game = position(sections=[[(0, 0), (0, 1)]], face_up=[P1, P2], laid=[(P1, [(6, 8)], [(0, 0)])])
    assert legal(game) == ["crumple section 2"]  # one space free on each card: never the whole section
    refused(game, "place section 2 on park 2 at 0,0 turned 0", rule="build", words=["hang off park 2"])
    refused(game, "place section 2 on park 1 at 0,0 turned 0", rule="build", words=["covered already", "overlap"])
    for missing in (7, 99, 0):  # a card in the deck but not face up, and numbers no card has
        refused(
            game, f"place section 2 on park {missing} at 0,0 turned 0", rule="build", words=["not one of your face-up"]
        )
    refused(game, "place section 1 on park 1 at 0,1 turned 0", rule="build", words=["not waiting to be placed"])


def test_sections_may_be_turned_any_way(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card("W G")})
    game = position(sections=[[(0, 0), (1, 0)]], face_up=[P1])  # water above greenery
    assert legal(game) == ["place section 1 on park 1 at 0,0 turned 3"]
    refused(
        game,
        "place section 1 on park 1 at 0,0 turned 1",
        rule="build",
        words=["asks for greenery, the square is water", "2 unmet"],
    )
    play(game, "place section 1 on park 1 at 0,0 turned 3")
    assert game.covered[0][P1] == {(0, 0): (1, (0, 0)), (0, 1): (1, (1, 0))}


def test_sections_may_not_be_flipped_by_default(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card(". _\n. _\n_ _")})  # a J: only the mirror image of the L section
    game = position(sections=[[(0, 0), (1, 0), (2, 0), (2, 1)]], face_up=[P1])
    assert legal(game) == ["crumple section 1"]
    refused(game, "place section 1 on park 1 at 0,0 turned 4", rule="build", words=["not flipped", "blank"])


def test_allow_flip_option_lets_sections_be_turned_over(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card(". _\n. _\n_ _")})
    game = position(sections=[[(0, 0), (1, 0), (2, 0), (2, 1)]], face_up=[P1], options={"allow_flip": True})
    assert legal(game) == ["place section 1 on park 1 at 0,0 turned 4"]
    play(game, "place section 1 on park 1 at 0,0 turned 4")
    assert game.completed[0] == [P1]


def test_colour_requirement(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card("W")})
    game = position(sections=[[(1, 0)], [(4, 0)]], face_up=[P1])  # a greenery square, a water square
    assert legal(game) == ["crumple section 1", "place section 2 on park 1 at 0,0 turned 0"]
    refused(
        game,
        "place section 1 on park 1 at 0,0 turned 0",
        rule="build",
        words=["space 0,0 asks for water, the square is greenery", "you hold 0 gardener tokens"],
    )
    play(game, "place section 2 on park 1 at 0,0 turned 0", "crumple section 1")


def test_blank_space_takes_any_square(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card("_ _ _ _")})
    game = position(sections=[[(0, 2)], [(1, 4)], [(2, 5)], [(3, 4)]], face_up=[P1])  # four colours, two icons
    for section in range(1, 5):
        play(game, f"place section {section} on park 1 at 0,{section - 1} turned 0")
    assert game.completed[0] == [P1]


def test_wildlife_requirement(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card("w")})
    game = position(sections=[[(1, 1)], [(1, 5)], [(1, 2)]], face_up=[P1])  # plain, recycling, wildlife
    assert legal(game) == ["crumple section 1", "crumple section 2", "place section 3 on park 1 at 0,0 turned 0"]
    refused(game, "place section 1 on park 1 at 0,0 turned 0", rule="build", words=["asks for a wildlife icon"])
    reason = refused(game, "place section 2 on park 1 at 0,0 turned 0", rule="build", words=["wildlife icon"])
    assert "recycling" in reason  # the square's own icon is named, not called missing


def test_recycling_requirement_any_colour_will_do(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card("r r")})
    game = position(sections=[[(2, 5), (3, 5)], [(0, 2), (1, 2)]], face_up=[P1])
    assert legal(game) == [
        "place section 1 on park 1 at 0,0 turned 1",
        "place section 1 on park 1 at 0,0 turned 3",
        "crumple section 2",
    ]
    refused(game, "place section 2 on park 1 at 0,0 turned 1", rule="build", words=["recycling icon"])


def test_walkway_same_section(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card("_ _ _", walkways=["0,0 0,1"])})
    game = position(sections=[[(0, 0)], [(3, 3), (3, 4)]], face_up=[P1], tokens={"gardener": 3})
    assert sorted(legal(game)) == [
        "place section 1 on park 1 at 0,2 turned 0",
        "place section 2 on park 1 at 0,0 turned 0",
        "place section 2 on park 1 at 0,0 turned 2",
    ]
    refused(game, "place section 1 on park 1 at 0,0 turned 0", rule="build", words=["walkway", "one section"])
    refused(
        game, "place section 2 on park 1 at 0,1 turned 0", rule="build", words=["walkway joining spaces 0,0 and 0,1"]
    )
    play(game, "place section 2 on park 1 at 0,0 turned 0", "place section 1 on park 1 at 0,2 turned 0")
    assert game.tokens[0]["gardener"] == 3  # nothing to waive, nothing spent


def test_gardener_token_waives_colour(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card("W W")})
    game = position(sections=[[(1, 0), (1, 1)]], face_up=[P1], tokens={"gardener": 1})  # two greenery squares
    assert legal(game) == ["crumple section 1"]  # two colours unmet, one token
    refused(game, "place section 1 on park 1 at 0,0 turned 0", rule="build", words=["2 unmet", "hold 1 gardener token"])
    game = position(sections=[[(0, 1), (1, 1)]], face_up=[P1], tokens={"gardener": 1})  # water over greenery
    fits = game.fits(0, 1)
    assert [fit.cost for fit in fits] == [(("gardener", 1),), (("gardener", 1),)]
    play(game, "place section 1 on park 1 at 0,0 turned 1")
    assert game.tokens[0]["gardener"] == 0


def test_wildlife_and_recycling_tokens_waive_their_own_icon_only(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card("w"), 2: card("r")})
    game = position(sections=[[(0, 0)]], face_up=[P1, P2], tokens={"recycling": 1})
    assert legal(game) == ["place section 1 on park 2 at 0,0 turned 0"]
    refused(game, "place section 1 on park 1 at 0,0 turned 0", rule="build", words=["hold 0 wildlife tokens"])
    game = position(sections=[[(0, 0)]], face_up=[P1, P2], tokens={"wildlife": 1})
    assert legal(game) == ["place section 1 on park 1 at 0,0 turned 0"]


def test_tokens_do_not_waive_walkways_or_shape(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card("W W", walkways=["0,0 0,1"])})
    tokens = {"wildlife": 5, "recycling": 5, "gardener": 5}
    game = position(sections=[[(0, 0)], [(0, 3), (0, 4), (0, 5)]], face_up=[P1], tokens=tokens)
    assert legal(game) == ["crumple section 1", "crumple section 2"]


def test_tokens_spent_on_placement(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card("w T _")})
    game = position(sections=[[(0, 0), (0, 1)]], face_up=[P1], tokens={"wildlife": 1, "gardener": 1})
    costs = {str(fit.action): fit.cost for fit in game.fits(0, 1)}  # two plain water squares
    assert costs["place section 1 on park 1 at 0,0 turned 0"] == (("gardener", 1), ("wildlife", 1))
    assert costs["place section 1 on park 1 at 0,1 turned 0"] == (("gardener", 1),)
    play(game, "place section 1 on park 1 at 0,0 turned 0")
    assert game.tokens[0] == {"wildlife": 0, "recycling": 0, "gardener": 0}


def test_a_placement_picked_from_the_list_and_the_same_placement_named_anew_spend_and_cover_alike(
    content: pytest.MonkeyPatch,
) -> None:
    # The game lays a listed placement by what its listing worked out, and any other by the rules again.
    use_content(content, park={1: card("w T _")})
    start = position(sections=[[(0, 0), (0, 1)]], face_up=[P1], tokens={"wildlife": 1, "gardener": 1})
    for text in ("place section 1 on park 1 at 0,0 turned 0", "place section 1 on park 1 at 0,1 turned 0"):
        listed, named = start.clone(), start.clone()
        listed.apply(next(action for action in listed.legal_actions(0) if str(action) == text), 0)
        play(named, text)
        assert listed == named and listed.tokens == named.tokens and listed.covered == named.covered
    assert listed.tokens[0] == {"wildlife": 1, "recycling": 0, "gardener": 0}
    laid = 0
    for seed in range(6):
        rng = random.Random(seed)
        game = new_game("clipcut_parks", players=2, seed=seed)
        while not game.is_over():
            for seat in game.to_move():
                action = rng.choice(game.legal_actions(seat))
                if isinstance(action, Place):
                    twin = game.clone()
                    twin.apply_fast(replace(action), seat)  # an equal Place that is not the listed object
                    game.apply(action, seat)
                    assert twin == game
                    laid += 1
                else:
                    game.apply(action, seat)
    assert laid > 50


def test_sections_are_placed_one_at_a_time_in_the_players_order(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card("W")})
    game = position(sections=[[(0, 0)], [(0, 1)]], face_up=[P1])
    assert legal(game) == ["place section 1 on park 1 at 0,0 turned 0", "place section 2 on park 1 at 0,0 turned 0"]
    play(game, "place section 2 on park 1 at 0,0 turned 0")
    assert legal(game) == ["crumple section 1"]  # the card is full now


def test_voluntary_crumple_option(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card("W")})
    game = position(sections=[[(0, 0)]], face_up=[P1], options={"voluntary_crumple": True})
    assert legal(game) == ["place section 1 on park 1 at 0,0 turned 0", "crumple section 1"]
    play(game, "crumple section 1")
    assert game.crumpled[0] == [1] and game.face_up[0] == [P1]


# ----- checking and bonuses -------------------------------------------------------------------------------


def test_card_is_checked_only_after_every_section_is_built(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card("W"), 3: card("W")})
    game = position(sections=[[(0, 0)], [(0, 1)]], face_up=[P1], pile=[P3])
    play(game, "place section 1 on park 1 at 0,0 turned 0")
    assert game.face_up[0] == [P1] and game.completed[0] == []  # complete, but not checked yet
    assert legal(game) == ["crumple section 2"]  # park 3 is not drawn until the check
    play(game, "crumple section 2")
    assert game.completed[0] == [P1] and game.face_up[0] == [P3]


def test_card_is_complete_only_when_every_space_is_covered(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card("W W W")})
    game = position(sections=[[(0, 0), (0, 1)]], face_up=[P1], pile=[P2])
    play(game, "place section 1 on park 1 at 0,0 turned 0")
    assert game.completed[0] == [] and game.face_up[0] == [P1]


def test_token_bonuses_are_gained_on_completion(content: pytest.MonkeyPatch) -> None:
    use_content(
        content,
        park={1: card("W", bonus="wildlife"), 2: card("G", bonus="recycling"), 3: card("T", bonus="gardener")},
    )
    game = position(sections=[[(0, 0)], [(1, 0)], [(2, 0)]], face_up=[P1, P2, P3], pile=[])
    for section, ref in ((1, 1), (2, 2), (3, 3)):
        play(game, f"place section {section} on park {ref} at 0,0 turned 0")
    assert game.completed[0] == [P1, P2, P3]  # several completions with no cut bonus resolve by themselves
    assert game.tokens[0] == {"wildlife": 1, "recycling": 1, "gardener": 1}
    assert game.face_up[0] == []


def bonus_position(content: pytest.MonkeyPatch, park3_bonus: str = "gardener", **more: object) -> ClipCutParks:
    """Park 1 (one water space, a cut bonus) is face up with park 2; park 3 (one greenery space) tops the pile.
    Earlier rounds cut the right side of square 0,0 and the bottom of square 1,0: this round's 1 cut along
    the bottom of 0,0 frees it, and a bonus 1 cut down the right of 1,0 would free that square too."""
    use_content(
        content,
        park={1: card("W", bonus="cut"), 2: card("P P P P"), 3: card("G", bonus=park3_bonus)},
    )
    seat0 = {"die": [1], "earlier": ["cut 1 from 0,1 going S", "cut 1 from 2,0 going E"], "face_up": [P1, P2]}
    seat0.update({"pile": [P3, P4, ("park", 5)], **more})
    return position(**seat0)  # type: ignore[arg-type]


def test_completion_draws_replacement_then_bonus(content: pytest.MonkeyPatch) -> None:
    game = bonus_position(content)
    play(game, "cut 1 from 1,0 going E", "place section 1 on park 1 at 0,0 turned 0")
    assert game.completed[0] == [P1]
    assert game.face_up[0] == [P3, P2] and game.pile[0] == [P4, ("park", 5)]  # the replacement is up already
    assert game.stage[0] == "bonus"
    play(game, "cut 1 from 1,1 going S")
    assert game.sections[0][2] == ((1, 0),)
    assert legal(game) == ["place section 2 on park 3 at 0,0 turned 0"]  # onto the card just drawn
    play(game, "place section 2 on park 3 at 0,0 turned 0")
    assert game.completed[0] == [P1, P3] and game.tokens[0]["gardener"] == 1
    assert game.face_up[0] == [P4, P2] and game.round == 2


def test_bonus_cut_is_1_or_2_long(content: pytest.MonkeyPatch) -> None:
    game = bonus_position(content)
    play(game, "cut 1 from 1,0 going E", "place section 1 on park 1 at 0,0 turned 0")
    assert {action.length for action in game.legal_actions(0)} == {1, 2}  # type: ignore[attr-defined]
    refused(game, "cut 3 from 0,5 going S", rule="bonuses", words=["bonus cut is 1 or 2 long", "not 3"])
    play(game, "cut 2 from 0,5 going S")
    assert game.round == 2


def test_bonus_cut_may_extend_across_rounds_but_not_within_its_round(content: pytest.MonkeyPatch) -> None:
    game = bonus_position(content)
    play(game, "cut 1 from 1,0 going E", "place section 1 on park 1 at 0,0 turned 0")
    # Straight on from this round's 1 cut: refused, the bonus cut belongs to this round.
    refused(game, "cut 1 from 1,1 going E", rule="cut", words=["straight line", "this round"])
    # Straight on from the earlier round's cut down the right of 0,0: allowed.
    play(game, "cut 1 from 1,1 going S")
    assert game.round_cuts[0][-1] == ((1, 1), (2, 1), "v")


def test_bonus_cut_chain_completes_another_card(content: pytest.MonkeyPatch) -> None:
    game = bonus_position(content, park3_bonus="cut")
    play(game, "cut 1 from 1,0 going E", "place section 1 on park 1 at 0,0 turned 0")
    play(game, "cut 1 from 1,1 going S", "place section 2 on park 3 at 0,0 turned 0")
    assert game.completed[0] == [P1, P3] and game.stage[0] == "bonus"  # a second bonus cut, at once
    play(game, "cut 2 from 0,5 going S")
    assert game.round == 2


def test_bonus_cut_that_cannot_be_made_is_lost(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card("W", bonus="cut")})
    game = arrange(new(2), 0, die=[1], gone=only_sheet((0, 0), (0, 1)), face_up=[P1], pile=[])
    game = arrange(game, 1, die=[1])
    play(game, "cut 1 from 1,1 going N", "keep the part with square 0,1", "place section 1 on park 1 at 0,0 turned 0")
    assert game.completed[0] == [P1] and game.bonuses_lost[0] == 1 and game.stage[0] == "done"
    assert not game.is_over()


def test_several_completions_with_a_cut_bonus_player_picks_the_order(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card("W", bonus="cut"), 2: card("G", bonus="gardener")})
    game = position(sections=[[(0, 0)], [(1, 0)]], face_up=[P1, P2, ("park", 5)], pile=[P3, P4])
    play(game, "place section 1 on park 1 at 0,0 turned 0", "place section 2 on park 2 at 0,0 turned 0")
    assert game.stage[0] == "check" and legal(game) == ["score park 1", "score park 2"]
    refused(game, "score park 5", rule="check", words=["park 5 is not complete"])
    refused(game, "score park 9", rule="check", words=["not one of your face-up cards"])
    play(game, "score park 2")
    # Park 2 first: its replacement (park 3) and gardener token; then park 1 on its own, then its bonus cut.
    assert game.completed[0] == [P2, P1] and game.face_up[0] == [P4, P3, ("park", 5)]
    assert game.tokens[0]["gardener"] == 1 and game.stage[0] == "bonus"


def test_scoring_the_cut_bonus_card_first_makes_the_cut_before_the_other_card_is_scored(
    content: pytest.MonkeyPatch,
) -> None:
    use_content(content, park={1: card("W", bonus="cut"), 2: card("G", bonus="gardener")})
    game = position(sections=[[(0, 0)], [(1, 0)]], face_up=[P1, P2], pile=[P3, P4])
    play(game, "place section 1 on park 1 at 0,0 turned 0", "place section 2 on park 2 at 0,0 turned 0")
    play(game, "score park 1")
    assert game.completed[0] == [P1] and game.face_up[0] == [P3, P2] and game.stage[0] == "bonus"
    play(game, "cut 2 from 0,6 going S")  # frees nothing; park 2 is then scored on its own
    assert game.completed[0] == [P1, P2] and game.tokens[0]["gardener"] == 1


# ----- the end ------------------------------------------------------------------------------------------


def fifth_card_race(
    content: pytest.MonkeyPatch,
    players: int = 2,
    crumpled: tuple[int, ...] = (0, 0, 0, 0),
    laid: Mapping[int, list[Laid]] | None = None,
    **options: object,
) -> ClipCutParks:
    """Every seat has completed four cards (`done4`) and holds a water section that completes its last card
    (`last_card`); `laid` gives sections lying on cards already (they come first: the water section after)."""
    use_content(content, park={1 + seat: card("W") for seat in range(players)})
    game = new(players, **options)
    for seat in range(players):
        game = arrange(
            game,
            seat,
            sections=[[(0, 0)]],
            face_up=[last_card(seat)],
            pile=[],
            completed=done4(seat),
            crumpled=crumpled[seat],
            laid=(laid or {}).get(seat, []),
        )
    return game


def last_card(seat: int) -> tuple[str, int]:
    return ("park", 1 + seat)


def done4(seat: int) -> list[tuple[str, int]]:
    """The four cards a seat of `fifth_card_race` completed in earlier rounds."""
    return [("park", n) for n in range(10 + 4 * seat, 14 + 4 * seat)]


def test_end_fifth_card_end_of_round(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card("W")})
    game = arrange(new(2), 0, sections=[[(0, 0)]], face_up=[P1], pile=[], completed=DONE4)
    game = arrange(game, 1, die=[1])
    play(game, "place section 1 on park 1 at 0,0 turned 0", seat=0)
    assert len(game.completed[0]) == 5 and not game.is_over()  # the round is not over yet
    play(game, "cut 1 from 0,4 going S", seat=1)
    outcome = game.outcome()
    assert outcome is not None and outcome.termination == ALL_CARDS_DONE
    assert outcome.winners == (0,) and outcome.scores == (5, 0)


def test_tie_break_fewer_crumpled_sections(content: pytest.MonkeyPatch) -> None:
    game = fifth_card_race(content, crumpled=(2, 1))
    play(game, "place section 1 on park 1 at 0,0 turned 0", seat=0)
    play(game, "place section 1 on park 2 at 0,0 turned 0", seat=1)
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == (1,) and outcome.ranks == (2, 1)


def test_tie_break_largest_section_on_a_card(content: pytest.MonkeyPatch) -> None:
    # A 3-square section on a completed card counts.
    laid = {
        1: [(done4(1)[0], [(6, 6), (6, 7), (6, 8)], [(0, 0), (0, 1), (0, 2)])],
        0: [(done4(0)[0], [(6, 7), (6, 8)], [(0, 0), (0, 1)])],
    }
    game = fifth_card_race(content, laid=laid)
    for seat in (0, 1):
        play(game, f"place section 2 on park {1 + seat} at 0,0 turned 0", seat=seat)
    assert [game.largest_section(seat) for seat in (0, 1)] == [2, 3]
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == (1,)


def test_shared_win_when_every_tie_break_ties(content: pytest.MonkeyPatch) -> None:
    game = fifth_card_race(content, players=3)
    for seat in range(3):
        play(game, f"place section 1 on park {1 + seat} at 0,0 turned 0", seat=seat)
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == (0, 1, 2) and outcome.ranks == (1, 1, 1)
    assert "share the win" in str(outcome)


def test_longer_game_deals_7_cards_and_ends_at_the_seventh(content: pytest.MonkeyPatch) -> None:
    game = new(2, longer=True)
    assert all(len(game.face_up[s]) == 2 and len(game.pile[s]) == 5 for s in range(2))
    game = fifth_card_race(content, longer=True)
    for seat in (0, 1):
        play(game, f"place section 1 on park {1 + seat} at 0,0 turned 0", seat=seat)
    assert not game.is_over() and game.round == 2  # five of seven is not the end
    done6 = [("park", n) for n in range(20, 26)]
    game = arrange(new(2, longer=True), 0, sections=[[(0, 0)]], face_up=[P1], pile=[], completed=done6)
    game = arrange(game, 1)  # done with the round
    play(game, "place section 1 on park 1 at 0,0 turned 0")
    assert game.ended == ALL_CARDS_DONE


# ----- grand parks --------------------------------------------------------------------------------------


@pytest.mark.parametrize("grand", [1, 2, 3])
@pytest.mark.parametrize("players", [2, 4])
def test_grand_parks_setup_1_park_face_up_with_the_grand_parks_and_a_pile_to_make_5(players: int, grand: int) -> None:
    game = new_game("clipcut_parks", players=players, seed=grand, grand_parks=grand)
    assert isinstance(game, ClipCutParks)
    cards = []
    for seat in range(players):
        kinds = sorted(kind for kind, _ in game.face_up[seat])
        assert kinds == ["grand"] * grand + ["park"]
        assert len(game.pile[seat]) == 5 - grand - 1 and all(kind == "park" for kind, _ in game.pile[seat])
        cards += game.face_up[seat] + game.pile[seat]
    assert len(set(cards)) == len(cards) == 5 * players


def test_grand_parks_are_replaced_from_the_pile_in_multiplayer(content: pytest.MonkeyPatch) -> None:
    use_content(content, grand={1: card("W", bonus="recycling")})
    game = arrange(new(2, grand_parks=1), 0, sections=[[(0, 0)]], face_up=[G1, P1], pile=[P2, P3])
    game = arrange(game, 1)  # done with the round
    play(game, "place section 1 on grand 1 at 0,0 turned 0")
    assert game.completed[0] == [G1] and game.face_up[0] == [P2, P1] and game.pile[0] == [P3]
    assert game.tokens[0]["recycling"] == 1


def test_completed_card_with_an_empty_pile_is_not_replaced(content: pytest.MonkeyPatch) -> None:
    use_content(content, park={1: card("W")})
    game = position(sections=[[(0, 0)]], face_up=[P1, P2], pile=[])
    play(game, "place section 1 on park 1 at 0,0 turned 0")
    assert game.face_up[0] == [P2] and game.completed[0] == [P1]


# ----- solo ----------------------------------------------------------------------------------------------


def test_solo_setup_20_cards_in_play_2_face_up_and_a_pile_of_18() -> None:
    game = new_game("clipcut_parks", players=1, seed=2)
    assert isinstance(game, ClipCutParks)
    assert len(game.face_up[0]) == 2
    # The first round has begun, so its discard is made already: 17 left in the pile.
    assert len(game.pile[0]) == 17 and len(game.discarded) == 1
    in_play = game.face_up[0] + game.pile[0] + game.discarded
    assert len(set(in_play)) == 20 and all(kind == "park" for kind, _ in in_play)


@pytest.mark.parametrize("grand", [1, 2, 3])
def test_solo_grand_setup_removes_one_more_park_card_per_grand_park(grand: int) -> None:
    game = new_game("clipcut_parks", players=1, seed=grand, grand_parks=grand)
    assert isinstance(game, ClipCutParks)
    kinds = sorted(kind for kind, _ in game.face_up[0])
    assert kinds == ["grand"] * grand + ["park", "park"]
    assert len(game.pile[0]) + len(game.discarded) == 18 - grand
    assert len(game.face_up[0]) + len(game.pile[0]) + len(game.discarded) == 20


def test_solo_discards_the_top_card_of_the_pile_each_round(content: pytest.MonkeyPatch) -> None:
    game = position(die=[1])
    top, pile = game.pile[0][0], len(game.pile[0])
    play(game, "cut 1 from 0,4 going S")
    assert game.round == 2 and game.discarded[-1] == top and len(game.pile[0]) == pile - 1


def test_solo_ends_when_the_pile_is_empty_at_the_discard(content: pytest.MonkeyPatch) -> None:
    game = position(die=[1], pile=[P3])
    play(game, "cut 1 from 0,4 going S")
    assert not game.is_over() and game.discarded[-1] == P3 and game.round == 2
    game = arrange(game, die=[1])
    play(game, "cut 1 from 0,6 going S")
    assert game.ended == PILE_EMPTY and game.round == 2


def test_solo_score_formula_line_by_line(content: pytest.MonkeyPatch) -> None:
    game = position(
        die=[1],
        face_up=[("park", 5), ("park", 6)],
        pile=[],
        completed=[P1, P2],
        crumpled=2,
        tokens={"wildlife": 1, "gardener": 2},
        laid=[
            (
                P1,
                [(6, 0), (6, 1), (6, 2), (6, 3)],
                [(0, 0), (0, 1), (0, 2), (0, 3)],
            ),  # the largest, on a completed card
            (("park", 5), [(6, 5), (6, 6)], [(0, 0), (0, 1)]),
        ],
    )
    play(game, "cut 1 from 0,4 going S")
    assert game.ended == PILE_EMPTY
    assert game.solo_breakdown() == {
        "completed park cards (+3 each)": 6,
        "completed grand parks (+5 each)": 0,
        "tokens held (+1 each)": 3,
        "largest section on a card (+1 per square)": 4,
        "crumpled sections (-1 each)": -2,
        "cards left incomplete (-1 each)": -2,
    }
    outcome = game.outcome()
    assert outcome is not None and outcome.scores == (9,)


def test_grand_solo_scores_5_per_completed_grand_park(content: pytest.MonkeyPatch) -> None:
    game = position(die=[1], face_up=[("grand", 2)], pile=[], completed=[G1, P1], options={"grand_parks": 2})
    play(game, "cut 1 from 0,4 going S")
    lines = game.solo_breakdown()
    assert lines["completed grand parks (+5 each)"] == 5 and lines["completed park cards (+3 each)"] == 3
    assert lines["cards left incomplete (-1 each)"] == -1  # the grand park left face up counts too
    outcome = game.outcome()
    assert outcome is not None and outcome.scores == (7,)


def test_grand_solo_grand_park_is_not_replaced(content: pytest.MonkeyPatch) -> None:
    use_content(content, grand={1: card("W", bonus="wildlife")})
    game = position(sections=[[(0, 0)]], face_up=[G1, P1, P2], pile=[P3, P4], options={"grand_parks": 1})
    play(game, "place section 1 on grand 1 at 0,0 turned 0")
    assert game.completed[0] == [G1] and game.tokens[0]["wildlife"] == 1
    assert game.face_up[0] == [P1, P2]  # no replacement: the pile's top card goes to the round's discard
    assert game.discarded[-1] == P3 and game.pile[0] == [P4]


# ----- the engine: save, load, undo -----------------------------------------------------------------------


def random_game(players: int, seed: int, steps: int) -> ClipCutParks:
    game = new_game("clipcut_parks", players=players, seed=seed)
    assert isinstance(game, ClipCutParks)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over():
            break
        seat = game.to_move()[0]
        game.apply(rng.choice(game.legal_actions(seat)), seat)
    return game


def test_save_and_load_round_trip_of_a_mid_game_position() -> None:
    game = random_game(2, seed=7, steps=40)
    assert not game.is_over() and game.round > 1
    loaded = from_json(to_json(game))
    assert loaded == game and loaded.fingerprint() == game.fingerprint()
    seat = game.to_move()[0]
    action = game.legal_actions(seat)[0]
    game.apply(action, seat)
    loaded.apply(action, seat)
    assert loaded == game


def test_undo_restores_the_previous_state() -> None:
    game = random_game(2, seed=3, steps=25)
    history = []
    for _ in range(6):
        history.append((game.clone(), game.fingerprint()))
        seat = game.to_move()[0]
        game.apply(game.legal_actions(seat)[-1], seat)
    for before, fingerprint in reversed(history):
        game.undo()
        assert game == before and game.fingerprint() == fingerprint


def test_the_game_as_text_tells_the_colours_apart(content: pytest.MonkeyPatch) -> None:
    game = position(die=[1])
    text = str(game)
    rows = [line.split() for line in text.splitlines() if line.startswith("  ") and len(line.split()) == 9]
    colour_of = {"W": "water", "G": "greenery", "T": "pavilion", "P": "play"}
    assert tuple(colour_of[row[0]] for row in rows) == ROW_COLOURS  # pavilion and play no longer both "P"
    assert rows[0][2] == "Ww" and rows[1][5] == "Gr"
