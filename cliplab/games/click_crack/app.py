"""The Click & Crack playtest dashboard: the floe (a Grid) beside controls, for people and bots.

Hot-seat secrecy: each person sets their tiles behind a hand-over screen, nobody else's settings are
on screen until all are revealed together. Bots act step by step (or run until a person is needed).
"""

from __future__ import annotations

import base64
import html
from typing import Any

import ipywidgets as w

from cliplab.engine import CHANCE, CliplabError, IllegalAction, new_game
from cliplab.ui import Intent, Mark, Scene
from cliplab.ui.scene import PALETTE, SEAT_COLOURS
from cliplab.ui.widget import Grid

from .board import describe
from .rules import DIRS, KINDS, BreakOff, ClickCrack, Pass, Perform, Place, PushAside, SetTiles
from .session import PERSON, SEAT_KINDS, Table

ARROWS = {"N": "↑", "E": "→", "S": "↓", "W": "←"}


def _seat_name(seat: int) -> str:
    return f"Player {seat}"


def _swatch(seat: int) -> str:
    colour = PALETTE[SEAT_COLOURS[seat % len(SEAT_COLOURS)]][0]
    return f'<span style="display:inline-block;width:.9em;height:.9em;border-radius:50%;background:{colour}"></span>'


def _tile_text(kind: str, direction: str) -> str:
    return f"{kind} {direction} {ARROWS[direction]}"


class ClickCrackApp:
    """The dashboard. `app.widget` is what a notebook or Voila shows."""

    def __init__(self, players: int = 3, seed: int = 0) -> None:
        self.table: Table | None = None
        self.grid = Grid()
        self.grid.on("any", self._on_board)
        self.selected_tile: tuple[str, str] | None = None
        self.setting_for: int | None = None  # the person whose secret tiles are being set now

        self.status = w.HTML()
        self.status.add_class("cc-status")
        self.panel = w.VBox(layout=w.Layout(min_width="320px", max_width="420px", gap="6px"))
        self.scores = w.HTML()
        self.scores.add_class("cc-scores")
        self.log = w.HTML()
        self.log.add_class("cc-log")
        self.message = w.HTML()
        self.message.add_class("cc-message")
        self.undo_button = self._button("Undo", "cc-undo", self._undo)
        self.save_link = w.HTML()
        self.upload = w.FileUpload(accept=".json", multiple=False, description="Load")
        self.upload.add_class("cc-load")
        self.upload.observe(self._load, names="value")

        self.players = w.BoundedIntText(value=players, min=2, max=4, description="Players")
        self.players.observe(lambda _: self._show_setup(), names="value")
        self.players.add_class("cc-players")
        self.seed = w.IntText(value=seed, description="Seed")
        self.seed.add_class("cc-seed")
        self.snake = w.Checkbox(value=False, description="snake placement order")
        self.snake.add_class("cc-snake")
        self.seat_choices: list[w.Dropdown] = []

        tools = w.HBox([self.undo_button, self.upload, self.save_link], layout=w.Layout(gap="6px"))
        side = w.VBox([self.status, self.message, self.panel, self.scores, tools, self.log])
        self.grid.widget.layout = w.Layout(flex="1 1 480px", min_width="320px")
        self.widget = w.HBox([self.grid.widget, side], layout=w.Layout(gap="12px", flex_flow="row wrap"))
        self.widget.add_class("cc-app")
        self._show_setup()

    # ----- small builders ---------------------------------------------------------------------------

    @staticmethod
    def _button(text: str, css: str, handler: Any, style: str = "") -> w.Button:
        button = w.Button(description=text, button_style=style, layout=w.Layout(min_height="36px", width="auto"))
        button.add_class(css)
        button.on_click(lambda _: handler())
        return button

    def _say(self, text: str, error: bool = False) -> None:
        colour = "#D55E00" if error else "inherit"
        self.message.value = f"<div style='color:{colour}'>{html.escape(text)}</div>" if text else ""

    # ----- setup ------------------------------------------------------------------------------------

    def _show_setup(self) -> None:
        count = self.players.value
        old = [d.value for d in self.seat_choices]
        self.seat_choices = [
            w.Dropdown(
                options=SEAT_KINDS,
                value=old[seat] if seat < len(old) else (PERSON if seat == 0 else "heuristic bot"),
                description=_seat_name(seat),
            )
            for seat in range(count)
        ]
        for seat, choice in enumerate(self.seat_choices):
            choice.add_class(f"cc-seat-{seat}")
        start = self._button("Start game", "cc-start", self._start, "primary")
        self.panel.children = [self.players, *self.seat_choices, self.seed, self.snake, start]
        self.status.value = "<b>Choose who plays each seat.</b>"
        self.grid.show(describe_empty())
        self.undo_button.disabled = True

    def _start(self) -> None:
        seats = [choice.value for choice in self.seat_choices]
        order = "snake" if self.snake.value else "repeat"
        self.table = Table.new(seats, seed=self.seed.value, placement_order=order)
        self._say("")
        self._refresh()

    # ----- the flow of play --------------------------------------------------------------------------

    def _refresh(self) -> None:
        """Show whatever the table needs next: a person's choice, a bot step, the reveal, the end."""
        table = self.table
        assert table is not None
        game = table.game
        self.selected_tile = self.selected_tile if game.phase == "perform" else None
        self._update_side()
        if game.is_over():
            self._show_end()
            return
        if game.phase == "program":
            if table.bots_to_move():
                # Bots set their tiles in secret at once; nothing else happens before the reveal.
                while game.phase == "program" and table.bots_to_move():
                    table.next_bot_step()
                self._after_secret()
                return
            waiting = table.people_to_move()
            if self.setting_for is not None and self.setting_for in waiting:
                self._show_setting(self.setting_for)
            else:
                self._show_handover(waiting[0])
            return
        movers = game.to_move()
        if table.is_person(movers[0]):
            self._show_person_turn(movers[0])
        else:
            self._show_bot_turn(movers[0])

    def _update_side(self) -> None:
        table = self.table
        assert table is not None
        game = table.game
        rows = "".join(
            f"<tr><td>{_swatch(s)} {_seat_name(s)}</td><td>{html.escape(table.seats[s])}</td>"
            f"<td class='cc-score' data-seat='{s}' style='text-align:right'><b>{points}</b></td>"
            f"<td>{len(game.penguins_of(s))} penguins</td></tr>"
            for s, points in enumerate(game.scores)
        )
        self.scores.value = f"<table style='width:100%'>{rows}</table>"
        self.log.value = self._log_html()
        self.undo_button.disabled = not table.can_undo()
        self._update_save_link()

    def _log_html(self) -> str:
        table = self.table
        assert table is not None
        game = table.game
        secret = set(game.secret_at.values())  # this round's settings, until the reveal
        lines = []
        for index, (seat, action) in enumerate(game.log):
            if seat == CHANCE:
                lines.append(f"Chance: {action}")
            elif index in secret:
                lines.append(f"{_seat_name(seat)} set their tiles in secret")
            else:
                lines.append(f"{_seat_name(seat)}: {action}")
        recent = "".join(f"<li>{html.escape(line)}</li>" for line in lines[-12:])
        first = max(1, len(lines) - 11)
        return f"<details open><summary>Log ({len(lines)} entries)</summary><ol start='{first}'>{recent}</ol></details>"

    def _draw(self, marks: tuple[Mark, ...] = (), status: str = "") -> None:
        table = self.table
        assert table is not None
        scene = describe(table.game, marks)
        self.grid.show(scene)
        self.status.value = status

    def _show_handover(self, seat: int) -> None:
        self._draw(status=f"<b>{_seat_name(seat)}</b> sets tiles in secret.")
        ready = self._button(
            f"I am {_seat_name(seat)}: show my tiles", "cc-ready", lambda: self._begin_setting(seat), "primary"
        )
        self.panel.children = [
            w.HTML(f"<p>Pass the screen to {_swatch(seat)} <b>{_seat_name(seat)}</b>. Everyone else, look away.</p>"),
            ready,
        ]

    def _begin_setting(self, seat: int) -> None:
        self.setting_for = seat
        self._refresh()

    def _show_setting(self, seat: int) -> None:
        self._draw(status=f"<b>{_seat_name(seat)}</b>: choose both tiles, then lock them in.")
        rows = []
        choices = []
        for number in (1, 2):
            kind = w.ToggleButtons(options=KINDS, value="walk", description=f"Tile {number}")
            kind.add_class(f"cc-kind-{number}")
            direction = w.ToggleButtons(options=[(ARROWS[d] + " " + d, d) for d in DIRS], value="N")
            direction.add_class(f"cc-dir-{number}")
            rows += [kind, direction]
            choices.append((kind, direction))

        def lock() -> None:
            (k1, d1), (k2, d2) = ((k.value, d.value) for k, d in choices)
            try:
                self.table.act(SetTiles(k1, d1, k2, d2), seat)  # type: ignore[union-attr]
            except IllegalAction as refused:
                self._say(refused.reason, error=True)
                return
            self.setting_for = None
            self._after_secret()

        self.panel.children = [*rows, self._button("Lock in", "cc-lock", lock, "primary")]

    def _after_secret(self) -> None:
        table = self.table
        assert table is not None
        if table.game.phase == "program":
            self._refresh()
            return
        settings = "".join(
            f"<li>{_swatch(s)} {_seat_name(s)}: "
            + " and ".join(html.escape(_tile_text(k, d)) for k, d in tiles)
            + "</li>"
            for s, tiles in enumerate(table.game.tiles)
            if tiles
        )
        self._draw(status="<b>All tiles are revealed.</b>")
        self._update_side()
        go = self._button("Carry them out", "cc-continue", self._refresh, "primary")
        self.panel.children = [w.HTML(f"<ul class='cc-reveal'>{settings}</ul>"), go]

    def _show_bot_turn(self, seat: int) -> None:
        table = self.table
        assert table is not None
        self._draw(status=f"{_swatch(seat)} <b>{_seat_name(seat)}</b> ({html.escape(table.seats[seat])}) acts next.")
        step = self._button("Next step", "cc-next", self._bot_step, "primary")
        run = self._button("Run until a person is needed", "cc-run", self._bot_run)
        self.panel.children = [step, run]

    def _bot_step(self) -> None:
        assert self.table is not None
        self.table.next_bot_step()
        self._after_move()

    def _bot_run(self) -> None:
        assert self.table is not None
        self.table.run_bots()
        self._after_move()

    def _after_move(self) -> None:
        assert self.table is not None
        if self.table.game.phase == "perform" and self.table.reveal_at == len(self.table.game.log):
            self._after_secret()
        else:
            self._refresh()

    def _show_person_turn(self, seat: int) -> None:
        table = self.table
        assert table is not None
        game = table.game
        legal = game.legal_actions(seat)
        who = f"{_swatch(seat)} <b>{_seat_name(seat)}</b>"
        if game.phase == "place":
            marks = tuple(Mark("point", (a.row, a.col)) for a in legal if isinstance(a, Place))
            self._draw(marks, f"{who}: click an intersection to place a penguin.")
            self.panel.children = []
        elif game.phase == "push":
            sides = [a for a in legal if isinstance(a, PushAside)]
            self._draw(status=f"{who}: a penguin would be pushed off the floe. Which side does it go?")
            self.panel.children = [
                self._button(
                    f"Push it {a.direction} {ARROWS[a.direction]}",
                    f"cc-push-{a.direction}",
                    lambda a=a: self._do(a, seat),
                )
                for a in sides
            ]
        elif game.phase == "break":
            halves = [a for a in legal if isinstance(a, BreakOff)]
            marks = tuple(Mark("cell", (a.row, a.col)) for a in halves)
            self._draw(marks, f"{who}: the floe split into equal halves. Choose the half that breaks off.")
            self.panel.children = [
                self._button(
                    f"Break off the half with tile {a.row},{a.col}",
                    f"cc-half-{a.row}-{a.col}",
                    lambda a=a: self._do(a, seat),
                )
                for a in halves
            ]
        else:
            self._show_perform(seat, legal)

    def _show_perform(self, seat: int, legal: list[Any]) -> None:
        table = self.table
        assert table is not None
        game = table.game
        who = f"{_swatch(seat)} <b>{_seat_name(seat)}</b>"
        if legal == [Pass()]:
            self._draw(status=f"{who}: no tile can be carried out, so you pass.")
            self.panel.children = [self._button("Pass", "cc-pass", lambda: self._do(Pass(), seat), "warning")]
            return
        tiles = list(dict.fromkeys((a.kind, a.direction) for a in legal if isinstance(a, Perform)))
        if self.selected_tile not in tiles:
            self.selected_tile = tiles[0]
        kind, direction = self.selected_tile
        penguins = [a.penguin for a in legal if isinstance(a, Perform) and (a.kind, a.direction) == self.selected_tile]
        marks = tuple(Mark("point", game.pos[p]) for p in penguins if game.pos[p] is not None)  # type: ignore[arg-type]
        self._draw(marks, f"{who}: pick a tile, then click one of your highlighted penguins.")
        buttons = []
        for tile in tiles:
            button = self._button(
                _tile_text(*tile), f"cc-tile-{tile[0]}-{tile[1]}", lambda tile=tile: self._select(tile)
            )
            button.button_style = "info" if tile == self.selected_tile else ""
            buttons.append(button)
        penguin_buttons = [
            self._button(
                f"{kind} {direction} with penguin {p}",
                f"cc-do-{p}",
                lambda p=p: self._do(Perform(kind, direction, p), seat),
            )
            for p in penguins
        ]
        self.panel.children = [w.HTML("Your tiles:"), w.HBox(buttons), w.HTML("Or choose here:"), *penguin_buttons]

    def _select(self, tile: tuple[str, str]) -> None:
        self.selected_tile = tile
        self._refresh()

    def _do(self, action: Any, seat: int) -> None:
        assert self.table is not None
        try:
            self.table.act(action, seat)
        except IllegalAction as refused:
            self._say(refused.reason[:1].upper() + refused.reason[1:], error=True)
            return
        self._say("")
        self._after_move()

    def _on_board(self, intent: Intent) -> None:
        """Board clicks turned into actions for the person to move; the engine judges them."""
        table = self.table
        if table is None or table.game.is_over():
            return
        people = table.people_to_move()
        if not people or table.game.phase == "program":
            return
        seat, game = people[0], table.game
        action: Any = None
        if intent.kind == "point" and game.phase == "place":
            action = Place(*intent.at)
        elif intent.kind == "point" and game.phase == "perform" and self.selected_tile:
            here = [p for p in game.penguins_of(seat) if game.pos[p] == intent.at]
            if not here:
                raise IllegalAction("walk", f"point {intent.at}", "click one of your own penguins")
            action = Perform(*self.selected_tile, here[0])
        elif intent.kind == "point" and game.phase == "push":
            sides = game.push_sides
            chosen = [side for side, moves in sides.items() if any(to == intent.at for _, to in moves)]
            if chosen:
                action = PushAside(chosen[0])
        elif intent.kind == "cell" and game.phase == "break":
            half = next((h for h in game.halves if intent.at in h), None)
            if half is not None:
                action = BreakOff(*min(half))
        if action is None:
            return
        table.act(action, seat)  # an IllegalAction shows on the board next to the click
        self._say("")
        self._after_move()

    # ----- the end, undo, save and load --------------------------------------------------------------

    def _show_end(self) -> None:
        table = self.table
        assert table is not None
        outcome = table.game.outcome()
        assert outcome is not None
        winners = " and ".join(_seat_name(s) for s in outcome.winners)
        verb = "share the win" if len(outcome.winners) > 1 else "wins"
        self._draw(status=f"<b class='cc-result'>{winners} {verb}</b>: {html.escape(outcome.termination)}.")
        again = self._button("New game", "cc-new", self._show_setup, "primary")
        self.panel.children = [again]

    def _undo(self) -> None:
        if self.table is None or not self.table.can_undo():
            return
        self.table.undo()
        self._say("Undone.")
        self._refresh()

    def _update_save_link(self) -> None:
        assert self.table is not None
        if self.table.game.secret_at:
            # A save holds the whole log: offering it now would show settings that are still secret.
            self.save_link.value = "<span class='cc-save-later' title='after the reveal'>Save after the reveal</span>"
            return
        data = base64.b64encode(self.table.to_json().encode()).decode()
        self.save_link.value = (
            f"<a class='cc-save' download='click_crack.json' href='data:application/json;base64,{data}'>Save</a>"
        )

    def load_text(self, text: str) -> None:
        """Load a saved game; a bad file is reported and the current game stays."""
        try:
            table = Table.from_json(text)
        except (CliplabError, ValueError, TypeError) as err:
            self._say(f"Could not load that file: {err}", error=True)
            return
        self.table = table
        self._say("Loaded.")
        self._refresh()

    def _load(self, change: dict[str, Any]) -> None:
        files = change["new"]
        if not files:
            return
        content = files[0]["content"]
        self.load_text(bytes(content).decode("utf-8", errors="replace"))


def describe_empty() -> Scene:
    """The floe before anyone sits down."""
    game = new_game("click_crack", players=2)
    assert isinstance(game, ClickCrack)
    return describe(game)
