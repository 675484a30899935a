"""Click & Crack's position builder (`rules.position`): every field checked, and what it builds is a game.

A built game saves and loads with its start position, undoes back to it and no further, hides what a seat
may not see, and equals the game that reached the same position by play.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cliplab.engine import PositionError, SaveError, from_json, new_game, to_json
from cliplab.games.click_crack.rules import FLOE, ClickCrack, position, position_of

PENGUINS = [(2, 2), (4, 3), (0, 3), (3, 0), (5, 5), (1, 1)]
TILES = [[("walk", "N"), ("break", "E")], [("walk", "S"), ("walk", "W")], [("break", "N"), ("break", "N")]]


def perform(**fields: Any) -> ClickCrack:
    given: dict[str, Any] = {"penguins": PENGUINS, "phase": "perform", "tiles": TILES, **fields}
    return position(3, **given)


# ----- each field's checks name the field --------------------------------------------------------------------

BAD_FIELDS = [
    ({"penguins": PENGUINS[:5]}, "penguins", "6 entries"),
    ({"penguins": [(6, 0), *PENGUINS[1:]]}, "penguins[0]", "off the board"),
    ({"penguins": [(2, 2), (2, 2), *PENGUINS[2:]]}, "penguins[1]", "stands on (2, 2) already"),
    ({"penguins": ["2,2", *PENGUINS[1:]]}, "penguins[0]", "(row, col)"),
    ({"penguins": [(0, 0), *PENGUINS[1:]], "gone": [(0, 0)]}, "penguins[0]", "touches no tile"),
    ({"penguins": [None, None, None, None, (5, 5), (1, 1)]}, "penguins", "fewer than 3"),
    ({"cracks": [((0, 0), (1, 1))]}, "cracks[0]", "not side by side"),
    ({"cracks": [((0, 0), (0, 5))]}, "cracks[0][1]", "off the board"),
    ({"cracks": [((0, 0), (0, 1)), ((0, 0), (1, 0))]}, "gone", "2 pieces"),
    ({"gone": [(r, c) for r in range(4) for c in range(5)]}, "gone", "ended the game"),
    ({"gone": [(5, 0)]}, "gone[0]", "off the board"),
    ({"scores": [7, 0, 0]}, "scores[0]", "ended the game"),
    ({"scores": [1, 2]}, "scores", "3 entries"),
    ({"scores": [0, "1", 0]}, "scores[1]", "whole number"),
    ({"phase": "push"}, "phase", "place, program, perform"),
    ({"round": 0}, "round", "at least 1"),
    ({"round": 41}, "round", "at most 40"),
    ({"start_player": 3}, "start_player", "at most 2"),
    ({"start_player": 1, "penguins": [(2, 2), (4, 3), None, None, (5, 5), (1, 1)]}, "start_player", "no penguin"),
    ({"tiles": TILES}, "tiles", "secret until all are set"),
    ({"second_pass": True}, "second_pass", "revealed"),
    ({"colour": "blue"}, "colour", "not a field"),
]


@pytest.mark.parametrize(("fields", "field", "words"), BAD_FIELDS, ids=[case[1] + ":" + case[2] for case in BAD_FIELDS])
def test_position_error_names_the_field_and_the_problem(fields: dict[str, Any], field: str, words: str) -> None:
    given = {"penguins": PENGUINS, **fields}
    if "colour" in given:  # a field the builder has no keyword for: as a save file would carry it
        config = new_game("click_crack", players=3).config.starting_at(given)
        with pytest.raises(PositionError) as caught:
            ClickCrack(config)
    else:
        with pytest.raises(PositionError) as caught:
            position(3, **given)
    assert caught.value.field == field and words in caught.value.problem, str(caught.value)


BAD_PERFORM = [
    ({"tiles": TILES[:2]}, "tiles", "3 entries"),
    ({"tiles": [[("walk", "N")], *TILES[1:]]}, "tiles[0]", "2 entries"),
    ({"tiles": [[("jump", "N"), ("walk", "N")], *TILES[1:]]}, "tiles[0][0]", "walk, break"),
    ({"tiles": [[("walk", "X"), ("walk", "N")], *TILES[1:]]}, "tiles[0][0]", "N, E, S, W"),
    ({"used": [[True, False], [False, False], [False, False]]}, "used[0]", "0 turn(s)"),
    ({"used": [[True, False], [False, False], [False, "no"]], "acting": 1}, "used[2][1]", "true or false"),
    ({"acting": 1, "used": [[True, True], [False, False], [False, False]]}, "used[0]", "1 turn(s)"),
    ({"acting": 4}, "acting", "at most 2"),
]


@pytest.mark.parametrize(
    ("fields", "field", "words"), BAD_PERFORM, ids=[case[1] + ":" + case[2] for case in BAD_PERFORM]
)
def test_perform_fields_are_checked_too(fields: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(PositionError) as caught:
        perform(**fields)
    assert caught.value.field == field and words in caught.value.problem, str(caught.value)


def test_placing_penguins_follow_the_placement_order() -> None:
    placing = position(2, penguins=[(0, 0), None, (1, 1), None], phase="place")  # one penguin each so far
    assert placing.to_move() == (0,) and placing.placed == 2
    with pytest.raises(PositionError) as caught:
        position(2, penguins=[(0, 0), (1, 1), None, None], phase="place")  # seat 0 placed twice before seat 1
    assert caught.value.field == "penguins[2]"  # seat 1's first penguin comes before seat 0's second
    with pytest.raises(PositionError) as caught:
        position(2, penguins=[(0, 0), None, None, None], phase="place", scores=[1, 0])
    assert caught.value.field == "scores"


# ----- a built position is a game ----------------------------------------------------------------------------


def test_a_built_position_saves_and_loads_with_its_start() -> None:
    game = position(3, penguins=PENGUINS, cracks=[((3, 3), (4, 3))], gone=[(0, 0)], scores=[2, 1, 0], round=4)
    record = json.loads(to_json(game))
    assert record["start"]["cracks"] == [[[3, 3], [4, 3]]] and record["log"] == []
    assert from_json(to_json(game)) == game
    for seat, setting in enumerate(["walk N and break E", "walk S and walk W", "break N and break N"]):
        game.apply("set " + setting, seat)
    game.apply("break E with penguin 0")
    loaded = from_json(to_json(game))
    assert loaded == game and loaded.fingerprint() == game.fingerprint()


def test_a_corrupt_start_position_in_a_save_is_a_save_error_naming_the_field() -> None:
    record = json.loads(to_json(position(3, penguins=PENGUINS)))
    record["start"]["penguins"][4] = [9, 9]
    with pytest.raises(SaveError) as caught:
        from_json(json.dumps(record))
    assert caught.value.where == "start.penguins[4]" and "off the board" in caught.value.problem
    record["start"] = "penguins everywhere"
    with pytest.raises(SaveError) as caught:
        from_json(json.dumps(record))
    assert caught.value.where == "start"


def test_undo_goes_back_to_the_start_and_no_further() -> None:
    game = position(3, penguins=PENGUINS, cracks=[((1, 2), (2, 2))])
    start = game.clone()
    for seat, setting in enumerate(["walk N and break E", "walk S and walk W", "break N and break N"]):
        game.apply("set " + setting, seat)
    game.apply("walk N with penguin 0")
    game.undo(4)
    assert game == start
    with pytest.raises(ValueError, match="0 decisions"):
        game.undo()
    assert game == start


def test_one_position_one_configuration() -> None:
    one = position(3, penguins=PENGUINS, cracks=[((2, 2), (1, 2)), ((0, 0), (0, 1))])
    other = position(3, penguins=PENGUINS, cracks=[((0, 1), (0, 0)), ((1, 2), (2, 2))], scores=[0, 0, 0], round=1)
    assert one.config == other.config and hash(one.config) == hash(other.config) and one == other


def test_views_of_a_built_position_hide_the_settings_made_after_it() -> None:
    game = position(3, penguins=PENGUINS)
    game.apply("set walk N and break E", 0)
    assert game.view(1).tiles[0] == () and game.view(0).tiles[0] == (("break", "E"), ("walk", "N"))
    assert "walk N" not in repr(game.view(1).log) and "walk" not in game.view(1).config.start


def _fields(game: ClickCrack) -> dict[str, Any]:
    """Everything a game holds but its configuration and its log (which differ: one was built, one played)."""
    return {key: value for key, value in vars(game).items() if key not in ("config", "log", "_checkpoints", "reveals")}


def test_a_played_game_and_its_built_position_are_the_same_game() -> None:
    """At every point of seeded random games where a position can be read (no secret setting made yet)."""
    compared: dict[str, int] = {}
    for seed in range(12):
        game = new_game("click_crack", players=2 + seed % 3, seed=seed, placement_order=("repeat", "snake")[seed % 2])
        assert isinstance(game, ClickCrack)
        rng = random.Random(seed)
        while not game.is_over():
            if game.phase in ("place", "program", "perform") and not game.secret_at:
                options = dict(game.config.options)
                built = position(game.players, game.config.seed, **position_of(game), **options)
                assert _fields(built) == _fields(game), (seed, len(game.log))
                compared[game.phase] = compared.get(game.phase, 0) + 1
            seat = game.to_move()[0]
            game.apply(rng.choice(game.legal_actions(seat)), seat)
    assert compared.keys() == {"place", "program", "perform"} and min(compared.values()) > 20


def test_the_default_position_is_the_start_of_placement() -> None:
    built, fresh = position(3), new_game("click_crack", players=3)
    assert _fields(built) == _fields(fresh) and built.main == FLOE
