"""Simulation: many seeded games with bots, their results as a table, and design metrics with intervals.

    from cliplab.sim import simulate, summary, compare
    a = simulate("click_crack", "random", games=2000, seed=1, workers=2)
    b = simulate("click_crack", "random", games=2000, seed=1, workers=2, variant="snake")
    summary(a)          # every metric with its 95% interval
    compare(a, b)       # differences, their intervals, significance and the games needed to tell them apart

The command line does the same: `cliplab simulate click_crack --bots random --games 2000 --out a.parquet`.
Metrics are defined in docs/metrics.md. The parts that need pandas are imported on first use, so worker
processes, which only play games, start quickly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .bots import bot_names
from .play import Setup, SimulationError, game_seeds, make_setup, play_game

if TYPE_CHECKING:
    from .metrics import compare, format_table, per_game, score_distribution, summary
    from .run import simulate
    from .store import read

_LAZY = {
    "simulate": "run",
    "read": "store",
    "summary": "metrics",
    "compare": "metrics",
    "per_game": "metrics",
    "format_table": "metrics",
    "score_distribution": "metrics",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Setup",
    "SimulationError",
    "bot_names",
    "compare",
    "format_table",
    "game_seeds",
    "make_setup",
    "per_game",
    "play_game",
    "read",
    "score_distribution",
    "simulate",
    "summary",
]
