"""Cutterland bots: how long each thinks per move, how they fare against each other, and how often each
scoring line scores.

Each line-up plays seeded 3-player games: the first bot named against two of the second, the first bot's
seat turning round the table from game to game. Every `choose` call is timed on the view of the seat to
move (wall clock and process CPU time); the tables give each bot's median and 90th percentile, each
line-up's win share of the first bot with a Wilson 95% interval (a fair share is 1/3), and, over every
player of every game, how often each scoring line scored (was not 0) and its mean points.

Run:  .venv/bin/python bench/cutterland.py [--games N] [--csv FILE]
(notebooks/teach/data/cutterland_ladder.csv is `--games 500 --csv` of this script, or as many as noted.)
"""

from __future__ import annotations

import argparse
import csv
import os

from ladder import MoveTimes, play_timed  # bench/ladder.py: the timed game loop

from cliplab.engine import spec
from cliplab.games.cutterland.rules import SCORE_LINES, Cutterland
from cliplab.kit import declaration
from cliplab.sim.metrics import wilson

PLAYERS = 3
LINEUPS = (("heuristic", "random"), ("search", "random"), ("search", "heuristic"))
COLUMNS = ["lineup", "game_seed", "seat", "bot", "score", "win_share"] + [f"line_{i}" for i in range(len(SCORE_LINES))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20, help="games per line-up")
    parser.add_argument("--csv", help="also write every seat's result and score lines to this file")
    args = parser.parse_args()
    games = args.games
    kit = declaration("cutterland")
    times = MoveTimes()
    scored = [0] * len(SCORE_LINES)
    points = [0] * len(SCORE_LINES)
    players_seen = 0
    # Rows go out game by game, so a run stopped early still leaves the games it played.
    with open(args.csv or os.devnull, "w", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=COLUMNS)
        writer.writeheader()
        print(f"{'line-up':<26}{'games':>6}{'first wins':>12}{'95% interval':>18}")
        for first, other in LINEUPS:
            wins = 0.0
            for seed in range(games):
                names = [other] * PLAYERS
                names[seed % PLAYERS] = first
                bots = [kit.make_bot(name, seed * 10 + seat) for seat, name in enumerate(names)]
                state = spec("cutterland").new(PLAYERS, seed)
                assert isinstance(state, Cutterland)
                outcome = play_timed(state, bots, names, times)
                if seed % PLAYERS in outcome.winners:
                    wins += 1 / len(outcome.winners)
                for seat, name in enumerate(names):
                    lines = state.score_lines(seat)
                    players_seen += 1
                    for index, value in enumerate(lines):
                        scored[index] += value != 0
                        points[index] += value
                    share = 1 / len(outcome.winners) if seat in outcome.winners else 0.0
                    row: dict[str, object] = {"lineup": f"{first} v {other}", "game_seed": seed, "seat": seat}
                    row.update(bot=name, score=outcome.scores[seat], win_share=share)
                    row.update({f"line_{index}": value for index, value in enumerate(lines)})
                    writer.writerow(row)
                stream.flush()
            low, high = wilson(wins, games)
            print(f"{first + ' v 2 ' + other:<26}{games:>6}{wins / games:>12.2f}{f'{low:.2f}-{high:.2f}':>18}")
    print()
    times.print()
    print()
    print(f"{'scoring line':<48}{'scored':>8}{'mean points':>13}")
    for index, words in enumerate(SCORE_LINES):
        print(f"{words:<48}{scored[index] / players_seen:>8.0%}{points[index] / players_seen:>13.1f}")
    if args.csv:
        print(f"\nevery seat's result in {args.csv}")


if __name__ == "__main__":
    main()
