"""The registry of games: every game package registers its GameSpec here when cliplab.games is imported."""

from __future__ import annotations

import importlib
from typing import Any

from .errors import OptionError
from .game import GameSpec
from .state import State

_GAMES: dict[str, GameSpec] = {}


def register(game: GameSpec) -> GameSpec:
    if game.name in _GAMES and _GAMES[game.name] is not game:
        raise ValueError(f"a game named {game.name!r} is registered already")
    _GAMES[game.name] = game
    return game


def _load_games() -> None:
    importlib.import_module("cliplab.games")


def games() -> list[str]:
    """The registered names, sorted."""
    _load_games()
    return sorted(_GAMES)


def spec(name: str) -> GameSpec:
    _load_games()
    try:
        return _GAMES[name]
    except KeyError:
        raise OptionError(f"there is no game {name!r} (games: {', '.join(sorted(_GAMES))})") from None


def variants() -> list[tuple[str, str | None]]:
    """Every (game, variant) pair, the default rules first as variant None."""
    return [(name, variant) for name in games() for variant in (None, *spec(name).variants)]


def new_game(name: str, players: int | None = None, seed: int = 0, variant: str | None = None, **options: Any) -> State:
    """A new game by registered name, with a number of players, a seed, a named variant and options."""
    return spec(name).new(players, seed, variant, **options)
