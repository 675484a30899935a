# mypy: disable-error-code="import-untyped"
"""`cliplab simulate` end to end: in this process through main(), and killed in a subprocess then resumed."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from cliplab.cli import main
from cliplab.engine import games, spec
from cliplab.kit import declaration
from cliplab.sim import SimulationError, read, simulate
from cliplab.sim.command import parse_side, parse_sweep, side_files


def test_simulate_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "snake.csv"
    argv = ["simulate", "click_crack", "--variant", "snake", "--option", "round_limit=6", "--bots", "random"]
    argv += ["--players", "2", "--games", "8", "--seed", "5", "--out", str(out), "--no-progress"]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "Click & Crack, 2 players, variant snake with round_limit=6; bots random,random" in printed
    assert "8 games in" in printed
    for metric in ("advantage seat 1", "balance", "lead changes", "tiles broken off", "ended: "):
        assert metric in printed
    expected = simulate(
        "click_crack", "random", 8, 5, players=2, variant="snake", options={"round_limit": 6}, progress=False
    )
    pd.testing.assert_frame_equal(read(out), expected)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--option", "round_limit=0"], "round_limit is at least 1"),
        (["--option", "round_limit"], "NAME=VALUE"),
        (["--bots", "nobody"], "no bot 'nobody'"),
        (["--variant", "nope"], "no variant 'nope'"),
        (["--out", "results.txt"], ".parquet or .csv"),
    ],
)
def test_simulate_command_errors(extra: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "click_crack", "--games", "2", "--no-progress", *extra]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_help_lists_each_games_bots_variants_and_options(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    printed = capsys.readouterr().out
    for game in games():
        kit = declaration(game)
        block = _listing(printed, game)
        assert block[0].startswith(f"  {game} ({spec(game).title}, ")
        bots = [f"{bot} (default)" if bot == kit.default_bot else bot for bot in kit.bot_names()]
        assert f"    bots: {', '.join(bots)}" in block
        assert f"    variants: {', '.join(spec(game).variants) or '(none)'}" in block
        for option in spec(game).options:
            assert any(line.startswith(f"    option {option.name}=") for line in block), option.name


def _listing(help_text: str, game: str) -> list[str]:
    """The lines --help gives one game: its own line, then its indented lines."""
    lines = help_text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"  {game} ("))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].startswith("    ")), len(lines))
    return lines[start:end]


def test_solo_summary_has_no_seat_lines_and_shows_the_score(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "clipcut_parks", "--players", "1", "--games", "6", "--seed", "3", "--no-progress"]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "ClipCut Parks, solo, default rules; bots random" in printed
    for absent in ("advantage seat", "balance", "shared wins", "lead changes", "drama", "winning score", "margin"):
        assert absent not in printed, absent
    for present in (
        "score mean",
        "score median",
        "cards completed",
        "sections crumpled",
        "tokens spent",
        "score line: ",
    ):
        assert present in printed, present
    assert "final score, solo (6 games):" in printed


def test_compare_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "order.csv"
    argv = ["compare", "click_crack", "--a", "/round_limit=6/random", "--b", "snake/round_limit=6", "--players", "2"]
    argv += ["--games", "12", "--seed", "5", "--out", str(out), "--no-progress"]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "a: Click & Crack, 2 players, default rules with round_limit=6; bots random,random" in printed
    assert "b: Click & Crack, 2 players, variant snake with round_limit=6; bots random,random" in printed
    for text in ("b - a", "95% interval", "significant", "games needed", "advantage seat 0", "tiles broken off"):
        assert text in printed, text
    assert re.search(r"\d+ of \d+ metrics differ significantly", printed)
    tables = {side: read(tmp_path / f"order-{side}.csv") for side in "ab"}
    for side, variant in (("a", None), ("b", "snake")):
        expected = simulate(
            "click_crack", "random", 12, 5, players=2, variant=variant, options={"round_limit": 6}, progress=False
        )
        pd.testing.assert_frame_equal(tables[side], expected)
    # The same seeds on both sides: game i of a and game i of b are dealt alike.
    assert tables["a"]["game_seed"].tolist() == tables["b"]["game_seed"].tolist()


def test_compare_draws_its_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plot = tmp_path / "order.png"
    argv = ["compare", "click_crack", "--a", "/round_limit=4", "--b", "snake/round_limit=4", "--games", "6"]
    assert main([*argv, "--no-progress", "--plot", str(plot)]) == 0
    assert f"plot in {plot}" in capsys.readouterr().out
    assert plot.read_bytes().startswith(b"\x89PNG")


def test_a_sweep_prints_each_metric_against_the_value(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, plot = tmp_path / "limit.csv", tmp_path / "limit.png"
    argv = ["compare", "click_crack", "--a", "//random", "--sweep", "round_limit=2,30", "--games", "40", "--seed", "2"]
    assert main([*argv, "--no-progress", "--out", str(out), "--plot", str(plot)]) == 0
    printed = capsys.readouterr().out
    assert "round_limit=2: Click & Crack, 3 players, default rules with round_limit=2" in printed
    header = next(line for line in printed.splitlines() if line.startswith("metric "))
    assert header.split() == ["metric", "round_limit=2", "round_limit=30"]
    # Two rounds of random play end by the limit; thirty rounds rarely do: a marked, significant change.
    timeouts = next(line for line in printed.splitlines() if line.startswith("timeouts "))
    assert timeouts.split()[1] == "1.000" and timeouts.split()[2].endswith("*")
    assert "metrics change significantly somewhere in the sweep: " in printed
    for value in (2, 30):
        expected = simulate("click_crack", "random", 40, 2, options={"round_limit": value}, progress=False)
        pd.testing.assert_frame_equal(read(tmp_path / f"limit-round_limit={value}.csv"), expected)
    assert plot.read_bytes().startswith(b"\x89PNG")


def test_compare_prints_a_solo_verdict_and_both_score_distributions(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["compare", "clipcut_parks", "--players", "1", "--a", "", "--b", "/allow_flip=yes/random"]
    assert main([*argv, "--games", "5", "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "b: ClipCut Parks, solo, default rules with allow_flip=True; bots random" in printed
    assert "advantage seat" not in printed and "balance" not in printed
    assert "score mean" in printed and "cards completed" in printed
    assert "final score, a (5 games):" in printed and "final score, b (5 games):" in printed


@pytest.mark.parametrize(
    ("a", "b", "message"),
    [
        ("snake/x=1/random/more", "", "at most two"),
        ("//random", "//random,random", "setup a has 3 seats and setup b 2"),
        ("/round_limit/", "", "NAME=VALUE"),
        ("", "/colour=red/", "no option 'colour'"),
        ("nope", "", "no variant 'nope'"),
        ("", "", "--plot writes a .png file"),
    ],
)
def test_compare_command_errors(a: str, b: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    plot = ["--plot", "verdict.svg"] if message.startswith("--plot") else []
    assert main(["compare", "click_crack", "--a", a, "--b", b, "--games", "2", "--no-progress", *plot]) == 2
    assert message in capsys.readouterr().err


def test_sides_and_their_files() -> None:
    assert parse_side("", "--a") == (None, {}, "random")
    assert parse_side("default", "--a", "heuristic") == (None, {}, "heuristic")
    assert parse_side("snake", "--a") == ("snake", {}, "random")
    assert parse_side(" /allow_flip=yes; round_limit=9 /heuristic", "--b") == (
        None,
        {"allow_flip": "yes", "round_limit": "9"},
        "heuristic",
    )
    assert side_files("runs/flip.parquet") == ["runs/flip-a.parquet", "runs/flip-b.parquet"]
    assert side_files("s.csv", ["round_limit=5"]) == ["s-round_limit=5.csv"]
    assert parse_sweep(" round_limit = 5, 10 ,20") == ("round_limit", ["5", "10", "20"])
    with pytest.raises(SimulationError, match="at least two values"):
        parse_sweep("round_limit=5")


def test_killed_run_resumes(tmp_path: Path) -> None:
    out = tmp_path / "results.parquet"
    parts = tmp_path / "results.parquet.parts"
    command = [sys.executable, "-m", "cliplab.cli", "simulate", "click_crack", "--option", "round_limit=3"]
    command += ["--games", "300", "--seed", "11", "--chunk-size", "5", "--out", str(out), "--no-progress"]
    # Its own session, so that the kill reaches the command's worker processes too.
    killed = [*command, "--workers", "2"]
    process = subprocess.Popen(killed, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while len(list(parts.glob("part-*.parquet"))) < 3:
            assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
            assert time.monotonic() < deadline, "no chunks were saved within a minute"
            time.sleep(0.02)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    assert not out.exists(), "the run finished before it was killed: nothing was tested"
    saved = len(list(parts.glob("part-*.parquet")))
    assert saved >= 3

    # Resumed in one process: the table does not depend on how the games were shared out.
    finished = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    assert "300 games in" in finished.stdout
    assert not parts.exists()
    expected = simulate("click_crack", "random", 300, 11, options={"round_limit": 3}, progress=False)
    pd.testing.assert_frame_equal(read(out), expected)


def _in_group(group: int) -> list[int]:
    """The processes of a process group that are still alive (zombies left out)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def test_kill_stops_a_run_with_its_workers_and_keeps_the_finished_chunks(tmp_path: Path) -> None:
    out = tmp_path / "long.parquet"
    command = [sys.executable, "-m", "cliplab.cli", "simulate", "click_crack", "--games", "200000"]
    command += ["--workers", "2", "--chunk-size", "20", "--out", str(out), "--no-progress"]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 60
        while not list((tmp_path / "long.parquet.parts").glob("part-*.parquet")):
            assert process.poll() is None and time.monotonic() < deadline, "no chunk was saved within a minute"
            time.sleep(0.05)
        process.send_signal(signal.SIGTERM)
        printed, _ = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130
    assert "interrupted: finished chunks are saved" in printed
    deadline = time.monotonic() + 10
    while _in_group(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _in_group(process.pid) == [], "a worker process outlived the stopped run"
