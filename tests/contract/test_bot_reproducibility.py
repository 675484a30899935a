"""Every bot's choice depends only on its seed, its view and its arguments, never on the process's history.

Each declared bot of every registered game decides on the same sample positions three times: in two fresh
interpreters with different string-hash seeds (the order of sets and dicts of strings changes with it), and
here, after this process has already played other games with every bot (warm caches, a used global random
generator). The three sets of choices must be equal.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from contract_samples import bot_choices

from cliplab.engine import games
from cliplab.kit import declaration

CONTRACT = Path(__file__).resolve().parent
PER_GAME = 4  # sample positions each bot decides on
BOT_SEED = 11


def _fresh(hash_seed: str) -> dict[str, list[str]]:
    script = (
        f"import json, sys; sys.path.insert(0, {str(CONTRACT)!r}); from contract_samples import bot_choices; "
        f"print(json.dumps(bot_choices({PER_GAME}, {BOT_SEED})))"
    )
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=1200)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1])


def _other_work() -> None:
    """A few moves of every bot in other games, and the global generator moved."""
    random.seed(12345)
    for game in reversed(games()):
        kit = declaration(game)
        for bot in kit.bot_names():
            state = kit.spec.new(seed=99)
            made = kit.make_bot(bot, 3)
            for _ in range(3):
                if state.is_over():
                    break
                seat = state.to_move()[0]
                state.apply(made.choose(state.view(seat), seat), seat)
        random.random()


def test_every_bot_chooses_alike_in_fresh_processes_and_after_other_work() -> None:
    first, second = _fresh("1"), _fresh("2")
    _other_work()
    here = bot_choices(PER_GAME, BOT_SEED)
    assert set(first) == {f"{game}/{bot}" for game in games() for bot in declaration(game).bot_names()}
    for key, made in first.items():
        assert made, f"{key}: no sample positions"
        assert second[key] == made, f"{key}: another hash seed gave other choices: {second[key]} != {made}"
        assert here[key] == made, f"{key}: after other work in one process: {here[key]} != {made}"
