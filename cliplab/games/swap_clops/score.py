"""Swap Clops scores for the kit: collected tiles plus like bonuses, and design metrics for the lab."""

from __future__ import annotations

from cliplab.engine import State

from .rules import LIKE_BONUS, SPACES, SwapClops


def _game(state: State) -> SwapClops:
    if not isinstance(state, SwapClops):
        raise TypeError(f"Swap Clops scores a Swap Clops game, not {type(state).__name__}")
    return state


def breakdown(state: State) -> dict[int, list[tuple[str, float]]]:
    """Each seat: its collected tiles (1 each), then the likes it has the most of (+5 each)."""
    game = _game(state)
    lines: dict[int, list[tuple[str, float]]] = {}
    for seat, (tiles, won) in enumerate(zip(game.collected, game.likes_won(), strict=True)):
        likes = ", ".join(won) if won else "none"
        lines[seat] = [
            ("clops collected (+1 each)", float(len(tiles))),
            (f"most of a like (+{LIKE_BONUS} each): {likes}", float(LIKE_BONUS * len(won))),
        ]
    return lines


def live_scores(state: State) -> list[float]:
    return [float(points) for points in _game(state).scores()]


def metrics(state: State) -> dict[str, float]:
    """Rounds played, tiles collected in all, the largest single collection, likes won, spaces left empty."""
    game = _game(state)
    return {
        "rounds": game.round,
        "tiles_collected": sum(len(tiles) for tiles in game.collected),
        "like_bonuses": sum(len(won) for won in game.likes_won()),
        "empty_spaces": SPACES - sum(1 for number in game.board if number),
        "score_spread": max(game.scores()) - min(game.scores()),
    }
