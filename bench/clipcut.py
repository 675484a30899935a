"""How fast ClipCut Parks solo games run with each bot, and how long the heuristic bot thinks per move.

Line-ups (one seat, default options, game seeds 0..N-1, bot seed = game seed):
- random: the game's declared random bot (`cliplab.bots.RandomBot`), which picks one of the legal actions
  (the engine's own pace, and the baseline);
- heuristic: the game's declared heuristic bot (`PlanningBot`, which plans each round's cuts).
Games run through `cliplab.bots.play` (a view per decision, as a dashboard or notebook would). Per line-up it
prints games per second over the run, per-game wall time (median, p95) and the ratio of games per second to
the random bot's in this same run. Then the heuristic bot's move times by stage, wall clock and CPU (process)
time; forced moves (one legal action) are left out. On a shared machine wall time also counts waiting for a
core, so read CPU time for the bot's own cost.

`--scores FILE` instead plays `--games` solo games per bot (seeds 0..N-1) on two worker processes and writes
one row per game: bot, seed, score, completed, crumpled, rounds, termination, incomplete (face-up cards left
incomplete at the end), then prints each bot's mean, median and sd and the share of cards completed.

Run:  .venv/bin/python bench/clipcut.py [--games N] [--heuristic-games M]
      .venv/bin/python bench/clipcut.py --scores notebooks/teach/data/clipcut_solo_scores.csv --games 1000
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from cliplab.bots import play
from cliplab.bots.random_bot import Bot
from cliplab.engine import Action, State, new_game
from cliplab.games.clipcut_parks import ClipCutParks
from cliplab.games.clipcut_parks.content import DIE_FACES
from cliplab.kit import declaration

STAGES = ("plan", "cut", "keep", "bonus", "build", "check")
KIT = declaration("clipcut_parks")
LINEUPS: dict[str, Callable[[int], Bot]] = {name: KIT.bot_factory(name) for name in KIT.bots}


class Timed:
    """Wraps a bot and records (stage, wall seconds, CPU seconds) for every decision with a choice."""

    def __init__(self, bot: Bot, record: Callable[[str, float, float], None]) -> None:
        self.bot = bot
        self.record = record

    def choose(self, view: State, player: int) -> Action:
        assert isinstance(view, ClipCutParks)
        stage = view.stage[player]
        if stage == "cut" and len(view.to_cut[player]) == len(DIE_FACES[view.face - 1]):
            stage = "plan"  # the round's first cut: where the heuristic bot makes its plan for the round
        forced = stage in ("keep", "build", "check") and len(view.legal_actions(player)) == 1
        wall, cpu = time.perf_counter(), time.process_time()
        action = self.bot.choose(view, player)
        if not forced:
            self.record(stage, time.perf_counter() - wall, time.process_time() - cpu)
        return action


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def run(make: Callable[[int], Bot], games: int, timed: bool) -> tuple[list[float], float, dict[str, list]]:
    """Per-game wall times, games per second over the whole run, and move times by stage (if `timed`)."""
    times: dict[str, list[tuple[float, float]]] = defaultdict(list)

    def record(stage: str, wall: float, cpu: float) -> None:
        times[stage].append((wall, cpu))

    per_game = []
    start = time.perf_counter()
    for seed in range(games):
        began = time.perf_counter()
        game = new_game("clipcut_parks", players=1, seed=seed)
        bot = make(seed)
        play(game, [Timed(bot, record) if timed else bot])
        per_game.append(time.perf_counter() - began)
    return per_game, games / (time.perf_counter() - start), times


def speeds(games: int, heuristic_games: int) -> None:
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    print(f"{'bot':<10} {'games':>6} {'games/s':>9} {'x random':>11} {'median ms/game':>15} {'p95 ms/game':>12}")
    baseline = 0.0
    stage_times: dict[str, list] = {}
    for name, make in LINEUPS.items():
        count = heuristic_games if name == "heuristic" else games
        per_game, rate, times = run(make, count, timed=name == "heuristic")
        if name == "random":
            baseline = rate
        else:
            stage_times = times or stage_times
        walls = [1000 * t for t in per_game]
        print(
            f"{name:<10} {count:>6} {rate:>9.2f} {rate / baseline:>11.2f} {statistics.median(walls):>15.1f}"
            f" {p95(walls):>12.1f}"
        )
    print()
    print("heuristic bot, move time by stage (plan: the round's first cut; cut: the others; forced moves left out)")
    print(f"{'stage':<8} {'moves':>6} {'median ms':>10} {'p95 ms':>8} {'max ms':>8} {'median CPU':>11} {'p95 CPU':>8}")
    everything: list[tuple[float, float]] = []
    for stage in STAGES:
        pairs = stage_times.get(stage, [])
        everything += pairs
        if pairs:
            print(_row(stage, pairs))
    print(_row("all", everything))
    print(f"load average after: {os.getloadavg()[0]:.1f}")


def _row(label: str, pairs: list[tuple[float, float]]) -> str:
    walls = [1000 * w for w, _ in pairs]
    cpus = [1000 * c for _, c in pairs]
    return (
        f"{label:<8} {len(pairs):>6} {statistics.median(walls):>10.1f} {p95(walls):>8.1f} {max(walls):>8.1f}"
        f" {statistics.median(cpus):>11.1f} {p95(cpus):>8.1f}"
    )


# ----- score distributions -------------------------------------------------------------------------------

COLUMNS = ("bot", "seed", "score", "completed", "crumpled", "rounds", "termination", "incomplete")


def solo_game(job: tuple[str, int]) -> dict[str, Any]:
    name, seed = job
    game = new_game("clipcut_parks", players=1, seed=seed)
    assert isinstance(game, ClipCutParks)
    outcome = play(game, [LINEUPS[name](seed)])
    return {
        "bot": name,
        "seed": seed,
        "score": outcome.scores[0],
        "completed": len(game.completed[0]),
        "crumpled": len(game.crumpled[0]),
        "rounds": game.round,
        "termination": outcome.termination,
        "incomplete": len(game.face_up[0]),
    }


def scores(path: str, games: int, bots: list[str]) -> None:
    jobs = [(name, seed) for name in bots for seed in range(games)]
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=2) as pool:
        rows = list(pool.map(solo_game, jobs, chunksize=8))
    with open(path, "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    print(f"{len(rows)} games in {time.perf_counter() - started:.0f} s -> {path}")
    print(
        f"{'bot':<10} {'games':>6} {'mean':>7} {'median':>7} {'sd':>6} {'completed':>10} {'of face-up':>11}"
        f" {'of dealt':>9} {'crumpled':>9} {'rounds':>7}"
    )
    for name in bots:
        mine = [row for row in rows if row["bot"] == name]
        values = [row["score"] for row in mine]
        done = sum(row["completed"] for row in mine)
        seen = done + sum(row["incomplete"] for row in mine)
        print(
            f"{name:<10} {len(mine):>6} {statistics.mean(values):>7.2f} {statistics.median(values):>7.1f}"
            f" {statistics.stdev(values):>6.2f} {done / len(mine):>10.2f} {done / seen:>11.1%}"
            f" {done / (20 * len(mine)):>9.1%} {statistics.mean(row['crumpled'] for row in mine):>9.2f}"
            f" {statistics.mean(row['rounds'] for row in mine):>7.2f}"
        )
        ends: dict[str, int] = defaultdict(int)
        for row in mine:
            ends[row["termination"]] += 1
        for end, count in sorted(ends.items(), key=lambda item: -item[1]):
            print(f"    {count:>5} {end}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="games per line-up but the heuristic one")
    parser.add_argument("--heuristic-games", type=int, default=20, help="games for the heuristic line-up")
    parser.add_argument("--scores", metavar="FILE", help="write solo score distributions to this CSV instead")
    parser.add_argument("--bots", default="random,heuristic", help="bots for --scores, comma-separated")
    args = parser.parse_args()
    if args.scores:
        scores(args.scores, args.games, [name.strip() for name in args.bots.split(",") if name.strip()])
    else:
        speeds(args.games, args.heuristic_games)


if __name__ == "__main__":
    main()
