"""How long every bot of every registered game thinks per move: one table, median and 95th percentile.

For each game and each of its declared bots (`cliplab.kit.declaration(game).bot_names()`), seeded games
at the game's default player count are played with that bot, at its default settings, in every seat.
Every decision with a real choice (more than one legal action) is timed on the deciding seat's view, by
the wall clock and by the process's CPU time; forced moves are left out. The goal of issue 20: a search
bot decides within 1 s per move by default; the last column says whether the slowest timed move did,
by CPU time (the wall clock also counts the time this process waits for a core on a busy machine, so the
load is printed).

Run:  .venv/bin/python bench/bots.py [--games N] [--search-games M] [--game NAME]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from cliplab.bots.random_bot import Bot
from cliplab.engine import Action, State, games, new_game
from cliplab.kit import declaration

BUDGET_MS = 1000.0


class Timed:
    """A bot whose decisions with a choice are timed: (wall ms, CPU ms) appended to `times`."""

    def __init__(self, bot: Bot, times: list[tuple[float, float]]) -> None:
        self.bot = bot
        self.times = times

    def choose(self, view: State, player: int) -> Action:
        forced = len(view.legal_actions(player)) < 2
        wall, cpu = time.perf_counter(), time.process_time()
        action = self.bot.choose(view, player)
        if not forced:
            self.times.append((1000 * (time.perf_counter() - wall), 1000 * (time.process_time() - cpu)))
        return action


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def time_bot(game: str, bot_name: str, games_played: int) -> list[tuple[float, float]]:
    """Plays seeded games with `bot_name` in every seat; the timed decisions of all seats."""
    kit = declaration(game)
    times: list[tuple[float, float]] = []
    for seed in range(games_played):
        state = new_game(game, seed=seed)
        bots = [Timed(kit.make_bot(bot_name, 100 * seed + seat), times) for seat in range(state.players)]
        while state.outcome() is None:
            # Seats that decide at once all choose on the same position before any action is carried out.
            choices = [(seat, bots[seat].choose(state.view(seat), seat)) for seat in state.to_move()]
            for seat, action in choices:
                state.apply_fast(action, seat)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=6, help="games per bot that is not a search bot")
    parser.add_argument("--search-games", type=int, default=2, help="games per search bot")
    parser.add_argument("--game", choices=games(), help="only this game")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(
        f"{'game':<17}{'bot':<11}{'games':>6}{'moves':>7}{'median ms':>11}{'p95 ms':>9}"
        f"{'median CPU':>12}{'p95 CPU':>9}{'max CPU':>9}  within 1 s"
    )
    for game in [args.game] if args.game else games():
        for bot_name in declaration(game).bot_names():
            played = args.search_games if bot_name == "search" else args.games
            times = time_bot(game, bot_name, played)
            if not times:
                print(f"{game:<17}{bot_name:<11}{played:>6}{0:>7}  (no decision with a choice)")
                continue
            walls = [wall for wall, _ in times]
            cpus = [cpu for _, cpu in times]
            verdict = "yes" if max(cpus) <= BUDGET_MS else "NO"
            print(
                f"{game:<17}{bot_name:<11}{played:>6}{len(times):>7}{statistics.median(walls):>11.1f}"
                f"{percentile(walls, 0.95):>9.1f}{statistics.median(cpus):>12.1f}{percentile(cpus, 0.95):>9.1f}"
                f"{max(cpus):>9.1f}  {verdict}",
                flush=True,
            )
    print(f"load average after: {os.getloadavg()[0]:.1f} (CPU time is what a move costs whatever else runs)")


if __name__ == "__main__":
    main()
