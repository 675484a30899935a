"""The registry of games, backed by the entry-point group "cliplab.games".

Every installed distribution may name games in that group, one entry per game: the game's registered name
pointing at its declaration (`click_crack = "cliplab.games.click_crack:GAME"`), so a separate package can
add a game without touching cliplab. Names are read from the installed metadata without importing anything;
a game's code is imported the first time that game is asked for, and importing one game imports no other.
Importing a game's rules registers its GameSpec here (`register`).
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from .errors import OptionError
from .game import GameSpec
from .state import State

GROUP = "cliplab.games"

_GAMES: dict[str, GameSpec] = {}


def register(game: GameSpec) -> GameSpec:
    """Record a game's spec (its rules module does this when it is imported)."""
    if game.name in _GAMES and _GAMES[game.name] is not game:
        raise ValueError(f"a game named {game.name!r} is registered already")
    _GAMES[game.name] = game
    return game


@cache
def _entries() -> dict[str, EntryPoint]:
    """The group's entry points by game name; two distributions naming one game differently is an error."""
    found: dict[str, EntryPoint] = {}
    for entry in entry_points(group=GROUP):
        known = found.setdefault(entry.name, entry)
        if known.value != entry.value:
            raise OptionError(
                f"two installed packages declare the game {entry.name!r}: {known.value} and {entry.value}"
            )
    return found


def games() -> list[str]:
    """The registered names, sorted (nothing is imported)."""
    return sorted(set(_entries()) | set(_GAMES))


def _unknown(name: str) -> OptionError:
    listed = ", ".join(games()) or "none: is cliplab installed (pip install -e .)?"
    return OptionError(f"there is no game {name!r} (games: {listed})")


@cache
def declared(name: str) -> Any:
    """What the game's entry point names (its declaration), importing that game's package only."""
    entry = _entries().get(name)
    if entry is None:
        raise _unknown(name)
    return entry.load()


def spec(name: str) -> GameSpec:
    """The rules' facts of a registered game (imports that game only)."""
    if name not in _GAMES:
        declared(name)
        if name not in _GAMES:
            raise OptionError(f"the game {name!r} is declared, but importing it registered no GameSpec of that name")
    return _GAMES[name]


def variants() -> list[tuple[str, str | None]]:
    """Every (game, variant) pair, the default rules first as variant None (imports every game)."""
    return [(name, variant) for name in games() for variant in (None, *spec(name).variants)]


def new_game(name: str, players: int | None = None, seed: int = 0, variant: str | None = None, **options: Any) -> State:
    """A new game by registered name, with a number of players, a seed, a named variant and options."""
    return spec(name).new(players, seed, variant, **options)
