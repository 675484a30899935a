"""Only the engine and a game's own rules modules reach into a game's state.

Everything else (the rest of cliplab, tests, notebooks, bench scripts) asks the public API: it builds
positions with the game's position builder, moves with `apply`, and reads. This test parses every such file
(and every code cell of every notebook) and fails on a call of a private hook of the engine or of a game's
state (`game._advance()`, `state._settle()`, ...) and on a write to a state field (`game.pos = ...`,
`game.tokens[0]["wildlife"] = 1`, `game.pile[0].append(...)`), except on `self`, where a class is speaking
of its own attributes.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from cliplab.engine import State, games, new_game, spec

ROOT = Path(__file__).resolve().parents[2]
# Objects that are not games but have an attribute named like a state field: receiver -> what it is.
NOT_GAMES = {
    "self.clicks": "a picture's click in progress (cliplab.ui)",
    "policy": "tests/browser/test_click_crack_dashboard.py's record of the controls it used",
    "renderer": "a warm kernel's notebook run in Voila (cliplab.ui.voila_server, quietened as the server stops)",
    "executor": "that run's notebook client",
}
# The one test that judges the engine's memo of legal lists compares it with the rules' own list, which only
# the private hook gives uncached: file -> the hooks it may call.
MAY_CALL = {"tests/contract/test_legal_memo.py": frozenset({"_legal"})}
MUTATORS = frozenset(
    {"append", "extend", "insert", "remove", "pop", "clear", "update", "add", "discard", "setdefault", "sort"}
)


def _state_classes() -> list[type[State]]:
    return [State, *(spec(name).state_class for name in games())]


def private_hooks() -> frozenset[str]:
    """Private methods of the engine's State and of every registered game's state class (not `_repr_svg_`
    and its kind, which are display protocols)."""
    names = set()
    for cls in _state_classes():
        for klass in cls.__mro__:
            if issubclass(klass, State):
                names |= {name for name in vars(klass) if name.startswith("_") and not name.endswith("_")}
    return frozenset(names)


def state_fields() -> frozenset[str]:
    """The data attributes of a game in progress, for every registered game."""
    names: set[str] = set()
    for name in games():
        names |= set(vars(new_game(name)))
    return frozenset(names)


# A game's rules: rules.py, and sampling.py where a game keeps the filling-in of its hidden cards apart.
RULES_MODULES = ("rules.py", "sampling.py")


def sources() -> Iterator[tuple[str, str]]:
    """(where, Python source) of every file outside the engine and the games' rules, notebook cells one by one."""
    for top in ("cliplab", "tests", "bench"):
        for path in sorted((ROOT / top).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith("cliplab/engine/") or (
                relative.startswith("cliplab/games/") and path.name in RULES_MODULES
            ):
                continue
            yield relative, path.read_text(encoding="utf-8")
    for path in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for index, cell in enumerate(cells):
            if cell["cell_type"] == "code":
                text = "".join(cell["source"])
                # IPython magics and shell lines are not Python.
                lines = [line for line in text.splitlines() if not line.lstrip().startswith(("%", "!"))]
                yield f"{path.relative_to(ROOT).as_posix()} cell {index}", "\n".join(lines)


def _owner(node: ast.expr) -> ast.expr | None:
    """For `x.field`, `x.field[i]` or `x.field[i][j]`: the attribute node `x.field`, else None."""
    while isinstance(node, ast.Subscript):
        node = node.value
    return node if isinstance(node, ast.Attribute) else None


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def reaches_in(tree: ast.AST, hooks: frozenset[str], fields: frozenset[str]) -> list[str]:
    """What in `tree` calls a private hook or writes a state field, one line each."""
    found = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            method, receiver = node.func.attr, node.func.value
            is_super = isinstance(receiver, ast.Call) and getattr(receiver.func, "id", "") == "super"
            if method in hooks and not _is_self(receiver) and not is_super:
                found.append(f"line {node.lineno}: calls {ast.unparse(node.func)}()")
            if method in MUTATORS:
                targets = [receiver]
        for target in targets:
            owner = _owner(target)
            if owner is None or owner.attr not in fields or _is_self(owner.value):
                continue
            if ast.unparse(owner.value) not in NOT_GAMES:
                found.append(f"line {node.lineno}: writes {ast.unparse(target)}")
    return found


def test_no_code_outside_the_engine_and_the_rules_reaches_into_a_game() -> None:
    hooks, fields = private_hooks(), state_fields()
    problems = []
    for where, text in sources():
        forbidden = hooks - MAY_CALL.get(where, frozenset())
        problems += [f"{where}, {problem}" for problem in reaches_in(ast.parse(text), forbidden, fields)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    "code",
    [
        "game._advance(0)",
        "state._settle()",
        "game.pos = [None] * 4",
        "game.tokens[0]['wildlife'] = 1",
        "game.pile[0].append(('park', 3))",
        "game.scores[1] += 2",
        "del game.pending[0][0]",
    ],
)
def test_the_check_finds_each_way_of_reaching_in(code: str) -> None:
    assert reaches_in(ast.parse(code), private_hooks(), state_fields())


@pytest.mark.parametrize(
    "code",
    [
        "self._advance(0)",
        "self.pos = []",
        "super()._setup()",
        "game.apply('pass')",
        "print(game.pos[0])",
        "x = game.tokens",
    ],
)
def test_the_check_lets_a_class_speak_of_its_own_attributes_and_anyone_read(code: str) -> None:
    assert not reaches_in(ast.parse(code), private_hooks(), state_fields())
