# mypy: disable-error-code="import-untyped"
"""The comparison dashboard: stored clean, builds without simulating, and Run compares two setups."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import nbformat
import pandas as pd
import pytest

import cliplab.sim.run
from cliplab.engine import games
from cliplab.sim.dashboard import ComparisonDashboard

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "dashboards" / "compare.ipynb"


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Records every simulation the dashboard starts (and lets it run)."""
    seen: list[dict[str, Any]] = []
    real = cliplab.sim.run.simulate

    def recording(*args: Any, **kwargs: Any) -> pd.DataFrame:
        seen.append(kwargs)
        return real(*args, **{**kwargs, "progress": False})

    monkeypatch.setattr(cliplab.sim.run, "simulate", recording)
    return seen


def test_notebook_is_stored_clean_and_simulates_nothing_on_load(calls: list[dict[str, Any]]) -> None:
    book = nbformat.read(NOTEBOOK, as_version=4)
    code = [cell for cell in book.cells if cell.cell_type == "code"]
    assert code and all(not cell.outputs and cell.execution_count is None for cell in code)
    assert "widgets" not in book.metadata
    namespace: dict[str, Any] = {}
    for cell in code:
        exec(compile(cell.source, str(NOTEBOOK), "exec"), namespace)
    assert isinstance(namespace["dashboard"], ComparisonDashboard)
    assert calls == []


PNG = b"\x89PNG\r\n\x1a\n"


def test_run_compares_two_setups(calls: list[dict[str, Any]]) -> None:
    dashboard = ComparisonDashboard()
    assert dashboard.game.value == games()[0]
    dashboard.game.value = "click_crack"
    assert dashboard.players.value == 3 and len(dashboard.a.bots.children) == 3
    # The first comparison offered: the rules as they are against the game's first variant.
    assert (dashboard.a.variant.value, dashboard.b.variant.value) == ("(default rules)", "snake")
    dashboard.games.value = 10
    dashboard.workers.value = 1
    for side in (dashboard.a, dashboard.b):
        side.options.value = "round_limit=3"
    dashboard.run_button.click()
    dashboard.wait(60)
    assert [call["variant"] for call in calls] == [None, "snake"]
    assert all(call["games"] == 10 and call["options"] == {"round_limit": "3"} for call in calls)
    assert all(call["seed"] == 1 for call in calls), "both sides play the same seeds"
    assert dashboard.comparison is not None
    assert "advantage seat 0" in dashboard.comparison.index
    assert list(dashboard.results) == ["default round_limit=3 random", "snake round_limit=3 random"]
    # What the page shows: the setups, the table with the game's own metrics, the plot.
    assert "a = default round_limit=3 random; b = snake round_limit=3 random" in dashboard.table.value
    for text in ("games needed per side", "advantage seat 0", "tiles broken off", ">tension<"):
        assert text in dashboard.table.value, text
    assert bytes(dashboard.figure.value).startswith(PNG) and dashboard.figure.layout.display == "block"
    assert dashboard.progress.value == 20
    assert dashboard.status.value.startswith("done: 10 games each")
    assert not dashboard.run_button.disabled and dashboard.stop_button.disabled


def test_a_solo_comparison_shows_the_score_and_the_games_own_metrics(calls: list[dict[str, Any]]) -> None:
    dashboard = ComparisonDashboard()
    dashboard.game.value = "clipcut_parks"
    dashboard.players.value = 1
    dashboard.b.variant.value = "(default rules)"
    dashboard.b.options.value = "allow_flip=yes"
    dashboard.games.value = 10
    dashboard.workers.value = 1
    dashboard.run()
    dashboard.wait(60)
    assert dashboard.status.value.startswith("done"), dashboard.status.value
    assert calls[1]["options"] == {"allow_flip": "yes"}
    for text in ("score median", "cards completed", "sections crumpled", "score line: "):
        assert text in dashboard.table.value, text
    for text in ("advantage seat", "balance", "lead changes", "winning score"):
        assert text not in dashboard.table.value, text
    assert bytes(dashboard.figure.value).startswith(PNG)


def test_options_of_the_last_game_are_cleared_and_listed_for_the_new_one() -> None:
    dashboard = ComparisonDashboard()
    dashboard.game.value = "clipcut_parks"
    dashboard.b.options.value = "allow_flip=yes"
    dashboard.game.value = "click_crack"
    assert dashboard.b.options.value == ""
    assert "round_limit=1..1000 (default 40)" in dashboard.option_help.value


def test_bad_options_are_reported(calls: list[dict[str, Any]]) -> None:
    dashboard = ComparisonDashboard()
    dashboard.game.value = "click_crack"
    dashboard.a.options.value = "round_limit=zero"
    dashboard.run_button.click()
    dashboard.wait(10)
    assert "setup a: " in dashboard.status.value and "round_limit" in dashboard.status.value
    assert dashboard.comparison is None
    assert calls == [], "nothing is simulated when a setup is wrong"


def test_a_failure_says_on_the_page_what_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    def failing(game: str, **kwargs: Any) -> pd.DataFrame:
        if kwargs["variant"] == "snake":
            raise RuntimeError("the worker ran out of memory")
        return pd.DataFrame()

    monkeypatch.setattr(cliplab.sim.run, "simulate", failing)
    dashboard = ComparisonDashboard()
    dashboard.game.value = "click_crack"
    dashboard.run()
    dashboard.wait(10)
    assert "failed while simulating snake random: RuntimeError: the worker ran out of memory" in dashboard.status.value
    assert "color:#b00" in dashboard.status.value
    assert dashboard.comparison is None and dashboard.table.value == ""
    assert not dashboard.run_button.disabled


def test_stop_ends_a_long_run_after_its_chunk(calls: list[dict[str, Any]]) -> None:
    dashboard = ComparisonDashboard()
    dashboard.game.value = "click_crack"
    dashboard.games.value = 100_000
    dashboard.workers.value = 1
    dashboard.run()
    deadline = time.monotonic() + 30
    while dashboard.progress.value == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert dashboard.progress.value > 0, "the progress bar moves while games run"
    assert dashboard.stop_button.disabled is False
    dashboard.stop_button.click()
    dashboard.wait(30)
    assert dashboard.status.value.startswith("stopped after "), dashboard.status.value
    assert dashboard.progress.value < 100_000
    assert dashboard.comparison is None and len(calls) == 1
    assert not dashboard.run_button.disabled
