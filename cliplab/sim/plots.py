"""Plots of simulation results (matplotlib): seat advantages with intervals, score distributions, comparisons."""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .metrics import score_distribution, summary

if TYPE_CHECKING:
    from matplotlib.axes import Axes


def _axes(ax: Axes | None, size: tuple[float, float]) -> Axes:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=size, layout="constrained")[1]


def plot_advantage(tables: Mapping[str, pd.DataFrame], ax: Axes | None = None) -> Axes:
    """Each seat's win share with its 95% Wilson interval, side by side for every table; the dashed line is
    the fair share 1/players."""
    ax = _axes(ax, (6.4, 3.6))
    step = 0.6 / max(1, len(tables))
    players = 0
    for k, (label, table) in enumerate(tables.items()):
        found = summary(table).filter(like="advantage seat", axis=0)
        players = max(players, len(found))
        x = np.arange(len(found)) + (k - (len(tables) - 1) / 2) * step
        values = found["value"].to_numpy(float)
        errors = [values - found["low"].to_numpy(float), found["high"].to_numpy(float) - values]
        ax.errorbar(x, values, yerr=errors, fmt="o", capsize=4, label=f"{label} ({len(table)} games)")
    if players:
        ax.axhline(1 / players, color="0.3", linestyle="--", linewidth=1)
    ax.set_xticks(range(players), [f"seat {seat}" for seat in range(players)])
    ax.set_xlim(-0.5, players - 0.5)
    ax.set_ylabel("win share (95% interval)")
    ax.legend(fontsize="small")
    return ax


def plot_scores(tables: Mapping[str, pd.DataFrame], seat: int | None = 0, ax: Axes | None = None) -> Axes:
    """The distribution of one seat's final score in each table, overlaid (seat None: every seat's scores
    pooled)."""
    ax = _axes(ax, (6.4, 3.2))
    for number, (label, table) in enumerate(tables.items()):
        found = score_distribution(table)
        shares = found.mean(axis=1) if seat is None else found[f"seat {seat}"]
        # Dashed over solid, so that a side identical to the first still shows.
        dashed = number % 2 == 1
        ax.plot(
            shares.index,
            shares.to_numpy(),
            drawstyle="steps-mid",
            linestyle="--" if dashed else "-",
            marker="o" if dashed else "s",
            label=f"{label} ({len(table)} games)",
        )
    ax.set_xlabel("final score of every seat" if seat is None else f"final score of seat {seat}")
    ax.set_ylabel("share of games")
    ax.legend(fontsize="small")
    return ax


def plot_comparison(comparison: pd.DataFrame, ax: Axes | None = None) -> Axes:
    """Each metric's difference b - a with its 95% interval, as a share of a's value (so that metrics of
    different units fit on one axis); significant differences are drawn dark."""
    rows = comparison[comparison["a"].abs() > 1e-12]
    ax = _axes(ax, (6.4, 0.28 * len(rows) + 1.0))
    scale = rows["a"].abs().to_numpy(float)
    centre = rows["difference"].to_numpy(float) / scale
    low = rows["low"].to_numpy(float) / scale
    high = rows["high"].to_numpy(float) / scale
    y = np.arange(len(rows))[::-1]
    colours = ["tab:red" if flag else "0.6" for flag in rows["significant"]]
    ax.hlines(y, low, high, colors=colours)
    ax.scatter(centre, y, c=colours, zorder=3, s=14)
    ax.axvline(0, color="0.3", linewidth=1)
    # Wide enough for every difference; an interval that runs off the plot is very uncertain anyway.
    widest = np.abs(np.concatenate([low, high]))
    typical = float(np.median(widest)) if len(widest) else 0.0
    reach = max(0.05, 1.3 * float(np.max(np.abs(centre), initial=0.0)), typical)
    ax.set_xlim(-min(reach, 3.0), min(reach, 3.0))
    ax.set_yticks(y, list(rows.index))
    ax.set_xlabel("(b - a) / a, 95% interval")
    ax.xaxis.set_major_formatter(lambda value, _: f"{value:+.0%}")
    return ax


def comparison_png(results: Mapping[str, pd.DataFrame], comparison: pd.DataFrame, dpi: int = 80) -> bytes:
    """The comparison page's picture as PNG: the score distributions of both setups overlaid (with several
    seats, also each seat's win share) above every metric's difference with its interval."""
    from matplotlib.figure import Figure

    solo = all(table["players"].iloc[0] == 1 for table in results.values())
    shown = comparison[comparison["a"].abs() > 1e-12]
    figure = Figure(figsize=(12, 3.4 + 0.22 * len(shown) + 1.0), layout="constrained")
    top, bottom = figure.subfigures(2, 1, height_ratios=[3.4, 0.22 * len(shown) + 1.0])  # type: ignore[misc]
    if solo:
        plot_scores(results, ax=top.subplots())
    else:
        left, right = top.subplots(1, 2)
        plot_scores(results, seat=None, ax=left)
        plot_advantage(results, ax=right)
    plot_comparison(comparison, ax=bottom.subplots())
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()


def sweep_png(option: str, tables: Mapping[str, pd.DataFrame], names: Sequence[str], dpi: int = 80) -> bytes:
    """Each named metric against the swept option's value, with its 95% interval, one panel a metric."""
    from matplotlib.figure import Figure

    summaries = {value: summary(table) for value, table in tables.items()}
    columns = min(3, max(1, len(names)))
    rows = math.ceil(len(names) / columns)
    figure = Figure(figsize=(4 * columns, 2.6 * rows), layout="constrained")
    axes = np.atleast_1d(figure.subplots(rows, columns, squeeze=False).ravel())
    values = list(summaries)
    numeric = all(_is_number(value) for value in values)
    x = [float(value) for value in values] if numeric else list(range(len(values)))
    for ax, name in zip(axes, names, strict=False):
        found = [summaries[value].loc[name] if name in summaries[value].index else None for value in values]
        centre = np.array([math.nan if row is None else row["value"] for row in found], dtype=float)
        low = np.array([math.nan if row is None else row["low"] for row in found], dtype=float)
        high = np.array([math.nan if row is None else row["high"] for row in found], dtype=float)
        # A bootstrap interval need not contain the sample value (e.g. balance, biased low): clip at 0.
        below = np.nan_to_num(np.clip(centre - low, 0, None))
        above = np.nan_to_num(np.clip(high - centre, 0, None))
        ax.errorbar(x, centre, yerr=[below, above], fmt="o-", capsize=4)
        ax.set_title(name, fontsize="medium")
        ax.set_xticks(x, values)
        ax.set_xlabel(option)
    for ax in axes[len(names) :]:
        ax.set_visible(False)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


__all__ = ["comparison_png", "plot_advantage", "plot_comparison", "plot_scores", "sweep_png"]
