# mypy: disable-error-code="import-untyped"
"""Metrics on small hand-made result tables, against numbers worked out by hand or from published examples."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
import pytest

from cliplab.sim.metrics import (
    compare,
    format_distribution,
    format_table,
    game_metric_name,
    games_for_proportions,
    games_for_variance,
    newcombe,
    per_game,
    score_distribution,
    summary,
    t_interval,
    t_quantile,
    welch,
    wilson,
)
from cliplab.sim.store import to_frame


def _game(
    index: int,
    scores: tuple[float, float],
    winners: list[int],
    rounds: int,
    actions: int,
    branching: list[int],
    traces: tuple[list[float], list[float]],
    timeout: bool = False,
) -> dict[str, Any]:
    row: dict[str, Any] = {
        "game": "hand",
        "variant": "",
        "options": "",
        "players": 2,
        "bots": "random,random",
        "run_seed": 0,
        "game_index": index,
        "game_seed": index,
        "winners": winners,
        "n_winners": len(winners),
        "termination": "limit" if timeout else "won",
        "timeout": timeout,
        "rounds": rounds,
        "actions": actions,
        "decisions": len(branching),
    }
    for seat in range(2):
        row[f"score_{seat}"] = scores[seat]
        row[f"share_{seat}"] = 1 / len(winners) if seat in winners else 0.0
    row["stat_tiles"] = 10 + index
    row["branching"] = branching
    for seat in range(2):
        row[f"score_trace_{seat}"] = traces[seat]
    return row


@pytest.fixture
def table() -> pd.DataFrame:
    return to_frame(
        [
            # Seat 0 leads from its first point to the end: no lead change, no drama.
            _game(0, (3, 1), [0], 2, 5, [3, 1, 2, 2], ([0, 1, 3, 3], [0, 0, 0, 1])),
            # Seat 0 leads, seat 1 overtakes and wins: one lead change; seat 1 trailed by 1, then 2.
            _game(1, (2, 4), [1], 3, 4, [2, 2, 2, 2], ([1, 2, 2, 2], [0, 0, 3, 4])),
            # A shared win; seat 1 led alone, then a tie (a tie ends no lead): winners trailed by 0.5 on average.
            _game(2, (2, 2), [0, 1], 3, 3, [1, 1], ([1, 2], [2, 2])),
            # Stopped by the limit; seat 1 led, a tie, then seat 0 alone: one lead change.
            _game(3, (5, 0), [0], 4, 6, [4] * 6, ([0, 1, 2, 3, 4, 5], [1, 1, 1, 1, 0, 0]), timeout=True),
        ]
    )


def test_per_game_values(table: pd.DataFrame) -> None:
    derived = per_game(table)
    assert derived["lead_changes"].tolist() == [0, 1, 0, 1]
    assert derived["drama"].tolist() == pytest.approx([0, 0.75, 0.25, 1 / 6])
    assert derived["drama_max"].tolist() == [0, 2, 0.5, 1]
    assert derived["winner_trailed"].tolist() == [0, 1, 1, 1]
    assert derived["decision_share"].tolist() == [0.75, 1, 0, 1]
    assert derived["branching_mean"].tolist() == [2, 2, 1, 4]
    assert derived["margin"].tolist() == [2, 2, 0, 5]
    assert derived["winning_score"].tolist() == [3, 4, 2, 5]


def test_summary_values(table: pd.DataFrame) -> None:
    found = summary(table)
    expected = {
        "advantage seat 0": 0.625,
        "advantage seat 1": 0.375,
        "balance": 0.75,
        "completion": 0.5,
        "shared wins": 0.25,
        "timeouts": 0.25,
        "rounds mean": 3.0,
        "rounds sd": math.sqrt(2 / 3),
        "decisions mean": 4.0,
        "actions mean": 4.5,
        "decision moves": 0.6875,
        "branching factor": 2.25,
        "lead changes": 0.5,
        "drama": (0.75 + 0.25 + 1 / 6) / 4,
        "drama max": 0.875,
        "winner trailed": 0.75,
        "score seat 0": 3.0,
        "score seat 1": 1.75,
        "winning score": 3.5,
        "margin": 2.25,
        "tiles": 11.5,
        "ended: won": 0.75,
        "ended: limit": 0.25,
    }
    for name, value in expected.items():
        assert found.loc[name, "value"] == pytest.approx(value), name
    assert set(found["n"]) == {4}
    assert found.loc["balance", "group"] == "outcomes" and found.loc["tiles", "group"] == "game"
    # Proportions get Wilson intervals (a shared win counts half a success), means t intervals.
    assert found.loc["advantage seat 0", "method"] == "Wilson"
    assert (found.loc["advantage seat 0", "low"], found.loc["advantage seat 0", "high"]) == wilson(2.5, 4)
    assert found.loc["rounds mean", "method"] == "t"
    assert found.loc["rounds mean", "low"] == pytest.approx(1.700771736374889, abs=1e-12)
    assert found.loc["rounds mean", "high"] == pytest.approx(4.2992282636251105, abs=1e-12)
    # Bootstrap intervals are seeded: the same table gives the same interval.
    assert found.loc["balance", "method"] == "bootstrap"
    again = summary(table)
    assert found.loc["balance", "low"] == again.loc["balance", "low"]
    assert found.loc["balance", "low"] <= found.loc["balance", "high"]
    assert "advantage seat 0" in format_table(found)


def test_wilson_textbook_values() -> None:
    assert wilson(7, 10) == pytest.approx((0.3967781, 0.8922087), abs=1e-7)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775328), abs=1e-7)
    assert wilson(10, 10) == pytest.approx((0.7224672, 1.0), abs=1e-7)


def test_t_quantiles_and_interval() -> None:
    assert t_quantile(0.975, 1) == pytest.approx(12.706204736174694, abs=1e-10)
    assert t_quantile(0.975, 4) == pytest.approx(2.7764451051977934, abs=1e-12)
    assert t_quantile(0.975, math.inf) == pytest.approx(1.959963984540054, abs=1e-12)
    low, high = t_interval(np.array([1.0, 2, 3, 4, 5]))
    half = 2.7764451051977934 * math.sqrt(2.5) / math.sqrt(5)
    assert (low, high) == pytest.approx((3 - half, 3 + half), abs=1e-12)


def test_newcombe_published_example() -> None:
    # Newcombe (1998), example (a): 56/70 - 48/80, hybrid score method (his method 10): 0.0524 to 0.3339.
    difference, low, high = newcombe(48, 80, 56, 70)
    assert difference == pytest.approx(0.2)
    assert (round(low, 4), round(high, 4)) == (0.0524, 0.3339)


def test_welch_interval() -> None:
    difference, low, high = welch(np.array([1.0, 2, 3, 4, 5]), np.array([2.0, 4, 6, 8, 10, 12]))
    assert difference == 4.0
    assert (low, high) == pytest.approx((0.016531304371169675, 7.98346869562883), abs=1e-9)


def test_games_needed() -> None:
    # 50% against 60%: the textbook 388 games per side (no continuity correction).
    assert games_for_proportions(0.5, 0.6) == 388
    # Means half a standard deviation apart: the textbook 63 per side.
    assert games_for_variance(1.0 + 1.0, 0.5) == 63
    assert games_for_proportions(0.3, 0.3) == math.inf


def test_compare_tables(table: pd.DataFrame) -> None:
    same = compare(table, table)
    assert (same["difference"] == 0).all()
    assert not same["significant"].any()
    assert (same["games_needed"] == math.inf).all()

    other = table.copy()
    other["share_0"] = [1.0, 1.0, 1.0, 0.0]
    other["share_1"] = [0.0, 0.0, 0.0, 1.0]
    found = compare(table, other)
    row = found.loc["advantage seat 0"]
    assert (row["a"], row["b"]) == (0.625, 0.75)
    assert (row["difference"], row["low"], row["high"]) == newcombe(2.5, 4, 3.0, 4)
    assert row["games_needed"] == games_for_proportions(0.625, 0.75)
    assert row["method"] == "Newcombe"
    assert found.loc["rounds mean", "method"] == "Welch t"
    assert found.loc["balance", "b"] == 0.5
    assert "games needed" in format_table(found)


def test_score_distribution(table: pd.DataFrame) -> None:
    found = score_distribution(table)
    assert found.loc[2.0, "seat 0"] == 0.5
    assert found.loc[0.0, "seat 0"] == 0.0
    assert found["seat 1"].sum() == pytest.approx(1.0)


def _solo(table: pd.DataFrame) -> pd.DataFrame:
    """The hand-made table as if only seat 0 had played (a solo game's one seat always "wins")."""
    solo = table.drop(columns=["score_1", "share_1", "score_trace_1"])
    solo["players"] = 1
    solo["winners"] = [[0]] * len(solo)
    solo["n_winners"] = 1
    solo["share_0"] = 1.0
    return solo


def test_solo_summary_reports_the_score_and_no_seat_or_tension_lines(table: pd.DataFrame) -> None:
    found = summary(_solo(table))
    for absent in ("advantage seat 0", "balance", "completion", "shared wins", "lead changes", "drama",
                   "drama max", "winner trailed", "score seat 0", "winning score", "margin"):  # fmt: skip
        assert absent not in found.index, absent
    # Scores 3, 2, 2, 5: mean, spread and quantiles (numpy's linear interpolation).
    assert found.loc["score mean", "value"] == 3.0
    assert found.loc["score sd", "value"] == pytest.approx(math.sqrt(2))
    assert found.loc["score median", "value"] == 2.5
    assert found.loc["score 10th percentile", "value"] == pytest.approx(2.0)
    assert found.loc["score 90th percentile", "value"] == pytest.approx(4.4)
    assert found.loc["score median", "method"] == "bootstrap"
    assert found.loc["timeouts", "value"] == 0.25 and found.loc["tiles", "value"] == 11.5
    assert list(found.loc[found["group"] == "scores"].index) == [
        "score mean", "score sd", "score 10th percentile", "score median", "score 90th percentile"
    ]  # fmt: skip


def test_game_metric_names_read_as_words_and_never_hide_a_lab_metric() -> None:
    assert game_metric_name("stat_cards_completed", {"balance"}) == "cards completed"
    assert game_metric_name("stat_score line: tokens held (+1 each)", set()) == "score line: tokens held (+1 each)"
    assert game_metric_name("stat_balance", {"balance"}) == "game: balance"


def test_a_comparison_reports_every_ending_of_either_table(table: pd.DataFrame) -> None:
    other = table.copy()
    other["termination"] = ["won", "won", "resigned", "won"]
    other["timeout"] = False
    found = compare(table, other)
    assert found.loc["ended: limit", "a"] == 0.25 and found.loc["ended: limit", "b"] == 0.0
    assert found.loc["ended: resigned", "a"] == 0.0 and found.loc["ended: resigned", "b"] == 0.25
    assert found.loc["ended: won", "difference"] == 0.0


def test_format_table_heads_each_group_and_the_distribution_draws_bars(table: pd.DataFrame) -> None:
    text = format_table(summary(table)).splitlines()
    assert text.index("[outcomes]") < text.index("[duration]") < text.index("[game]")
    assert text[text.index("[game]") + 1].startswith("tiles ")
    lines = format_distribution(table).splitlines()
    assert [line.split()[:2] for line in lines] == [["2", "50.0%"], ["3", "25.0%"], ["5", "25.0%"]]
    assert lines[0].endswith("#" * 40) and lines[1].endswith(" " + "#" * 20)
