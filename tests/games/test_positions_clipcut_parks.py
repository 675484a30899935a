"""ClipCut Parks' position builder (`rules.position`): every field checked, and what it builds is a game.

A built game saves and loads with its start position, undoes back to it and no further, hides face-down
cards from every seat, and equals the game that reached the same position by play.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cliplab.engine import PositionError, SaveError, from_json, new_game, to_json
from cliplab.games.clipcut_parks.rules import ClipCutParks, SeatPosition, position, position_of

P = [("park", n) for n in range(31)]  # P[n] is park card n


def solo(**seat: Any) -> ClipCutParks:
    """Solo on the standard sheet, the die showing 1-2-3, with these fields for the seat."""
    return position(1, seed=3, die=2, sheets="standard", seats=[SeatPosition(**seat)])


# ----- each field's checks name the field --------------------------------------------------------------------

BAD_SEAT_FIELDS = [
    ({"sheet": 4}, "seats[0].sheet", "standard sheet"),
    ({"cuts": ["cut 2 from 0,3"]}, "seats[0].cuts[0]", "cut"),
    ({"cuts": ["place section 1 on park 1 at 0,0 turned 0"]}, "seats[0].cuts[0]", "cut 2 from 0,3 going S"),
    ({"cuts": ["cut 2 from 0,9 going E"]}, "seats[0].cuts[0]", "between two squares of the sheet"),
    ({"round_cuts": ["cut 1 from 7,0 going E"]}, "seats[0].round_cuts[0]", "between two squares"),
    ({"cuts": ["cut 1 from 0,1 going S", "cut 1 from 1,0 going E"]}, "seats[0].cuts", "not one piece"),
    ({"gone": [(7, 0)]}, "seats[0].gone[0]", "off the board"),
    ({"gone": [(0, 0)], "sections": [[(0, 0)]], "waiting": [1]}, "seats[0].sections[0][0]", "listed as gone"),
    ({"sections": [[(0, 0), (0, 2)]], "waiting": [1]}, "seats[0].sections[0]", "not one piece"),
    ({"sections": [[(0, 0)], [(0, 0)]], "waiting": [1, 2]}, "seats[0].sections[1][0]", "in section 1 already"),
    ({"sections": [[(0, 0)]]}, "seats[0].sections[0]", "neither laid, waiting nor crumpled"),
    ({"sections": [[(0, 0)]], "waiting": [2]}, "seats[0].waiting[0]", "at most 1"),
    ({"sections": [[(0, 0)]], "waiting": [1], "crumpled": [1]}, "seats[0].crumpled[0]", "waiting already"),
    ({"sections": [[]], "waiting": [1]}, "seats[0].waiting[0]", "squares are needed"),
    ({"sections": [[(0, 0)]], "laid": ["cut 1 from 0,1 going S"]}, "seats[0].laid[0]", "place section 1 on"),
    ({"sections": [[(0, 0)]], "laid": ["place section 1 on park 9 at 0,0 turned 0"]}, "seats[0].laid[0]", "neither"),
    (
        {"sections": [[(0, 0)]], "laid": ["place section 1 on park 1 at 0,0 turned 5"], "face_up": [P[1], P[2]]},
        "seats[0].laid[0]",
        "not a turn this game allows",
    ),
    (
        {"sections": [[(0, 0), (0, 1)]], "laid": ["place section 1 on park 1 at 0,9 turned 0"], "face_up": [P[1]]},
        "seats[0].laid[0]",
        "not a free space",
    ),
    ({"face_up": [("park", 31)]}, "seats[0].face_up[0]", "at most 30"),
    ({"face_up": [("grand", 1)]}, "seats[0].face_up[0]", "no grand parks"),
    ({"face_up": [("big", 1)]}, "seats[0].face_up[0]", "park or grand"),
    ({"face_up": [P[1]], "pile": [P[1]]}, "seats[0].pile[0]", "held in seats[0].face_up"),
    ({"completed": [P[2], "park 3"]}, "seats[0].completed[1]", "takes a list"),
    ({"tokens": {"gold": 1}}, "seats[0].tokens.gold", "not a field"),
    ({"tokens": {"wildlife": -1}}, "seats[0].tokens.wildlife", "at least 0"),
    ({"to_cut": [4]}, "seats[0].to_cut", "does not ask for the cuts [4]"),
    ({"to_cut": [1, 1]}, "seats[0].to_cut", "does not ask"),
    ({"skipped": [0]}, "seats[0].skipped[0]", "at least 1"),
    ({"bonus": True}, "seats[0].bonus", "cuts and building are done"),
    ({"bonuses_lost": "none"}, "seats[0].bonuses_lost", "whole number"),
]


@pytest.mark.parametrize(
    ("seat", "field", "words"), BAD_SEAT_FIELDS, ids=[f"{case[1]}:{case[2]}" for case in BAD_SEAT_FIELDS]
)
def test_position_error_names_the_seat_field_and_the_problem(seat: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(PositionError) as caught:
        solo(**seat)
    assert caught.value.field == field and words in caught.value.problem, str(caught.value)


BAD_FIELDS = [
    ({"die": 7}, "die", "at most 6"),
    ({"round": 0}, "round", "at least 1"),
    ({"round": 101}, "round", "at most 100"),
    ({"roller": 2}, "roller", "at most 1"),
    ({"discarded": [P[5]]}, "discarded", "solo game only"),
    ({"seats": [SeatPosition()]}, "seats", "2 entries"),
    ({"seats": [{"face_up": [P[1]]}, {"face_up": [P[1]]}]}, "seats[1].face_up[0]", "held in seats[0].face_up"),
    ({"seats": [{"sheet": 5}, {"sheet": 5}]}, "seats[1]", "pad sheet 5 is listed twice"),
    ({"seats": [{"sheet": 0}, {}]}, "seats[0].sheet", "a pad sheet, 1-100"),
    ({"seats": [{"hand": []}, {}]}, "seats[0].hand", "not a field"),
    ({"seats": [{"to_cut": [1]}, {}]}, "seats[0].to_cut", "every seat is done"),
    ({"seats": [{"sections": [[(0, 0)]], "waiting": [1]}, {}]}, "seats[0].waiting", "every seat is done"),
]


@pytest.mark.parametrize(("fields", "field", "words"), BAD_FIELDS, ids=[f"{case[1]}:{case[2]}" for case in BAD_FIELDS])
def test_position_error_names_the_field_and_the_problem(fields: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(PositionError) as caught:
        position(2, **fields)
    assert caught.value.field == field and words in caught.value.problem, str(caught.value)


# ----- a built position is a game ----------------------------------------------------------------------------

MID_ROUND = {
    "cuts": ["cut 2 from 0,4 going S"],
    "round_cuts": ["cut 1 from 7,2 going N"],
    "sections": [[(0, 0), (0, 1)], [(6, 8)]],
    "laid": ["place section 1 on park 7 at 0,0 turned 0"],
    "crumpled": [2],
    "face_up": [P[7], P[6]],
    "pile": [P[3], P[9], P[12]],
    "completed": [P[20]],
    "tokens": {"gardener": 1},
    "to_cut": [2, 3],
}


def test_a_built_position_saves_and_loads_with_its_start() -> None:
    game = solo(**MID_ROUND)
    assert game.stage[0] == "cut" and game.to_cut[0] == [2, 3] and game.crumpled[0] == [2]
    record = json.loads(to_json(game))
    assert record["start"]["seats"][0]["pile"] == [["park", 3], ["park", 9], ["park", 12]] and record["log"] == []
    assert from_json(to_json(game)) == game
    game.apply("cut 2 from 2,0 going E", 0)
    loaded = from_json(to_json(game))
    assert loaded == game and loaded.fingerprint() == game.fingerprint()


def test_a_corrupt_start_position_in_a_save_is_a_save_error_naming_the_field() -> None:
    record = json.loads(to_json(solo(**MID_ROUND)))
    record["start"]["seats"][0]["pile"][1] = ["park", 7]
    with pytest.raises(SaveError) as caught:
        from_json(json.dumps(record))
    assert (
        caught.value.where == "start.seats[0].pile[1]" and "park 7 is held in seats[0].face_up" in caught.value.problem
    )


def test_undo_goes_back_to_the_start_and_no_further() -> None:
    game = solo(**MID_ROUND)
    start = game.clone()
    game.apply("cut 2 from 2,0 going E", 0)
    game.apply("cut 3 from 7,5 going N", 0)
    game.undo(2)
    assert game == start
    with pytest.raises(ValueError, match="0 decisions"):
        game.undo()
    assert game == start


def test_before_the_roll_the_seed_rolls_the_die_and_undo_comes_back_to_the_roll() -> None:
    game = position(2, seed=8, round=3, roller=1)
    assert game.phase == "play" and game.round == 3 and len(game.log) == 1  # the roll, drawn from the seed
    rolled = game.clone()
    game.apply(game.legal_actions(0)[0], 0)
    game.undo()
    assert game == rolled


def test_one_position_one_configuration() -> None:
    one = solo(gone=[(6, 8), (6, 7)], sections=[[(0, 1), (0, 0)]], waiting=[1], face_up=[P[1]], pile=[P[2]])
    other = solo(gone={(6, 7), (6, 8)}, sections=[{(0, 0), (0, 1)}], waiting=[1], face_up=[P[1]], pile=[P[2]])
    assert one.config == other.config and hash(one.config) == hash(other.config) and one == other


def test_views_of_a_built_position_hide_the_piles_and_their_order() -> None:
    game = position(2, seed=1, die=1, seats=[{"pile": [P[3], P[9]]}, {"pile": [P[12]]}])
    for seat in (0, 1, None):
        view = game.view(seat)
        words = repr(vars(view)) + view.config.start
        assert "9" not in json.dumps([ref for refs in view.pile for ref in refs]) and '["park",9]' not in words
        assert [len(pile) for pile in view.pile] == [2, 1]


def _fields(game: ClipCutParks) -> dict[str, Any]:
    """What a game holds but its configuration and its log, which differ (one game was built, one played),
    and the log positions of its deals and reveals (a built game's cards were dealt before its log began).
    `resume` is left out too: it matters only while a seat chooses the part to keep, which no position is;
    and `cuts_kept` and `layings_kept`, which hold only what each seat was last asked to cut or to lay."""
    skip = ("config", "log", "_checkpoints", "reveals", "dealt_at", "resume", "cuts_kept", "layings_kept")
    return {key: value for key, value in vars(game).items() if key not in skip}


def test_a_played_game_and_its_built_position_are_the_same_game() -> None:
    """At every point of seeded random games where a position can be read, in every mode."""
    compared = 0
    for seed in range(8):
        options = {"grand_parks": seed % 4, "longer": seed % 3 == 1, "allow_flip": seed % 2 == 1}
        game = new_game("clipcut_parks", players=1 + seed % 4, seed=seed, **options)
        assert isinstance(game, ClipCutParks)
        rng = random.Random(seed)
        for _ in range(150):
            if game.is_over():
                break
            if "keep" not in game.stage:
                built = position(game.players, game.config.seed, **position_of(game), **dict(game.config.options))
                assert _fields(built) == _fields(game), (seed, len(game.log))
                assert {type(v) for v in built.sheet} == {type(v) for v in game.sheet} == {frozenset}
                compared += 1
            seat = game.to_move()[0]
            game.apply(rng.choice(game.legal_actions(seat)), seat)
    assert compared > 500


def test_the_default_position_deals_the_first_cards_by_number() -> None:
    game = position(2, seed=6, grand_parks=1)
    assert game.face_up == [[("grand", 1), P[1]], [("grand", 2), P[5]]]
    assert game.pile == [[P[2], P[3], P[4]], [P[6], P[7], P[8]]]
    assert game.sheet_number == [1, 2] and game.phase == "play" and game.round == 1
