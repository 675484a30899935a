"""Fuzzing every registered game with hostile action texts, saves and content files (hypothesis).

Each input must end in the typed error (IllegalAction for an action, SaveError for a save) or be accepted;
a refused action leaves the state exactly as it was; and no input may allocate more than a few megabytes
on the way (work that grows with a number in the input shows as memory) or run away with the CPU (a bound
in CPU seconds, far above any real input's cost, so a busy machine does not trip it: speed is bench/'s).
The texts are built from the game's own action templates with the worst values we can think of (huge and
negative numbers, long words, stray unicode), so they reach the rules rather than stopping at the parser.
"""

from __future__ import annotations

import json
import re
import string
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any, get_type_hints

import pytest
from contract_samples import decision_samples, finished_games
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cliplab.engine import Action, ContentError, IllegalAction, SaveError, State, from_json, games, to_json
from cliplab.games.clipcut_parks import content as clipcut
from cliplab.games.cutterland import content as cutterland
from cliplab.games.paper_world import content as paper_world
from cliplab.games.swap_clops import content as swap_clops
from cliplab.games.swap_clops_cards import content as swap_clops_cards

MEMORY_BOUND = 16_000_000  # bytes one input may allocate at its peak
CPU_BOUND = 10.0  # CPU seconds one input may take (a ten-million-square cut once took 4.5)
EXAMPLES = 30  # per game and kind of action, or per game for saves

_numbers = st.one_of(
    st.integers(-3, 12),
    st.integers(-(10**6), 10**6),
    st.integers(10**5, 10**6 - 1),
    st.text(string.digits, min_size=7, max_size=5000),
)
_words = st.one_of(st.text(string.ascii_letters + "_", min_size=1, max_size=40), st.text(max_size=40))


def _fill(template: str, cls: type[Action], draw: Callable[[Any], Any]) -> str:
    hints = get_type_hints(cls)
    values = {}
    for field in fields(cls):
        if hints[field.name] is int:
            values[field.name] = draw(_numbers)
        elif hints[field.name] == tuple[int, ...]:
            values[field.name] = " ".join(str(number) for number in draw(st.lists(_numbers, min_size=1, max_size=70)))
        else:
            choices = cls.CHOICES.get(field.name, ())
            values[field.name] = draw(st.sampled_from(choices) | _words) if choices else draw(_words)
    return template.format(**values)


def _hostile_text(cls: type[Action], draw: Callable[[Any], Any]) -> str:
    text = _fill(cls.TEMPLATE, cls, draw)
    return draw(st.sampled_from([text, text.upper(), text + " " + draw(_words), text * draw(st.integers(2, 40))]))


def _action_cases() -> list[tuple[str, str]]:
    return [
        (game, cls.__name__)
        for game in games()
        for cls in type(decision_samples(game)[0][0]).CODEC.classes
        if not cls.CHANCE
    ]


def _where_chosen(game: str, kind: str) -> list[tuple[State, int]]:
    """The sample positions where an action of this kind is legal (all of them if it never is)."""
    samples = decision_samples(game)
    chosen = [(s, seat) for s, seat in samples if any(type(a).__name__ == kind for a in s.legal_actions(seat))]
    return chosen or samples


def _bounded(work: Callable[[], object]) -> object:
    """Runs `work`, failing if it allocates or computes more than the bounds; returns its result or error."""
    started = time.process_time()
    tracemalloc.start()
    try:
        result: object = work()
    except Exception as err:  # the caller checks the type
        result = err
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    spent = time.process_time() - started
    assert peak < MEMORY_BOUND, f"allocated {peak:,} bytes"
    assert spent < CPU_BOUND, f"took {spent:.1f} CPU seconds"
    return result


@pytest.mark.parametrize(("game", "kind"), _action_cases(), ids=[f"{g}-{k}" for g, k in _action_cases()])
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(data=st.data())
def test_a_hostile_action_text_is_refused_with_illegal_action_and_changes_nothing(
    game: str, kind: str, data: Any
) -> None:
    state, seat = data.draw(st.sampled_from(_where_chosen(game, kind)))
    cls = next(cls for cls in state.CODEC.classes if cls.__name__ == kind)
    text = _hostile_text(cls, data.draw)
    trial = state.clone()
    before = trial.fingerprint()
    result = _bounded(lambda: trial.apply(text, seat))
    if isinstance(result, Exception):
        assert isinstance(result, IllegalAction), f"{game}: {text!r} raised {result!r}"
        assert trial.fingerprint() == before, f"{game}: the refused {text!r} changed the state"
        assert len(str(result)) < 1000, f"{game}: the refusal of {text[:40]!r} echoes too much"


# Values no action text parses to, for a field of each type: the rules must never be asked to judge them.
_MISTYPED: dict[Any, list[Any]] = {
    int: [2.0, "2", [2], None, True, (2,)],
    tuple[int, ...]: [[1, 2], (1.0, 2), ("1",), 3, None],
    str: [2, None, ["N"], "", "no such word"],
}
_WELL_TYPED: dict[Any, Any] = {int: 0, tuple[int, ...]: (0,)}


@pytest.mark.parametrize(("game", "kind"), _action_cases(), ids=[f"{g}-{k}" for g, k in _action_cases()])
def test_an_action_built_in_python_with_a_mistyped_field_is_refused_naming_the_value(game: str, kind: str) -> None:
    state, seat = _where_chosen(game, kind)[0]
    cls = next(cls for cls in state.CODEC.classes if cls.__name__ == kind)
    hints = get_type_hints(cls)
    well_typed = {
        f.name: cls.CHOICES[f.name][0] if hints[f.name] is str else _WELL_TYPED[hints[f.name]] for f in fields(cls)
    }
    for field in fields(cls):
        for wrong in _MISTYPED[hints[field.name]]:
            values = {**well_typed, field.name: wrong}
            trial = state.clone()
            before = trial.fingerprint()
            # A pair kept sorted may have moved the wrong value to its twin field: the value is what is named.
            with pytest.raises(IllegalAction, match=rf"\w+ must be .*, not {re.escape(repr(wrong))}$"):
                trial.apply(cls(**values), seat)
            assert trial.fingerprint() == before


def test_an_action_of_another_game_is_refused_naming_its_kind() -> None:
    from cliplab.games.clipcut_parks import Cut

    state, seat = decision_samples("click_crack")[0]
    with pytest.raises(IllegalAction, match="Cut is not one of this game's actions"):
        state.clone().apply(Cut(2, 0, 0, "E"), seat)


def _mutations(record: dict[str, Any], draw: Callable[[Any], Any], state: State) -> list[Any]:
    log = record["log"]
    index = draw(st.integers(0, max(len(log) - 1, 0)))
    swapped = [list(entry) for entry in log]
    if swapped:
        swapped[index][1] = _hostile_text(draw(st.sampled_from(state.CODEC.classes)), draw)
    return [
        {**record, "log": swapped},
        {**record, "seed": draw(_numbers)},
        {**record, "players": draw(_numbers)},
        {**record, "options": {name: draw(_words | _numbers) for name in record["options"]}},
        {**record, "log": log[: index + 1] * draw(st.integers(1, 50))},
        {**record, "log": [[draw(st.integers(-5, 10**6)), text] for _, text in log]},
        {**record, "start": draw(st.dictionaries(_words, _numbers | _words, max_size=5))},
    ]


@pytest.mark.parametrize("game", games())
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(data=st.data())
def test_a_hostile_save_is_refused_with_save_error(game: str, data: Any) -> None:
    state = data.draw(st.sampled_from(finished_games(game)))
    record = json.loads(to_json(state))
    mutated = data.draw(st.sampled_from(_mutations(record, data.draw, state)))
    text = json.dumps(mutated)
    text = data.draw(st.sampled_from([text, text[: data.draw(st.integers(0, len(text)))]]))
    result = _bounded(lambda: from_json(text))
    assert isinstance(result, State | SaveError), f"{game}: a mutated save raised {result!r}"


# ----- content files: each game's own data files, mutated, through that game's loader ---------------------

# (data file, loader) for every content file a game reads; a designer edits these, so they are input too.
CONTENT_LOADERS: list[tuple[Path, Callable[[Path], object]]] = [
    (clipcut.DATA_DIR / "parks.toml", lambda path: clipcut.load_cards(path, "park")),
    (clipcut.DATA_DIR / "grand_parks.toml", lambda path: clipcut.load_cards(path, "grand")),
    (clipcut.DATA_DIR / "sheet.toml", lambda path: clipcut.load_sheet(path, 0)),
    (cutterland.DECK_FILE, cutterland.load_deck),
    (paper_world.DATA / "deck.toml", paper_world.read_deck),
    (paper_world.DATA / "objectives.toml", paper_world.read_objectives),
    (swap_clops.DATA_FILE, swap_clops.load_tiles),
    (swap_clops_cards.DATA / "deck.toml", swap_clops_cards.load_deck),
    (swap_clops_cards.DATA / "draft.toml", swap_clops_cards.load_deck),
]
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?![\w.])")


def _mutated_toml(text: str, draw: Callable[[Any], Any]) -> str:
    """The file with one hostile change: a number swapped for a worse one, a cut, a deep nest or junk."""
    numbers = list(_NUMBER.finditer(text))
    where = draw(st.integers(0, len(text)))
    kind = draw(st.sampled_from(["number", "truncate", "nest", "junk", "repeat"]))
    if kind == "number" and numbers:
        found = draw(st.sampled_from(numbers))
        worse = str(draw(_numbers | st.sampled_from([-1, 0, 10**18, -(10**18)])))
        return text[: found.start()] + worse + text[found.end() :]
    if kind == "truncate":
        return text[:where]
    if kind == "nest":
        depth = draw(st.integers(50, 5000))
        return text[:where] + "\nx = " + "[" * depth + "]" * depth + "\n" + text[where:]
    if kind == "repeat":
        return text * draw(st.integers(2, 30))
    return text[:where] + draw(st.text(max_size=200)) + text[where:]


@pytest.mark.parametrize(
    ("source", "loader"), CONTENT_LOADERS, ids=[f"{p.parent.parent.name}-{p.name}" for p, _ in CONTENT_LOADERS]
)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(data=st.data())
def test_a_hostile_content_file_is_refused_with_content_error(
    source: Path, loader: Callable[[Path], object], data: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    text = _mutated_toml(source.read_text(encoding="utf-8"), data.draw)
    path = tmp_path_factory.mktemp("content") / source.name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    result = _bounded(lambda: loader(path))
    assert not isinstance(result, Exception) or isinstance(result, ContentError), (
        f"{source.name}: a mutated file raised {result!r}"
    )
