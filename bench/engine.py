"""How fast cliplab's rules engines play random games, next to OpenSpiel on the same core.

For every registered game (at its default player count, or every count with --all-players) this plays
uniformly random games to the end and reports full games per second and actions per second on the fast
path (`state.apply_fast` on `state.legal_actions`), plus actions per second on the checked path
(`state.apply`) over the same seeded games. When several seats are to move, each of them acts in turn.
Each figure is the median of several timed batches of games, with the min and max beside it, taken after a
third of its time budget has gone to untimed games on other seeds (see WARM_SHARE). The run pins
itself to the core that was idle longest in the second before it starts, and says which.

When open_spiel is installed, the same random playouts are timed for OpenSpiel's pure-Python
`python_tic_tac_toe` and its C++ `dots_and_boxes` (5x5 boxes), and each cliplab game's actions per second
is compared with python_tic_tac_toe's: our goal is to be at or above it. Each timed batch of a cliplab game is
followed by a batch of python_tic_tac_toe that takes about as long, and the ratio is the median of the
batches' ratios: a stretch of time in which the machine runs slower weighs on both sides of a ratio.

A second table gives, per game, the cost of what bots ask for on every decision: a seat's view
(`state.view(seat)`), the spectator view (`state.view(None)`), a clone, and a determinized sample of a
view, in microseconds per call, over positions taken every few actions from seeded random games.

Where the interpreter lays out memory moves a game's speed by a few per cent from one process to the next
(ClipCut Parks and tic-tac-toe each by up to 4%, independently), so one run's ratio is good to about ±5%.
With --processes N the whole measurement runs in N fresh processes, one after the other, and a last table
gives each game's ratios as the median over the processes with their range; the goal is judged by the median.

Run:  .venv/bin/python bench/engine.py [--seconds S] [--games N] [--repeats R] [--all-players] [--views-only]
                                      [--game NAME ...] [--processes N]
(--seconds is the timing budget of one process, default 40; --games fixes the games per batch instead.)
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata

from cliplab.engine import State, games, spec

Playout = Callable[[int, random.Random], int]  # plays one game (seed, rng), returns the actions taken


@dataclass
class Timed:
    """One figure, by timed batch: games and actions a second by the wall clock, and actions a second of this
    process's CPU time; when timed beside the reference, each batch's ratio to the reference batch right after
    it, by the wall clock and by CPU time."""

    games_per_s: list[float]
    actions_per_s: list[float]
    actions: int  # actions per game, averaged over the timed games
    cpu_actions_per_s: list[float]
    ratios: list[float] = field(default_factory=list)
    cpu_ratios: list[float] = field(default_factory=list)


@dataclass
class Result:
    label: str
    players: str
    fast: Timed
    checked: Timed | None = None


def cliplab_playout(name: str, players: int, checked: bool) -> Playout:
    def play(seed: int, rng: random.Random) -> int:
        state = spec(name).new(players, seed)
        actions = 0
        while not state.is_over():
            for seat in state.to_move():
                action = rng.choice(state.legal_actions(seat))
                if checked:
                    state.apply(action, seat)
                else:
                    state.apply_fast(action, seat)
                actions += 1
        return actions

    return play


def openspiel_playout(game: object) -> Playout:
    def play(seed: int, rng: random.Random) -> int:
        state = game.new_initial_state()
        actions = 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
        return actions

    return play


# A game's engine builds tables and fills caches over its first few hundred games (ClipCut Parks' first 100
# games take about 1.3 times as long as the same games played after 300 others): a third of each figure's
# budget goes to games played untimed, on seeds the timed games do not use, so that the figure is the
# engine's steady speed.
WARM_SHARE = 1 / 3
WARM_SEEDS = 1_000_000  # the warm-up's first seed


def measure(play: Playout, budget: float, repeats: int, batch: int | None, beside: Playout | None = None) -> Timed:
    """`repeats` timed batches of games, sized to fill what the warm-up leaves of `budget` seconds (unless
    given). With `beside`, each batch is followed by a batch of that reference game that takes about as long,
    so that whatever else slows the machine for a while weighs on the batch and its reference alike."""
    per_game = _warm_up(play, budget * WARM_SHARE)
    timed = budget * (1 - WARM_SHARE) / (2 if beside else 1)  # the reference's batches take the other half
    batch = batch or max(1, round(timed / repeats / per_game))
    beside_batch = 0 if beside is None else max(1, round(batch * per_game / _warm_up(beside, 0.1)))
    figure = Timed([], [], 0, [])
    total = 0
    for repeat in range(repeats):
        actions, elapsed, cpu = _timed_batch(play, repeat * batch, batch, random.Random(repeat))
        figure.games_per_s.append(batch / elapsed)
        figure.actions_per_s.append(actions / elapsed)
        figure.cpu_actions_per_s.append(actions / cpu)
        total += actions
        if beside is not None:
            beside_actions, beside_elapsed, beside_cpu = _timed_batch(
                beside, repeat * beside_batch, beside_batch, random.Random(repeat)
            )
            figure.ratios.append(actions / elapsed / (beside_actions / beside_elapsed))
            figure.cpu_ratios.append(actions / cpu / (beside_actions / beside_cpu))
    figure.actions = round(total / (repeats * batch))
    return figure


def _warm_up(play: Playout, seconds: float) -> float:
    """Plays untimed games on the warm-up's seeds for `seconds` (at least one game); returns seconds a game."""
    start, warm = time.perf_counter(), 0
    while warm == 0 or time.perf_counter() - start < seconds:
        play(WARM_SEEDS + warm, random.Random(WARM_SEEDS + warm))
        warm += 1
    return (time.perf_counter() - start) / warm


def _timed_batch(play: Playout, first_seed: int, games: int, rng: random.Random) -> tuple[int, float, float]:
    """Actions, wall-clock seconds and CPU seconds of `games` games from seed `first_seed` on."""
    gc.collect()
    begin, cpu_begin = time.perf_counter(), time.process_time()
    actions = sum(play(first_seed + i, rng) for i in range(games))
    return actions, time.perf_counter() - begin, time.process_time() - cpu_begin


VIEW_GAMES = 6  # seeded random games per game whose positions the view table times
VIEW_EVERY = 5  # a position every this many actions


def positions(name: str, players: int) -> list[State]:
    """Positions from seeded random games: every VIEW_EVERY actions, until each game ends."""
    found = []
    for seed in range(VIEW_GAMES):
        rng = random.Random(seed)
        state = spec(name).new(players, seed)
        done = 0
        while not state.is_over():
            for seat in state.to_move():
                state.apply_fast(rng.choice(state.legal_actions(seat)), seat)
                done += 1
                if done % VIEW_EVERY == 0:
                    found.append(state.clone())
    return found


def per_call(states: list[State], call: Callable[[State], object], repeats: int) -> list[float]:
    """Microseconds per call of `call` over `states`, once per repeat."""
    times = []
    for _ in range(repeats):
        gc.collect()
        begin = time.perf_counter()
        for state in states:
            call(state)
        times.append((time.perf_counter() - begin) / len(states) * 1e6)
    return times


def mover(state: State) -> int:
    return state.to_move()[0] if state.to_move() else 0


def view_table(cases: list[tuple[str, int]], repeats: int) -> None:
    calls: list[tuple[str, Callable[[State], object]]] = [
        ("view(seat)", lambda state: state.view(mover(state))),
        ("view(None)", lambda state: state.view(None)),
        ("clone()", lambda state: state.clone()),
    ]
    heads = "  ".join(f"{label + ' us':>24}" for label, _ in calls)
    print(f"{'game':<16}  pl  positions  log  {heads}  determinize us")
    for name, players in cases:
        states = positions(name, players)
        log = statistics.mean(len(state.log) for state in states)
        cells = [spread(per_call(states, call, repeats)) for _, call in calls]
        views = [state.view(mover(state)) for state in states]
        sampled = per_call(views, lambda view: view.determinize(random.Random(0)), max(1, repeats // 2))
        row = "  ".join(f"{cell:>24}" for cell in cells)
        print(f"{name:<16}  {players:>2}  {len(states):>9}  {log:>3.0f}  {row}  {statistics.median(sampled):>14,.0f}")


def spread(values: list[float] | None) -> str:
    if not values:
        return "-"
    return f"{statistics.median(values):>9,.0f} ({min(values):,.0f}-{max(values):,.0f})"


def idle_ticks() -> dict[int, int]:
    """Each core's idle time so far (idle and iowait, in clock ticks), from /proc/stat."""
    ticks = {}
    with open("/proc/stat") as stat:
        for line in stat:
            name, *fields = line.split()
            if name.startswith("cpu") and name != "cpu":
                ticks[int(name[3:])] = int(fields[3]) + int(fields[4])
    return ticks


def pin_to_one_core(look: float = 1.0) -> str:
    """Pin this process to the core that was idle longest over `look` seconds: another job pinned to the
    lowest-numbered core (as this script used to pin itself) would otherwise halve every figure of the run."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (os.sched_setaffinity unavailable)"
    allowed = sorted(os.sched_getaffinity(0))
    try:
        before = idle_ticks()
        time.sleep(look)
        after = idle_ticks()
        idle = {cpu: after.get(cpu, 0) - before.get(cpu, 0) for cpu in allowed}
        how = f"the idlest of CPUs {', '.join(map(str, allowed))} over {look:g} s"
    except (OSError, ValueError, IndexError):  # no /proc/stat, or one not laid out as Linux's
        idle, how = dict.fromkeys(allowed, 0), "the lowest-numbered CPU: /proc/stat unreadable"
    cpu = max(allowed, key=lambda core: (idle[core], -core))
    try:
        os.sched_setaffinity(0, {cpu})
    except OSError as err:
        return f"not pinned ({err})"
    return f"pinned to CPU {cpu} ({how}: {', '.join(f'{core} idle {idle[core]} ticks' for core in allowed)})"


def load_openspiel() -> tuple[object, object] | None:
    try:
        import open_spiel.python.games  # noqa: F401  (registers the pure-Python games)
        import pyspiel
    except ImportError:
        return None
    return pyspiel.load_game("python_tic_tac_toe"), pyspiel.load_game("dots_and_boxes", {"num_rows": 5, "num_cols": 5})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=40.0, help="total timing budget (default 40)")
    parser.add_argument("--games", type=int, help="games per batch (default: sized from --seconds)")
    parser.add_argument("--repeats", type=int, default=5, help="timed batches per figure (default 5)")
    parser.add_argument("--all-players", action="store_true", help="every player count, not just the default")
    parser.add_argument("--views-only", action="store_true", help="only the table of view and clone costs")
    parser.add_argument("--game", action="append", choices=games(), help="only this game (repeatable; default all)")
    parser.add_argument("--processes", type=int, default=1, help="fresh processes to measure in (default 1)")
    # A process run by --processes: the same run, and its ratios as a last line of JSON.
    parser.add_argument("--with-json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.processes < 1 or (args.processes > 1 and args.views_only):
        parser.error("--processes is 1 or more, and --views-only runs in one process")
    if args.processes > 1:
        across_processes(args)
        return

    pinning = pin_to_one_core()
    openspiel = load_openspiel()
    cases = []
    for name in args.game or games():
        game = spec(name)
        counts = range(game.min_players, game.max_players + 1) if args.all_players else [game.default_players]
        cases += [(name, players) for players in counts]
    # Each cliplab case is timed twice (fast, checked); each OpenSpiel game once.
    budget = args.seconds / (2 * len(cases) + (2 if openspiel else 0))

    print(f"cliplab engine benchmark, {datetime.datetime.now().isoformat(timespec='seconds')}")
    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}), {platform.platform()}, "
        f"{platform.machine()}, {pinning}"
    )
    versions = f"cliplab {metadata.version('cliplab')}"
    if openspiel:
        versions += f", open_spiel {metadata.version('open_spiel')}"
    print(f"{versions}; {args.repeats} batches per figure, median (min-max); random play, seeded\n")

    print("Views, clones and determinized samples, microseconds per call, median (min-max):")
    view_table(cases, args.repeats)
    print()
    if args.views_only:
        return

    tic_tac_toe = openspiel_playout(openspiel[0]) if openspiel else None
    results = []
    for name, players in cases:
        fast = measure(cliplab_playout(name, players, False), budget, args.repeats, args.games, tic_tac_toe)
        checked = measure(cliplab_playout(name, players, True), budget, args.repeats, args.games, tic_tac_toe)
        results.append(Result(name, str(players), fast, checked))
    if openspiel:
        for label, game in zip(
            ["OpenSpiel python_tic_tac_toe (pure Python)", "OpenSpiel dots_and_boxes 5x5 (C++)"], openspiel, strict=True
        ):
            results.append(Result(label, "2", measure(openspiel_playout(game), budget, args.repeats, args.games)))

    width = max(len(result.label) for result in results)
    print(f"{'game':<{width}}  pl  {'games/s':>26}  {'actions/s (fast)':>28}  act/game  {'actions/s (checked)':>28}")
    for r in results:
        checked_per_s = r.checked.actions_per_s if r.checked else None
        print(
            f"{r.label:<{width}}  {r.players:>2}  {spread(r.fast.games_per_s):>26}  "
            f"{spread(r.fast.actions_per_s):>28}  {r.fast.actions:>8}  {spread(checked_per_s):>28}"
        )

    print()
    if not openspiel:
        print('OpenSpiel is not installed, so there is no reference: pip install -e ".[bench]"')
        return
    reference = statistics.median(results[-2].fast.actions_per_s)
    print(f"Goal: every game's actions/s (fast) >= python_tic_tac_toe's ({reference:,.0f}/s in its own batches)")
    print("Ratios: each batch of a game against the batch of python_tic_tac_toe timed right after it, median over")
    print("the batches; by the wall clock, and [by CPU time], which other work on the machine disturbs less")
    print(f"(load over the last minute: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    ratios = {}  # by game and player count: fast, checked (wall clock), for --processes
    for r in results:
        if r.checked is not None:
            on_fast, on_checked = statistics.median(r.fast.ratios), statistics.median(r.checked.ratios)
            ratios[f"{r.label}  {r.players} players"] = [on_fast, on_checked]
            cpu_fast, cpu_checked = statistics.median(r.fast.cpu_ratios), statistics.median(r.checked.cpu_ratios)
            mark = "meets the goal" if on_fast >= 1 else "BELOW the goal"
            print(
                f"  {r.label:<{width}}  {r.players:>2} players  fast {on_fast:5.2f}x [{cpu_fast:5.2f}x]  "
                f"checked {on_checked:5.2f}x [{cpu_checked:5.2f}x]  {mark}"
            )
    if args.with_json:
        print(json.dumps({"pinning": pinning, "reference": reference, "ratios": ratios}))


def across_processes(args: argparse.Namespace) -> None:
    """Run the measurement in `args.processes` fresh processes, one after another (each pins itself), and
    print each game's ratios to tic-tac-toe as the median over the processes, with their range."""
    count = args.processes
    arguments = ["--seconds", str(args.seconds), "--repeats", str(args.repeats), "--with-json"]
    arguments += ["--games", str(args.games)] if args.games else []
    arguments += ["--all-players"] if args.all_players else []
    for name in args.game or []:
        arguments += ["--game", name]
    started = datetime.datetime.now().isoformat(timespec="seconds")
    print(f"cliplab engine benchmark in {count} fresh processes, {started}")
    print(f"Python {platform.python_version()}, {platform.platform()}, {os.cpu_count()} cores\n")
    runs = []
    for number in range(1, count + 1):
        done = subprocess.run([sys.executable, __file__, *arguments], capture_output=True, text=True, check=False)
        last = done.stdout.strip().splitlines()[-1:]
        if done.returncode != 0 or not last or not last[0].startswith("{"):
            print(f"process {number} gave no ratios (exit {done.returncode}):\n{(done.stdout + done.stderr)[-2000:]}")
            sys.exit(1)
        run = json.loads(last[0])
        runs.append(run)
        print(f"process {number}: tic-tac-toe {run['reference']:,.0f} actions/s; {run['pinning']}")
    print(f"\nRatios to python_tic_tac_toe by the wall clock: median over {count} processes (min-max)")
    for label in runs[0]["ratios"]:
        fast = [run["ratios"][label][0] for run in runs]
        checked = [run["ratios"][label][1] for run in runs]
        mark = "meets the goal" if statistics.median(fast) >= 1 else "BELOW the goal"
        print(
            f"  {label:<30}  fast {statistics.median(fast):5.2f}x ({min(fast):.2f}-{max(fast):.2f})  "
            f"checked {statistics.median(checked):5.2f}x ({min(checked):.2f}-{max(checked):.2f})  {mark}"
        )
    print(f"(load over the last minute: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    sys.exit(main())
