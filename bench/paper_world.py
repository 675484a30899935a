"""Paper World bots: how long each thinks per move, and how they fare against each other.

Each line-up seats its first bot once and fills the other seats with its second bot, in seeded games of
`--players` seats; the first bot's seat turns round the table game by game. Every `choose` call is timed on
the view of the seat to move, by the wall clock and by the process's CPU time; the table gives the wall
median and 90th percentile and the CPU median per bot, and each line-up's win share of the first bot (a
shared win counts its share) with a Wilson 95% interval. With 3 seats an even bot wins a third.

Run:  .venv/bin/python bench/paper_world.py [--games N] [--players P] [--lineups a-b,c-d] [--csv FILE]
"""

from __future__ import annotations

import argparse
import csv
import statistics

from ladder import MoveTimes, play_timed  # bench/ladder.py: the timed game loop

from cliplab.engine import spec
from cliplab.kit import declaration
from cliplab.sim.metrics import wilson

LINEUPS = (("heuristic", "random"), ("search", "random"), ("search", "heuristic"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=30, help="games per line-up")
    parser.add_argument("--players", type=int, default=3, help="seats per game")
    parser.add_argument("--lineups", help="line-ups as first-second pairs, comma-separated (default: all three)")
    parser.add_argument("--csv", help="also write every seat's result to this file")
    args = parser.parse_args()
    games, players = args.games, args.players
    lineups = [tuple(pair.split("-")) for pair in args.lineups.split(",")] if args.lineups else LINEUPS
    fields = ["lineup", "game_seed", "seat", "bot", "score", "win_share"]
    # Rows are written game by game, so a long ladder that is stopped early still leaves its games on disk.
    stream = open(args.csv, "w", newline="") if args.csv else None  # noqa: SIM115 (closed at the end)
    writer = csv.DictWriter(stream, fieldnames=fields) if stream else None
    if writer:
        writer.writeheader()
    kit = declaration("paper_world")
    times = MoveTimes()
    print(f"{'line-up':<22}{'games':>6}{'first wins':>12}{'95% interval':>18}{'first score':>13}{'others':>8}")
    for first, second in lineups:
        wins = 0.0
        mine_scores, other_scores = [], []
        for seed in range(games):
            names = [second] * players
            names[seed % players] = first
            bots = [kit.make_bot(name, seed * 10 + seat) for seat, name in enumerate(names)]
            state = spec("paper_world").new(players, seed)
            outcome = play_timed(state, bots, names, times)
            mine = seed % players
            if mine in outcome.winners:
                wins += 1 / len(outcome.winners)
            mine_scores.append(outcome.scores[mine])
            other_scores += [outcome.scores[s] for s in range(players) if s != mine]
            if writer and stream:
                for seat, name in enumerate(names):
                    share = 1 / len(outcome.winners) if seat in outcome.winners else 0.0
                    writer.writerow({"lineup": f"{first} v {second}", "game_seed": seed, "seat": seat, "bot": name,
                                     "score": outcome.scores[seat], "win_share": share})  # fmt: skip
                stream.flush()
        low, high = wilson(wins, games)
        print(
            f"{first + ' v ' + second:<22}{games:>6}{wins / games:>12.2f}{f'{low:.2f}-{high:.2f}':>18}"
            f"{statistics.mean(mine_scores):>13.1f}{statistics.mean(other_scores):>8.1f}"
        )
    print()
    times.print()
    if stream:
        stream.close()
        print(f"\nevery seat's result in {args.csv}")


if __name__ == "__main__":
    main()
