"""Plots of simulation results (matplotlib): seat advantages with intervals, score distributions, comparisons."""

from __future__ import annotations

from collections.abc import Mapping
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


__all__ = ["plot_advantage", "plot_comparison", "plot_scores"]
