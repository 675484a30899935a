"""Paper World scores for the kit: each seat's score in lines, live scores, and design metrics for the lab.

A score is the stars on the stacks' top cards, plus objective tokens, plus 2 for the scissors, less one per
card in hand and in the discard pile; the tie-break (fewer discarded cards) is the outcome's, not a line.
"""

from __future__ import annotations

from cliplab.engine import State

from .rules import SCISSORS_BONUS, PaperWorld


def _game(state: State) -> PaperWorld:
    if not isinstance(state, PaperWorld):
        raise TypeError(f"Paper World scores a Paper World game, not {type(state).__name__}")
    return state


def breakdown(state: State) -> dict[int, list[tuple[str, float]]]:
    game = _game(state)
    lines = {}
    for seat in range(game.players):
        lines[seat] = [
            ("stars on the stacks' top cards", float(game.stars_showing(seat))),
            ("objective tokens", float(sum(game.claims[seat]))),
            (f"the scissors (+{SCISSORS_BONUS})", float(SCISSORS_BONUS if game.holds_scissors(seat) else 0)),
            ("cards in hand (-1 each)", -float(len(game.hands[seat]))),
            ("cards discarded (-1 each)", -float(len(game.discards[seat]))),
        ]
    return lines


def live_scores(state: State) -> list[float]:
    game = _game(state)
    return [float(game.score(seat)) for seat in range(game.players)]


def metrics(state: State) -> dict[str, float]:
    """Turns and rounds played, stacks built, objectives claimed, cards discarded, the scissors' moves."""
    game = _game(state)
    n = game.players
    return {
        "turns": game.turns,
        "rounds": game.turns / n,
        "stacks_per_player": sum(len(land) for land in game.lands) / n,
        "objective_claims": sum(1 for claims in game.claims for token in claims if token),
        "discarded_per_player": sum(len(row) for row in game.discards) / n,
        "cards_left_in_hand_per_player": sum(len(hand) for hand in game.hands) / n,
        "scissors_held_at_end": float(game.scissors is not None),
    }
