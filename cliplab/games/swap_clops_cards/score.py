"""Swap Clops card game scores for the kit: points from scored sets plus points earned by accepted offers,
and design metrics for the lab (how often each trait's sets were scored and what they paid)."""

from __future__ import annotations

from cliplab.engine import State

from .content import TRAIT_NAMES
from .rules import SwapClopsCards


def _game(state: State) -> SwapClopsCards:
    if not isinstance(state, SwapClopsCards):
        raise TypeError(f"Swap Clops card scores read a Swap Clops card game, not {type(state).__name__}")
    return state


def breakdown(state: State) -> dict[int, list[tuple[str, float]]]:
    """Each seat: the sets it scored (trait and size), then the points its accepted offers earned."""
    game = _game(state)
    lines: dict[int, list[tuple[str, float]]] = {}
    for seat in range(game.players):
        sets = ", ".join(f"{size} {trait}" for trait, size, _ in game.scored[seat]) or "none"
        lines[seat] = [
            (f"sets scored: {sets}", float(game.points[seat])),
            ("offered cards accepted (their offer values)", float(game.earned[seat])),
        ]
    return lines


def live_scores(state: State) -> list[float]:
    game = _game(state)
    return [float(game.score_of(seat)) for seat in range(game.players)]


def metrics(state: State) -> dict[str, float]:
    """Turns, run-outs, points from sets and from offers, and per trait the sets scored and their points."""
    game = _game(state)
    scored = [entry for seat_sets in game.scored for entry in seat_sets]
    found: dict[str, float] = {
        "rounds": -(-game.turn // game.players),  # turns of every seat, the last round counted whole
        "turns": game.turn,
        "set_points": sum(game.points),
        "offer_points": sum(game.earned),
        "sets_scored": len(scored),
        "sets_for_nothing": sum(1 for _, _, points in scored if points == 0),
    }
    for trait in TRAIT_NAMES:
        found[f"sets_{trait}"] = sum(1 for name, _, _ in scored if name == trait)
        found[f"points_{trait}"] = sum(points for name, _, points in scored if name == trait)
    return found
