"""The table app: one dashboard for every registered game, built from its declaration (cliplab.kit).

    from cliplab.ui.table_app import TableApp
    TableApp("click_crack").show()

The app holds everything that is the same in every game: the setup form read from the game's spec (player
count, options and variants with their help texts, each seat a person or one of the game's bots, the
seed), the hot-seat table (cliplab.ui.table: seats, bot steps, undo, save and load), bot pacing, the log
in words, hand-over screens before a person decides in secret, the reveal when secrets come out, and the
end screen from the game's Outcome and score breakdown. A game adds only its `Picture`.

Writing a picture
-----------------
Subclass `Picture` and name the class in the game's declaration (`picture="pkg.module:MyPicture"`). The
app makes one picture for its lifetime, `MyPicture(app)`, and asks it, each time the screen is drawn.

What a picture is shown. Every method gets `view`, a copy of the game holding only what may be on the
screen now (`State.view`): the view of `seat` while that seat's person has the screen (after a
hand-over, or when they play alone), else the spectator's view, what everyone at the table may see. A
picture draws and decides from it alone, so it cannot show a secret. `seat` is the seat on screen.

Required:

- `scene(view, seat, acting) -> Scene`: the board of `seat`. `acting` is True when the seat's person
  decides now: mark what may be clicked and make only those kinds of place clickable.
- `click(view, seat, intent) -> Action | None`: the action a checked click or drop stands for; the app
  gives it to the engine, whose refusal (IllegalAction) is shown on the board where the person clicked.
  Return None when the click only changed the picture's own state (a chosen start point, the first of
  two clicks); the app then redraws. Raise IllegalAction yourself to refuse a click with a reason.
- `controls(view, seat) -> (status, widgets)`: for the person deciding now, the line that says what to
  do (HTML; name the seat first, e.g. "<b>Player 1</b>: ...") and any extra controls (buttons for
  choices the board cannot take, forms for secret decisions). A control acts through `self.app.do(action)`
  (refusals appear beside the controls) and redraws through `self.app.refresh()`; `self.app.who(seat)`
  is a seat's name on screen.

Optional (each has a plain default):

- `reset()`: forget selections; called when a game starts or is loaded, after every person's action and
  after an undo.
- `doing(view, seat) -> str`: what a seat whose person is not deciding now is doing ("is cutting").
- `seat_facts(view, seat) -> dict`: extra columns of the players' table, by heading (the score column
  comes from the declaration's live scores).
- `side(view, seat) -> str`: HTML shown under the players' table (a seat's cards, say).
- `entry_words(view, index) -> str | None`: log entry `index` of the spectator's view in words, without
  the player's name (None leaves it out; chance entries have `seat == CHANCE`, face-down ones are
  `HiddenChance`). Secret decisions are never asked for: the log says "<who> <secret_words>".
- `reveal_words(game, index) -> str`: a secret decision in words when the reveal shows it.
- `news(before, after, seat) -> str`: what to tell the person after their action (a card completed).
- `note(view, seat, intent) -> str | None`: after a click that only changed the picture (`click`
  returned None), a note shown on the board beside the place clicked (why a half-made choice is not
  legal yet, say); None shows none.
- `tag(view, seat) -> dict`: extra values on the hidden page tag that browser tests wait on.
- `end_controls(view, seat) -> list`: widgets shown with the result once the game is over (a replay of
  how it ended, say); they may redraw the board with `self.app.grid.show(...)`.
- `own_boards`: True when each seat has its own board (the app then offers "Show Player N" buttons).
- `secret_words`: how the log names a decision still secret ("set their tiles in secret").

What the app decides, so a picture need not: whose seat is on screen; when the screen must be passed
(a person about to decide in secret, `Action.SECRET`, or who may see more than the others); that bots
with secret decisions decide at once; when secrets are revealed (and the reveal screen); what undo may
take back; when a save may be offered (`save_refusal`); the end screen's result, ranks,
the tie-break that decided (`Outcome.decided_by`) and the breakdown (the declaration's `breakdown`).

Class names on the page are "tb-..." for the app's own parts; a picture prefixes its controls with its
own short prefix (Click & Crack "cc-", ClipCut Parks "cp-").
"""

from __future__ import annotations

import base64
import html
import logging
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from cliplab.engine import CHANCE, Action, CliplabError, Hidden, IllegalAction, Option, State, new_game
from cliplab.kit import Declaration, declaration

from .intents import Intent
from .scene import PALETTE, SEAT_COLOURS, Scene
from .table import PERSON, HotSeatTable, secret_entries
from .widget import Grid

ERROR = "#D55E00"
LOG_LINES = 14
log = logging.getLogger(__name__)


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def decided_words(decided_by: str) -> str:
    """What set the winners apart (Outcome.decided_by), in words."""
    if decided_by == "score":
        return "the highest score"
    if decided_by == "tied":
        return "tied on the score and on every tie-break"
    return f"tied on the score; the tie-break: {decided_by}"


def swatch(seat: int) -> str:
    colour = PALETTE[SEAT_COLOURS[seat % len(SEAT_COLOURS)]][0]
    return f"<span style='display:inline-block;width:.8em;height:.8em;border-radius:50%;background:{colour}'></span>"


def button(text: str, css: str, handler: Callable[[], Any], style: str = "", tip: str = "") -> w.Button:
    """A button with a class tests and styles can find; `handler` takes no arguments."""
    made = w.Button(description=text, button_style=style, tooltip=tip, layout=w.Layout(min_height="34px", width="auto"))
    made.add_class(css)
    made.on_click(lambda _: handler())
    return made


class Picture:
    """How one game looks at the table: its board drawing, what a click means, its extra controls.

    See the module's docstring for what each method is asked and when.
    """

    own_boards = False
    secret_words = "decided in secret"

    def __init__(self, app: TableApp) -> None:
        self.app = app

    def scene(self, view: State, seat: int, acting: bool) -> Scene:
        raise NotImplementedError

    def click(self, view: State, seat: int, intent: Intent) -> Action | None:
        raise IllegalAction(intent.kind, intent.kind, "nothing on the board can be clicked now")

    def controls(self, view: State, seat: int) -> tuple[str, list[w.Widget]]:
        return f"<b>{html.escape(self.app.who(seat))}</b>: your turn.", []

    def reset(self) -> None:
        return None

    def doing(self, view: State, seat: int) -> str:
        return "acts next"

    def seat_facts(self, view: State, seat: int) -> dict[str, str]:
        return {}

    def side(self, view: State, seat: int) -> str:
        return ""

    def entry_words(self, state: State, index: int) -> str | None:
        seat, action = state.log[index]
        return f"Chance: {action}" if seat == CHANCE else str(action)

    def reveal_words(self, state: State, index: int) -> str:
        return self.entry_words(state, index) or str(state.log[index][1])

    def news(self, before: State, after: State, seat: int) -> str:
        return ""

    def note(self, view: State, seat: int, intent: Intent) -> str | None:
        return None

    def tag(self, view: State, seat: int) -> dict[str, Any]:
        return {}

    def end_controls(self, view: State, seat: int) -> list[w.Widget]:
        return []


def option_widget(option: Option) -> w.Widget:
    """The setup form's field for one spec option (its help text is its tooltip and the line under it)."""
    words = capital(option.name.replace("_", " "))
    wide = {"description_width": "initial"}
    field: w.Widget
    if option.kind is bool:
        field = w.Checkbox(value=bool(option.default), description=words, indent=False, style=wide)
    elif option.choices:
        field = w.Dropdown(options=list(option.choices), value=option.default, description=words, style=wide)
    elif option.minimum is not None and option.maximum is not None:
        field = w.BoundedIntText(
            value=option.default, min=option.minimum, max=option.maximum, description=words, style=wide
        )
    else:
        field = w.IntText(value=option.default, description=words, style=wide)
    field.tooltip = option.help
    return field


def option_row(option: Option, field: w.Widget) -> w.Widget:
    """A field of the setup form with its help text written out under it."""
    help_line = w.HTML(
        f"<small style='line-height:1.2;display:block;margin:0 0 4px 4px'>{html.escape(option.help)}</small>"
    )
    row = w.VBox([field, help_line])
    row.add_class(f"tb-option-{option.name}")
    return row


class TableApp:
    """The dashboard of one game. `app.widget` (or `app.show()`) is what a notebook or Voila shows.

    `players`, `seed`, `seats`, `variant` and `options` are the setup form's first values.
    """

    def __init__(
        self,
        game: str,
        players: int | None = None,
        seed: int = 0,
        seats: list[str] | None = None,
        variant: str | None = None,
        **options: Any,
    ) -> None:
        self.kit: Declaration = declaration(game)
        self.spec = self.kit.spec
        self.name = game
        self.table: HotSeatTable | None = None
        self.view_seat = 0  # whose board is on screen (and whose clicks are taken, if a person's)
        self.private_seat: int | None = None  # the person who said "I am ..." at the last hand-over
        self.showing_reveal = False
        self.seq = 0  # counts redraws: a hook for tests waiting for the page to catch up
        self.picture: Picture = self.kit.picture_class()(self)
        self.grid = Grid()
        self.grid.on("any", self._on_board)

        self.status = self._html("tb-status")
        self.message = self._html("tb-message")
        self.panel = w.VBox(layout=w.Layout())
        self.panel.add_class("tb-panel")
        self.views = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.seats_box = self._html("tb-players")
        self.side = self._html("tb-side")
        self.log = self._html("tb-log")
        self.tag_box = self._html("tb-state")
        self.undo_button = button("Undo", "tb-undo", self.undo)
        self.new_button = button("New game", "tb-new", self.show_setup)
        self.save_box = self._html("tb-save-box")
        self.upload = w.FileUpload(accept=".json", multiple=False, description="Load")
        self.upload.add_class("tb-load")
        self.upload.observe(self._load, names="value")

        self._build_form(players, seed, seats, variant, options)
        tools = w.HBox(
            [self.undo_button, self.upload, self.save_box, self.new_button],
            layout=w.Layout(flex_flow="row wrap", align_items="center"),
        )
        side = w.VBox(
            [
                self.status,
                self.message,
                self.panel,
                self.views,
                self.seats_box,
                self.side,
                tools,
                self.log,
                self.tag_box,
            ],
            layout=w.Layout(flex="0 1 400px", min_width="300px"),
        )
        self.grid.widget.layout = w.Layout(flex="1 1 560px", min_width="340px")
        self.widget = w.HBox([self.grid.widget, side], layout=w.Layout(flex_flow="row wrap"))
        self.widget.add_class("tb-app")
        self.widget.add_class(f"tb-game-{game}")
        self.show_setup()

    def show(self) -> w.Widget:
        """The app's widget, for the last line of a notebook cell."""
        return self.widget

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    # ----- small builders ---------------------------------------------------------------------------

    @staticmethod
    def _html(css: str) -> w.HTML:
        box = w.HTML()
        box.add_class(css)
        return box

    def say(self, text: str, error: bool = False) -> None:
        colour = ERROR if error else "inherit"
        weight = "600" if error else "400"
        self.message.value = (
            f"<div style='color:{colour};font-weight:{weight}'>{html.escape(text)}</div>" if text else ""
        )

    def who(self, seat: int) -> str:
        """A seat's name on screen: "You" (or "The bot") in a one-player game, else "Player N"."""
        if self.table is not None and self.table.game.players == 1:
            return "You" if self.table.is_person(0) else "The bot"
        return f"Player {seat}"

    def kind_words(self, seat: int) -> str:
        assert self.table is not None
        kind = self.table.seats[seat]
        return kind if kind == PERSON else f"{kind} bot"

    # ----- setup ------------------------------------------------------------------------------------

    def _build_form(
        self, players: int | None, seed: int, seats: list[str] | None, variant: str | None, options: dict[str, Any]
    ) -> None:
        spec = self.spec
        wide = {"description_width": "initial"}
        count = players if players is not None else spec.default_players
        self.players = w.BoundedIntText(
            value=max(spec.min_players, min(spec.max_players, count)),
            min=spec.min_players,
            max=spec.max_players,
            description=f"Players ({spec.min_players}-{spec.max_players})",
            style=wide,
        )
        self.players.add_class("tb-players-count")
        self.players.observe(lambda _: self._show_seat_choices(), names="value")
        self.option_widgets = {option.name: option_widget(option) for option in spec.options}
        for name, value in options.items():
            self.option_widgets[name].value = value
        variant_help = {
            name: ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in chosen.items())
            for name, chosen in spec.variants.items()
        }
        self.variant = w.Dropdown(
            options=[("(no variant: choose options below)", "")]
            + [(f"{name.replace('_', ' ')}: {variant_help[name]}", name) for name in spec.variants],
            value=variant or "",
            description="Variant",
            style=wide,
        )
        self.variant.add_class("tb-variant")
        self.variant.observe(lambda change: self._choose_variant(change["new"]), names="value")
        if variant:
            self._choose_variant(variant)
        self.seed = w.IntText(value=seed, description="Seed", style=wide)
        self.seed.add_class("tb-seed")
        self.seat_choices: list[w.Dropdown] = []
        self._first_seats = list(seats or [])

    def _choose_variant(self, name: str) -> None:
        """A variant fills in its options (the others go back to their defaults)."""
        if not name:
            return
        chosen = self.spec.variants[name]
        for option in self.spec.options:
            self.option_widgets[option.name].value = chosen.get(option.name, option.default)

    def _show_seat_choices(self) -> None:
        count = self.players.value
        old = [choice.value for choice in self.seat_choices] or self._first_seats
        kinds = [PERSON, *self.kit.bot_names()]
        self.seat_choices = []
        for seat in range(count):
            default = (
                old[seat] if seat < len(old) and old[seat] in kinds else PERSON if seat == 0 else self.kit.default_bot
            )
            choice = w.Dropdown(
                options=[(kind if kind == PERSON else f"{kind} bot", kind) for kind in kinds],
                value=default,
                description="You" if count == 1 else f"Player {seat}",
            )
            choice.add_class(f"tb-seat-{seat}")
            self.seat_choices.append(choice)
        if self.table is None:
            self._show_form()

    def _show_form(self) -> None:
        fields: list[w.Widget] = []
        if self.spec.min_players < self.spec.max_players:
            fields.append(self.players)
        fields += self.seat_choices
        if self.spec.variants:
            fields.append(self.variant)
        fields += [option_row(option, self.option_widgets[option.name]) for option in self.spec.options]
        fields += [self.seed, button("Start game", "tb-start", self.start, "primary")]
        self.panel.children = fields

    def show_setup(self) -> None:
        self.table = None
        self.picture.reset()
        self._show_seat_choices()
        self._show_form()
        self.status.value = f"<b>{html.escape(self.spec.title)}</b>: choose the players and the rules, then start."
        self.views.children = []
        self.seats_box.value = self.side.value = self.log.value = self.save_box.value = ""
        self.undo_button.disabled = True
        preview = new_game(self.name, players=self.players.value, seed=self.seed.value)
        self.grid.show(self.picture.scene(preview.view(None), 0, False))
        self._tag()

    def chosen_options(self) -> dict[str, Any]:
        return {name: field.value for name, field in self.option_widgets.items()}

    def start(self) -> None:
        seats = [choice.value for choice in self.seat_choices]
        try:
            table = HotSeatTable.new(self.name, seats, seed=self.seed.value, **self.chosen_options())
        except (CliplabError, ValueError) as err:
            self.say(f"Could not start: {err}", error=True)
            return
        self.say("")
        self.use(table)

    def use(self, table: HotSeatTable) -> None:
        """Play on at `table` (a new game, a loaded one, or one set up by a test or a notebook)."""
        self.table = table
        self.view_seat = 0
        self.private_seat = None
        self.showing_reveal = False
        self.picture.reset()
        self.refresh()

    # ----- who is on screen ----------------------------------------------------------------------------

    @property
    def game(self) -> State:
        assert self.table is not None
        return self.table.game

    def _person_on_screen(self) -> int | None:
        """The seat on screen, if its person is to decide now."""
        table = self.table
        if table is None or table.game.is_over() or self.showing_reveal:
            return None
        seat = self.view_seat
        return seat if table.is_person(seat) and seat in table.game.to_move() else None

    def handover_to(self) -> int | None:
        """The person the screen must be passed to before they decide, if they decide in secret or must see
        something the others may not (a hand of cards)."""
        seat = self._person_on_screen()
        # Even a person playing alone gets the hand-over screen: it is the moment to say what is secret.
        if seat is None or seat == self.private_seat:
            return None
        assert self.table is not None
        return seat if self.table.decides_in_secret(seat) or self.table.sees_more(seat) else None

    def acting_seat(self) -> int | None:
        """The seat whose clicks the board takes now: the seat on screen, if its person decides now."""
        seat = self._person_on_screen()
        return seat if seat is not None and self.handover_to() is None else None

    def _follow(self) -> None:
        """Show the seat of a person who must decide, if the seat on screen needs nothing from its person."""
        table = self.table
        if table is None or self._person_on_screen() is not None:
            return
        people = table.people_to_move()
        movers = table.game.to_move()
        if people:
            self.view_seat = people[0]
        elif movers and self.view_seat not in movers:
            self.view_seat = movers[0]

    def _looking(self, seat: int) -> bool:
        """Whether `seat`'s person is the one looking at the screen (said so at a hand-over, or plays alone)."""
        table = self.table
        assert table is not None
        return seat == self.private_seat or (table.is_person(seat) and len(table.people()) == 1)

    def screen_view(self) -> State:
        """What the screen may show: the view of the seat on screen while its person is looking, else what
        everyone at the table may see (the spectator's view)."""
        seat = self.view_seat
        return self.game.view(seat if self._looking(seat) else None)

    # ----- the flow of play --------------------------------------------------------------------------

    def refresh(self) -> None:
        """Show whatever the table needs next: a person's choice, bots, a hand-over, the reveal, the end."""
        if self.table is None:
            self.show_setup()
            return
        self._secret_bots()
        self._follow()
        game = self.table.game
        view = self.screen_view()
        handover = self.handover_to()
        acting = self.acting_seat()
        self.grid.show(self.picture.scene(view, self.view_seat, acting is not None))
        self._update_side(view)
        if game.is_over():
            self._show_end()
        elif self.showing_reveal:
            self._show_reveal()
        elif handover is not None:
            self._show_handover(handover)
        else:
            self._show_controls(view, acting)
        self._tag()

    def _secret_bots(self) -> None:
        """Bots whose decisions are secret decide at once: there is nothing to watch."""
        table = self.table
        assert table is not None
        reveals = table.reveal_at
        while not table.game.is_over():
            secret = [seat for seat in table.bots_to_move() if table.decides_in_secret(seat)]
            if not secret:
                break
            table.bot_step(secret[0])
        if table.reveal_at != reveals:
            self.showing_reveal = True

    def _show_controls(self, view: State, acting: int | None) -> None:
        table = self.table
        assert table is not None
        game = table.game
        who = f"{swatch(self.view_seat)} <b>{html.escape(self.who(self.view_seat))}</b>"
        controls: list[w.Widget] = []
        if acting is not None:
            self.status.value, controls = self.picture.controls(view, acting)
        elif self.view_seat in game.to_move():
            doing = self.picture.doing(view, self.view_seat)
            self.status.value = f"{who} ({html.escape(self.kind_words(self.view_seat))}) {html.escape(doing)}."
        else:
            waiting = ", ".join(self.who(s) for s in game.to_move())
            self.status.value = f"{who} waits. To act now: {html.escape(waiting)}."
        bots = table.bots_to_move()
        if bots:
            names = ", ".join(self.who(s) for s in bots)
            controls.append(w.HTML(f"Bots to act: {html.escape(names)}"))
            controls.append(
                w.HBox(
                    [
                        button("Next bot step", "tb-bot-step", self.bot_step, "primary" if acting is None else ""),
                        button("Run until a person is needed", "tb-run-bots", self.run_bots),
                    ],
                    layout=w.Layout(flex_flow="row wrap"),
                )
            )
        self.panel.children = controls

    def _show_handover(self, seat: int) -> None:
        name = html.escape(self.who(seat))
        assert self.table is not None
        # Also before a decision everyone will see, when the screen would show what only this seat may (a hand).
        secret = self.table.decides_in_secret(seat)
        doing = "decides in secret" if secret else "is next; the screen will show what only they may see"
        self.status.value = f"<b>{name}</b> {doing}."
        self.panel.children = [
            w.HTML(f"<p>Pass the screen to {swatch(seat)} <b>{name}</b>. Everyone else, look away.</p>"),
            button(f"I am {self.who(seat)}: show my choices", "tb-ready", lambda: self.ready(seat), "primary"),
        ]

    def ready(self, seat: int) -> None:
        """The person in `seat` has the screen (the hand-over button)."""
        self.private_seat = seat
        self.refresh()

    def _show_reveal(self) -> None:
        table = self.table
        assert table is not None
        game = table.game
        lines = "".join(
            f"<li>{swatch(game.log[index][0])} {html.escape(self.who(game.log[index][0]))}: "
            f"{html.escape(self.picture.reveal_words(game, index))}</li>"
            for index in sorted(table.revealed, key=lambda index: (game.log[index][0], index))
        )
        self.status.value = "<b>The secret choices are revealed.</b>"
        self.panel.children = [
            w.HTML(f"<ul class='tb-reveal'>{lines}</ul>"),
            button("Carry them out", "tb-continue", self.carry_on, "primary"),
        ]

    def carry_on(self) -> None:
        """Everyone has seen the reveal (its button)."""
        self.showing_reveal = False
        self.refresh()

    def _update_side(self, view: State) -> None:
        table = self.table
        assert table is not None
        game = table.game
        scores = self.kit.scores_now(view)
        facts = {seat: self.picture.seat_facts(view, seat) for seat in range(game.players)}
        headings = list(facts[0])
        head = "".join(f"<th style='text-align:left'>{html.escape(h)}</th>" for h in ["", "score", *headings])
        rows = []
        for seat in range(game.players):
            here = " style='font-weight:700'" if seat == self.view_seat else ""
            total = number_text(scores[seat]) if scores else "-"
            cells = "".join(f"<td>{html.escape(facts[seat].get(h, ''))}</td>" for h in headings)
            rows.append(
                f"<tr{here} data-seat='{seat}'><td style='white-space:nowrap'>{swatch(seat)} "
                f"{html.escape(self.who(seat))}<br><small>{html.escape(self.kind_words(seat))}</small></td>"
                f"<td class='tb-score' data-seat='{seat}'><b>{total}</b></td>{cells}</tr>"
            )
        self.seats_box.value = (
            f"<table style='width:100%;font-size:13px;line-height:1.3;text-align:left'>"
            f"<tr>{head}</tr>{''.join(rows)}</table>"
        )
        if self.picture.own_boards and game.players > 1:
            self.views.children = [self._view_button(seat) for seat in range(game.players)]
        else:
            self.views.children = []
        self.side.value = self.picture.side(view, self.view_seat)
        self.log.value = self._log_html()
        self.undo_button.disabled = not table.can_undo()
        self._update_save()

    def _view_button(self, seat: int) -> w.Button:
        shown = button(f"Show {self.who(seat)}", f"tb-view-{seat}", lambda: self.look_at(seat))
        shown.button_style = "info" if seat == self.view_seat else ""
        return shown

    def look_at(self, seat: int) -> None:
        """Put `seat`'s board on screen."""
        self.view_seat = seat
        self.private_seat = None
        self.picture.reset()
        self.refresh()

    def _tag(self) -> None:
        """A hidden summary for tests: which redraw this is, and what the page is waiting for."""
        self.seq += 1
        values: dict[str, Any] = {"seq": self.seq, "grid": self.grid.widget.revision}
        if self.table is not None:
            game = self.table.game
            seat = self.acting_seat()
            values.update(log=len(game.log), seat=self.view_seat, acting="" if seat is None else seat)
            values.update(self.picture.tag(self.screen_view(), self.view_seat))
        attrs = " ".join(f"data-{key}='{html.escape(str(value), quote=True)}'" for key, value in values.items())
        self.tag_box.value = f"<span class='tb-tag' {attrs} hidden></span>"

    # ----- the log ------------------------------------------------------------------------------------

    def log_lines(self) -> list[str]:
        """The game's log in words, as everyone at the table may see it: secret decisions are only said to
        have been made; the picture words the rest from the spectator's view (face-down chance included)."""
        seen = self.game.view(None)
        lines = []
        for index, (seat, action) in enumerate(seen.log):
            if seat != CHANCE and isinstance(action, Hidden):
                lines.append(f"{self.who(seat)} {self.picture.secret_words}")
                continue
            words = self.picture.entry_words(seen, index)
            if words is not None:
                lines.append(words if seat == CHANCE else f"{self.who(seat)}: {words}")
        return lines

    def _log_html(self) -> str:
        lines = self.log_lines()
        recent = "".join(f"<li>{html.escape(line)}</li>" for line in lines[-LOG_LINES:])
        first = max(1, len(lines) - LOG_LINES + 1)
        return (
            f"<details open><summary>Log ({len(self.game.log)} entries)</summary>"
            f"<ol start='{first}' style='margin:2px 0;padding-left:2.4em;font-size:13px'>{recent}</ol></details>"
        )

    # ----- acting -----------------------------------------------------------------------------------

    def act(self, action: Action | str) -> None:
        """A person's action for the seat on screen; IllegalAction leaves everything as it was."""
        table = self.table
        seat = self.acting_seat()
        if table is None or seat is None:
            raise IllegalAction("turn order", action, "it is not a person's turn on this table now")
        secret = table.decides_in_secret(seat)
        reveals = table.reveal_at
        before = table.game.clone()
        table.act(action, seat)
        if secret:
            self.private_seat = None
        if table.reveal_at != reveals:
            self.showing_reveal = True
        self.picture.reset()
        self.say(self.picture.news(before, table.game, seat))
        self.refresh()

    def do(self, action: Action | str) -> None:
        """An action from a control beside the board: a refusal is shown beside the controls."""
        try:
            self.act(action)
        except IllegalAction as refused:
            self.say(capital(refused.reason), error=True)

    def _on_board(self, intent: Intent) -> None:
        """Clicks and drops on the board, turned into actions by the picture; the engine judges them."""
        seat = self.acting_seat()
        if seat is None:
            raise IllegalAction("turn order", intent.kind, "it is not a person's turn on this board now")
        action = self.picture.click(self.screen_view(), seat, intent)
        if action is None:
            self.say("")
            self.refresh()
            note = self.picture.note(self.screen_view(), seat, intent)
            if note:
                self.grid.say(note, intent)
            return
        self.act(action)

    def bot_step(self) -> None:
        self._bots(lambda table: table.next_bot_step())

    def run_bots(self) -> None:
        self._bots(lambda table: table.run_bots())

    def _bots(self, move: Callable[[HotSeatTable], Any]) -> None:
        table = self.table
        if table is None:
            return
        reveals = table.reveal_at
        try:
            move(table)
        except Exception as err:  # a bot's bug must not take the dashboard down; its failed move changed nothing
            log.exception("a %s bot failed", self.spec.title)
            self.say(f"A bot failed and did not move: {err}", error=True)
            self.refresh()
            return
        if table.reveal_at != reveals:
            self.showing_reveal = True
        self.say("")
        self.refresh()

    # ----- the end -----------------------------------------------------------------------------------

    def end_summary(self) -> tuple[str, list[tuple[str, str]]]:
        """The result in words and the score broken down as (line, value) rows."""
        game = self.game
        outcome = game.outcome()
        assert outcome is not None
        breakdown = self.kit.score_breakdown(game)
        if game.players == 1:
            total = number_text(outcome.scores[0])
            rows = [(words, f"{points:+g}") for words, points in breakdown.get(0, [])]
            return f"Final score: {total}", [*rows, ("total", total)]
        rows = []
        for seat in range(game.players):
            lines = breakdown.get(seat, [])
            parts = "; ".join(f"{words}: {number_text(points)}" for words, points in lines) if len(lines) > 1 else ""
            score = number_text(outcome.scores[seat])
            rows.append((self.who(seat), f"{score}, rank {outcome.ranks[seat]}" + (f" ({parts})" if parts else "")))
        names = " and ".join(self.who(seat) for seat in outcome.winners)
        verb = "share the win" if len(outcome.winners) > 1 else "wins"
        return f"{names} {verb} ({decided_words(outcome.decided_by)})", rows

    def _show_end(self) -> None:
        outcome = self.game.outcome()
        assert outcome is not None
        headline, rows = self.end_summary()
        detail = f", {outcome.detail}" if outcome.detail else ""
        self.status.value = (
            f"<b class='tb-result'>{html.escape(headline)}</b><br>"
            f"The game ended: {html.escape(outcome.termination)}{html.escape(detail)}."
        )
        body = "".join(
            f"<tr data-line='{html.escape(name, quote=True)}'><td>{html.escape(name)}</td>"
            f"<td style='text-align:right'><b>{html.escape(value)}</b></td></tr>"
            for name, value in rows
        )
        self.panel.children = [
            *self.picture.end_controls(self.screen_view(), self.view_seat),
            w.HTML(f"<table class='tb-breakdown' style='width:100%'>{body}</table>"),
            button("New game", "tb-again", self.show_setup, "primary"),
        ]

    # ----- undo, save and load -----------------------------------------------------------------------

    def undo(self) -> None:
        table = self.table
        if table is None or not table.can_undo():
            return
        table.undo()
        self.showing_reveal = False
        self.picture.reset()
        self.say("Undone.")
        self.refresh()

    def save_refusal(self) -> str | None:
        """Why no save may be offered now (None: it may). A save holds the whole game, private parts too (a
        game whose hands or face-down discards stay private to the end is saved like any other), so it is
        offered only when the screen shows nothing private to the wrong person: while nobody's private view is
        on screen (at a hand-over, while bots play, at the end) or when one person plays alone. It is never
        offered while a secret choice waits on others' still hidden ones: the file would show them."""
        table = self.table
        assert table is not None
        game = table.game
        if game.is_over():
            return None
        if self._secret_round_open():
            return "Save after the reveal"
        seat = self.view_seat
        if len(table.people()) > 1 and self._looking(seat) and table.sees_more(seat):
            return "Save at the next hand-over"
        return None

    def _secret_round_open(self) -> bool:
        """Whether a seat decides in secret now while another seat's secret decision of the same round (made
        since the last decision everyone saw) is still hidden."""
        table = self.table
        assert table is not None
        game = table.game
        deciding = [seat for seat in game.to_move() if table.decides_in_secret(seat)]
        if not deciding:
            return False
        hidden = secret_entries(game)
        for index in range(len(game.log) - 1, -1, -1):
            seat, _ = game.log[index]
            if seat == CHANCE:
                continue
            if index not in hidden:
                return False  # a decision everyone saw: the secret round began after it
            if seat not in deciding:
                return True
        return False

    def _update_save(self) -> None:
        table = self.table
        assert table is not None
        refusal = self.save_refusal()
        if refusal is not None:
            self.save_box.value = f"<span class='tb-save-later'>{html.escape(refusal)}</span>"
            return
        data = base64.b64encode(table.to_json().encode()).decode()
        self.save_box.value = (
            f"<a class='tb-save' download='{self.name}.json' href='data:application/json;base64,{data}' "
            "style='display:inline-block;padding:8px 4px'>Save</a>"
        )

    def load_text(self, text: str) -> None:
        """Load a saved game; a bad file is reported and the current game stays."""
        try:
            table = HotSeatTable.from_json(text, game=self.name)
        except (CliplabError, ValueError, TypeError) as err:
            self.say(f"Could not load that file: {err}", error=True)
            self._tag()
            return
        self.say("Loaded.")
        self.use(table)

    def _load(self, change: dict[str, Any]) -> None:
        files = change["new"]
        if not files:
            return
        self.load_text(bytes(files[0]["content"]).decode("utf-8", errors="replace"))
