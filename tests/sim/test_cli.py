# mypy: disable-error-code="import-untyped"
"""`cliplab simulate` end to end: in this process through main(), and killed in a subprocess then resumed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from cliplab.cli import main
from cliplab.engine import games
from cliplab.kit import declaration
from cliplab.sim import read, simulate


def test_simulate_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "snake.csv"
    argv = ["simulate", "click_crack", "--variant", "snake", "--option", "round_limit=6", "--bots", "random"]
    argv += ["--players", "2", "--games", "8", "--seed", "5", "--out", str(out), "--no-progress"]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "Click & Crack, 2 players, variant snake with round_limit=6; bots random,random" in printed
    assert "8 games in" in printed
    for metric in ("advantage seat 1", "balance", "lead changes", "stat tiles_broken_off"):
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


def test_help_lists_each_games_declared_bots(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    printed = " ".join(capsys.readouterr().out.split())
    for game in games():
        assert f"{game}: {', '.join(declaration(game).bot_names())}" in printed


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
