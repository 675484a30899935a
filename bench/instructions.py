"""Instructions per action of cliplab's engines next to OpenSpiel's pure-Python tic-tac-toe, counted by callgrind.

On a shared machine the clock lies: other work takes the core. An instruction count does not depend on the
load, so this script repeats bench/engine.py's comparison (seeded uniformly random games, fast and checked
paths, OpenSpiel's python_tic_tac_toe as the peer) in CPU instructions instead of seconds.

Each case runs twice under `valgrind --tool=callgrind`: once playing games 0..n-1 and once games 0..2n-1.
The difference between the two counts is what games n..2n-1 cost, with start-up, imports and first-call
warm-up cancelled out; dividing by the actions those games took gives instructions per action. The ratio
column is tic-tac-toe's instructions per action over the game's: at or above 1.0 meets bench/engine.py's
goal (actions per second at or above the peer's), as far as instructions stand for time.

Count over several thousand actions (the default, 6000). A full collection of Python's garbage collector
walks every object the process holds (a game's caches of actions among them) and, for a game like Cutterland,
costs about as much as a few games; whether one falls among the counted games or not is the likeliest reason
why the same Cutterland code counted 274,646 instructions per action over 1500 actions and 188,497 over 6000.

Run:  .venv/bin/python bench/instructions.py [--actions 6000] [--game NAME ...] [--checked-only | --fast-only]
Needs valgrind (Debian package valgrind) and the bench extra (open_spiel).
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from engine import cliplab_playout  # bench/engine.py: the playout the callgrind runs count

from cliplab.engine import games, spec

# The program each callgrind run executes: bench/engine.py's own playouts over seeded games, printing the
# number of actions taken.
PLAYOUT = """
import random, sys
from engine import cliplab_playout, load_openspiel, openspiel_playout
from cliplab.engine import spec
name, path, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
if name == "tic_tac_toe":
    play = openspiel_playout(load_openspiel()[0])
else:
    play = cliplab_playout(name, spec(name).default_players, path == "checked")
print(sum(play(seed, random.Random(seed)) for seed in range(count)))
"""

COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


@dataclass
class Count:
    instructions: int
    actions: int


def run(name: str, path: str, games_played: int) -> Count:
    """Instructions and actions of one callgrind run playing games 0..games_played-1."""
    with tempfile.TemporaryDirectory() as scratch:
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={scratch}/out",
                sys.executable,
                "-c",
                PLAYOUT,
                name,
                path,
                str(games_played),
            ],
            cwd=Path(__file__).parent,
            capture_output=True,
            text=True,
            check=False,
        )
    found = COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise RuntimeError(f"callgrind run of {name} ({path}) failed:\n{done.stderr[-2000:]}")
    return Count(int(found.group(1)), int(done.stdout.split()[-1]))


def actions_per_game(name: str) -> float:
    """Average actions of a few seeded random games, played outside valgrind to size the runs."""
    if name == "tic_tac_toe":
        return 8.0
    play = cliplab_playout(name, spec(name).default_players, checked=False)
    return sum(play(seed, random.Random(seed)) for seed in range(3)) / 3


def per_action(name: str, path: str, target_actions: int) -> tuple[float, int]:
    """Marginal instructions per action, and the actions they were counted over."""
    n = max(1, round(target_actions / actions_per_game(name)))
    once, twice = run(name, path, n), run(name, path, 2 * n)
    actions = twice.actions - once.actions
    return (twice.instructions - once.instructions) / actions, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=6000, help="actions counted per figure (default 6000)")
    parser.add_argument("--game", action="append", choices=games(), help="only this game (repeatable)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--fast-only", action="store_true", help="only the fast path (apply_fast)")
    which.add_argument("--checked-only", action="store_true", help="only the checked path (apply)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed: apt-get install -y valgrind")

    paths = ["fast", "checked"]
    if args.fast_only:
        paths = ["fast"]
    if args.checked_only:
        paths = ["checked"]
    print(f"cliplab instruction counts (callgrind), {datetime.datetime.now().isoformat(timespec='seconds')}")
    print(f"load average {os.getloadavg()[0]:.1f} (instruction counts do not depend on it)\n")
    peer, peer_actions = per_action("tic_tac_toe", "fast", args.actions)
    print(f"OpenSpiel python_tic_tac_toe: {peer:,.0f} instructions per action (over {peer_actions} actions)\n")
    heads = "".join(f"  {path + ' instr/action':>22}  {'ratio':>6}" for path in paths)
    print(f"{'game':<18}{heads}")
    for name in args.game or games():
        cells = ""
        for path in paths:
            cost, _ = per_action(name, path, args.actions)
            cells += f"  {cost:>22,.0f}  {peer / cost:>5.2f}x"
        print(f"{name:<18}{cells}", flush=True)
    print("\nratio = tic-tac-toe's instructions per action / the game's; the goal is at or above 1.00x")


if __name__ == "__main__":
    main()
