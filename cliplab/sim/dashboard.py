"""A dashboard comparing two setups of a game (variants, options or bot line-ups) by simulation.

`ComparisonDashboard().widget` is what notebooks/dashboards/compare.ipynb shows (in Voila). Nothing is
simulated until the Run button is pressed.

The games run on a thread of their own, so that the kernel keeps answering the page while they run: the
progress bar moves and Stop is heard. The results are shown by setting widgets' values (an HTML table, a
PNG image), never through an Output widget: clearing an Output widget from a button's callback makes the
page echo its emptied outputs back after the new ones have been set, which wiped every result in Voila.
"""

from __future__ import annotations

import html
import math
import os
import threading
from typing import Any

import ipywidgets as widgets
import pandas as pd

from cliplab.engine import CliplabError, games, spec

from .bots import bot_names
from .command import option_text
from .play import SimulationError, make_setup

DEFAULT_RULES = "(default rules)"
ERROR_STYLE = "color:#b00"
# Stop is heard after the chunk that is running: chunks of at most this many games keep that short.
MAX_DASHBOARD_CHUNK = 25


class Stopped(Exception):
    """The Stop button was pressed during a run."""


class _Side:
    """The controls of one of the two setups."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.game = ""
        self.variant = widgets.Dropdown(description="variant")
        self.options = widgets.Text(description="options", placeholder="name=value, name=value")
        self.bots = widgets.HBox()
        self.box = widgets.VBox(
            [widgets.HTML(f"<b>{html.escape(title)}</b>"), self.variant, self.options, self.bots],
            layout=widgets.Layout(border="1px solid #ccc", padding="6px", margin="0 8px 0 0"),
        )
        self.box.add_class(f"cl-compare-{title.replace(' ', '-')}")

    def reset(self, game: str, players: int) -> None:
        self.variant.options = [DEFAULT_RULES, *spec(game).variants]
        self.variant.value = DEFAULT_RULES
        if game != self.game:  # another game's options mean nothing here
            self.options.value = ""
        self.game = game
        names = bot_names(game)
        self.bots.children = [
            widgets.Dropdown(options=names, value=names[0], description=f"seat {seat}", layout={"width": "190px"})
            for seat in range(players)
        ]

    def setup(self) -> dict[str, Any]:
        options: dict[str, str] = {}
        for item in self.options.value.replace(";", ",").split(","):
            if item.strip():
                name, equals, value = item.partition("=")
                if not equals:
                    raise SimulationError(f"{self.title}: options are written name=value, not {item.strip()!r}")
                options[name.strip()] = value.strip()
        variant = None if self.variant.value == DEFAULT_RULES else self.variant.value
        return {"variant": variant, "options": options, "bots": [box.value for box in self.bots.children]}

    def label(self) -> str:
        chosen = self.setup()
        parts = [chosen["variant"] or "default"]
        parts += [f"{k}={v}" for k, v in chosen["options"].items()]
        bots = chosen["bots"]
        parts.append(bots[0] if len(set(bots)) == 1 else ",".join(bots))
        return " ".join(parts)


class ComparisonDashboard:
    """Pick a game, two setups and a number of games; Run simulates both and compares them."""

    def __init__(self) -> None:
        names = games()
        self.game = widgets.Dropdown(options=names, value=names[0], description="game")
        self.players = widgets.Dropdown(description="players")
        self.games = widgets.BoundedIntText(value=500, min=10, max=1_000_000, step=100, description="games")
        self.seed = widgets.BoundedIntText(value=1, min=0, max=2**31, description="seed")
        cores = os.cpu_count() or 1
        self.workers = widgets.BoundedIntText(value=min(2, cores), min=1, max=cores, description="workers")
        self.option_help = widgets.HTML()
        self.a = _Side("setup a")
        self.b = _Side("setup b")
        self.run_button = widgets.Button(description="Run", button_style="primary", icon="play")
        self.stop_button = widgets.Button(description="Stop", icon="stop", disabled=True)
        self.progress = widgets.IntProgress(value=0, min=0, max=1, layout={"width": "300px", "visibility": "hidden"})
        self.progress.add_class("cl-compare-progress")
        self.status = widgets.HTML()
        self.status.add_class("cl-compare-status")
        self.table = widgets.HTML()
        self.table.add_class("cl-compare-table")
        self.figure = widgets.Image(format="png", layout={"max_width": "100%", "display": "none"})
        self.figure.add_class("cl-compare-plot")
        self.results: dict[str, pd.DataFrame] = {}
        self.comparison: pd.DataFrame | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.game.observe(self._game_changed, "value")
        self.players.observe(self._players_changed, "value")
        self.run_button.on_click(lambda _: self.run())
        self.stop_button.on_click(lambda _: self.stop())
        self._game_changed()
        self.widget = widgets.VBox(
            [
                widgets.HBox([self.game, self.players]),
                widgets.HBox([self.games, self.seed, self.workers]),
                self.option_help,
                widgets.HBox([self.a.box, self.b.box]),
                widgets.HBox([self.run_button, self.stop_button, self.progress, self.status]),
                self.table,
                self.figure,
            ]
        )

    def _game_changed(self, *_: Any) -> None:
        game = spec(self.game.value)
        self.players.options = list(range(game.min_players, game.max_players + 1))
        self.players.value = game.default_players
        listed = "; ".join(html.escape(option_text(option)) for option in game.options)
        self.option_help.value = f"<small>options of {html.escape(game.title)}: {listed or '(none)'}</small>"
        self._players_changed()

    def _players_changed(self, *_: Any) -> None:
        if self.players.value is None:
            return
        for side in (self.a, self.b):
            side.reset(self.game.value, self.players.value)
        variants = list(spec(self.game.value).variants)
        if variants:  # a first comparison to try: the rules as they are against the first variant
            self.b.variant.value = variants[0]

    # ----- running ---------------------------------------------------------------------------------------

    def run(self) -> None:
        """Check both setups, then simulate and compare them on a thread (what the Run button does)."""
        if self._thread is not None and self._thread.is_alive():
            return
        self.comparison = None
        self.results = {}
        self.table.value = ""
        self.figure.layout.display = "none"
        try:
            setups = [side.setup() for side in (self.a, self.b)]
            for side, chosen in zip((self.a, self.b), setups, strict=True):
                try:
                    make_setup(
                        self.game.value, chosen["bots"], self.players.value, chosen["variant"], chosen["options"]
                    )
                except (CliplabError, SimulationError) as err:
                    raise SimulationError(f"{side.title}: {err}") from None
            labels = [self.a.label(), self.b.label()]
        except (CliplabError, SimulationError) as err:
            self._say(str(err), error=True)
            return
        if labels[0] == labels[1]:
            labels = [f"a: {labels[0]}", f"b: {labels[1]}"]
        self._stop.clear()
        self.run_button.disabled = True
        self.stop_button.disabled = False
        self.progress.value = 0
        self.progress.max = 2 * self.games.value
        self.progress.layout.visibility = "visible"
        self._thread = threading.Thread(target=self._work, args=(labels, setups), daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the running simulation after its current chunk of games (what the Stop button does)."""
        self._stop.set()
        self.stop_button.disabled = True

    def wait(self, timeout: float | None = None) -> None:
        """Wait until the run started last has ended (for tests and notebooks)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def _work(self, labels: list[str], setups: list[dict[str, Any]]) -> None:
        from .metrics import compare
        from .plots import comparison_png
        from .run import simulate

        game, games, step = self.game.value, self.games.value, "starting"
        try:
            for number, (label, chosen) in enumerate(zip(labels, setups, strict=True)):
                step = f"simulating {label}"
                self._say(f"{step} ...")

                def counted(done: int, total: int, before: int = number * games, doing: str = step) -> None:
                    # The count is said before the bar moves, so a page never shows a moved bar without it.
                    self._say(f"{doing}: {done:,} of {total:,} games")
                    self.progress.value = before + done
                    if self._stop.is_set():
                        raise Stopped

                self.results[label] = simulate(
                    game,
                    players=self.players.value,
                    games=games,
                    seed=self.seed.value,
                    workers=self.workers.value,
                    chunk_size=max(1, min(MAX_DASHBOARD_CHUNK, math.ceil(games / 20))),
                    progress=False,
                    on_chunk=counted,
                    **chosen,
                )
            step = "comparing the two setups"
            self._say(f"{step} ...")
            comparison = compare(*self.results.values())
            step = "drawing the plots"
            self.table.value = _setups_html(labels) + comparison_html(comparison)
            self.figure.value = comparison_png(self.results, comparison)
            self.figure.layout.display = "block"
            self.comparison = comparison
            self._say(f"done: {games} games each")
        except Stopped:
            played = self.progress.value
            self._say(f"stopped after {played} of {2 * games} games ({step}); nothing compared")
        except Exception as err:  # whatever failed is said on the page, where the designer looks
            self._say(f"failed while {step}: {type(err).__name__}: {err}", error=True)
        finally:
            self.run_button.disabled = False
            self.stop_button.disabled = True
            self.progress.layout.visibility = "hidden"

    def _say(self, text: str, error: bool = False) -> None:
        shown = html.escape(text)
        self.status.value = f"<span style='{ERROR_STYLE}'>{shown}</span>" if error else shown


def _setups_html(labels: list[str]) -> str:
    return f"<p>a = {html.escape(labels[0])}; b = {html.escape(labels[1])}</p>"


def comparison_html(comparison: pd.DataFrame) -> str:
    """The comparison as an HTML table, a heading row before each group, significant rows in bold red."""
    from .metrics import count_text, number_text

    header = ["metric", "a", "b", "b - a", "95% interval", "significant", "games needed per side"]
    rows = ["<tr>" + "".join(f"<th>{html.escape(cell)}</th>" for cell in header) + "</tr>"]
    group = None
    for name, row in comparison.iterrows():
        if row["group"] != group:
            group = row["group"]
            rows.append(f"<tr><th colspan='{len(header)}' style='text-align:left'>{html.escape(str(group))}</th></tr>")
        cells = [
            str(name),
            number_text(row["a"]),
            number_text(row["b"]),
            number_text(row["difference"]),
            f"{number_text(row['low'])} .. {number_text(row['high'])}",
            "yes" if row["significant"] else "no",
            count_text(row["games_needed"]),
        ]
        style = " style='font-weight:bold;color:#b00'" if row["significant"] else ""
        rows.append(f"<tr{style}>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in cells) + "</tr>")
    return "<table class='cl-compare'>" + "".join(rows) + "</table>"


__all__ = ["ComparisonDashboard", "Stopped", "comparison_html"]
