"""The game kit: one declaration per game, the one record every shared piece reads a game from.

A game is its rules, its content, its bots and its picture. Its package's `__init__` holds one
`Declaration` (conventionally `GAME`), and the distribution names it in the "cliplab.games" entry-point
group, which is how the registry finds it. The declaration names every part by "module:attribute" text, so
that nothing heavy (bots, drawing, widgets) is imported until a shared piece asks for it:

    from cliplab.kit import declaration
    game = declaration("click_crack")
    game.bot_names()                  # ['random', 'heuristic', 'search']
    bot = game.make_bot("heuristic", seed=7)
    game.score_breakdown(state)       # {0: [('points: ...', 4.0)], 1: [...], ...}
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.resources
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cliplab.engine import OptionError, State, spec
from cliplab.engine.game import GameSpec
from cliplab.engine.registry import declared

if TYPE_CHECKING:
    from cliplab.bots.random_bot import Bot

# Each seat's score in lines of words and points, e.g. {0: [("tokens held (+1 each)", 2.0), ...]}.
Breakdown = dict[int, list[tuple[str, float]]]

RANDOM = "random"
"""The bot every game has: uniformly random legal play (each legal action equally likely)."""


def resolve(reference: str) -> Any:
    """The object a "package.module:attribute" reference names (its module is imported on first use)."""
    module_name, colon, attribute = reference.partition(":")
    if not colon or not module_name or not attribute:
        raise OptionError(f"{reference!r} is not a reference of the form package.module:attribute")
    found: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        found = getattr(found, part)
    return found


@dataclass(frozen=True)
class Declaration:
    """Everything the kit needs from one game; every part is a lazy "module:attribute" reference.

    - `name`: the registered name (the entry point's name; its rules register the GameSpec of that name).
    - `bots`: bot name -> factory taking a seed (`factory(seed).choose(view, seat) -> Action`). The same
      name is the same bot in `cliplab simulate`, the table app, notebooks and bench. Names agree across
      games: "random" (uniformly random legal play, required), "heuristic" (a fast rule of thumb) and
      "search" (a search over futures), where a game has one. A bot's choice depends only on its seed and
      the view it is shown (no clocks), so runs repeat.
    - `default_bot`: the strongest cheap bot, what "default" means and what a new seat gets.
    - `picture`: the board picture class of the table app (draws a seat's board, turns clicks into actions).
    - `drawing`: state -> Scene, the board as a still picture (`svg(state)`: the gallery, exports).
    - `breakdown`: state -> each seat's score in lines `[(words, points), ...]`, during play (the live
      score panel) and at the end (the end screen).
    - `live_scores`: state -> each seat's score during play, as the game would score it now (the lab
      records it after every decision for lead changes and drama).
    - `metrics`: finished state -> {metric name: number}, the game's own design metrics for the lab. A
      metric named "rounds" (rounds played) feeds the lab's duration metrics instead of its own column.
    - `timeouts`: the `Outcome.termination` texts that mean a limit stopped the game rather than a win.
    - `position`: the public position builder, `build(players=..., seed=..., <named fields>) -> State`.
    - `teach`: the teaching notebook's name under notebooks/teach/, or None.

    A game's "How to play" panel is the file `how_to_play.md` beside its declaration (`how_to_play()`).
    """

    name: str
    bots: Mapping[str, str]
    default_bot: str
    picture: str | None = None
    drawing: str | None = None
    breakdown: str | None = None
    live_scores: str | None = None
    metrics: str | None = None
    timeouts: frozenset[str] = frozenset()
    position: str | None = None
    teach: str | None = None

    def __post_init__(self) -> None:
        if RANDOM not in self.bots:
            raise ValueError(f"{self.name}: every game declares a {RANDOM!r} bot (uniformly random legal play)")
        if self.default_bot not in self.bots:
            raise ValueError(f"{self.name}: the default bot {self.default_bot!r} is not one of its bots")

    @property
    def spec(self) -> GameSpec:
        return spec(self.name)

    # ----- bots ----------------------------------------------------------------------------------------

    def bot_names(self) -> list[str]:
        """The bots' names, as declared (each once)."""
        return list(self.bots)

    def bot_name(self, name: str) -> str:
        """A declared bot's name, with "default" standing for `default_bot`; OptionError for any other."""
        name = name.strip()
        if name == "default":
            return self.default_bot
        if name not in self.bots:
            raise OptionError(f"{self.name} has no bot {name!r} (its bots: {', '.join(self.bots)}, default)")
        return name

    def bot_factory(self, name: str) -> Callable[[int], Bot]:
        """The factory (seed -> bot) of a declared bot; "default" is `default_bot`."""
        reference = self.bots[self.bot_name(name)]
        found = resolve(reference)
        if not callable(found):
            raise OptionError(f"{self.name}: bot {name!r} names {reference}, which is not a factory")
        factory: Callable[[int], Bot] = found
        return factory

    def make_bot(self, name: str, seed: int) -> Bot:
        return self.bot_factory(name)(seed)

    # ----- the table -----------------------------------------------------------------------------------

    def picture_class(self) -> Any:
        if self.picture is None:
            raise OptionError(f"{self.name} has no picture for the table app")
        return resolve(self.picture)

    def svg(self, state: State) -> str:
        """The board of `state` drawn as SVG text ("" for a game without a drawing)."""
        if self.drawing is None:
            return ""
        from cliplab.ui.svg import render

        text: str = render(resolve(self.drawing)(state))
        return text

    def how_to_play(self) -> str:
        """The game's "How to play" text (Markdown): `how_to_play.md` in the package its entry point names,
        "" without one."""
        for entry in importlib.metadata.entry_points(group="cliplab.games", name=self.name):
            source = importlib.resources.files(entry.module) / "how_to_play.md"
            if source.is_file():
                return source.read_text(encoding="utf-8")
        return ""

    def position_builder(self) -> Callable[..., State]:
        """The public position builder (see `position`)."""
        if self.position is None:
            raise OptionError(f"{self.name} declares no position builder")
        builder: Callable[..., State] = resolve(self.position)
        return builder

    # ----- scores and metrics --------------------------------------------------------------------------

    def score_breakdown(self, state: State) -> Breakdown:
        """Each seat's score in lines of words and points (without a `breakdown`: the scores as one line)."""
        if self.breakdown is not None:
            found: Breakdown = resolve(self.breakdown)(state)
            return found
        scores = self.scores_now(state)
        return {seat: [("score", float(scores[seat]))] if scores else [] for seat in range(state.players)}

    def scores_now(self, state: State) -> Sequence[float]:
        """Each seat's score: the outcome's once the game is over, else `live_scores` (empty without one)."""
        outcome = state.outcome()
        if outcome is not None:
            return outcome.scores
        return self.live_score_reader()(state)

    def live_score_reader(self) -> Callable[[State], Sequence[float]]:
        """The `live_scores` function, or one that knows no scores (for games that score only at the end)."""
        if self.live_scores is None:
            return _no_scores
        reader: Callable[[State], Sequence[float]] = resolve(self.live_scores)
        return reader

    def design_metrics(self, state: State) -> dict[str, float]:
        """The game's own metrics of a finished game (empty without `metrics`)."""
        if self.metrics is None:
            return {}
        found: dict[str, float] = resolve(self.metrics)(state)
        return found


def _no_scores(state: State) -> Sequence[float]:
    return ()


def declaration(name: str) -> Declaration:
    """The declaration of a registered game (what its "cliplab.games" entry point names)."""
    found = declared(name)
    if not isinstance(found, Declaration):
        raise OptionError(f"the entry point of {name!r} names a {type(found).__name__}, not a cliplab.kit.Declaration")
    if found.name != name:
        raise OptionError(f"the entry point {name!r} names the declaration of {found.name!r}")
    return found


__all__ = ["RANDOM", "Breakdown", "Declaration", "declaration", "resolve"]
