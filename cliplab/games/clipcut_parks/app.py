"""The ClipCut Parks playtest dashboard: a player's sheet and cards (a Grid) beside controls.

Cutting is done on the sheet: the points where a cut may start are ringed; click one, and the points
where a cut from it may end are ringed instead; click one of those and the cut is made. Sections that
come free wait in the tray: drag one onto a card, or click it, turn it with R (or the Rotate button)
and click the space where the square you picked it up by should go. The engine judges every try and
its reason appears next to the place that was clicked.

Everyone's table is open information, so a hot-seat game needs no secrecy: the screen shows the seat
of the person who acts (any seat can be looked at), and bots act when the bot buttons are pressed.
"""

from __future__ import annotations

import base64
import functools
import html
import logging
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from cliplab.engine import CHANCE, Action, CliplabError, IllegalAction
from cliplab.grid import Point
from cliplab.ui import Intent, Scene
from cliplab.ui.widget import Grid

from .board import (
    BONUS_WORDS,
    card_ref,
    card_title,
    cut_between,
    cuts_from,
    describe,
    die_text,
    section_words,
    start_points,
    tokens_spent,
)
from .explain import why_illegal
from .rules import DIRS, ClipCutParks, Crumple, Cut, Deal, Keep, Place, Roll, Score, TearSheet, card_of
from .session import PERSON, Table, seat_kinds

# mode -> (label, fewest players, most players, options; grand parks are added from their own box)
MODES: dict[str, tuple[str, int, int, dict[str, Any]]] = {
    "standard": ("Standard game (2-4 players)", 2, 4, {}),
    "longer": ("Longer game: 7 cards each (2-4 players)", 2, 4, {"longer": True}),
    "grand": ("Grand parks (2-4 players)", 2, 4, {}),
    "solo": ("Solo", 1, 1, {}),
    "grand_solo": ("Grand parks solo", 1, 1, {}),
}
GRAND_MODES = ("grand", "grand_solo")
STAGE_WORDS = {
    "cut": "cutting",
    "keep": "choosing a part to keep",
    "bonus": "making a bonus cut",
    "build": "building",
    "check": "choosing a card to score",
    "done": "done this round",
}
ERROR = "#D55E00"
log = logging.getLogger(__name__)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


class ClipCutApp:
    """The dashboard. `app.widget` is what a notebook or Voila shows."""

    def __init__(self, mode: str = "solo", players: int = 2, seed: int = 0, grand_parks: int = 1) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; choose from {', '.join(MODES)}")
        self.table: Table | None = None
        self.view_seat = 0  # whose table is on screen (and whose clicks are made, if a person's)
        self.start: Point | None = None  # the chosen start point of a cut
        self.flip_tray = False
        self.seq = 0  # counts redraws: a hook for tests waiting for the page to catch up
        self.grid = Grid()
        self.grid.on("any", self._on_board)

        self.status = self._html("cp-status")
        self.message = self._html("cp-message")
        self.panel = w.VBox()
        self.panel.add_class("cp-panel")
        self.people = self._html("cp-players")
        self.views = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.cards = self._html("cp-cards")
        self.log = self._html("cp-log")
        self.tag = self._html("cp-state")
        self.undo_button = self._button("Undo", "cp-undo", self._undo)
        self.new_button = self._button("New game", "cp-new", self._show_setup)
        self.save_link = self._html("cp-save-box")
        self.upload = w.FileUpload(accept=".json", multiple=False, description="Load")
        self.upload.add_class("cp-load")
        self.upload.observe(self._load, names="value")

        self.mode = w.Dropdown(options=[(label, key) for key, (label, *_) in MODES.items()], value=mode)
        self.mode.description = "Mode"
        self.mode.add_class("cp-mode")
        self.players = w.BoundedIntText(value=max(2, min(4, players)), min=2, max=4, description="Players")
        self.players.add_class("cp-players-count")
        self.grand = w.BoundedIntText(value=max(1, min(3, grand_parks)), min=1, max=3, description="Grand parks")
        self.grand.add_class("cp-grand")
        self.seed = w.IntText(value=seed, description="Seed")
        self.seed.add_class("cp-seed")
        self.sheets = w.ToggleButtons(
            options=[("A sheet each from the pad", "pad"), ("Everyone the standard sheet", "standard")],
            value="pad",
            description="Sheets",
        )
        self.sheets.add_class("cp-sheets")
        self.voluntary = w.Checkbox(value=False, description="sections may be crumpled even if they fit")
        self.voluntary.add_class("cp-voluntary")
        self.allow_flip = w.Checkbox(value=False, description="sections may be turned over")
        self.allow_flip.add_class("cp-allow-flip")
        self.seat_choices: list[w.Dropdown] = []
        self.mode.observe(lambda _: self._show_setup(), names="value")
        self.players.observe(lambda _: self._show_setup(), names="value")

        tools = w.HBox(
            [self.undo_button, self.upload, self.save_link, self.new_button],
        )
        side = w.VBox(
            [self.status, self.message, self.panel, self.views, self.people, self.cards, tools, self.log, self.tag],
            layout=w.Layout(flex="0 1 400px", min_width="300px"),
        )
        self.grid.widget.layout = w.Layout(flex="1 1 620px", min_width="360px")
        self.widget = w.HBox([self.grid.widget, side], layout=w.Layout(flex_flow="row wrap"))
        self.widget.add_class("cp-app")
        self._show_setup()

    # ----- small builders ---------------------------------------------------------------------------

    @staticmethod
    def _html(css: str) -> w.HTML:
        box = w.HTML()
        box.add_class(css)
        return box

    @staticmethod
    def _button(text: str, css: str, handler: Callable[[], Any], style: str = "", tip: str = "") -> w.Button:
        button = w.Button(
            description=text, button_style=style, tooltip=tip, layout=w.Layout(min_height="36px", width="auto")
        )
        button.add_class(css)
        button.on_click(lambda _: handler())
        return button

    def _say(self, text: str, error: bool = False) -> None:
        colour = ERROR if error else "inherit"
        weight = "600" if error else "400"
        self.message.value = (
            f"<div style='color:{colour};font-weight:{weight}'>{html.escape(text)}</div>" if text else ""
        )

    def _who(self, seat: int) -> str:
        if self.table is not None and self.table.game.players == 1:
            return "You" if self.table.is_person(0) else "The bot"
        return f"Player {seat}"

    # ----- setup ------------------------------------------------------------------------------------

    def _show_setup(self) -> None:
        self.table = None
        self.start = None
        mode = self.mode.value
        most = MODES[mode][2]
        count = 1 if most == 1 else self.players.value
        old = [choice.value for choice in self.seat_choices]
        kinds = seat_kinds()
        bots = sorted((kind for kind in kinds if kind != PERSON), key=lambda kind: kind == "planning")
        self.seat_choices = []
        for seat in range(count):
            default = old[seat] if seat < len(old) and old[seat] in kinds else (PERSON if seat == 0 else bots[-1])
            choice = w.Dropdown(
                options=[(kind if kind == PERSON else f"{kind} bot", kind) for kind in kinds],
                value=default,
                description="You" if count == 1 else f"Player {seat}",
            )
            choice.add_class(f"cp-seat-{seat}")
            self.seat_choices.append(choice)
        fields: list[w.Widget] = [self.mode]
        if most > 1:
            fields.append(self.players)
        if mode in GRAND_MODES:
            fields.append(self.grand)
        fields += [*self.seat_choices, self.seed, self.sheets, self.voluntary, self.allow_flip]
        fields.append(self._button("Start game", "cp-start", self._start, "primary"))
        self.panel.children = fields
        self.status.value = "<b>Choose a mode and who plays each seat.</b>"
        self.views.children = []
        self.people.value = self.cards.value = self.log.value = self.save_link.value = ""
        self.undo_button.disabled = True
        self.grid.show(Scene((), title="ClipCut Parks", status="Set up a game to begin."))
        self._tag()

    def _options(self) -> dict[str, Any]:
        mode = self.mode.value
        options = dict(MODES[mode][3])
        if mode in GRAND_MODES:
            options["grand_parks"] = self.grand.value
        options["sheets"] = self.sheets.value
        if self.voluntary.value:
            options["voluntary_crumple"] = True
        if self.allow_flip.value:
            options["allow_flip"] = True
        return options

    def _start(self) -> None:
        seats = [choice.value for choice in self.seat_choices]
        try:
            self.table = Table.new(seats, seed=self.seed.value, **self._options())
        except (CliplabError, ValueError) as err:
            self._say(f"Could not start: {err}", error=True)
            return
        self.view_seat = 0
        self.start = None
        self.flip_tray = False
        self._say("")
        self._follow()
        self._refresh()

    # ----- the flow of play --------------------------------------------------------------------------

    @property
    def game(self) -> ClipCutParks:
        assert self.table is not None
        return self.table.game

    def acting_seat(self) -> int | None:
        """The seat whose clicks the board takes now: the seat on screen, if a person is to move there."""
        table = self.table
        if table is None or table.game.is_over():
            return None
        seat = self.view_seat
        return seat if table.is_person(seat) and seat in table.game.to_move() else None

    def _follow(self) -> None:
        """Show the seat of a person who must act, if the seat on screen needs nothing from its person."""
        table = self.table
        if table is None or self.acting_seat() is not None:
            return
        people = table.people_to_move()
        if people:
            self.view_seat = people[0]
        elif not table.game.to_move() or self.view_seat not in table.game.to_move():
            movers = table.game.to_move()
            if movers:
                self.view_seat = movers[0]

    def scene(self) -> Scene:
        seat = self.acting_seat()
        start = self.start if seat is not None else None
        return describe(self.game, self.view_seat, start, interactive=seat is not None, flipped=self.flip_tray)

    def _refresh(self) -> None:
        if self.table is None:
            self._show_setup()
            return
        game = self.game
        seat = self.acting_seat()
        if self.start is not None and (seat is None or not cuts_from(game, seat, self.start)):
            self.start = None  # nothing can be cut from the chosen point any more
        self.grid.show(self.scene())
        self._update_side()
        if game.is_over():
            self._show_end()
        else:
            self._show_controls()
        self._tag()

    def _tag(self) -> None:
        """A hidden summary for tests: which redraw this is, and what the page is waiting for."""
        self.seq += 1
        values: dict[str, Any] = {"seq": self.seq, "grid": self.grid.widget.revision}
        if self.table is not None:
            game = self.game
            seat = self.acting_seat()
            values.update(
                log=len(game.log),
                seat=self.view_seat,
                acting="" if seat is None else seat,
                stage="over" if game.is_over() else game.stage[self.view_seat],
                start="" if self.start is None else f"{self.start[0]},{self.start[1]}",
                round=game.round,
            )
        attrs = " ".join(f"data-{key}='{html.escape(str(value), quote=True)}'" for key, value in values.items())
        self.tag.value = f"<span class='cp-tag' {attrs} hidden></span>"

    def _update_side(self) -> None:
        table = self.table
        assert table is not None
        game = table.game
        # Who plays, and how far each has come.
        rows = []
        for s in range(game.players):
            here = " style='font-weight:700'" if s == self.view_seat else ""
            stage = "finished" if game.is_over() else STAGE_WORDS.get(game.stage[s], game.stage[s])
            tokens = ", ".join(f"{n} {t}" for t, n in game.tokens[s].items() if n) or "none"
            target = f"{len(game.completed[s])}" + ("" if game.solo else f" of {game.dealt[s]}")
            kind = table.seats[s] if table.seats[s] == PERSON else f"{table.seats[s]} bot"
            rows.append(
                f"<tr{here} data-seat='{s}'><td style='white-space:nowrap'>{html.escape(self._who(s))}<br>"
                f"<small>{html.escape(kind)}</small></td><td>{html.escape(stage)}</td>"
                f"<td class='cp-done'>{target}</td><td>{len(game.crumpled[s])}</td><td>{html.escape(tokens)}</td></tr>"
            )
        head = "<tr><th></th><th>now</th><th>cards done</th><th>crumpled</th><th>tokens</th></tr>"
        self.people.value = (
            f"<table style='width:100%;font-size:13px;line-height:1.3;text-align:left'>{head}{''.join(rows)}</table>"
        )
        if game.players > 1:
            self.views.children = [self._view_button(s) for s in range(game.players)]
        else:
            self.views.children = []
        self.cards.value = self._cards_html()
        self.log.value = self._log_html()
        self.undo_button.disabled = not table.can_undo()
        data = base64.b64encode(table.to_json().encode()).decode()
        self.save_link.value = (
            f"<a class='cp-save' download='clipcut_parks.json' href='data:application/json;base64,{data}' "
            "style='display:inline-block;padding:8px 4px'>Save</a>"
        )

    def _view_button(self, seat: int) -> w.Button:
        button = self._button(f"Show {self._who(seat)}", f"cp-view-{seat}", lambda: self._view(seat))
        button.button_style = "info" if seat == self.view_seat else ""
        return button

    def _view(self, seat: int) -> None:
        self.view_seat = seat
        self.start = None
        self._refresh()

    def _cards_html(self) -> str:
        game = self.game
        seat = self.view_seat
        items = []
        for ref in game.face_up[seat]:
            card = card_of(ref)
            free = len(game.free_spaces(seat, ref))
            items.append(
                f"<li>{html.escape(card_title(ref))}: {free} of {len(card.cells)} spaces free; "
                f"bonus {html.escape(BONUS_WORDS[card.bonus])}</li>"
            )
        done = ", ".join(html.escape(card_title(ref)) for ref in game.completed[seat]) or "none yet"
        pile = f"{len(game.pile[seat])} cards in the pile"
        return (
            f"<div><b>{html.escape(self._who(seat))}: cards</b><ul style='margin:2px 0'>{''.join(items)}</ul>"
            f"<div class='cp-completed'>Completed: {done}</div><div>{pile}</div></div>"
        )

    # ----- the log ----------------------------------------------------------------------------------------

    def log_lines(self) -> list[str]:
        """The game's log in words: the action texts with card names, tokens spent and cards completed."""
        game = self.game
        last_place: dict[tuple[int, tuple[str, int]], int] = {}
        for index, (seat, action) in enumerate(game.log):
            if isinstance(action, Place):
                last_place[(seat, (action.kind, action.card))] = index
        lines: list[str] = []
        deals = 0
        rounds = 0
        for index, (seat, action) in enumerate(game.log):
            if isinstance(action, Deal):
                deals += 1
                following = game.log[index + 1][1] if index + 1 < len(game.log) else None
                if not isinstance(following, Deal):
                    lines.append(f"{deals} cards dealt")
                    deals = 0
                continue
            if seat == CHANCE:
                if isinstance(action, Roll):
                    rounds += 1
                    lines.append(f"Round {rounds}: the die shows {die_text(action.face)}")
                elif isinstance(action, TearSheet):
                    lines.append(_capital(str(action)))
                else:
                    lines.append(f"Chance: {action}")
                continue
            text = f"{self._who(seat)}: {action}"
            if isinstance(action, Place):
                ref = (action.kind, action.card)
                notes = [card_of(ref).name]
                spent = tokens_spent(game, seat, action)
                notes += [f"spent {n} {token} token{'s' if n > 1 else ''}" for token, n in spent.items()]
                if ref in game.completed[seat] and last_place.get((seat, ref)) == index:
                    notes.append(f"completed it: {BONUS_WORDS[card_of(ref).bonus]}")
                text += f" ({'; '.join(notes)})"
            elif isinstance(action, Score):
                text += f" ({card_of((action.kind, action.card)).name})"
            lines.append(text)
        return lines

    def _log_html(self) -> str:
        lines = self.log_lines()
        recent = "".join(f"<li>{html.escape(line)}</li>" for line in lines[-14:])
        first = max(1, len(lines) - 13)
        return (
            f"<details open><summary>Log ({len(self.game.log)} entries)</summary>"
            f"<ol start='{first}' style='margin:2px 0;padding-left:2.4em;font-size:13px'>{recent}</ol></details>"
        )

    # ----- controls beside the board ----------------------------------------------------------------

    def _show_controls(self) -> None:
        table = self.table
        assert table is not None
        game = table.game
        seat = self.acting_seat()
        who = html.escape(self._who(self.view_seat))
        controls: list[w.Widget] = []
        if seat is None:
            stage = game.stage[self.view_seat]
            if self.view_seat in game.to_move():
                self.status.value = (
                    f"<b>{who}</b> ({html.escape(table.seats[self.view_seat])}) is {STAGE_WORDS[stage]}."
                )
            else:
                waiting = ", ".join(self._who(s) for s in game.to_move())
                self.status.value = f"<b>{who}</b> is done this round. Waiting for {html.escape(waiting)}."
        else:
            controls += self._person_controls(seat)
        if table.bots_to_move():
            names = ", ".join(self._who(s) for s in table.bots_to_move())
            controls.append(w.HTML(f"Bots to act: {html.escape(names)}"))
            controls.append(
                w.HBox(
                    [
                        self._button("Bot step", "cp-bot-step", self._bot_step, "primary" if seat is None else ""),
                        self._button("Run bots", "cp-run-bots", self._run_bots),
                    ],
                )
            )
        self.panel.children = controls

    def _person_controls(self, seat: int) -> list[w.Widget]:
        game = self.game
        stage = game.stage[seat]
        who = f"<b>{html.escape(self._who(seat))}</b>"
        if stage in ("cut", "bonus"):
            if stage == "bonus":
                task = "make a bonus cut of length 1 or 2"
            else:
                lengths = [str(n) for n in sorted(game.to_cut[seat])]
                task = (
                    f"make a {lengths[0]} cut"
                    if len(lengths) == 1
                    else f"make cuts of {', '.join(lengths[:-1])} and {lengths[-1]}"
                )
            if self.start is None:
                self.status.value = f"{who}: {task}. Click a ringed point to start a cut."
                return []
            r, c = self.start
            self.status.value = (
                f"{who}: {task}. The cut starts at point {r},{c}: click a ringed point to end it "
                "(click the start again to choose another)."
            )
            return [self._button("Choose another start", "cp-cancel", self._cancel_start)]
        if stage == "keep":
            self.status.value = (
                f"{who}: the cut left parts of equal largest size. Click a square of the part that stays your sheet; "
                "the others come free."
            )
            buttons = []
            for part in game.tied[seat]:
                r, c = min(part)
                buttons.append(
                    self._button(
                        f"Keep the part with square {r},{c} ({len(part)} squares)",
                        f"cp-keep-{r}-{c}",
                        functools.partial(self._do, Keep(r, c)),
                    )
                )
            return buttons
        if stage == "build":
            self.status.value = (
                f"{who}: build the sections that came free. Drag one onto a card, or click it, press R to turn "
                "it, and click the space for the square you picked it up by."
            )
            legal = set(game.legal_actions(seat))
            rows: list[w.Widget] = []
            for section in game.pending[seat]:
                fits = len(game.fits(seat, section))
                crumple = self._button(
                    f"Crumple section {section}",
                    f"cp-crumple-{section}",
                    functools.partial(self._do, Crumple(section)),
                    "warning" if not fits else "",
                    "It fits nowhere: crumple it" if not fits else "A section that fits must be placed",
                )
                crumple.disabled = Crumple(section) not in legal
                where = f"{fits} way{'s' if fits != 1 else ''} to place it" if fits else "fits on no card"
                note = w.HTML(f"Section {section}: {html.escape(section_words(game, seat, section))}; {where}")
                rows.append(w.VBox([note, crumple]))
            if game.option("allow_flip"):
                flip = w.ToggleButton(value=self.flip_tray, description="Sections turned over")
                flip.add_class("cp-flip")
                flip.observe(lambda change: self._flip(change["new"]), names="value")
                rows.append(flip)
            return rows
        if stage == "check":
            self.status.value = f"{who}: several cards are complete. Choose which to score first."
            return [
                self._button(
                    f"Score {card_title((a.kind, a.card))} first",
                    f"cp-score-{a.kind}-{a.card}",
                    functools.partial(self._do, a),
                    "primary",
                )
                for a in game.legal_actions(seat)
                if isinstance(a, Score)
            ]
        self.status.value = f"{who} is done this round."
        return []

    def _flip(self, value: bool) -> None:
        self.flip_tray = bool(value)
        self.grid.show(self.scene())
        self._tag()

    def _cancel_start(self) -> None:
        self.start = None
        self._refresh()

    # ----- acting -----------------------------------------------------------------------------------

    def _act(self, action: Action) -> None:
        """A person's action for the seat on screen; IllegalAction leaves everything as it was."""
        seat = self.acting_seat()
        if seat is None:
            raise IllegalAction("turn order", action, "it is not a person's turn on this table now")
        before = (self.game.round, len(self.game.completed[seat]))
        self.table.act(action, seat)  # type: ignore[union-attr]
        self.start = None
        self._say(self._news(seat, before))
        self._follow()
        self._refresh()

    def _news(self, seat: int, before: tuple[int, int]) -> str:
        game = self.game
        news = []
        done = game.completed[seat][before[1] :]
        for ref in done:
            news.append(f"Completed {card_title(ref)}: {BONUS_WORDS[card_of(ref).bonus]}.")
        if game.is_over():
            news.append("The game is over.")
        elif game.round != before[0]:
            news.append(f"Round {game.round}: the die shows {die_text(game.face)}.")
        return " ".join(news)

    def _do(self, action: Action) -> None:
        """An action from a button: a refusal is shown beside the controls."""
        try:
            self._act(action)
        except IllegalAction as refused:
            self._say(_capital(refused.reason), error=True)

    def _on_board(self, intent: Intent) -> None:
        """Clicks and drops on the board, turned into actions; the engine judges them."""
        seat = self.acting_seat()
        if seat is None:
            return
        game = self.game
        stage = game.stage[seat]
        if intent.kind == "point" and stage in ("cut", "bonus"):
            self._point(seat, intent.at)
        elif intent.kind == "cell" and stage == "keep":
            self._act(Keep(*intent.at))
        elif intent.kind == "drop" and stage == "build":
            ref = card_ref(intent.board)
            assert ref is not None and intent.piece is not None  # the scene only takes drops on cards
            section = int(intent.piece.removeprefix("s"))
            turns = intent.turns + (4 if self.flip_tray else 0)
            self._act(Place(section, ref[0], ref[1], intent.at[0], intent.at[1], turns))

    def _point(self, seat: int, point: Point) -> None:
        """The first click chooses one end of a cut (the ringed starts, or any end of a legal cut), the
        second its other end; the engine names the line from whichever end a cut may start at."""
        game = self.game
        starts = start_points(game, seat)
        if self.start is None:
            if point not in starts and not cuts_from(game, seat, point):
                raise self._not_a_start(seat, point)
            self.start = point
            self._say("")
            self._refresh()
            return
        if point == self.start:
            self.start = None
            self._refresh()
            return
        legal = cuts_from(game, seat, self.start)
        if point in legal:
            self._act(legal[point])
            return
        cut = cut_between(self.start, point)
        wanted = (1, 2) if game.stage[seat] == "bonus" else tuple(game.to_cut[seat])
        if cut is not None and cut.length in wanted:
            self._act(cut)  # not a legal cut: refused here with the engine's reason
            return
        if point in starts or cuts_from(game, seat, point):  # a change of mind: start from here instead
            self.start = point
            self._refresh()
            return
        if cut is None:
            r, c = self.start
            raise IllegalAction(
                "cut",
                f"from {r},{c} to {point[0]},{point[1]}",
                f"a cut runs straight along one line: end it in row {r} or column {c} of the points, "
                "or click the start point again to choose another",
            )
        self._act(cut)

    def _not_a_start(self, seat: int, point: Point) -> IllegalAction:
        """Why no cut can start at `point`, in the engine's words."""
        game = self.game
        lengths = sorted({1, 2} if game.stage[seat] == "bonus" else set(game.to_cut[seat]))
        reasons = []
        for direction in DIRS:
            for length in lengths:
                cut = Cut(length, point[0], point[1], direction)
                rule, reason = why_illegal(game, seat, cut)
                reasons.append((rule, cut, reason))
        useful = [entry for entry in reasons if "run off" not in entry[2]] or reasons
        rule, cut, reason = useful[0]
        return IllegalAction(rule, cut, reason, seat)

    def _bot_step(self) -> None:
        self._bots(lambda table: table.next_bot_step())

    def _run_bots(self) -> None:
        self._bots(lambda table: table.run_bots())

    def _bots(self, move: Callable[[Table], Any]) -> None:
        if self.table is None:
            return
        try:
            move(self.table)
        except Exception as err:  # a bot's bug must not take the dashboard down; its failed move changed nothing
            log.exception("a ClipCut Parks bot failed")
            self._say(f"A bot failed and did not move: {err}", error=True)
            self._refresh()
            return
        self._say("")
        self._follow()
        self._refresh()

    # ----- the end, undo, save and load --------------------------------------------------------------

    def end_summary(self) -> tuple[str, list[tuple[str, str]]]:
        """The result in words and the score broken down as (line, value) rows."""
        game = self.game
        outcome = game.outcome()
        assert outcome is not None
        if game.solo:
            lines = [(name, f"{value:+d}") for name, value in game.solo_breakdown().items()]
            total = int(outcome.scores[0])
            lines.append(("total", str(total)))
            return f"Final score: {total}", lines
        rows = []
        for s in range(game.players):
            rows.append(
                (
                    self._who(s),
                    f"{len(game.completed[s])} of {game.dealt[s]} cards completed, {len(game.crumpled[s])} crumpled, "
                    f"largest section on a card {game.largest_section(s)}",
                )
            )
        names = " and ".join(self._who(s) for s in outcome.winners)
        verb = "share the win" if len(outcome.winners) > 1 else "wins"
        return f"{names} {verb} ({self._tie_break()})", rows

    def _tie_break(self) -> str:
        game = self.game
        seats = list(range(game.players))
        best = max(len(game.completed[s]) for s in seats)
        leaders = [s for s in seats if len(game.completed[s]) == best]
        if len(leaders) == 1:
            return "most cards completed"
        fewest = min(len(game.crumpled[s]) for s in leaders)
        leaders = [s for s in leaders if len(game.crumpled[s]) == fewest]
        if len(leaders) == 1:
            return "tied on cards; tie-break: fewer crumpled sections"
        largest = max(game.largest_section(s) for s in leaders)
        leaders = [s for s in leaders if game.largest_section(s) == largest]
        if len(leaders) == 1:
            return "tied on cards and crumpled sections; tie-break: the larger single section on a card"
        return "tied on cards, crumpled sections and largest section: the win is shared"

    def _show_end(self) -> None:
        game = self.game
        headline, rows = self.end_summary()
        self.status.value = (
            f"<b class='cp-result'>{html.escape(headline)}</b><br>The game ended: {html.escape(game.ended)}, "
            f"after {game.round} rounds."
        )
        body = "".join(
            f"<tr data-line='{html.escape(name, quote=True)}'><td>{html.escape(name)}</td>"
            f"<td style='text-align:right'><b>{html.escape(value)}</b></td></tr>"
            for name, value in rows
        )
        table = w.HTML(f"<table class='cp-breakdown' style='width:100%'>{body}</table>")
        self.panel.children = [table, self._button("New game", "cp-again", self._show_setup, "primary")]

    def _undo(self) -> None:
        if self.table is None or not self.table.can_undo():
            return
        self.table.undo()
        self.start = None
        self._say("Undone.")
        self._follow()
        self._refresh()

    def load_text(self, text: str) -> None:
        """Load a saved game; a bad file is reported and the current game stays."""
        try:
            table = Table.from_json(text)
        except (CliplabError, ValueError, TypeError) as err:
            self._say(f"Could not load that file: {err}", error=True)
            self._tag()
            return
        self.table = table
        self.view_seat = 0
        self.start = None
        self.flip_tray = False
        self._say("Loaded.")
        self._follow()
        self._refresh()

    def _load(self, change: dict[str, Any]) -> None:
        files = change["new"]
        if not files:
            return
        content = files[0]["content"]
        self.load_text(bytes(content).decode("utf-8", errors="replace"))
