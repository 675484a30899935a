"""Every registered game's position builder (`declaration(name).position`): what it builds is a real game.

Positions come from the builder called with no fields (the default start position) and from the examples
in its docstring (doctest lines, which are run and must show what they say). Each saves and loads to an
equal game, offers the same actions after loading, plays on exactly like its loaded copy, and undoes back
to itself.
"""

from __future__ import annotations

import doctest
from collections.abc import Callable

import pytest

from cliplab.engine import State, from_json, games, to_json
from cliplab.kit import declaration, resolve


def _builder(game: str) -> Callable[..., State]:
    reference = declaration(game).position
    assert reference is not None, f"{game} declares no position builder"
    builder: Callable[..., State] = resolve(reference)
    return builder


def _from_docstring(builder: Callable[..., State]) -> list[State]:
    """The games the docstring's examples build (each example is run and checked like a doctest)."""
    name = getattr(builder, "__name__", "position")
    names = {**getattr(builder, "__globals__", {}), name: builder}
    example = doctest.DocTestParser().get_doctest(builder.__doc__ or "", names, name, None, 0)
    assert example.examples, f"{name}'s docstring has no example (>>> lines) that builds a position"
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    result = runner.run(example, out=report.append, clear_globs=False)
    assert not result.failed, "".join(report)
    built = [value for key, value in example.globs.items() if isinstance(value, State) and key not in names]
    assert built, f"{name}'s examples assign no game to a name"
    return built


def _positions(game: str) -> list[State]:
    builder = _builder(game)
    return [builder(), *_from_docstring(builder)]


@pytest.mark.parametrize("game", games())
def test_every_built_position_saves_loads_and_plays_on_like_a_game(game: str) -> None:
    for state in _positions(game):
        assert state.config.game == game
        loaded = from_json(to_json(state))
        assert loaded == state and loaded.fingerprint() == state.fingerprint()
        assert loaded.to_move() == state.to_move() and loaded.outcome() == state.outcome()
        movers = state.to_move()
        if not movers:
            continue
        seat = movers[0]
        assert loaded.legal_actions(seat) == state.legal_actions(seat)
        action = state.legal_actions(seat)[0]
        played, played_loaded = state.clone(), loaded.clone()
        played.apply(action, seat)
        played_loaded.apply(action, seat)
        assert played == played_loaded, f"{game}: {action} leads elsewhere after save and load"
        assert from_json(to_json(played)) == played
        played.undo()
        assert played.fingerprint() == state.fingerprint(), f"{game}: undo did not come back to the position"
