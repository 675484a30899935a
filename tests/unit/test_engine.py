"""Unit tests of the engine protocol (cliplab.engine), played on Click & Crack.

Action text, IllegalAction, options and variants, chance, save files and their errors, views, undo and
rewind, the registry and Outcome. One small unregistered dice game at the end checks that undo also takes
back the chance events that followed a decision (Click & Crack draws chance only before the first move).
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

import pytest

from cliplab import engine
from cliplab.engine import (
    CHANCE,
    Action,
    ActionCodec,
    ActionsInParts,
    ChanceNode,
    GameConfig,
    Hidden,
    IllegalAction,
    OptionError,
    Outcome,
    SaveError,
    State,
    UniformChoice,
    from_json,
    load,
    new_game,
    replay,
    save,
    to_json,
)
from cliplab.games.click_crack import Pass, Perform, Place, SetTiles
from cliplab.games.click_crack.rules import StartPlayer

GAME = "click_crack"


def placed(players: int = 3, seed: int = 0, **options: Any) -> State:
    """A game with every penguin placed along the top row and the diagonal: the secret-tile phase begins."""
    state = new_game(GAME, players, seed, **options)
    spots = iter([(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (0, 5), (5, 0)])
    while state.phase == "place":  # type: ignore[attr-defined]
        row, col = next(spots)
        state.apply(f"place at {row},{col}")
    return state


def random_game(players: int, seed: int, steps: int | None = None) -> tuple[State, list[Action]]:
    """A game played by seeded random choices (to the end, or for `steps` steps) and every legal action seen."""
    rng = random.Random(seed)
    state = new_game(GAME, players, seed)
    seen: list[Action] = []
    while not state.is_over() and (steps is None or len(state.log) < steps):
        seat = rng.choice(state.to_move())
        legal = state.legal_actions(seat)
        seen.extend(legal)
        state.apply(rng.choice(legal), seat)
    return state, seen


def save_record(state: State) -> dict[str, Any]:
    return json.loads(to_json(state))


def load_error(record: Any) -> SaveError:
    with pytest.raises(SaveError) as info:
        from_json(record if isinstance(record, str) else json.dumps(record))
    return info.value


# ----- action text ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_every_legal_action_text_parses_back_to_the_action(players: int, seed: int) -> None:
    state, seen = random_game(players, seed)
    kinds = {type(action) for action in seen}
    assert {Place, SetTiles, Perform} <= kinds
    for action in set(seen):
        text = str(action)
        assert state.parse(text) == action, text
        assert state.parse(text.upper()) == action, text
        assert state.parse("  " + text.lower().replace(" ", "   ").replace(",", " , ") + " ") == action, text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("WALK n with  penguin 2", Perform("walk", "N", 2)),
        ("break w WITH penguin 0", Perform("break", "W", 0)),
        ("place at 2, 3", Place(2, 3)),
        ("place at 2 ,3", Place(2, 3)),
        ("  Pass ", Pass()),
        ("set BREAK e and walk n", SetTiles("walk", "N", "break", "E")),
    ],
)
def test_action_text_ignores_case_and_spacing(text: str, expected: Action) -> None:
    assert new_game(GAME).parse(text) == expected


def test_a_setting_is_the_same_in_either_order_and_prints_one_way() -> None:
    one, other = SetTiles("walk", "N", "break", "E"), SetTiles("break", "E", "walk", "N")
    assert one == other
    assert str(one) == str(other) == "set break E and walk N"


@pytest.mark.parametrize("text", ["walk Q with penguin 1", "walk N with penguin x", "fly away", "", 17, None])
def test_text_that_spells_no_action_is_refused_by_the_parser(text: Any) -> None:
    with pytest.raises(IllegalAction) as info:
        new_game(GAME).parse(text)
    assert info.value.rule == "action text"
    assert info.value.player is None


@dataclass(frozen=True, slots=True)
class Deal(Action):
    TEMPLATE: ClassVar[str] = "deal cards {cards} to seat {seat}"
    cards: tuple[int, ...]
    seat: int


def test_a_field_of_several_numbers_is_written_with_spaces_and_parses_back() -> None:
    codec = ActionCodec(Deal)
    deal = Deal((12, 3, 40), 1)
    assert str(deal) == "deal cards 12 3 40 to seat 1"
    assert codec.parse("deal  cards 12  3 40 to seat 1") == deal
    assert codec.parse("deal cards 7 to seat 0") == Deal((7,), 0)


@pytest.mark.parametrize("text", ["deal cards to seat 1", "deal cards 1,2 to seat 1", "deal cards 1 x to seat 0"])
def test_a_field_of_several_numbers_needs_numbers_separated_by_spaces(text: str) -> None:
    with pytest.raises(IllegalAction) as info:
        ActionCodec(Deal).parse(text)
    assert info.value.rule == "action text"


def test_each_number_of_a_field_of_several_is_bounded_before_it_is_read() -> None:
    with pytest.raises(IllegalAction, match="cards has 9 digits"):
        ActionCodec(Deal).parse("deal cards 1 123456789 to seat 0")


def test_a_bad_direction_names_the_word_and_the_choices() -> None:
    with pytest.raises(IllegalAction) as info:
        new_game(GAME).parse("walk Q with penguin 1")
    message = str(info.value)
    assert "Q" in message
    assert all(d in message for d in "NESW")


# ----- IllegalAction ------------------------------------------------------------------------------------


def test_illegal_action_carries_rule_action_reason_and_player_and_names_them() -> None:
    state = new_game(GAME, 3)
    state.apply("place at 0,0")
    with pytest.raises(IllegalAction) as info:
        state.apply("place at 0,0", 1)
    err = info.value
    assert err.rule == "placement"
    assert err.action == Place(0, 0)
    assert err.player == 1
    assert "already" in err.reason
    message = str(err)
    for part in ("player 1", "placement", "place at 0,0", err.reason):
        assert part in message


def test_acting_out_of_turn_names_the_seat_waited_for() -> None:
    state = new_game(GAME, 3)
    before = state.clone()
    with pytest.raises(IllegalAction) as info:
        state.apply("place at 1,1", 2)
    assert info.value.rule == "turn order"
    assert info.value.player == 2
    assert "player 0" in info.value.reason
    assert state == before


def test_an_illegal_action_leaves_the_state_unchanged() -> None:
    state = placed(2)
    state.apply("set walk N and break E", 0)
    before, fingerprint = state.clone(), state.fingerprint()
    for action, player in [("place at 3,3", 1), ("set walk N and break E", 0), ("pass", 1), (Place(9, 9), 1)]:
        with pytest.raises(IllegalAction):
            state.apply(action, player)
        assert state == before
        assert state.fingerprint() == fingerprint


@pytest.mark.parametrize("player", [-5, -1, 3, 99, "0", 1.5, True])
def test_a_bad_seat_is_refused_by_the_seats_rule(player: Any) -> None:
    state = new_game(GAME, 3)
    with pytest.raises(IllegalAction) as info:
        state.apply("place at 0,0", player)
    assert info.value.rule == "seats"
    assert len(state.log) == 0


@pytest.mark.parametrize("action", [None, 42, {"row": 0}, object()])
def test_an_action_of_the_wrong_type_is_refused(action: Any) -> None:
    state = new_game(GAME, 3)
    with pytest.raises(IllegalAction) as info:
        state.apply(action, 0)
    assert type(action).__name__ in info.value.reason
    assert len(state.log) == 0


def test_no_seat_named_while_several_decide_is_refused() -> None:
    state = placed(3)
    with pytest.raises(IllegalAction) as info:
        state.apply("set walk N and walk S")
    assert info.value.rule == "turn order"


# ----- options and variants -----------------------------------------------------------------------------


def test_options_default_to_the_spec() -> None:
    spec = engine.spec(GAME)
    state = new_game(GAME)
    assert state.players == spec.default_players == 3
    assert state.config.seed == 0
    assert dict(state.config.options) == {option.name: option.default for option in spec.options}
    assert state.option("placement_order") == "repeat"
    assert state.option("random_start") is False
    assert state.option("round_limit") == 40


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"colour": "blue"}, "colour"),
        ({"round_limit": True}, "round_limit"),
        ({"round_limit": 12.0}, "round_limit"),
        ({"round_limit": "twelve"}, "round_limit"),
        ({"round_limit": 0}, "round_limit"),
        ({"round_limit": 1001}, "round_limit"),
        ({"random_start": "x"}, "random_start"),
        ({"random_start": 1}, "random_start"),
        ({"placement_order": "zigzag"}, "placement_order"),
        ({"placement_order": 2}, "placement_order"),
    ],
)
def test_a_bad_option_raises_option_error_naming_it(options: dict[str, Any], named: str) -> None:
    with pytest.raises(OptionError, match=named):
        new_game(GAME, 3, 0, **options)


def test_option_values_given_as_text_are_converted() -> None:
    state = new_game(GAME, 3, 0, round_limit="12", random_start="yes")
    assert state.option("round_limit") == 12
    assert state.option("random_start") is True
    assert new_game(GAME, random_start="off").option("random_start") is False


@pytest.mark.parametrize(("players", "seed"), [(1, 0), (5, 0), (True, 0), ("3", 0), (3.0, 0)])
def test_a_bad_player_count_is_an_option_error_naming_players(players: Any, seed: int) -> None:
    with pytest.raises(OptionError, match="players"):
        new_game(GAME, players, seed)


@pytest.mark.parametrize("seed", ["1", 1.5, True, None])
def test_a_seed_that_is_not_a_whole_number_is_an_option_error_naming_the_seed(seed: Any) -> None:
    with pytest.raises(OptionError, match="seed"):
        new_game(GAME, 3, seed)


def test_an_unknown_variant_raises_naming_it_and_the_known_ones() -> None:
    with pytest.raises(OptionError, match="spiral") as info:
        new_game(GAME, 3, variant="spiral")
    assert "snake" in str(info.value)


def test_a_variant_sets_its_options_and_explicit_options_override_it() -> None:
    assert new_game(GAME, variant="snake").option("placement_order") == "snake"
    assert new_game(GAME, variant="snake", placement_order="repeat").option("placement_order") == "repeat"
    plain = new_game(GAME, variant="random_start", random_start=False)
    assert plain.option("random_start") is False
    assert plain.log == []


def test_variants_list_the_default_rules_first() -> None:
    pairs = engine.variants()
    assert pairs[0] == (GAME, None)
    assert {(GAME, "snake"), (GAME, "random_start")} <= set(pairs)


# ----- chance ---------------------------------------------------------------------------------------------


def test_random_start_draws_the_start_player_from_the_seed() -> None:
    starts = []
    for seed in range(20):
        state = new_game(GAME, 4, seed, variant="random_start")
        assert len(state.log) == 1
        seat, event = state.log[0]
        assert seat == CHANCE
        assert isinstance(event, StartPlayer)
        assert state.to_move() == (event.seat,)
        again = new_game(GAME, 4, seed, variant="random_start")
        assert again.log == state.log
        assert again == state
        starts.append(event.seat)
    assert len(set(starts)) >= 2


@pytest.mark.parametrize("event", ["start player is 1", StartPlayer(1)])
def test_a_player_cannot_apply_a_chance_event(event: Any) -> None:
    state = new_game(GAME, 3, 0, variant="random_start")
    before = state.clone()
    with pytest.raises(IllegalAction) as info:
        state.apply(event, state.current_player())
    assert info.value.rule == "chance"
    assert state == before


# ----- save files --------------------------------------------------------------------------------------------


def test_save_round_trip_in_memory() -> None:
    state, _ = random_game(3, 7, steps=30)
    text = to_json(state)
    loaded = from_json(text)
    assert loaded == state
    assert to_json(loaded) == text
    assert replay(state.config, state.log) == state


def test_invalid_json_reports_line_and_column() -> None:
    err = load_error('{\n "format": "cliplab-save",\n oops}')
    assert err.where == "line 3, column 2"
    assert "JSON" in err.problem


def test_a_truncated_file_is_a_save_error() -> None:
    state, _ = random_game(3, 1, steps=20)
    text = to_json(state)
    err = load_error(text[: len(text) // 2])
    assert re.fullmatch(r"line \d+, column \d+", err.where)


@pytest.mark.parametrize("top", ["[]", "null", "3", '"text"'])
def test_a_save_is_a_json_object(top: str) -> None:
    assert load_error(top).where == "top level"


def test_wrong_format_is_refused() -> None:
    record = save_record(new_game(GAME))
    record["format"] = "chess-pgn"
    err = load_error(record)
    assert err.where == "format"
    assert "chess-pgn" in err.problem


@pytest.mark.parametrize("version", [2, "1", True])
def test_a_version_other_than_1_is_refused(version: Any) -> None:
    record = save_record(new_game(GAME))
    record["version"] = version
    assert load_error(record).where == "version"


@pytest.mark.parametrize("key", ["version", "game", "players", "seed", "options", "log"])
def test_a_missing_key_is_refused_naming_it(key: str) -> None:
    record = save_record(new_game(GAME))
    del record[key]
    err = load_error(record)
    assert key in str(err)
    assert "missing" in err.problem


@pytest.mark.parametrize(
    ("key", "value"), [("game", 7), ("players", "3"), ("players", True), ("seed", 1.5), ("options", []), ("log", {})]
)
def test_a_value_of_the_wrong_type_is_refused_naming_it(key: str, value: Any) -> None:
    record = save_record(new_game(GAME))
    record[key] = value
    err = load_error(record)
    assert key in str(err)
    assert "wrong type" in err.problem


def test_a_missing_or_mistyped_key_is_the_place_the_error_points_to() -> None:
    """SaveError.where points into the file: the key itself, as it is for "version", "game" and "log"."""
    wheres = {}
    for key, value in [
        ("version", None),
        ("players", None),
        ("seed", None),
        ("options", None),
        ("players", "3"),
        ("seed", 1.5),
        ("options", []),
        ("game", 7),
        ("log", {}),
    ]:
        record = save_record(new_game(GAME))
        if value is None:
            del record[key]
        else:
            record[key] = value
        wheres[f"{key}={value!r}"] = load_error(record).where
    wrong = {case: where for case, where in wheres.items() if where != case.split("=")[0]}
    assert not wrong, f"SaveError.where is not the key for {wrong}"


def test_an_unknown_game_is_refused_naming_it() -> None:
    record = save_record(new_game(GAME))
    record["game"] = "tic_tac_toe"
    err = load_error(record)
    assert "tic_tac_toe" in str(err)
    assert GAME in str(err)


@pytest.mark.parametrize(("options", "named"), [({"round_limit": 0}, "round_limit"), ({"flavour": 1}, "flavour")])
def test_a_bad_option_in_a_save_is_refused_naming_it(options: dict[str, Any], named: str) -> None:
    record = save_record(new_game(GAME))
    record["options"].update(options)
    assert named in str(load_error(record))


@pytest.mark.parametrize("entry", [[0], [0, "place at 0,0", 1], "place at 0,0", [True, "place at 0,0"], [0, 5]])
def test_a_log_entry_that_is_not_seat_and_text_is_named(entry: Any) -> None:
    record = save_record(new_game(GAME))
    record["log"] = [[0, "place at 0,0"], [1, "place at 1,1"], entry]
    assert load_error(record).where == "log[2]"


def test_an_illegal_action_in_the_log_names_its_index_and_the_reason() -> None:
    record = save_record(new_game(GAME))
    record["log"] = [[0, "place at 0,0"], [1, "place at 1,1"], [2, "place at 0,0"]]
    err = load_error(record)
    assert err.where == "log[2]"
    assert "already" in err.problem
    assert "placement" in err.problem


@pytest.mark.parametrize(
    "log", [[[0, "place at 0,0"], [0, "place at 1,1"]], [[0, "place at 0,0"], [1, "jump"]], [[7, "place at 0,0"]]]
)
def test_other_bad_entries_are_named_by_index(log: list[Any]) -> None:
    record = save_record(new_game(GAME))
    record["log"] = log
    assert load_error(record).where == f"log[{len(log) - 1}]"


def test_a_chance_event_where_a_player_should_act_is_refused() -> None:
    record = save_record(new_game(GAME))
    record["log"] = [[0, "place at 0,0"], [CHANCE, "start player is 2"]]
    assert load_error(record).where == "log[1]"
    random_start = save_record(new_game(GAME, 3, 0, variant="random_start"))
    random_start["log"].append([CHANCE, "start player is 1"])
    assert load_error(random_start).where == "log[1]"


def test_a_player_action_where_chance_must_act_is_refused() -> None:
    record = save_record(new_game(GAME, 3, 0, variant="random_start"))
    record["log"] = [[0, "place at 0,0"]]
    err = load_error(record)
    assert err.where == "log[0]"
    assert "chance" in err.problem


def test_save_and_load_a_file(tmp_path: Path) -> None:
    state, _ = random_game(4, 3, steps=40)
    path = tmp_path / "game.json"
    save(state, path)
    assert load(path) == state
    assert load(str(path)) == state
    assert json.loads(path.read_text(encoding="utf-8"))["game"] == GAME


def test_loading_a_missing_file_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "nowhere" / "game.json"
    with pytest.raises(SaveError) as info:
        load(path)
    assert str(path) in str(info.value)


def test_an_error_in_a_saved_file_names_the_path_and_the_place(tmp_path: Path) -> None:
    record = save_record(new_game(GAME))
    record["version"] = 2
    path = tmp_path / "old.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(SaveError) as info:
        load(path)
    assert str(path) in info.value.where
    assert "version" in info.value.where


# ----- views ---------------------------------------------------------------------------------------------


def test_a_secret_setting_is_hidden_from_others_until_everyone_has_set() -> None:
    state = placed(3)
    index = len(state.log)
    state.apply("set walk N and break E", 0)
    others = state.view(1)
    assert others.log[index] == (0, Hidden())
    assert others.tiles[0] == ()  # type: ignore[attr-defined]
    own = state.view(0)
    assert own.log[index] == (0, SetTiles("walk", "N", "break", "E"))
    assert own.tiles[0] == (("break", "E"), ("walk", "N"))  # type: ignore[attr-defined]
    assert state.log[index][1] == SetTiles("walk", "N", "break", "E")  # the game itself is untouched

    state.apply("set walk S and walk S", 1)
    assert state.view(2).log[index] == (0, Hidden())
    assert state.view(2).log[index + 1] == (1, Hidden())
    assert state.view(1).log[index + 1] == (1, SetTiles("walk", "S", "walk", "S"))
    state.apply("set break W and walk E", 2)
    for seat in range(3):
        view = state.view(seat)
        assert view.log == state.log
        assert view.tiles == state.tiles  # type: ignore[attr-defined]
        assert not any(isinstance(action, Hidden) for _, action in view.log)


def test_a_view_cannot_be_acted_on() -> None:
    state = new_game(GAME, 3)
    view = state.view(0)
    with pytest.raises(IllegalAction) as info:
        view.apply("place at 0,0", 0)
    assert info.value.rule == "views"
    assert view.log == []
    assert state.log == []


def test_a_view_cannot_be_saved_to_a_file(tmp_path: Path) -> None:
    state = placed(3)
    state.apply("set walk N and break E", 0)
    path = tmp_path / "view.json"
    with pytest.raises(SaveError):
        save(state.view(1), path)
    assert not path.exists()


def test_a_view_cannot_be_turned_into_save_text() -> None:
    state = placed(3)
    state.apply("set walk N and break E", 0)
    with pytest.raises(SaveError):
        to_json(state.view(1))


@pytest.mark.parametrize("seat", [-1, 3, 99])
def test_a_view_for_a_seat_that_does_not_exist_is_refused(seat: int) -> None:
    with pytest.raises(ValueError):
        new_game(GAME, 3).view(seat)


def test_a_view_holds_no_seed_and_says_whose_it_is() -> None:
    state = new_game(GAME, 3, seed=424242)
    view = state.view(2)
    assert view.config.seed is None and state.config.seed == 424242
    assert "424242" not in repr(view) and "player 2's view" in repr(view)
    assert "the spectator's view" in repr(state.view(None))
    assert view.config == replace(state.config, seed=None)  # everything else of the setup is public


def test_the_spectator_sees_no_setting_until_all_are_revealed_together() -> None:
    state = placed(3)
    index = len(state.log)
    state.apply("set walk N and break E", 0)
    state.apply("set walk S and walk S", 1)
    spectator = state.view(None)
    assert spectator.viewer is None and spectator.is_view
    assert spectator.log[index:] == [(0, Hidden()), (1, Hidden())]
    assert spectator.tiles == [(), (), ()]  # type: ignore[attr-defined]
    state.apply("set break W and walk E", 2)
    assert state.view(None).log == state.log
    assert state.reveals == [(index + 2, None)]  # type: ignore[attr-defined]


def test_the_spectator_view_cannot_act_go_back_or_be_saved() -> None:
    state = placed(3)
    spectator = state.view(None)
    with pytest.raises(IllegalAction) as info:
        spectator.apply("set walk N and break E", 0)
    assert info.value.rule == "views" and "spectator" in info.value.reason
    with pytest.raises(ValueError):
        spectator.undo()
    with pytest.raises(SaveError):
        to_json(spectator)


def test_a_view_keeps_what_it_showed_when_the_game_moves_on() -> None:
    state = placed(3)
    view = state.view(0)
    shown = view.fingerprint()
    state.apply("set walk N and break E", 0)
    state.apply("set walk S and walk S", 1)
    assert view.fingerprint() == shown and len(view.log) < len(state.log)


# ----- undo and rewind ---------------------------------------------------------------------------------


def test_undo_past_the_start_raises_value_error() -> None:
    state = new_game(GAME, 3)
    with pytest.raises(ValueError):
        state.undo()
    state.apply("place at 0,0")
    state.apply("place at 1,1")
    with pytest.raises(ValueError):
        state.undo(3)
    with pytest.raises(ValueError):
        state.undo(0)
    assert len(state.log) == 2
    state.undo(2)
    assert state == new_game(GAME, 3)


@pytest.mark.parametrize("length", [-1, 4])
def test_rewind_outside_the_log_raises_value_error(length: int) -> None:
    state = new_game(GAME, 3)
    for text in ("place at 0,0", "place at 1,1", "place at 2,2"):
        state.apply(text)
    with pytest.raises(ValueError):
        state.rewind(length)


@pytest.mark.parametrize("variant", [None, "random_start"])
def test_rewind_to_zero_gives_a_fresh_equal_game(variant: str | None) -> None:
    state = new_game(GAME, 3, 11, variant=variant)
    fresh = state.clone()
    rng = random.Random(11)
    for _ in range(40):  # across several checkpoints
        seat = rng.choice(state.to_move())
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    state.rewind(0)
    assert state == fresh
    assert state == new_game(GAME, 3, 11, variant=variant)


def test_undo_in_random_start_keeps_the_start_draw_made_before_the_first_decision() -> None:
    state = new_game(GAME, 3, 5, variant="random_start")
    start = state.clone()
    state.apply(state.legal_actions()[0])
    state.undo()
    assert state == start
    assert [seat for seat, _ in state.log] == [CHANCE]
    with pytest.raises(ValueError):
        state.undo()


def test_undo_takes_back_several_decisions_at_once() -> None:
    state = new_game(GAME, 2, 4)
    kept = []
    rng = random.Random(4)
    for _ in range(25):
        kept.append(state.clone())
        seat = rng.choice(state.to_move())
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    state.undo(7)
    assert state == kept[-7]


# ----- registry and outcome -------------------------------------------------------------------------------


def test_the_registry_knows_click_crack() -> None:
    assert GAME in engine.games()
    assert engine.spec(GAME).name == GAME
    assert engine.spec(GAME).min_players == 2
    assert engine.spec(GAME).max_players == 4


def test_an_unknown_game_name_raises_option_error_listing_the_known_games() -> None:
    with pytest.raises(OptionError, match="go_moku") as info:
        engine.spec("go_moku")
    assert GAME in str(info.value)
    with pytest.raises(OptionError, match=GAME):
        new_game("go_moku")


def test_outcome_ranked_by_score() -> None:
    outcome = Outcome.ranked([3, 7, 1], "scored")
    assert outcome.ranks == (2, 1, 3)
    assert outcome.winners == (1,)
    assert outcome.scores == (3, 7, 1)
    assert "player 1 wins" in str(outcome)


def test_outcome_ranked_ties_share_ranks_and_winners() -> None:
    outcome = Outcome.ranked([3, 5, 5, 1, 3], "scored")
    assert outcome.ranks == (3, 1, 1, 5, 3)
    assert outcome.winners == (1, 2)
    assert "share the win" in str(outcome)


def test_outcome_ranked_uses_tie_breaks_in_order() -> None:
    first = Outcome.ranked([5, 5, 5, 1], "scored", tiebreaks=[[0, 2, 2, 9]])
    assert first.ranks == (3, 1, 1, 4)
    assert first.winners == (1, 2)
    second = Outcome.ranked([5, 5, 5, 1], "scored", tiebreaks=[[0, 2, 2, 9], [0, 1, 3, 0]])
    assert second.ranks == (3, 2, 1, 4)
    assert second.winners == (2,)


def test_a_finished_click_crack_game_has_a_consistent_outcome() -> None:
    state, _ = random_game(3, 9)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.scores == tuple(state.scores)  # type: ignore[attr-defined]
    assert outcome.winners == tuple(s for s, r in enumerate(outcome.ranks) if r == 1)
    assert state.to_move() == ()


# ----- chance after decisions: a tiny unregistered dice game ----------------------------------------------


@dataclass(frozen=True, slots=True)
class Roll(Action):
    TEMPLATE: ClassVar[str] = "roll {value}"
    CHANCE: ClassVar[bool] = True
    value: int


@dataclass(frozen=True, slots=True)
class Step(Action):
    TEMPLATE: ClassVar[str] = "step"


class DiceWalk(State):
    """One player steps three times; a die is rolled after each step and the rolls add up."""

    CODEC: ClassVar[ActionCodec] = ActionCodec(Roll, Step)

    def _setup(self) -> None:
        self.steps = 0
        self.total = 0
        self.rolling = False

    def to_move(self) -> tuple[int, ...]:
        return () if self.steps == 3 and not self.rolling else (0,)

    def _legal(self, player: int) -> list[Action]:
        return [Step()]

    def _chance(self) -> ChanceNode | None:
        return UniformChoice(tuple(Roll(v) for v in range(1, 7))) if self.rolling else None

    def _apply(self, player: int, action: Action) -> None:
        if isinstance(action, Roll):
            self.total += action.value
            self.rolling = False
        else:
            self.steps += 1
            self.rolling = True

    def outcome(self) -> Outcome | None:
        return Outcome.ranked([self.total], "three steps") if self.steps == 3 and not self.rolling else None


def test_undo_also_removes_the_chance_events_that_followed_the_decision() -> None:
    state = DiceWalk(GameConfig("dice_walk", 1, 3, ()))
    state.apply("step", 0)
    after_one = state.clone()
    state.apply("step", 0)
    assert [seat for seat, _ in state.log] == [0, CHANCE, 0, CHANCE]
    second_roll = state.log[3]
    state.undo()
    assert state == after_one
    assert [seat for seat, _ in state.log] == [0, CHANCE]
    state.apply("step", 0)  # the die is drawn from the seed and the step: the same roll again
    assert state.log[3] == second_roll
    state.apply("step", 0)
    assert state.is_over()
    assert state.outcome() == Outcome.ranked([sum(a.value for _, a in state.log if isinstance(a, Roll))], "three steps")


def test_undo_limit_never_goes_back_past_a_roll_a_person_has_seen() -> None:
    state = DiceWalk(GameConfig("dice_walk", 1, 3, ()))
    state.apply("step", 0)
    assert state.undo_limit([0]) == 2  # the step may not be taken back: the roll after it has been seen
    state.apply("step", 0)
    assert state.undo_limit([0]) == 4
    state.rewind(state.undo_limit([0]))
    assert len(state.log) == 4


def test_a_view_cannot_draw_chance_and_a_sample_draws_from_a_fresh_seed() -> None:
    state = DiceWalk(GameConfig("dice_walk", 1, 3, ()))
    blind = state.view(0).clone()
    with pytest.raises(ValueError, match="no seed"):
        blind.apply_fast(Step(), 0)
    rolls = set()
    for seed in range(20):
        sample = state.view(0).determinize(random.Random(seed))
        sample.apply("step", 0)
        rolls.add(sample.log[-1])
    assert len(rolls) > 2  # the future roll is sampled, not read from the game's seed
    state.apply("step", 0)
    assert state.log[-1][0] == CHANCE


def test_determinize_fills_hidden_settings_with_samples_and_keeps_what_the_viewer_saw() -> None:
    game = engine.new_game("click_crack", players=3, seed=1)
    for text in ["place at 1,1", "place at 1,4", "place at 4,1", "place at 4,4", "place at 2,2", "place at 3,3"]:
        game.apply(text)
    game.apply("set walk N and break E", 0)
    game.apply("set walk S and walk S", 1)
    view = game.view(1)
    samples = [view.determinize(random.Random(seed)) for seed in range(30)]
    assert all(s.viewer is None and s.to_move() == (2,) for s in samples)
    assert all(s.tiles[1] == (("walk", "S"), ("walk", "S")) for s in samples)  # the viewer's own choice
    assert len({s.tiles[0] for s in samples}) > 5  # seat 0's secret is guessed, not read
    samples[0].apply("set walk E and walk E", 2)  # a determinized game plays on like any other
    assert game.to_move() == (2,) and game.view(1) == view
    assert all(s.config.seed not in (None, game.config.seed) for s in samples)


def test_a_determinized_sample_goes_back_by_replaying_its_own_log() -> None:
    game = placed(3, seed=2)
    game.apply("set walk N and break E", 0)
    sample = game.view(2).determinize(random.Random(4))
    sampled = sample.log[-1]
    sample.apply("set walk W and walk W", 1)
    sample.apply("set break N and break S", 2)
    sample.undo(2)
    assert sample.log[-1] == sampled and sample.to_move() == (1, 2)
    assert sample.tiles[0] == sampled[1].tiles  # type: ignore[attr-defined]


def test_undo_limit_with_nobody_at_the_table_or_a_seat_that_does_not_exist() -> None:
    state = placed(3)
    assert state.undo_limit([]) == 0
    for seat in (-1, 3, "0"):
        with pytest.raises(ValueError):
            state.undo_limit([seat])  # type: ignore[list-item]


def test_undo_limit_keeps_a_revealed_setting_from_being_taken_back() -> None:
    state = placed(3)
    before = len(state.log)
    assert state.undo_limit(range(3)) == 0  # placements and settings not yet revealed may be taken back
    state.apply("set walk N and break E", 0)
    state.apply("set walk S and walk S", 1)
    assert state.undo_limit([0, 1]) == 0
    state.apply("set break W and walk E", 2)  # this reveals every setting
    assert state.undo_limit([0]) == before + 3 == len(state.log)


def test_actions_kept_in_parts_read_as_one_list_in_order() -> None:
    parts = [(Pass(),), (), (Place(0, 0), Place(1, 2), Place(3, 4))]
    whole = [Pass(), Place(0, 0), Place(1, 2), Place(3, 4)]
    kept = ActionsInParts(parts)
    assert len(kept) == 4 and list(kept) == whole
    assert [kept[i] for i in range(-4, 4)] == whole + whole
    assert kept[1:3] == whole[1:3] and kept[::-1] == whole[::-1] and type(kept[1:3]) is list
    assert Place(1, 2) in kept and Place(2, 1) not in kept
    with pytest.raises(IndexError):
        kept[4]
    with pytest.raises(IndexError):
        kept[-5]
    # Read as the list it stands for: equal to it (either way round), printed as it, and not to be changed.
    assert kept == whole and whole == kept and kept != whole[:3] and kept != tuple(whole)
    assert repr(kept) == repr(whole)
    assert kept.holds(parts[2][1]) and not kept.holds(Place(1, 2)), "holds asks for the very object"
    assert not hasattr(kept, "append") and not hasattr(kept, "clear")
