"""Bots by name, so that a simulation can be described with plain text ("random,heuristic,heuristic").

A bot factory takes a seed and returns a bot (anything with `choose(view, seat) -> Action`). Names:

- "random" is always there: uniformly random legal play (`cliplab.bots.RandomBot`).
- Any other name is looked up in the game's own bots module, `cliplab.games.<package>.bots`, when it is
  first asked for (that module may be heavy, or not written yet). If the module has a `BOTS` mapping of
  names to factories, that is used. Otherwise two conventional names are found by the module's attributes:
  "heuristic" is `heuristic_bot`, `HeuristicBot` or `<GameInCamelCase>Bot` (e.g. `ClickCrackBot`), and
  "search" is `search_bot` or `SearchBot`.
- "default" is the game's strongest cheap bot: "heuristic" where there is one, else "random". It is
  resolved to that name before a run starts, so result tables always say which bot played.
- "package.module:attribute" names any factory that takes a seed.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any, Protocol

from cliplab.bots import RandomBot
from cliplab.engine import Action, OptionError, State, spec


class Bot(Protocol):
    def choose(self, view: State, player: int) -> Action: ...


BotFactory = Callable[[int], Bot]
BotSpec = str | BotFactory

_CONVENTIONS: dict[str, tuple[str, ...]] = {
    "heuristic": ("heuristic_bot", "HeuristicBot", "{camel}Bot"),
    "search": ("search_bot", "SearchBot"),
}


class LegalRandomBot(RandomBot):
    """RandomBot that can also pick straight from a list of legal actions.

    A random bot looks at nothing but its seat's legal actions, and a view lists the same legal actions as
    the game itself (part of the engine's protocol), so the simulation hands it the list it has computed
    anyway instead of building a view. The choice is exactly the one `choose(view, seat)` would make.
    """

    def choose_from(self, actions: Sequence[Action], player: int) -> Action:
        return actions[self.rng.randrange(len(actions))]


def game_package(game: str) -> str:
    """The package of a registered game, e.g. "cliplab.games.click_crack"."""
    return spec(game).state_class.__module__.rpartition(".")[0]


def optional_module(name: str) -> ModuleType | None:
    """The module `name`, or None when it does not exist (errors inside an existing module still raise)."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name is not None and (name == err.name or name.startswith(err.name + ".")):
            return None
        raise


def _game_bots(game: str) -> ModuleType | None:
    return optional_module(game_package(game) + ".bots")


def _camel(game: str) -> str:
    return "".join(part.title() for part in game.split("_"))


def _from_module(module: ModuleType, game: str, name: str) -> BotFactory | None:
    table = getattr(module, "BOTS", None)
    if isinstance(table, Mapping):
        found = table.get(name)
        return found if callable(found) else None
    for attribute in _CONVENTIONS.get(name, ()):
        found = getattr(module, attribute.format(camel=_camel(game)), None)
        if callable(found):
            return found
    return None


def bot_names(game: str) -> list[str]:
    """The bot names this game knows now ("random" first)."""
    names = ["random"]
    module = _game_bots(game)
    if module is not None:
        table = getattr(module, "BOTS", None)
        candidates = list(table) if isinstance(table, Mapping) else list(_CONVENTIONS)
        names += [name for name in candidates if name != "random" and _from_module(module, game, name)]
    return names


def resolve_name(game: str, name: str) -> str:
    """`name` with "default" replaced by the bot it stands for; OptionError for an unknown name."""
    name = name.strip()
    if name == "default":
        return "heuristic" if "heuristic" in bot_names(game) else "random"
    if name == "random" or ":" in name:
        return name
    if name not in bot_names(game):
        raise OptionError(f"{game} has no bot {name!r} (its bots: {', '.join(bot_names(game))}, default)")
    return name


def factory(game: str, bot: BotSpec) -> BotFactory:
    """The factory for a bot name (see the module docstring) or the factory itself."""
    if not isinstance(bot, str):
        return bot
    if bot == "random":
        return LegalRandomBot
    if ":" in bot:
        module_name, _, attribute = bot.partition(":")
        found: Any = importlib.import_module(module_name)
        for part in attribute.split("."):
            found = getattr(found, part)
        if not callable(found):
            raise OptionError(f"bot {bot!r} is not a factory that takes a seed")
        return found
    module = _game_bots(game)
    made = None if module is None else _from_module(module, game, bot)
    if made is None:
        raise OptionError(f"{game} has no bot {bot!r} (its bots: {', '.join(bot_names(game))})")
    return made


def bot_label(bot: BotSpec) -> str:
    """How a bot is written in a result table: its name, or "module:qualname" for a factory."""
    if isinstance(bot, str):
        return bot
    return f"{getattr(bot, '__module__', '?')}:{getattr(bot, '__qualname__', type(bot).__name__)}"


__all__ = [
    "Bot",
    "BotFactory",
    "BotSpec",
    "LegalRandomBot",
    "bot_label",
    "bot_names",
    "factory",
    "game_package",
    "optional_module",
    "resolve_name",
]
