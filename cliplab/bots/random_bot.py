"""A bot that picks uniformly among the legal actions, and a loop that plays a game out with bots."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from cliplab.engine import Action, Outcome, State


class Bot(Protocol):
    def choose(self, view: State, player: int) -> Action:
        """An action for `player`, decided from that player's view of the game."""
        ...


class RandomBot:
    """Uniformly random legal play, seeded so that runs repeat."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: State, player: int) -> Action:
        return self.choose_from(view.legal_actions(player), player)

    def choose_from(self, actions: Sequence[Action], player: int) -> Action:
        """The choice `choose` makes from these legal actions; a simulation that has listed them already
        (a view lists the same legal actions as the game) saves building a view."""
        return actions[self.rng.randrange(len(actions))]


def play(state: State, bots: Sequence[Bot], checked: bool = False) -> Outcome:
    """Play `state` to its end, seat i asking bots[i] with its own view; returns the outcome.

    With several seats to move at once (secret choices), each decides from a view taken before any of
    them acts, so nobody sees another's choice. `checked` uses the checked path (for people-facing runs).
    """
    while True:
        outcome = state.outcome()
        if outcome is not None:
            return outcome
        movers = state.to_move()
        choices = [(seat, bots[seat].choose(state.view(seat), seat)) for seat in movers]
        for seat, action in choices:
            if checked:
                state.apply(action, seat)
            else:
                state.apply_fast(action, seat)
