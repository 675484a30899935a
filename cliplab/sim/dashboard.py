"""A dashboard comparing two setups of a game (variants, options or bot line-ups) by simulation.

`ComparisonDashboard().widget` is what notebooks/dashboards/compare.ipynb shows (in Voila). Nothing is
simulated until the Run button is pressed.
"""

from __future__ import annotations

import html
import io
import os
from typing import Any

import ipywidgets as widgets
import pandas as pd
from IPython.display import HTML, Image

from cliplab.engine import CliplabError, games, spec

from .bots import bot_names
from .play import SimulationError, make_setup

DEFAULT_RULES = "(default rules)"


class _Side:
    """The controls of one of the two setups."""

    def __init__(self, title: str) -> None:
        self.variant = widgets.Dropdown(description="variant")
        self.options = widgets.Text(description="options", placeholder="name=value, name=value")
        self.bots = widgets.HBox()
        self.box = widgets.VBox(
            [widgets.HTML(f"<b>{html.escape(title)}</b>"), self.variant, self.options, self.bots],
            layout=widgets.Layout(border="1px solid #ccc", padding="6px", margin="0 8px 0 0"),
        )

    def reset(self, game: str, players: int) -> None:
        self.variant.options = [DEFAULT_RULES, *spec(game).variants]
        self.variant.value = DEFAULT_RULES
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
                    raise SimulationError(f"options are written name=value, not {item.strip()!r}")
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
        self.a = _Side("setup a")
        self.b = _Side("setup b")
        self.run_button = widgets.Button(description="Run", button_style="primary", icon="play")
        self.status = widgets.HTML()
        self.output = widgets.Output()
        self.results: dict[str, pd.DataFrame] = {}
        self.comparison: pd.DataFrame | None = None
        self.game.observe(self._game_changed, "value")
        self.players.observe(self._players_changed, "value")
        self.run_button.on_click(lambda _: self.run())
        self._game_changed()
        self.widget = widgets.VBox(
            [
                widgets.HBox([self.game, self.players]),
                widgets.HBox([self.games, self.seed, self.workers]),
                widgets.HBox([self.a.box, self.b.box]),
                widgets.HBox([self.run_button, self.status]),
                self.output,
            ]
        )

    def _game_changed(self, *_: Any) -> None:
        game = spec(self.game.value)
        self.players.options = list(range(game.min_players, game.max_players + 1))
        self.players.value = game.default_players
        self._players_changed()

    def _players_changed(self, *_: Any) -> None:
        if self.players.value is None:
            return
        for side in (self.a, self.b):
            side.reset(self.game.value, self.players.value)
        if "snake" in spec(self.game.value).variants:
            self.b.variant.value = "snake"

    def run(self) -> pd.DataFrame | None:
        """Simulate both setups and show the comparison (what the Run button does)."""
        from .metrics import compare
        from .run import simulate

        self.run_button.disabled = True
        self.output.clear_output()
        self.comparison = None
        self.results = {}
        try:
            setups = [side.setup() for side in (self.a, self.b)]
            for chosen in setups:  # checked here: inside the output area an error would only be printed
                make_setup(self.game.value, chosen["bots"], self.players.value, chosen["variant"], chosen["options"])
            labels = [self.a.label(), self.b.label()]
            if labels[0] == labels[1]:
                labels = [f"a: {labels[0]}", f"b: {labels[1]}"]
            with self.output:  # the progress bars show here
                for label, chosen in zip(labels, setups, strict=True):
                    self.status.value = f"simulating {html.escape(label)} ..."
                    self.results[label] = simulate(
                        self.game.value,
                        players=self.players.value,
                        games=self.games.value,
                        seed=self.seed.value,
                        workers=self.workers.value,
                        **chosen,
                    )
            if len(self.results) < 2:
                self.status.value = "<span style='color:#b00'>the simulation failed (see below)</span>"
                return None
            self.status.value = "comparing ..."
            self.comparison = compare(*self.results.values())
            self.output.clear_output()
            self.output.append_display_data(HTML(f"<p>a = {html.escape(labels[0])}; b = {html.escape(labels[1])}</p>"))
            styled = self.comparison.style.format(precision=3).map(_significant, subset=["significant"])
            self.output.append_display_data(HTML(styled.to_html()))
            self.output.append_display_data(Image(_figure_png(self.results, self.comparison)))
            self.status.value = f"done: {self.games.value} games each"
            return self.comparison
        except (CliplabError, SimulationError) as err:
            self.status.value = f"<span style='color:#b00'>{html.escape(str(err))}</span>"
            return None
        finally:
            self.run_button.disabled = False


def _figure_png(results: dict[str, pd.DataFrame], comparison: pd.DataFrame) -> bytes:
    """Seat advantages of both setups beside every metric's difference, as a PNG image."""
    from matplotlib.figure import Figure

    from .plots import plot_advantage, plot_comparison

    figure = Figure(figsize=(12, 0.25 * len(comparison) + 1.5), layout="constrained")
    left, right = figure.subplots(1, 2)
    plot_advantage(results, ax=left)
    plot_comparison(comparison, ax=right)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90)
    return buffer.getvalue()


def _significant(value: Any) -> str:
    return "font-weight: bold; color: #b00" if value is True else ""


__all__ = ["ComparisonDashboard"]
