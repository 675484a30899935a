"""Every declared bot of every registered game: legal in every kind of decision, and seeded.

"Seeded" means the choice depends only on the bot's seed and the view it is shown: two bots made with the
same seed choose the same action on the same view. The declared "random" bot is also checked to be
uniform over the legal actions.
"""

from __future__ import annotations

import math
from collections import Counter

import pytest
from contract_samples import decision_kind, decision_samples

from cliplab.engine import games
from cliplab.kit import RANDOM, declaration

SEED = 11
UNIFORM_DRAWS_PER_ACTION = 60
MOST_ACTIONS_TESTED = 40  # positions with more legal actions are left out of the uniformity check


def _bots() -> list[tuple[str, str]]:
    return [(game, bot) for game in games() for bot in declaration(game).bot_names()]


@pytest.mark.parametrize(("game", "bot"), _bots(), ids=[f"{game}-{bot}" for game, bot in _bots()])
def test_every_bot_chooses_a_legal_action_in_every_kind_of_decision_and_is_seeded(game: str, bot: str) -> None:
    kit = declaration(game)
    samples = decision_samples(game)
    assert samples, f"the sample games of {game} reached no decision"
    for state, seat in samples:
        kind = decision_kind(state, seat)
        first = kit.make_bot(bot, SEED).choose(state.view(seat), seat)
        again = kit.make_bot(bot, SEED).choose(state.view(seat), seat)
        assert first == again, f"{game} bot {bot!r}, {kind}: seed {SEED} chose {first} and then {again}"
        # The checked path: an IllegalAction names the rule the choice broke.
        state.clone().apply(first, seat)


def _chi_square_limit(degrees: int) -> float:
    """About the 99.9% point of chi-square with `degrees` degrees of freedom (Wilson-Hilferty)."""
    z = 3.09
    return degrees * (1 - 2 / (9 * degrees) + z * math.sqrt(2 / (9 * degrees))) ** 3


@pytest.mark.parametrize("game", games())
def test_the_random_bot_is_uniform_over_the_legal_actions(game: str) -> None:
    kit = declaration(game)
    tested = 0
    choices = [(state, seat) for state, seat in decision_samples(game) if len(state.legal_actions(seat)) >= 2]
    small = [(state, seat) for state, seat in choices if len(state.legal_actions(seat)) <= MOST_ACTIONS_TESTED]
    # A game whose every decision offers more (Swap Clops: hundreds of swaps) is checked at its smallest one.
    smallest = min(choices, key=lambda sample: len(sample[0].legal_actions(sample[1])), default=None)
    for state, seat in small or ([smallest] if smallest else []):
        legal = state.legal_actions(seat)
        view = state.view(seat)
        draws = UNIFORM_DRAWS_PER_ACTION * len(legal)
        counts = Counter(kit.make_bot(RANDOM, seed).choose(view, seat) for seed in range(draws))
        assert set(counts) <= set(legal), f"{game}: the random bot chose {set(counts) - set(legal)}"
        expected = draws / len(legal)
        statistic = sum((counts[action] - expected) ** 2 / expected for action in legal)
        kind = decision_kind(state, seat)
        assert statistic < _chi_square_limit(len(legal) - 1), f"{game}, {kind}: {dict(counts)} is not uniform"
        tested += 1
    assert tested, f"no sample position of {game} had two or more legal actions"
