# mypy: disable-error-code="import-untyped"
"""Simulation runs: the same seed gives the same table on every executor, and runs resume after interruption."""

from __future__ import annotations

import signal
from contextlib import suppress
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cliplab.bots import RandomBot, play
from cliplab.engine import CHANCE, OptionError, new_game
from cliplab.kit import declaration
from cliplab.sim import SimulationError, bot_names, game_seeds, make_setup, play_game, read, simulate
from cliplab.sim.play import columns, merge
from cliplab.sim.run import chunks, default_chunks
from cliplab.sim.store import Store

GAME = "click_crack"
SHORT = {"round_limit": 6}  # shorter games keep the tests fast; some end by the limit (timeouts)


def _run(games: int = 12, **kwargs: object) -> pd.DataFrame:
    kwargs.setdefault("options", SHORT)
    return simulate(GAME, "random", games, seed=7, progress=False, **kwargs)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def reference() -> pd.DataFrame:
    """Twelve games played in this process, in one chunk."""
    return _run(12, executor="inline", chunk_size=12)


def test_seeds_are_spawned_children() -> None:
    children = np.random.SeedSequence(7).spawn(5)
    for index, child in enumerate(children):
        numbers = child.generate_state(4, dtype=np.uint32).tolist()
        assert game_seeds(7, index, 3) == (numbers[0], numbers[1:])


def test_rows_describe_the_games(reference: pd.DataFrame) -> None:
    assert reference["game_index"].tolist() == list(range(12))
    setup = make_setup(GAME, "random", options=SHORT)
    for index in (0, 5):
        state, row = play_game(setup, 7, index)
        # The same game again, by the engine alone, with RandomBots seeded as the simulation seeds them.
        game_seed, bot_seeds = game_seeds(7, index, 3)
        again = new_game(GAME, 3, game_seed, None, round_limit=SHORT["round_limit"])
        outcome = play(again, [RandomBot(seed) for seed in bot_seeds])
        assert again.log == state.log
        found = reference.iloc[index]
        assert found["game_seed"] == game_seed
        assert found["winners"] == list(outcome.winners)
        assert [found[f"score_{seat}"] for seat in range(3)] == list(outcome.scores)
        assert found["termination"] == outcome.termination
        assert found["actions"] == len(state.log)
        assert found["decisions"] == sum(1 for seat, _ in state.log if seat != CHANCE)
        assert found["decisions"] == len(found["branching"]) == len(found["score_trace_0"])
        assert sum(found[f"decisions_{seat}"] for seat in range(3)) == found["decisions"]
        assert [found[f"score_trace_{seat}"][-1] for seat in range(3)] == list(outcome.scores)
        assert found["rounds"] == state.round  # type: ignore[attr-defined]
        assert found["stat_tiles_broken_off"] == 25 - len(state.main)  # type: ignore[attr-defined]
        assert row["game_index"] == index
    assert reference["timeout"].any(), "with a 6-round limit some games should stop at the limit"
    assert reference.loc[reference["timeout"], "termination"].eq("the round limit was reached").all()


def test_random_fast_path_equals_views(reference: pd.DataFrame) -> None:
    """Random bots pick from the legal list without views; RandomBot given views makes the same choices."""
    through_views = simulate(GAME, [RandomBot] * 3, 12, seed=7, options=SHORT, progress=False)
    columns = [column for column in reference.columns if column != "bots"]
    pd.testing.assert_frame_equal(through_views[columns], reference[columns])


def test_prefix_and_chunking_do_not_matter(reference: pd.DataFrame) -> None:
    first = _run(5, executor="inline", chunk_size=2)
    pd.testing.assert_frame_equal(first, reference.iloc[:5])


def test_processes_give_the_same_table(reference: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(_run(12, workers=2, chunk_size=3), reference)


def test_dask_gives_the_same_table(reference: pd.DataFrame) -> None:
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        found = _run(12, client=client, chunk_size=5)
    pd.testing.assert_frame_equal(found, reference)


def test_other_bots_through_views() -> None:
    """A bot that is not random sees views; its games are the same in a worker process."""
    assert "heuristic" in bot_names(GAME)
    options = {"round_limit": 2}
    inline = simulate(GAME, "random,random,heuristic", 2, seed=3, options=options, progress=False)
    pooled = simulate(GAME, "random,random,heuristic", 2, seed=3, options=options, progress=False, workers=2)
    pd.testing.assert_frame_equal(inline, pooled)
    assert inline["bots"].iloc[0] == "random,random,heuristic"


def test_bot_names_and_setups() -> None:
    names = bot_names(GAME)
    assert names == declaration(GAME).bot_names() and names[0] == "random"
    assert make_setup(GAME, "default").bots == (declaration(GAME).default_bot,) * 3
    assert make_setup(GAME, "random,random").players == 2
    assert make_setup(GAME, "cliplab.bots:RandomBot", players=4).bots == ("cliplab.bots:RandomBot",) * 4
    assert make_setup(GAME, "random", options={"round_limit": "9"}).options == {"round_limit": 9}
    with pytest.raises(OptionError, match="no bot 'nobody'"):
        make_setup(GAME, "nobody")
    with pytest.raises(SimulationError, match="2 bots for 3 players"):
        make_setup(GAME, "random,random", players=3)
    with pytest.raises(OptionError):
        make_setup(GAME, "random", options={"no_such_option": 1})


def test_a_bot_name_is_the_declared_bot_and_the_game_reports_its_own_metrics() -> None:
    """ClipCut Parks solo: "random" is the game's declared random bot (the one the table app and notebooks
    use), and the row carries the game's declared metrics: rounds, cards, crumpled sections, score lines."""
    table = simulate("clipcut_parks", "random", 3, seed=5, players=1, progress=False)
    setup = make_setup("clipcut_parks", "random", players=1)
    for index in range(3):
        state, _ = play_game(setup, 5, index)
        game_seed, (bot_seed,) = game_seeds(5, index, 1)
        again = new_game("clipcut_parks", 1, game_seed)
        play(again, [declaration("clipcut_parks").make_bot("random", bot_seed)])
        assert again.log == state.log
        found = table.iloc[index]
        outcome = state.outcome()
        assert outcome is not None
        assert found["rounds"] == state.round  # type: ignore[attr-defined]
        assert found["stat_cards_completed"] == len(state.completed[0])  # type: ignore[attr-defined]
        assert found["stat_sections_crumpled"] == len(state.crumpled[0])  # type: ignore[attr-defined]
        lines = [found[column] for column in table.columns if column.startswith("stat_score line: ")]
        assert len(lines) == 6 and sum(lines) == found["score_0"] == outcome.scores[0]
        assert found["score_trace_0"][-1] == outcome.scores[0]


def test_chunks_are_runs_of_consecutive_games() -> None:
    assert chunks([0, 1, 2, 3, 4], 2) == [(0, 2), (2, 4), (4, 5)]
    assert chunks([1, 2, 5, 6, 7], 10) == [(1, 3), (5, 8)]
    assert chunks([], 3) == []


def test_default_chunks_shrink_towards_the_end_and_cover_every_game() -> None:
    found = default_chunks(list(range(1000)), 2)
    sizes = [stop - start for start, stop in found]
    assert sizes[0] == 250 and sizes == sorted(sizes, reverse=True) and sizes[-2] <= 7
    assert [index for start, stop in found for index in range(start, stop)] == list(range(1000))
    assert default_chunks([0, 1, 2, 5, 6, 7, 8, 9], 1) == [(0, 3), (5, 8), (8, 9), (9, 10)]
    assert default_chunks([], 2) == []


def test_result_columns_merge_as_pandas_joins_rows() -> None:
    rows = [{"a": 1, "b": [2]}, {"a": 3, "c": "x"}, {"b": [], "a": 5}]
    merged = merge([columns(rows[:1]), columns(rows[1:])])
    assert list(merged) == ["a", "b", "c"]
    pd.testing.assert_frame_equal(pd.DataFrame(merged), pd.DataFrame.from_records(rows))


class _Stop(Exception):
    pass


def _stop_after(chunks_wanted: int) -> object:
    seen = []

    def callback(done: int, total: int) -> None:
        seen.append(done)
        if len(seen) == chunks_wanted:
            raise _Stop

    return callback


@pytest.mark.parametrize(("suffix", "workers"), [(".parquet", 1), (".csv", 2)])
def test_interrupted_run_resumes(tmp_path: Path, reference: pd.DataFrame, suffix: str, workers: int) -> None:
    out = tmp_path / f"results{suffix}"
    with pytest.raises(_Stop):
        _run(12, out=out, chunk_size=3, workers=workers, on_chunk=_stop_after(2))
    parts = sorted((tmp_path / f"results{suffix}.parts").iterdir())
    assert len(parts) == 2 and not out.exists()
    saved = pd.concat([read(part) for part in parts])
    assert len(saved) == 6

    played: list[int] = []
    resumed = _run(12, out=out, chunk_size=3, workers=workers, on_chunk=lambda done, total: played.append(done))
    assert played == [9, 12], "only the missing games are played"
    pd.testing.assert_frame_equal(resumed, reference)
    pd.testing.assert_frame_equal(read(out), reference)
    assert not (tmp_path / f"results{suffix}.parts").exists()


def test_ctrl_c_that_a_library_swallows_while_a_chunk_is_saved_still_stops_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What CI saw: SIGTERM's KeyboardInterrupt raised inside pyarrow's attribute probe and dropped there,
    # and the run went on. Here the first save hears Ctrl-C and drops its KeyboardInterrupt the same way.
    save_part = Store.save_part

    def save_hearing_ctrl_c(store: Store, frame: pd.DataFrame, start: int, stop: int) -> None:
        if start == 0:
            with suppress(KeyboardInterrupt):
                signal.raise_signal(signal.SIGINT)
        save_part(store, frame, start, stop)

    monkeypatch.setattr(Store, "save_part", save_hearing_ctrl_c)
    # Python's own Ctrl-C handler, also where pytest was started with Ctrl-C ignored (a shell's background
    # job): Python keeps an ignored SIGINT ignored, and there is then no Ctrl-C to hear.
    started_with = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        out = tmp_path / "results.parquet"
        with pytest.raises(KeyboardInterrupt):
            _run(12, out=out, chunk_size=3, executor="inline")
        parts = sorted((tmp_path / "results.parquet.parts").iterdir())
        assert [part.name for part in parts] == ["part-000000000-000000003.parquet"], "stopped after the first chunk"
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler, "the run put Ctrl-C's handler back"
    finally:
        signal.signal(signal.SIGINT, started_with)


def test_finished_runs_extend_and_refuse_other_runs(tmp_path: Path, reference: pd.DataFrame) -> None:
    out = tmp_path / "results.parquet"
    _run(8, out=out)
    played: list[int] = []
    extended = _run(12, out=out, on_chunk=lambda done, total: played.append(done))
    assert played and played[-1] == 12 and min(played) > 8
    pd.testing.assert_frame_equal(extended, reference)
    fewer = _run(5, out=out)
    pd.testing.assert_frame_equal(fewer, reference.iloc[:5])
    assert len(read(out)) == 12, "a smaller rerun keeps the games already in the file"
    with pytest.raises(SimulationError, match="another run"):
        simulate(GAME, "random", 12, seed=8, options=SHORT, out=out, progress=False)
    with pytest.raises(SimulationError, match="another run"):
        simulate(GAME, "random", 12, seed=7, variant="snake", options=SHORT, out=out, progress=False)
    with pytest.raises(SimulationError, match=r"\.parquet or \.csv"):
        _run(3, out=tmp_path / "results.json")
