"""Click & Crack numbers for simulations (the hooks `cliplab.sim` looks for in a game package).

`stats` describes a finished game: how much of the floe broke off, how many cracks were made and how many
penguins each seat lost. `live_scores` gives the points during play; `TIMEOUTS` names the way a game ends
when the round limit stops it rather than a player's win.
"""

from __future__ import annotations

from collections.abc import Sequence

from cliplab.engine import State

from .rules import ROUND_LIMIT, SIZE, ClickCrack

TIMEOUTS = frozenset({ROUND_LIMIT})


def stats(state: State) -> dict[str, float]:
    assert isinstance(state, ClickCrack)
    found: dict[str, float] = {
        "tiles_broken_off": SIZE * SIZE - len(state.main),
        "cracks": len(state.cracks),
        "penguins_lost": sum(at is None for at in state.pos),
    }
    for seat in range(state.players):
        found[f"penguins_lost_{seat}"] = 2 - len(state.penguins_of(seat))
    return found


def live_scores(state: State) -> Sequence[float]:
    assert isinstance(state, ClickCrack)
    return state.scores
