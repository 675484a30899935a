"""Cutterland scores for the kit: each seat's score in its scoring lines, the score now, design metrics."""

from __future__ import annotations

from cliplab.engine import State

from .rules import SCORE_LINES, Cutterland

METRIC_NAMES = ("kraken_catches", "goblins", "centaurs", "dragon_pairs", "turtles", "frogs", "tokens_kept")


def _game(state: State) -> Cutterland:
    if not isinstance(state, Cutterland):
        raise TypeError(f"Cutterland scores a Cutterland game, not {type(state).__name__}")
    return state


def breakdown(state: State) -> dict[int, list[tuple[str, int]]]:
    """Each seat's score line by line (before the hunt: as the hunt would go now); the lines add up."""
    game = _game(state)
    return {
        seat: [(words, points) for words, points in zip(SCORE_LINES, game.score_lines(seat), strict=True)]
        for seat in range(game.players)
    }


def live_scores(state: State) -> list[int]:
    game = _game(state)
    return [sum(game.score_lines(seat)) for seat in range(game.players)]


def metrics(state: State) -> dict[str, float]:
    """Per player (the mean over seats): the points of each scoring line, the share of players for whom
    that line scored anything (`<line>_scored`), the kingdom's cells and its regions."""
    game = _game(state)
    seats = range(game.players)
    lines = [game.score_lines(seat) for seat in seats]
    found: dict[str, float] = {}
    for index, name in enumerate(METRIC_NAMES):
        found[name] = sum(line[index] for line in lines) / game.players
        found[f"{name}_scored"] = sum(line[index] != 0 for line in lines) / game.players
    found["kingdom_cells"] = sum(len(game.kingdoms[seat]) for seat in seats) / game.players
    found["regions"] = sum(len(game.kingdom(seat).regions()) for seat in seats) / game.players
    return found
