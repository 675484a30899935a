"""The registry: games come from the "cliplab.games" entry points, lazily, and another package can add one.

Each check runs in a fresh Python process, so that nothing imported by this test session hides an import.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from cliplab.engine import games
from cliplab.engine.registry import GROUP

# Package of every installed game: what its entry point imports.
PACKAGES = {entry.name: entry.module for entry in entry_points(group=GROUP)}

PROBE = """
import json, sys
from cliplab.engine import games
listed = games()
before = sorted(sys.modules)
{call}
print(json.dumps({{"listed": listed, "before": before, "after": sorted(sys.modules)}}))
"""

CALLS = {
    "new_game": "from cliplab.engine import new_game; new_game({name!r})",
    "declaration": "from cliplab.kit import declaration; declaration({name!r}).bot_names()",
    "import": "import {package}",
}


def _run(code: str, path: Path | None = None) -> str:
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(path), env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def _of_game(modules: list[str], game: str) -> list[str]:
    package = PACKAGES[game]
    return [module for module in modules if module == package or module.startswith(package + ".")]


def test_every_registered_game_has_an_entry_point() -> None:
    assert sorted(PACKAGES) == games()
    assert len(games()) >= 2


@pytest.mark.parametrize("how", sorted(CALLS))
@pytest.mark.parametrize("game", games())
def test_using_one_game_imports_no_other(game: str, how: str) -> None:
    call = CALLS[how].format(name=game, package=PACKAGES[game])
    found = json.loads(_run(PROBE.format(call=call)))
    assert found["listed"] == games()
    for other in games():
        assert not _of_game(found["before"], other), f"listing the games imported {other}"
    assert _of_game(found["after"], game), f"{how} did not import {game}"
    for other in set(games()) - {game}:
        assert not _of_game(found["after"], other), f"{how} of {game} imported {_of_game(found['after'], other)}"


# A whole game in another distribution: take 1 or 2 stones from a pile; whoever takes the last one wins.
TOY_GAME = """
from dataclasses import dataclass
from typing import ClassVar

from cliplab.engine import Action, ActionCodec, GameSpec, Option, Outcome, State, register
from cliplab.kit import Declaration


@dataclass(frozen=True, slots=True)
class Take(Action):
    TEMPLATE: ClassVar[str] = "take {count}"
    count: int


class Pile(State):
    CODEC: ClassVar[ActionCodec] = ActionCodec(Take)

    def _setup(self):
        self.stones = self.option("stones")
        self.turn = 0
        self.winner = None

    def to_move(self):
        return () if self.winner is not None else (self.turn,)

    def _legal(self, player):
        return [Take(count) for count in (1, 2) if count <= self.stones]

    def _apply(self, player, action):
        self.stones -= action.count
        if self.stones == 0:
            self.winner = player
        self.turn = (self.turn + 1) % self.players

    def outcome(self):
        if self.winner is None:
            return None
        return Outcome.ranked([float(seat == self.winner) for seat in range(self.players)], "the pile is empty")


SPEC = register(GameSpec(
    name="toy_pile", title="Toy pile", summary="Take one or two stones; the last stone wins.",
    min_players=2, max_players=3, default_players=2,
    options=(Option("stones", int, 7, "stones in the pile", minimum=1, maximum=50),),
    state_class=Pile, max_length=lambda players, options: options["stones"],
))


class FirstBot:
    def __init__(self, seed):
        self.seed = seed

    def choose(self, view, player):
        return view.legal_actions(player)[0]


GAME = Declaration(name="toy_pile", bots={"random": "cliplab.bots:RandomBot", "heuristic": "toy_pile:FirstBot"},
                   default_bot="heuristic")
"""

TOY_PROBE = """
import json
from cliplab.engine import games, new_game
from cliplab.kit import declaration
from cliplab.sim import simulate
table = simulate("toy_pile", "random,default", games=6, seed=3, progress=False)
print(json.dumps({"games": games(), "bots": declaration("toy_pile").bot_names(),
                  "rows": len(table), "bots_played": sorted(set(table["bots"]))}))
"""


def test_another_distribution_adds_a_game_through_the_entry_point_group(tmp_path: Path) -> None:
    (tmp_path / "toy_pile.py").write_text(TOY_GAME, encoding="utf-8")
    metadata = tmp_path / "toy_pile-0.1.dist-info"
    metadata.mkdir()
    (metadata / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-pile\nVersion: 0.1\n", encoding="utf-8")
    (metadata / "entry_points.txt").write_text(f"[{GROUP}]\ntoy_pile = toy_pile:GAME\n", encoding="utf-8")
    found = json.loads(_run(TOY_PROBE, tmp_path))
    assert found["games"] == sorted([*games(), "toy_pile"])
    assert found["bots"] == ["random", "heuristic"]
    assert found["rows"] == 6 and found["bots_played"] == ["random,heuristic"]
