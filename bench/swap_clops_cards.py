"""Swap Clops card game bots: how long each thinks per move, and how they fare against each other.

Each line-up plays seeded 3-player games: one seat of the first bot against two of the second, the first
bot's seat moving round the table from game to game. Every `choose` call is timed on the view of the seat
deciding, by the wall clock and by the process's CPU time; the table gives the wall median and 90th
percentile and the CPU median per bot, and each line-up's win share of the lone bot with a Wilson 95%
interval (a bot no better than the others wins a third).

Run:  .venv/bin/python bench/swap_clops_cards.py [--games N] [--lineups heuristic-random,...] [--csv FILE]
"""

from __future__ import annotations

import argparse
import contextlib
import csv

from ladder import MoveTimes, play_timed  # bench/ladder.py: the timed game loop

from cliplab.engine import spec
from cliplab.kit import declaration
from cliplab.sim.metrics import wilson

LINEUPS = ("heuristic-random", "search-random", "search-heuristic")
PLAYERS = 3
CSV_FIELDS = ("lineup", "game_seed", "seat", "bot", "lone", "score", "win_share")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=30, help="games per line-up")
    parser.add_argument("--first-seed", type=int, default=0, help="seed of the first game (to go on from a run)")
    parser.add_argument("--lineups", default=",".join(LINEUPS), help="comma-separated first-second bot pairs")
    parser.add_argument("--csv", help="also write every seat's result to this file")
    parser.add_argument("--progress", type=int, default=0, help="print the figures so far every N games")
    args = parser.parse_args()
    games = args.games
    kit = declaration("swap_clops_cards")
    times = MoveTimes()
    with contextlib.ExitStack() as files:
        # Rows go out game by game so that a long ladder cut short still leaves its games on disk.
        stream = files.enter_context(open(args.csv, "w", newline="")) if args.csv else None
        writer = csv.DictWriter(stream, fieldnames=CSV_FIELDS) if stream else None
        if writer:
            writer.writeheader()
        print(f"{'line-up':<22}{'games':>6}{'lone bot wins':>15}{'95% interval':>16}")
        for lineup in args.lineups.split(","):
            first, second = lineup.split("-")
            wins = 0.0
            for played, seed in enumerate(range(args.first_seed, args.first_seed + games), 1):
                lone = seed % PLAYERS
                names = [first if seat == lone else second for seat in range(PLAYERS)]
                bots = [kit.make_bot(name, seed * 10 + seat) for seat, name in enumerate(names)]
                state = spec("swap_clops_cards").new(PLAYERS, seed)
                outcome = play_timed(state, bots, names, times)  # offers: every offerer decides at once
                if lone in outcome.winners:
                    wins += 1 / len(outcome.winners)
                if stream and writer:
                    for seat, name in enumerate(names):
                        share = 1 / len(outcome.winners) if seat in outcome.winners else 0.0
                        values = (f"{first} v {second}", seed, seat, name, seat == lone, outcome.scores[seat], share)
                        writer.writerow(dict(zip(CSV_FIELDS, values, strict=True)))
                    stream.flush()
                if args.progress and played % args.progress == 0 and played < games:
                    low, high = wilson(wins, played)
                    print(f"  after {played} games: {wins / played:.2f} ({low:.2f}-{high:.2f})")
                    times.print(indent="  ", digits=2)
            low, high = wilson(wins, games)
            line = f"{first + ' v 2 ' + second:<22}{games:>6}{wins / games:>15.2f}{f'{low:.2f}-{high:.2f}':>16}"
            print(line, flush=True)
    print()
    times.print(digits=2)
    if args.csv:
        print(f"\nevery seat's result in {args.csv}")


if __name__ == "__main__":
    main()
