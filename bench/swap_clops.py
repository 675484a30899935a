"""Swap Clops bots: how long each thinks per move, and how they fare against each other.

Each line-up plays seeded 2-player games (seat order swapped every other game). Every `choose` call is
timed on the view of the seat to move, by the wall clock and by the process's CPU time; the table gives the
wall median and 90th percentile and the CPU median per bot, and each line-up's win share of the first bot
with a Wilson 95% interval.

Run:  .venv/bin/python bench/swap_clops.py [--games N] [--csv FILE]
(notebooks/teach/data/swap_clops_ladder.csv is `--games 500 --csv` of this script.)
"""

from __future__ import annotations

import argparse
import csv

from ladder import MoveTimes, play_timed  # bench/ladder.py: the timed game loop

from cliplab.engine import spec
from cliplab.kit import declaration
from cliplab.sim.metrics import wilson

LINEUPS = (("heuristic", "random"), ("search", "random"), ("search", "heuristic"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="games per line-up")
    parser.add_argument("--csv", help="also write every seat's result to this file (the teaching notebook's ladder)")
    args = parser.parse_args()
    games = args.games
    rows: list[dict[str, object]] = []
    kit = declaration("swap_clops")
    times = MoveTimes()
    print(f"{'line-up':<22}{'games':>6}{'first wins':>12}{'95% interval':>18}")
    for first, second in LINEUPS:
        wins = 0.0
        for seed in range(games):
            names = (first, second) if seed % 2 == 0 else (second, first)
            bots = [kit.make_bot(name, seed * 10 + seat) for seat, name in enumerate(names)]
            state = spec("swap_clops").new(2, seed)
            outcome = play_timed(state, bots, names, times)
            mine = names.index(first)
            if mine in outcome.winners:
                wins += 1 / len(outcome.winners)
            for seat, name in enumerate(names):
                share = 1 / len(outcome.winners) if seat in outcome.winners else 0.0
                rows.append({"lineup": f"{first} v {second}", "game_seed": seed, "seat": seat, "bot": name,
                             "score": outcome.scores[seat], "win_share": share})  # fmt: skip
        low, high = wilson(wins, games)
        print(f"{first + ' v ' + second:<22}{games:>6}{wins / games:>12.2f}{f'{low:.2f}-{high:.2f}':>18}")
    print()
    times.print()
    if args.csv:
        with open(args.csv, "w", newline="") as stream:
            writer = csv.DictWriter(stream, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
        print(f"\nevery seat's result in {args.csv}")


if __name__ == "__main__":
    main()
