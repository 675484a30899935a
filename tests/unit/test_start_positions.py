"""The engine's part of start positions: GameConfig.start, its reading checks, and saves that carry it."""

from __future__ import annotations

import json

import pytest

from cliplab.engine import CliplabError, GameConfig, PositionError, from_json, new_game, to_json
from cliplab.engine.position import check_fields, distinct, integer, items, place


def test_a_start_position_is_canonical_text_in_a_frozen_hashable_configuration() -> None:
    config = GameConfig("click_crack", 3, 0, ())
    one = config.starting_at({"gone": {(0, 1), (0, 0)}, "phase": "program"})
    other = config.starting_at({"phase": "program", "gone": [(0, 0), (0, 1)]})
    assert one == other and hash(one) == hash(other)
    assert one.start == '{"gone":[[0,0],[0,1]],"phase":"program"}'
    assert one.start_fields() == {"gone": [[0, 0], [0, 1]], "phase": "program"}
    assert config.start == "" and config.start_fields() is None
    assert GameConfig.__dataclass_params__.frozen  # type: ignore[attr-defined]


def test_a_start_position_holds_plain_data_only() -> None:
    with pytest.raises(PositionError) as caught:
        GameConfig("click_crack", 3, 0, ()).starting_at({"penguins": object()})
    assert caught.value.field == "start"
    for text, words in (("[1, 2]", "JSON object"), ("{penguins", "not valid JSON")):
        with pytest.raises(PositionError, match=words):
            GameConfig("click_crack", 3, 0, (), text).start_fields()


def test_a_game_from_the_rules_own_setup_saves_without_a_start() -> None:
    game = new_game("click_crack", players=3, seed=2)
    assert "start" not in json.loads(to_json(game))
    assert from_json(to_json(game)) == game


def test_position_error_is_a_value_error_that_names_its_field() -> None:
    error = PositionError("seats[1].pile[2]", "park 7 is held in seats[0].face_up already")
    assert isinstance(error, CliplabError) and isinstance(error, ValueError)
    assert str(error) == "seats[1].pile[2]: park 7 is held in seats[0].face_up already"


@pytest.mark.parametrize(
    ("read", "field", "words"),
    [
        (lambda: integer(True, "round"), "round", "whole number"),
        (lambda: integer(0, "round", 1), "round", "at least 1"),
        (lambda: items("abc", "cracks"), "cracks", "takes a list"),
        (lambda: items([1], "scores", 2), "scores", "2 entries, not 1"),
        (lambda: place([1, 2, 3], "gone[0]", 5, 5), "gone[0]", "(row, col)"),
        (lambda: place([5, 0], "gone[0]", 5, 5, "tile"), "gone[0]", "tile (5, 0) is off the board"),
        (lambda: distinct([3, 4, 3], "seats", "pad sheet"), "seats[2]", "pad sheet 3 is listed twice"),
        (lambda: check_fields({"hand": 1}, ("pile",), "seats[0]."), "seats[0].hand", "not a field"),
    ],
)
def test_each_reader_names_the_field_it_reads(read: object, field: str, words: str) -> None:
    with pytest.raises(PositionError) as caught:
        read()  # type: ignore[operator]
    assert caught.value.field == field and words in caught.value.problem
