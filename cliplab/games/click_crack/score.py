"""Click & Crack scores for the kit: points per seat, and design metrics for the lab.

A player's points are the tiles they broke off, less one for each penguin stranded by their break; the
state keeps only the total, so the breakdown is one line.
"""

from __future__ import annotations

from cliplab.engine import State

from .rules import SIZE, ClickCrack


def _game(state: State) -> ClickCrack:
    if not isinstance(state, ClickCrack):
        raise TypeError(f"Click & Crack scores a Click & Crack game, not {type(state).__name__}")
    return state


def breakdown(state: State) -> dict[int, list[tuple[str, float]]]:
    game = _game(state)
    return {
        seat: [("points: tiles broken off, less one per penguin stranded", float(points))]
        for seat, points in enumerate(game.scores)
    }


def live_scores(state: State) -> list[float]:
    return [float(points) for points in _game(state).scores]


def metrics(state: State) -> dict[str, float]:
    """How much of the floe broke off, how many cracks were made, penguins lost in all and per seat, rounds."""
    game = _game(state)
    found: dict[str, float] = {
        "tiles_broken_off": SIZE * SIZE - len(game.main),
        "cracks": len(game.cracks),
        "penguins_lost": sum(at is None for at in game.pos),
        "rounds": game.round,
    }
    each = len(game.pos) // game.players
    for seat in range(game.players):
        found[f"penguins_lost_{seat}"] = each - len(game.penguins_of(seat))
    return found
