"""How long the Click & Crack bots think per move, and how many bot-only 3-player games they play per second.

Line-ups, the game's declared bots (`cliplab.kit.declaration("click_crack")`): three random bots, three
heuristic bots, three search bots (with --iterations, default its own budget). Every `choose` call is timed,
by bot and by kind of decision: placing a penguin, setting tiles (the secret phase: 36 settings) and
performing (carrying out a tile, with the push-side and break-off choices inside one). Forced moves (one
legal action) are left out of the move times. Times are wall clock and CPU (process) time: on a shared
machine the wall clock also counts time the process waits for a core.

Run:  .venv/bin/python bench/bots.py [--games N] [--search-games M] [--iterations I]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections import defaultdict
from collections.abc import Callable

from cliplab.bots.random_bot import Bot
from cliplab.engine import Action, State, new_game
from cliplab.games.click_crack.bots import SEARCH_ITERATIONS
from cliplab.kit import declaration

# Kinds of decision by the type of the legal actions; every other type is part of performing a tile.
KINDS = {"Place": "place", "SetTiles": "set tiles"}


class Timed:
    """Wraps a bot and records (kind, wall seconds, CPU seconds) for every decision with a choice."""

    def __init__(self, bot: Bot, record: Callable[[str, float, float], None]) -> None:
        self.bot = bot
        self.record = record

    def choose(self, view: State, player: int) -> Action:
        legal = view.legal_actions(player)
        wall, cpu = time.perf_counter(), time.process_time()
        action = self.bot.choose(view, player)
        if len(legal) > 1:
            kind = KINDS.get(type(legal[0]).__name__, "perform")
            self.record(kind, time.perf_counter() - wall, time.process_time() - cpu)
        return action


def run(name: str, make: Callable[[int], Bot], games: int) -> tuple[dict[str, list[tuple[float, float]]], float, float]:
    times: dict[str, list[tuple[float, float]]] = defaultdict(list)

    def record(kind: str, wall: float, cpu: float) -> None:
        times[kind].append((wall, cpu))

    from cliplab.bots import play

    wall, cpu = time.perf_counter(), time.process_time()
    for seed in range(games):
        game = new_game("click_crack", players=3, seed=seed)
        play(game, [Timed(make(10 * seed + seat), record) for seat in range(3)])
    return times, games / (time.perf_counter() - wall), games / (time.process_time() - cpu)


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=30, help="games for the random and heuristic line-ups")
    parser.add_argument("--search-games", type=int, default=3, help="games for the search line-up")
    parser.add_argument("--iterations", type=int, default=SEARCH_ITERATIONS, help="search budget per move")
    args = parser.parse_args()
    kit = declaration("click_crack")
    search: Callable[..., Bot] = kit.bot_factory("search")
    lineups: list[tuple[str, Callable[[int], Bot], int]] = [
        ("random", kit.bot_factory("random"), args.games),
        ("heuristic", kit.bot_factory("heuristic"), args.games),
        (f"search ({args.iterations} it.)", lambda seed: search(seed, iterations=args.iterations), args.search_games),
    ]
    print(f"load average before: {os.getloadavg()[0]:.1f}; search budget {args.iterations} iterations, no time cap")
    header = (
        f"{'bot':<20} {'decision':<10} {'moves':>6} {'median ms':>10} {'p95 ms':>8} {'median CPU':>11} {'p95 CPU':>8}"
    )
    rows = []
    speeds = []
    for name, make, games in lineups:
        times, per_s, per_cpu_s = run(name, make, games)
        speeds.append(f"{name:<20} {games:>5} games {per_s:>9.2f} games/s ({per_cpu_s:.2f} per CPU second)")
        for kind in ("place", "set tiles", "perform"):
            pairs = times.get(kind, [])
            if not pairs:
                continue
            walls = [1000 * w for w, _ in pairs]
            cpus = [1000 * c for _, c in pairs]
            rows.append(
                f"{name:<20} {kind:<10} {len(pairs):>6} {statistics.median(walls):>10.1f} {p95(walls):>8.1f}"
                f" {statistics.median(cpus):>11.1f} {p95(cpus):>8.1f}"
            )
    print(header)
    print("\n".join(rows))
    print()
    print("\n".join(speeds))
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
