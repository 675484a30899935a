"""The helpers of the ClipCut Parks teaching notebook: written positions, tries and their printed verdicts,
exercise checks (which must agree with the engine), pictures, and the live table's clicks and drops.

Positions use the real content on the standard sheet, as the notebook does."""

from __future__ import annotations

import pytest

from cliplab.engine import PositionError
from cliplab.games.clipcut_parks.rules import ClipCutParks
from cliplab.games.clipcut_parks.teach import (
    LiveTable,
    arrange,
    attempt,
    cards_picture,
    cuts_freeing,
    die_picture,
    judge_completion,
    judge_cut,
    legend_picture,
    new,
    picture,
    sheet_picture,
    sheets_side_by_side,
    tokens_picture,
    verdict,
    ways_to_complete,
)
from cliplab.ui import Intent

START_RULE = "starts on the sheet's edge or at the end of an earlier cut"  # the engine's words for the start rule
PICNIC, FERN, BANDSTAND, ROSE, RIVERSIDE = ("park", 2), ("park", 5), ("park", 6), ("park", 15), ("park", 7)


def chain_position() -> ClipCutParks:
    """Picnic Square (bonus: a cut) and Fern Hollow partly covered; a 1 cut to make (the notebook's chain)."""
    return arrange(
        new(1, seed=5),
        die=[1],
        face_up=[PICNIC, FERN],
        earlier=["cut 1 from 0,4 going S"],
        laid=[
            (PICNIC, [(5, 8), (6, 8), (6, 7)], [(0, 0), (0, 1), (1, 0)]),
            (FERN, [(0, 0), (1, 0), (1, 1)], [(0, 0), (0, 1), (1, 1)]),
        ],
    )


def plus_position() -> ClipCutParks:
    """A plus-shaped section that completes Bandstand Cross in exactly one turn (exercise 2)."""
    return arrange(new(1, seed=9), face_up=[BANDSTAND, ROSE], sections=[[(4, 5), (5, 4), (5, 5), (5, 6), (6, 5)]])


# ----- positions ------------------------------------------------------------------------------------------


def test_arrange_writes_the_cut_step_with_the_lengths_left() -> None:
    game = arrange(new(1, seed=5), die=[2], earlier=["cut 1 from 0,3 going S"])
    assert game.stage[0] == "cut" and game.to_cut[0] == [2]
    assert ((0, 2), (0, 3)) in game.cuts[0] and (1, 3) in game.cut_ends[0]
    assert game.face == 5  # the 2-2 face: the fewest cuts beyond the one left


def test_arrange_lays_sections_on_cards_and_takes_their_squares_off_the_sheet() -> None:
    game = chain_position()
    assert game.face_up[0] == [PICNIC, FERN]
    assert PICNIC not in game.pile[0] and FERN not in game.pile[0] and PICNIC not in game.discarded
    assert game.free_spaces(0, PICNIC) == {(1, 1)}
    assert game.free_spaces(0, FERN) == {(1, 0), (2, 0)}
    assert not {(5, 8), (6, 8), (6, 7), (0, 0), (1, 0), (1, 1)} & game.sheet[0]
    assert len(game.sheet[0]) == 57


def test_arrange_refuses_a_laid_section_the_rules_would_not_allow() -> None:
    with pytest.raises(PositionError, match="cannot cover") as caught:
        arrange(new(1, seed=5), face_up=[RIVERSIDE], laid=[(RIVERSIDE, [(2, 5), (2, 6)], [(0, 0), (0, 1)])])
    assert caught.value.field == "laid[0]"  # greenery on water


def test_arrange_refuses_earlier_cuts_that_free_a_section() -> None:
    with pytest.raises(PositionError, match="one piece") as caught:
        arrange(new(1, seed=5), die=[1], earlier=["cut 1 from 0,1 going S", "cut 1 from 1,0 going E"])
    assert caught.value.field == "seats[0].cuts"


def test_a_position_with_waiting_sections_is_in_the_build_step() -> None:
    game = plus_position()
    assert game.stage[0] == "build" and game.pending[0] == [1]


# ----- tries ------------------------------------------------------------------------------------------------


def test_attempt_prints_what_a_legal_action_did(capsys: pytest.CaptureFixture[str]) -> None:
    game = chain_position()
    attempt(game, "cut 1 from 0,2 going S")
    out = capsys.readouterr().out
    assert out.startswith("done:    cut 1 from 0,2 going S")
    assert "section 3 came free: 1 square (0,1 Gw)" in out
    assert game.pending[0] == [3]


def test_attempt_prints_the_rule_and_reason_of_a_refusal_and_changes_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    game = arrange(new(1, seed=5), die=[1, 2])
    attempt(game, "cut 1 from 0,3 going S")
    capsys.readouterr()
    before = game.fingerprint()
    attempt(game, "cut 2 from 1,3 going S")
    out = capsys.readouterr().out
    assert out.startswith("refused: cut 2 from 1,3 going S")
    assert "cut rule:" in out and "straight line" in out
    assert game.fingerprint() == before


def test_verdict_tries_on_a_copy() -> None:
    game = chain_position()
    before = game.fingerprint()
    result = verdict(game, "cut 1 from 0,2 going S")
    assert result.ok and result.after is not None and result.after.pending[0] == [3]
    assert game.fingerprint() == before
    refused = verdict(game, "cut 1 from 3,3 going S")
    assert not refused.ok and refused.rule == "cut" and START_RULE in refused.reason


def test_the_chain_completes_both_cards_with_a_bonus_cut_between() -> None:
    game = chain_position()
    for action in [
        "cut 1 from 0,2 going S",
        "place section 3 on park 2 at 1,1 turned 0",
        "cut 2 from 1,2 going E",
        "place section 4 on park 5 at 1,0 turned 1",
    ]:
        game.apply(action, 0)
    assert game.completed[0] == [PICNIC, FERN] and game.tokens[0]["recycling"] == 1


# ----- exercises --------------------------------------------------------------------------------------------


def test_judge_cut_tells_refused_wrong_and_right_apart() -> None:
    game = arrange(new(1, seed=9), die=[2], earlier=["cut 1 from 0,3 going S", "cut 1 from 1,0 going E"])
    ok, words = judge_cut(game, "cut 2 from 1,2 going E", 3)
    assert not ok and words.startswith("Not allowed") and START_RULE in words
    ok, words = judge_cut(game, "cut 2 from 0,1 going S", 3)
    assert not ok and "frees 1 square, not a section of 3" in words
    ok, words = judge_cut(game, "cut 2 from 1,3 going W", 3)
    assert ok and words.startswith("Right!")


def test_cuts_freeing_lists_exactly_the_cuts_judge_cut_accepts() -> None:
    game = arrange(new(1, seed=9), die=[2], earlier=["cut 1 from 0,3 going S", "cut 1 from 1,0 going E"])
    right = cuts_freeing(game, 3)
    assert right == ["cut 2 from 1,1 going E", "cut 2 from 1,3 going W"]
    for action in game.legal_actions(0):
        assert judge_cut(game, action, 3)[0] == (str(action) in right)


def test_judge_completion_gives_the_engines_reason_for_a_wrong_turn() -> None:
    game = plus_position()
    ok, words = judge_completion(game, "place section 1 on park 6 at 0,0 turned 0", [BANDSTAND])
    assert not ok and "asks for a wildlife icon" in words
    ok, words = judge_completion(game, "place section 1 on park 6 at 0,0 turned 2", [BANDSTAND])
    assert ok and "Bandstand Cross" in words


def test_judge_completion_says_when_every_step_is_legal_but_a_card_stays_open() -> None:
    game = chain_position()
    ok, words = judge_completion(game, ["cut 1 from 0,2 going S", "place section 3 on park 2 at 1,1 turned 0"], [FERN])
    assert not ok and "park 5 (Fern Hollow) is not complete (2 space(s) still free)" in words


def test_ways_to_complete_finds_the_single_turn_and_the_chains() -> None:
    assert ways_to_complete(plus_position(), [BANDSTAND]) == [["place section 1 on park 6 at 0,0 turned 2"]]
    game = chain_position()
    ways = ways_to_complete(game, [PICNIC, FERN])
    assert ["cut 1 from 0,2 going S", "place section 3 on park 2 at 1,1 turned 0", "cut 2 from 1,2 going E",
            "place section 4 on park 5 at 1,0 turned 1"] in ways  # fmt: skip
    for line in ways:
        assert judge_completion(game, line, [PICNIC, FERN])[0]


# ----- pictures ---------------------------------------------------------------------------------------------


def test_picture_marks_a_tried_cut_on_the_sheet_and_a_tried_placement_on_the_card() -> None:
    game = chain_position()
    svg = picture(game, tried="cut 1 from 0,2 going S").data
    assert svg.count('class="cl-mark cl-mark-ghost"') == 1 and "Park 2 Picnic Square" in svg
    svg = picture(plus_position(), tried="place section 1 on park 6 at 0,0 turned 0", boards="cards").data
    assert svg.count('class="cl-mark cl-mark-ghost"') == 5
    assert "park sheet" not in svg and "Park 6 Bandstand Cross" in svg


def test_pictures_are_the_same_every_time() -> None:
    assert picture(chain_position()).data == picture(chain_position()).data
    assert "id=" not in picture(chain_position()).data  # static pictures carry no widget ids


def test_component_pictures() -> None:
    assert "Pad sheet 17" in sheet_picture(0, 17).data
    cards = cards_picture(("park", 29), ("grand", 11)).data
    assert "Park 29 Jamboree Field (bonus: 1 or 2 cut)" in cards and "Grand park 11" in cards
    assert "Card spaces" in legend_picture().data
    assert die_picture().data.count(">face ") == 6
    assert "gardener token" in tokens_picture().data
    tied = arrange(new(1, seed=5), die=[3], earlier=["cut 4 from 0,4 going S"], gone=[(r, 8) for r in range(7)])
    assert "the left" in sheets_side_by_side(("the left", tied), ("the right", tied)).data


# ----- the live table ---------------------------------------------------------------------------------------


def point(at: tuple[int, int]) -> Intent:
    return Intent("sheet", "point", at)


def test_live_table_cuts_from_two_clicks_and_shows_the_news() -> None:
    table = LiveTable(chain_position())
    table.grid.handle(point((0, 2)))
    assert table.start == (0, 2) and table.game.to_cut[0] == [1]
    table.grid.handle(point((1, 2)))
    assert table.game.pending[0] == [3] and table.start is None
    assert "section 3 came free" in table.grid.widget.notice["text"]


def test_live_table_shows_the_engines_reason_for_a_point_that_starts_no_cut() -> None:
    table = LiveTable(chain_position())
    before = table.game.fingerprint()
    table.grid.handle(point((3, 3)))
    notice = table.grid.widget.notice
    assert notice["tone"] == "error" and START_RULE in notice["text"].lower()
    assert table.game.fingerprint() == before and table.start is None


def test_live_table_refuses_an_illegal_cut_with_the_reason_and_keeps_the_game() -> None:
    table = LiveTable(arrange(new(1, seed=5), die=[1, 2]))
    table.grid.handle(point((0, 3)))
    table.grid.handle(point((1, 3)))  # the 1 cut
    before = table.game.fingerprint()
    table.grid.handle(point((1, 3)))
    table.grid.handle(point((3, 3)))  # straight on: refused
    notice = table.grid.widget.notice
    assert notice["tone"] == "error" and "straight line" in notice["text"]
    assert table.game.fingerprint() == before


def test_live_table_places_a_dropped_section_and_refuses_a_wrong_turn() -> None:
    table = LiveTable(plus_position())
    table.grid.handle(Intent("park-6", "drop", (0, 0), piece="s1", turns=0))
    assert table.grid.widget.notice["tone"] == "error" and "wildlife" in table.grid.widget.notice["text"]
    assert table.game.pending[0] == [1]
    table.grid.handle(Intent("park-6", "drop", (0, 0), piece="s1", turns=2))
    assert BANDSTAND in table.game.completed[0]


def test_live_table_keeps_the_clicked_part_on_a_tie() -> None:
    tied = arrange(new(1, seed=5), die=[3], earlier=["cut 4 from 0,4 going S"], gone=[(r, 8) for r in range(7)])
    table = LiveTable(tied)
    table.grid.handle(point((7, 4)))
    table.grid.handle(point((4, 4)))
    assert table.game.stage[0] == "keep"
    table.grid.handle(Intent("sheet", "cell", (3, 6)))
    # The left part came free and fits no card: the table crumples it for the player.
    assert (3, 6) in table.game.sheet[0] and table.game.crumpled[0] == [1]


def test_live_table_lets_the_bot_play_its_seat() -> None:
    table = LiveTable(new(players=2, seed=2024))
    game = table.game
    assert game.to_move() == (0,) and game.stage[1] == "done"  # the bot finished its round at once
    assert any(seat == 1 for seat, _ in game.log)
