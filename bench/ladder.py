"""What the bot ladders in bench/ share: seeded games played by one bot per seat, every decision timed."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Sequence

from cliplab.bots.random_bot import Bot
from cliplab.engine import Outcome, State


class MoveTimes:
    """Wall-clock and CPU seconds of every decision, by the name of the bot that made it."""

    def __init__(self) -> None:
        self.wall: dict[str, list[float]] = {}
        self.cpu: dict[str, list[float]] = {}

    def print(self, indent: str = "", digits: int = 1) -> None:
        """Per bot: decisions timed, wall median and 90th percentile, CPU median, then the machine's load."""
        print(f"{indent}{'bot':<12}{'moves':>7}{'median ms':>11}{'p90 ms':>9}{'median CPU ms':>15}")
        for name, spent in self.wall.items():
            ordered = sorted(spent)
            p90 = 1000 * ordered[int(0.9 * (len(ordered) - 1))]
            median, cpu = 1000 * statistics.median(spent), 1000 * statistics.median(self.cpu[name])
            print(f"{indent}{name:<12}{len(spent):>7}{median:>11.{digits}f}{p90:>9.{digits}f}{cpu:>15.{digits}f}")
        load = os.getloadavg()[0]
        print(f"{indent}(machine load over the last minute: {load:.1f} on {os.cpu_count()} cores; CPU time is")
        print(f"{indent} what a move costs whatever else runs, wall time what a person waits)", flush=True)


def play_timed(state: State, bots: Sequence[Bot], names: Sequence[str], times: MoveTimes) -> Outcome:
    """Plays `state` to its end, each seat's bot deciding from its own view. Seats that decide at once (secret
    choices) all decide on the same position before any of their actions is carried out."""
    while state.outcome() is None:
        choices = []
        for seat in state.to_move():
            view = state.view(seat)
            started, cpu_started = time.perf_counter(), time.process_time()
            choices.append((seat, bots[seat].choose(view, seat)))
            times.wall.setdefault(names[seat], []).append(time.perf_counter() - started)
            times.cpu.setdefault(names[seat], []).append(time.process_time() - cpu_started)
        for seat, action in choices:
            state.apply_fast(action, seat)
    outcome = state.outcome()
    assert outcome is not None
    return outcome
