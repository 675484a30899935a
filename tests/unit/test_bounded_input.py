"""Bounded work for hostile input: each limit refuses with its typed error before the work it guards.

Memory is measured with tracemalloc around the refused call: every refusal here must stay within a few
megabytes, where the unbounded code took a gigabyte (a ClipCut cut of length 10,000,000) or crashed.
"""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from cliplab.engine import ContentError, IllegalAction, SaveError, from_json, load, new_game, read_toml, to_json
from cliplab.engine.actions import MAX_ACTION_TEXT, MAX_NUMBER_DIGITS
from cliplab.engine.content import MAX_CONTENT_BYTES
from cliplab.engine.save import MAX_LOG_ENTRIES, MAX_SAVE_CHARS
from cliplab.games.clipcut_parks.content import load_cards
from cliplab.games.clipcut_parks.rules import Cut

MEMORY_BOUND = 8_000_000  # bytes a refusal may allocate at its peak


def _peak_bytes(work: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        work()
    except Exception:
        pass
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return peak


def _clipcut_cutting():
    game = new_game("clipcut_parks", players=1, seed=1)
    assert tuple(game.to_move()) == (0,) and game.stage[0] == "cut"
    return game


def test_an_action_text_longer_than_the_limit_is_refused_before_parsing() -> None:
    game = _clipcut_cutting()
    before = game.fingerprint()
    text = "cut 1 from 0,1 going S " + "x" * MAX_ACTION_TEXT
    with pytest.raises(IllegalAction, match=f"at most {MAX_ACTION_TEXT} characters") as refusal:
        game.apply(text)
    assert refusal.value.rule == "action text"
    assert len(str(refusal.value)) < 300, "the refusal echoes the whole input"
    assert game.fingerprint() == before


def test_a_number_with_too_many_digits_in_an_action_is_refused_with_the_field_named() -> None:
    game = _clipcut_cutting()
    before = game.fingerprint()
    for digits in (MAX_NUMBER_DIGITS + 1, 300):
        with pytest.raises(IllegalAction, match=f"length has {digits} digits") as refusal:
            game.apply(f"cut {'9' * digits} from 0,0 going S")
        assert refusal.value.rule == "action text"
    assert game.fingerprint() == before


@pytest.mark.parametrize("text", ["cut 999999 from 0,0 going S", "cut 999999 from 999999,999999 going N"])
def test_clipcut_refuses_a_cut_the_die_does_not_ask_for_before_walking_its_length(text: str) -> None:
    game = _clipcut_cutting()
    before = game.fingerprint()
    with pytest.raises(IllegalAction, match="the die does not ask for a 999999 cut"):
        game.apply(text)
    assert _peak_bytes(lambda: game.apply(text)) < MEMORY_BOUND
    assert game.fingerprint() == before


def test_clipcut_refuses_a_huge_cut_built_in_python_without_walking_it() -> None:
    game = _clipcut_cutting()
    before = game.fingerprint()
    huge = Cut(10**12, 0, 1, "S")
    assert game.cutting(0).problem(huge) == ("cut", "the cut would run off the park sheet")
    assert _peak_bytes(lambda: game.apply(huge)) < MEMORY_BOUND
    assert game.fingerprint() == before


# ----- saves ------------------------------------------------------------------------------------------


def _save_record() -> dict:
    game = new_game("click_crack", players=2, seed=3)
    return json.loads(to_json(game))


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        (" " * (MAX_SAVE_CHARS + 1), "file", "longer than"),
        ("[" * 100_000 + "]" * 100_000, "file", "nested too deeply"),
        ('{"format": "cliplab-save", "version": ' + "7" * 5000 + "}", "file", "5000 digits"),
    ],
    ids=["too long", "nested", "digits"],
)
def test_a_save_beyond_a_limit_is_refused_with_a_save_error(text: str, where: str, words: str) -> None:
    with pytest.raises(SaveError, match=words) as refusal:
        from_json(text)
    assert refusal.value.where == where
    assert _peak_bytes(lambda: from_json(text)) < MEMORY_BOUND + 4 * len(text)


def test_a_save_with_a_seed_past_the_digit_limit_is_refused() -> None:
    record = _save_record()
    record["seed"] = int("9" * 30)
    with pytest.raises(SaveError, match="30 digits"):
        from_json(json.dumps(record))


def test_a_save_with_more_log_entries_than_the_limit_is_refused_before_replaying() -> None:
    record = _save_record()
    record["log"] = [[0, "pass"]] * (MAX_LOG_ENTRIES + 1)
    with pytest.raises(SaveError, match="entries") as refusal:
        from_json(json.dumps(record))
    assert refusal.value.where == "log"


def test_loading_a_huge_save_file_reads_no_more_than_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    path.write_text(" " * (MAX_SAVE_CHARS * 3))
    with pytest.raises(SaveError, match="longer than"):
        load(path)
    assert _peak_bytes(lambda: load(path)) < MAX_SAVE_CHARS * 6


# ----- content files ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"a = 1\n" + b"#" * MAX_CONTENT_BYTES, "larger than"),
        (b"a = " + b"[" * 5000 + b"]" * 5000, "nested too deeply"),
        (b"a = " + b"{b = " * 3000 + b"1" + b"}" * 3000, "nested too deeply"),
        (b"a = " + b"9" * 5000, "digits"),
        (b"a = '\xff'", "not UTF-8"),
        (b"a = [", "not valid TOML"),
    ],
    ids=["too large", "nested arrays", "nested tables", "digits", "not utf-8", "broken"],
)
def test_a_content_file_beyond_a_limit_is_refused_with_a_content_error_naming_it(
    tmp_path: Path, content: bytes, words: str
) -> None:
    path = tmp_path / "cards.toml"
    path.write_bytes(content)
    with pytest.raises(ContentError, match=words) as refusal:
        read_toml(path)
    assert refusal.value.file == str(path)
    with pytest.raises(ContentError, match=words):
        load_cards(path, "park")


def test_a_content_error_names_its_file_and_entry() -> None:
    error = ContentError("parks.toml", "card 12 (Pond)", "has no spaces")
    assert str(error) == "parks.toml: card 12 (Pond): has no spaces"
    assert error.card == error.entry == "card 12 (Pond)"
