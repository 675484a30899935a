"""A ladder for the Click & Crack bots: search > heuristic > random, with confidence intervals.

Three 3-player line-ups, each played over every distinct seating (rotations, and for the mixed table all
orders) equally often, so that each bot sits in each seat as often as any other:

- "H+R+R": the heuristic bot against two random bots;
- "S+H+H": the search bot against two heuristic bots;
- "S+H+R": one of each.

Game g of a line-up uses game seed g; the bot in seat s gets seed 10 * g + s. With the default rules no
chance is involved, so the bots' seeds are what varies between games. Every game adds one row per seat to
the CSV (columns lineup, game_seed, seat, bot, score, rank, win_share; a shared win gives each of the k
winners 1/k). The summary gives each bot's mean win share per line-up with a 95% bootstrap interval,
resampling whole games (so the two copies of a bot at one table, whose shares are tied together, and
fractional shared wins are handled), and the bootstrap interval of the difference that the ladder claims
(e.g. search minus heuristic, per seat). A difference whose interval excludes 0 is significant at 5%.

The search bot plays with a shorter budget than its default (--iterations, default 30 iterations per
decision) so that the ladder runs in about 25 minutes of one core (1510 s CPU in the recorded run).

Run:  .venv/bin/python bench/click_crack_ladder.py [--games N] [--iterations I] [--lineups S+H+H,...]
      [--out notebooks/teach/data/click_crack_ladder.csv] [--summary-only]
"""

from __future__ import annotations

import argparse
import csv
import itertools
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from cliplab.bots import play
from cliplab.bots.random_bot import Bot
from cliplab.engine import new_game
from cliplab.kit import declaration

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "notebooks" / "teach" / "data" / "click_crack_ladder.csv"
LADDER_ITERATIONS = 30
LINEUPS = {"H+R+R": "HRR", "S+H+H": "SHH", "S+H+R": "SHR"}
NAMES = {"S": "search", "H": "heuristic", "R": "random"}
# The claims: (line-up, better bot, worse bot).
CLAIMS = [
    ("H+R+R", "heuristic", "random"),
    ("S+H+H", "search", "heuristic"),
    ("S+H+R", "search", "heuristic"),
    ("S+H+R", "heuristic", "random"),
]
FIELDS = ["lineup", "game_seed", "seat", "bot", "score", "rank", "win_share"]
RESAMPLES = 2000


def makers(iterations: int) -> dict[str, Callable[[int], Bot]]:
    """The game's declared bots by letter; the search bot with the ladder's budget."""
    kit = declaration("click_crack")
    search: Callable[..., Bot] = kit.bot_factory("search")
    return {
        "S": lambda seed: search(seed, iterations=iterations),
        "H": kit.bot_factory("heuristic"),
        "R": kit.bot_factory("random"),
    }


def seatings(members: str) -> list[str]:
    """The distinct orders of a line-up's bots around the table, in a fixed order."""
    return sorted(set("".join(order) for order in itertools.permutations(members)))


def play_lineup(
    lineup: str, games: int, iterations: int, writer: csv.DictWriter[str], progress: int
) -> list[dict[str, object]]:
    make = makers(iterations)
    orders = seatings(LINEUPS[lineup])
    rows: list[dict[str, object]] = []
    start = time.perf_counter()
    for seed in range(games):
        order = orders[seed % len(orders)]
        game = new_game("click_crack", players=3, seed=seed)
        outcome = play(game, [make[letter](10 * seed + seat) for seat, letter in enumerate(order)])
        for seat, letter in enumerate(order):
            share = 1 / len(outcome.winners) if seat in outcome.winners else 0.0
            row = {
                "lineup": lineup,
                "game_seed": seed,
                "seat": seat,
                "bot": NAMES[letter],
                "score": outcome.scores[seat],
                "rank": outcome.ranks[seat],
                "win_share": round(share, 6),
            }
            writer.writerow(row)
            rows.append(row)
        if progress and (seed + 1) % progress == 0:
            print(f"  {lineup}: {seed + 1}/{games} games, {time.perf_counter() - start:.0f} s", flush=True)
    return rows


def per_game(rows: list[dict[str, object]]) -> list[dict[str, tuple[float, int]]]:
    """For each game, each bot's (total win share, seats it held)."""
    games: dict[object, dict[str, tuple[float, int]]] = {}
    for row in rows:
        table = games.setdefault(row["game_seed"], {})
        bot = str(row["bot"])
        total, seats = table.get(bot, (0.0, 0))
        table[bot] = (total + float(str(row["win_share"])), seats + 1)
    return list(games.values())


def rate(games: list[dict[str, tuple[float, int]]], bot: str) -> float:
    total = sum(table[bot][0] for table in games if bot in table)
    seats = sum(table[bot][1] for table in games if bot in table)
    return total / seats


Tables = list[dict[str, tuple[float, int]]]


def bootstrap(games: Tables, statistic: Callable[[Tables], float], rng: random.Random) -> tuple[float, float]:
    """The 95% percentile interval of `statistic` over resamples of whole games."""
    values = sorted(statistic([games[rng.randrange(len(games))] for _ in games]) for _ in range(RESAMPLES))
    return values[int(0.025 * RESAMPLES)], values[int(0.975 * RESAMPLES) - 1]


def summarize(rows: list[dict[str, object]]) -> None:
    rng = random.Random(2024)
    print(f"{'line-up':<8} {'bot':<10} {'seats':>6} {'win share':>9}  95% CI (bootstrap over games)  mean score")
    by_lineup: dict[str, list[dict[str, object]]] = {}
    for row in rows:
        by_lineup.setdefault(str(row["lineup"]), []).append(row)
    for lineup, lineup_rows in by_lineup.items():
        games = per_game(lineup_rows)
        for bot in ("search", "heuristic", "random"):
            seats = [row for row in lineup_rows if row["bot"] == bot]
            if not seats:
                continue
            low, high = bootstrap(games, lambda sample, bot=bot: rate(sample, bot), rng)  # type: ignore[misc]
            score = statistics.mean(float(str(row["score"])) for row in seats)
            print(
                f"{lineup:<8} {bot:<10} {len(seats):>6} {rate(games, bot):>9.3f}  [{low:.3f}, {high:.3f}]"
                f"{'':>21}{score:>6.2f}"
            )
    print()
    print("claims: difference of win share per seat, 95% bootstrap CI; significant if it excludes 0")
    for lineup, better, worse in CLAIMS:
        if lineup not in by_lineup:
            continue
        games = per_game(by_lineup[lineup])

        def gap(sample: list[dict[str, tuple[float, int]]], better: str = better, worse: str = worse) -> float:
            return rate(sample, better) - rate(sample, worse)

        low, high = bootstrap(games, gap, rng)
        verdict = "significant" if low > 0 else "NOT significant"
        print(f"  {lineup:<6} {better} - {worse}: {gap(games):+.3f} [{low:+.3f}, {high:+.3f}] {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=504, help="games per line-up (504: every seating equally)")
    parser.add_argument("--iterations", type=int, default=LADDER_ITERATIONS, help="search iterations per decision")
    parser.add_argument("--lineups", default=",".join(LINEUPS), help="comma-separated line-ups to play")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="CSV of per-game results")
    parser.add_argument("--summary-only", action="store_true", help="summarize an existing CSV without playing")
    parser.add_argument("--progress", type=int, default=50, help="print progress every this many games (0: never)")
    args = parser.parse_args()
    if args.summary_only:
        with args.out.open(newline="") as handle:
            summarize(list(csv.DictReader(handle)))
        return
    args.out.parent.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, object]] = []
    with args.out.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, FIELDS)
        writer.writeheader()
        for lineup in args.lineups.split(","):
            wall, cpu = time.perf_counter(), time.process_time()
            rows += play_lineup(lineup, args.games, args.iterations, writer, args.progress)
            handle.flush()
            print(
                f"{lineup}: {args.games} games in {time.perf_counter() - wall:.0f} s "
                f"({time.process_time() - cpu:.0f} s CPU)",
                flush=True,
            )
    print(f"search budget: {args.iterations} iterations per decision; results in {args.out}")
    print()
    summarize(rows)


if __name__ == "__main__":
    main()
