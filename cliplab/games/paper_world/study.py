"""How often each objective pattern is reached, and by when, in seeded bot games (for tuning the patterns).

Only three objectives are in play in a game, so a game tells little about the other seventeen. Here every
pattern is checked on every landscape at the end of each of its owner's turns, as if all twenty were in
play with tokens to spare: a pattern is "reached" by a player in the round their landscape first meets it.
The bots play the real game (with its three objectives), so their choices are the ordinary ones.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from cliplab.bots.random_bot import Bot
from cliplab.kit import declaration

from .content import deck, objectives
from .rules import PaperWorld


@dataclass(frozen=True)
class Reach:
    objective: int
    players: int  # player landscapes observed
    reached: int  # of them, how many met the pattern at some end of turn
    rounds: tuple[int, ...]  # the round (1 = each seat's first turn) each reaching player first met it

    @property
    def share(self) -> float:
        return self.reached / self.players if self.players else 0.0

    @property
    def median_round(self) -> float | None:
        return statistics.median(self.rounds) if self.rounds else None


def first_rounds(game: PaperWorld, bots: Sequence[Bot]) -> Iterator[dict[int, int]]:
    """Play `game` to its end with `bots`; yield per seat {objective: first round met} at the end."""
    n = game.players
    first: list[dict[int, int]] = [{} for _ in range(n)]
    goals = objectives()
    stars = deck().stars
    while not game.is_over():
        seat = game.to_move()[0]
        action = bots[seat].choose(game.view(seat), seat)
        turns = game.turns
        game.apply(action, seat)
        if game.turns > turns:  # the seat's turn ended: check its landscape as it now stands
            tops = game.landscape(seat)
            for goal in goals:
                if goal.number not in first[seat] and goal.met(tops, stars):
                    first[seat][goal.number] = turns // n + 1
    yield from first


def reach(games: int, players: int = 3, bot: str = "heuristic", seed: int = 0) -> list[Reach]:
    """Each objective's reach over `games` seeded games of `players` seats all played by `bot`."""
    kit = declaration("paper_world")
    met: dict[int, list[int]] = {goal.number: [] for goal in objectives()}
    seen = 0
    for number in range(games):
        game = kit.spec.new(players, seed + number)
        assert isinstance(game, PaperWorld)
        bots = [kit.make_bot(bot, 1000 * (seed + number) + s) for s in range(players)]
        for firsts in first_rounds(game, bots):
            seen += 1
            for goal, round_met in firsts.items():
                met[goal].append(round_met)
    return [Reach(goal, seen, len(rounds), tuple(sorted(rounds))) for goal, rounds in met.items()]


def table(found: list[Reach]) -> str:
    """The reach figures as a plain text table, one objective a line."""
    lines = [f"{'objective':<36} {'reached':>8} {'median round':>13}"]
    for entry in found:
        median = "-" if entry.median_round is None else f"{entry.median_round:g}"
        lines.append(f"{objectives()[entry.objective].name:<36} {entry.share:>8.0%} {median:>13}")
    return "\n".join(lines)
