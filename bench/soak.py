"""Does a long session leak? Plays many seeded random games of every registered game in one process and
prints the process's memory as it goes.

For each game (at its default player count) this plays --games games with uniformly random legal actions
on the fast path (`state.apply_fast`, as simulations do; --checked: `state.apply`, as a dashboard does),
keeping nothing of a finished game, and prints
the resident memory (VmRSS) after a warm-up of --warmup games, then every --every games and at the end, with
the growth between the first and the last reading. A leak shows as memory that keeps rising with the games
played; a one-time rise (caches filling, the allocator keeping freed pages) levels off.

Run:  .venv/bin/python bench/soak.py [--games 10000] [--game NAME ...] [--every 2500] [--warmup 200] [--checked]
"""

from __future__ import annotations

import argparse
import datetime
import gc
import os
import random
import time

from engine import cliplab_playout  # bench/engine.py: the same random playout it times

from cliplab.engine import games, spec


def resident_mb() -> float:
    """This process's resident memory now, in MB (VmRSS from /proc)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS line in /proc/self/status")


def soak(name: str, total: int, every: int, warmup: int, checked: bool) -> None:
    play = cliplab_playout(name, spec(name).default_players, checked)
    for seed in range(warmup):
        play(-1 - seed, random.Random(-1 - seed))
    gc.collect()
    readings = [(0, resident_mb())]
    began, actions = time.perf_counter(), 0
    for done in range(1, total + 1):
        actions += play(done, random.Random(done))
        if done % every == 0 or done == total:
            gc.collect()
            readings.append((done, resident_mb()))
    elapsed = time.perf_counter() - began
    path = "  ".join(f"{done:>6}: {mb:7.1f}" for done, mb in readings)
    growth = readings[-1][1] - readings[0][1]
    print(f"{name:<17}{total:>7}{actions / total:>9.0f}{elapsed:>9.0f}{growth:>+11.1f}   {path}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per game (default 10,000)")
    parser.add_argument("--every", type=int, default=2_500, help="games between memory readings")
    parser.add_argument("--warmup", type=int, default=200, help="games played before the first reading")
    parser.add_argument("--game", action="append", choices=games(), help="only this game (repeatable)")
    parser.add_argument("--checked", action="store_true", help="the checked path (state.apply) instead")
    args = parser.parse_args()
    print(f"cliplab soak, {datetime.datetime.now().isoformat(timespec='seconds')}, pid {os.getpid()}")
    path = "checked (apply)" if args.checked else "fast (apply_fast)"
    print(f"random games on the {path} path; memory is the process's VmRSS in MB after gc.collect()")
    print(f"{'game':<17}{'games':>7}{'act/game':>9}{'wall s':>9}{'growth MB':>11}   games played: MB")
    for name in args.game or games():
        soak(name, args.games, args.every, args.warmup, args.checked)
    print(f"whole process at the end: {resident_mb():.1f} MB")


if __name__ == "__main__":
    main()
