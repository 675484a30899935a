"""Digest of seeded random games of one game: every log, outcome and legal list (content and order), on the
fast and the checked path, for every player count and every variant. Run before and after an engine change:
the two digests must be equal. Speed work changes how the rules are worked out, never what they decide;
this is how it shows that (the tests and the notebooks' stored outputs check fewer games).

Run:  .venv/bin/python bench/seeded_digest.py GAME [GAMES_PER_CASE]   (default 30 games per case)
"""

import hashlib
import random
import sys

from cliplab.engine import OptionError, spec


def digest(name: str, per_case: int) -> str:
    game = spec(name)
    total = hashlib.sha256()
    variants = [None, *game.variants]
    for players in range(game.min_players, game.max_players + 1):
        for variant in variants:
            for checked in (False, True):
                for seed in range(per_case):
                    try:
                        state = game.new(players, seed, variant)
                    except OptionError as err:  # a variant not open to this player count
                        total.update(f"no game: {err}".encode())
                        break
                    rng = random.Random(seed * 7 + 1)
                    while not state.is_over():
                        for seat in state.to_move():
                            legal = state.legal_actions(seat)
                            total.update(repr(legal).encode())
                            action = rng.choice(legal)
                            if checked:
                                state.apply(action, seat)
                            else:
                                state.apply_fast(action, seat)
                    total.update(repr(state.log).encode())
                    total.update(repr(state.outcome()).encode())
    return total.hexdigest()


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    name = sys.argv[1]
    per_case = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    print(name, per_case, digest(name, per_case))
