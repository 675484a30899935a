"""How each trait fares in play: the figures the deck was tuned by (docs/swap_clops_cards.md).

`trait_table` plays seeded games with the heuristic bot in every seat and reports, per trait, how often a
set of it was scored (per game) and what such a set paid on average. A trait dominates when its sets are
scored far more often, or pay far more, than the others of its kind.
"""

from __future__ import annotations

from collections.abc import Sequence

from cliplab.bots import play
from cliplab.engine import spec

from .bots import HeuristicBot
from .content import TRAIT_NAMES
from .rules import SwapClopsCards


def trait_table(
    deck: str, games: int, players: Sequence[int] = (2, 3, 4), seed: int = 0
) -> dict[str, tuple[float, float]]:
    """Per trait: (sets of it scored per game, average points of such a set), over `games` games for each
    player count, every seat played by the heuristic bot."""
    counts = dict.fromkeys(TRAIT_NAMES, 0)
    points = dict.fromkeys(TRAIT_NAMES, 0)
    played = 0
    rules = spec("swap_clops_cards")
    for count in players:
        for number in range(games):
            game = rules.new(count, seed + number, deck=deck)
            assert isinstance(game, SwapClopsCards)
            play(game, [HeuristicBot(1000 * number + seat) for seat in range(count)])
            played += 1
            for trait, _, paid in (entry for seat_sets in game.scored for entry in seat_sets):
                if trait:
                    counts[trait] += 1
                    points[trait] += paid
    return {name: (counts[name] / played, points[name] / counts[name] if counts[name] else 0.0) for name in TRAIT_NAMES}


def table_text(table: dict[str, tuple[float, float]]) -> str:
    """The table as Markdown rows: trait, sets scored per game, average points of a scored set."""
    lines = ["| trait | sets scored per game | average points |", "| --- | ---: | ---: |"]
    lines += [f"| {name} | {per_game:.2f} | {average:.2f} |" for name, (per_game, average) in table.items()]
    return "\n".join(lines)
