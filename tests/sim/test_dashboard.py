# mypy: disable-error-code="import-untyped"
"""The comparison dashboard: stored clean, builds without simulating, and Run compares two setups."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat
import pandas as pd
import pytest

import cliplab.sim.run
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


def test_run_compares_two_setups(calls: list[dict[str, Any]]) -> None:
    dashboard = ComparisonDashboard()
    assert dashboard.game.value == "click_crack"
    assert dashboard.players.value == 3 and len(dashboard.a.bots.children) == 3
    assert (dashboard.a.variant.value, dashboard.b.variant.value) == ("(default rules)", "snake")
    dashboard.games.value = 10
    dashboard.workers.value = 1
    for side in (dashboard.a, dashboard.b):
        side.options.value = "round_limit=3"
    dashboard.run_button.click()
    assert [call["variant"] for call in calls] == [None, "snake"]
    assert all(call["games"] == 10 and call["options"] == {"round_limit": "3"} for call in calls)
    assert dashboard.comparison is not None
    assert "advantage seat 0" in dashboard.comparison.index
    assert list(dashboard.results) == ["default round_limit=3 random", "snake round_limit=3 random"]
    assert len(dashboard.output.outputs) == 3  # the setups, the table and the figure
    assert dashboard.status.value.startswith("done")
    assert not dashboard.run_button.disabled


def test_bad_options_are_reported(calls: list[dict[str, Any]]) -> None:
    dashboard = ComparisonDashboard()
    dashboard.a.options.value = "round_limit=zero"
    dashboard.run_button.click()
    assert "round_limit" in dashboard.status.value
    assert dashboard.comparison is None
    assert calls == [], "nothing is simulated when a setup is wrong"
