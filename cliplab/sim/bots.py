"""Bots by name, so that a simulation can be described with plain text ("random,heuristic,heuristic").

A bot factory takes a seed and returns a bot (anything with `choose(view, seat) -> Action`). Names are the
game's declared bots (`cliplab.kit.declaration(game).bots`), the same bots the table app, notebooks and
bench use: "random" in every game, "heuristic" and "search" where the game has them. "default" is the
game's `default_bot`; it is resolved to that name before a run starts, so result tables always say which
bot played. "package.module:attribute" names any other factory that takes a seed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from cliplab.engine import Action, OptionError, State
from cliplab.kit import declaration, resolve


class Bot(Protocol):
    def choose(self, view: State, player: int) -> Action: ...


BotFactory = Callable[[int], Bot]
BotSpec = str | BotFactory


def bot_names(game: str) -> list[str]:
    """The game's declared bots ("random" among them)."""
    return declaration(game).bot_names()


def resolve_name(game: str, name: str) -> str:
    """`name` with "default" replaced by the bot it stands for; OptionError for an unknown name."""
    name = name.strip()
    if ":" in name:
        return name
    return declaration(game).bot_name(name)


def factory(game: str, bot: BotSpec) -> BotFactory:
    """The factory for a bot name (see the module docstring) or the factory itself."""
    if not isinstance(bot, str):
        return bot
    if ":" not in bot:
        return declaration(game).bot_factory(bot)
    found = resolve(bot)
    if not callable(found):
        raise OptionError(f"bot {bot!r} is not a factory that takes a seed")
    made: BotFactory = found
    return made


def bot_label(bot: BotSpec) -> str:
    """How a bot is written in a result table: its name, or "module:qualname" for a factory."""
    if isinstance(bot, str):
        return bot
    return f"{getattr(bot, '__module__', '?')}:{getattr(bot, '__qualname__', type(bot).__name__)}"


__all__ = ["Bot", "BotFactory", "BotSpec", "bot_label", "bot_names", "factory", "resolve_name"]
