"""The table app: one dashboard for every registered game, built from its declaration (cliplab.kit).

    from cliplab.ui.table_app import TableApp
    TableApp("click_crack").show()

The app holds everything that is the same in every game: the setup form read from the game's spec (player
count, options and variants with their help texts, each seat a person or one of the game's bots, the
seed), the hot-seat table (cliplab.ui.table: seats, bot steps, undo, save and load), bots that play on by
themselves at a chosen pace, the log in words, hand-over screens between two people when the next one
decides in secret, the reveal when secrets come out, a note of every score change, the "How to play" panel
(the game's `how_to_play.md`, see cliplab.kit) with a link to its teaching notebook, and the end screen from
the game's Outcome and score breakdown. A game adds only its `Picture`.

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
(between two people, to one about to decide in secret, `Action.SECRET`, or who may see more than the
others; never when one person plays alone); that bots with secret decisions decide at once; when the other
bots act (by themselves on the kernel's event loop, one action a second at "slow", quickly at "fast", or by
the Next bot step button at "step"; never while a person is to decide); when secrets are revealed (the
reveal screen, read for a few seconds at "slow", then play goes on); what undo may take back, and saying so;
when a save may be offered (`save_refusal`); what each action changed in the scores (from the
declaration's `breakdown` before and after); the end screen's result, ranks, the tie-break that decided
(`Outcome.decided_by`), the lines the winner led on, and the breakdown.

Class names on the page are "tb-..." for the app's own parts; a picture prefixes its controls with its
own short prefix (Click & Crack "cc-", ClipCut Parks "cp-").
"""

from __future__ import annotations

import asyncio
import base64
import functools
import html
import logging
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from cliplab.engine import CHANCE, Action, CliplabError, Hidden, IllegalAction, Option, State, new_game
from cliplab.kit import Breakdown, Declaration, declaration

from .intents import Intent
from .scene import PALETTE, SEAT_COLOURS, Scene
from .table import PERSON, HotSeatTable, secret_entries
from .widget import Grid

ERROR = "#D55E00"
LOG_LINES = 14
NOTE_LINES = 4  # score notes kept on screen: what changed since the last person's action
# Seconds between two bot actions at each pace ("step": none by themselves), and before play goes on after a
# reveal of secret choices (long enough to read it at "slow").
PACES = {"step": None, "slow": 1.0, "fast": 0.1}
READING = {"slow": 4.0, "fast": 0.0}
TEACH_URL = "../../teach/{name}"  # a dashboard is at <root>/voila/render/<game>.ipynb; `cliplab serve` serves
# each teaching notebook read-only at <root>/teach/<game>
log = logging.getLogger(__name__)

# Cancels a scheduled call.
Cancel = Callable[[], None]
# Calls `callback` after `delay` seconds; returns how to cancel it, or None where nothing can be scheduled.
Clock = Callable[[float, Callable[[], None]], Cancel | None]


def kernel_clock(delay: float, callback: Callable[[], None]) -> Cancel | None:
    """Schedule on the running asyncio loop: the kernel's own, in a notebook or a Voila page (ipykernel runs
    asyncio), so a paced bot never blocks a click. Without a running loop (a script, a unit test) nothing is
    scheduled and bots wait for the step button."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    return loop.call_later(delay, callback).cancel


# The app's looks; the #rendered_cells rules (a Voila page only) give the table the screen's top 20 px.
STYLE = """<style>
.tb-app a.tb-save { display:inline-block; padding:6px 12px; min-height:20px; line-height:20px; border-radius:2px;
  background:#eeeeee; color:#222; text-decoration:none; box-shadow:0 1px 2px rgba(0,0,0,.25); margin:2px 4px; }
.tb-app a.tb-save:hover { background:#e0e0e0; }
.tb-app .tb-load { font-size:0 !important; }
.tb-app .tb-load::before { content:"Load"; font-size:13px; }
.tb-app .tb-log ol { max-height:7.5em; overflow-y:auto; }
.tb-app .tb-help summary, .tb-app .tb-log summary { cursor:pointer; font-weight:600; }
.tb-app .tb-help .tb-rules { max-height:300px; overflow-y:auto; font-size:13px; line-height:1.35; }
.tb-app .tb-help table { border-collapse:collapse; }
.tb-app .tb-help td, .tb-app .tb-help th { padding:1px 6px; border-bottom:1px solid #ddd; }
.tb-app .tb-players th { font-weight:600; border-bottom:1px solid #ccc; }
.tb-app .widget-label { overflow:visible; }
.tb-app .widget-html-content { line-height:1.35; }
#rendered_cells { padding-top:0; }
#rendered_cells .jp-Cell { padding-top:0; }
#rendered_cells .jp-Cell-outputWrapper { margin-top:0; }
.tb-app .tb-side { max-height:210px; overflow-y:auto; }
.tb-app .tb-breakdown-box { max-height:120px; overflow-y:auto; font-size:12px; line-height:1.3; }
.tb-app .tb-help summary, .tb-app .tb-teach { white-space:nowrap; }
</style>"""


def markdown_html(text: str) -> str:
    """Markdown as HTML (mistune comes with Voila's nbconvert); raw HTML in the text is escaped."""
    import mistune

    rendered: str = mistune.create_markdown(escape=True, plugins=["table"])(text)  # type: ignore[assignment]
    return rendered


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


def score_changes(before: Breakdown, after: Breakdown, who: Callable[[int], str]) -> list[str]:
    """What changed each seat's score between two breakdowns, in the game's own line words, e.g.
    "Player 1 +3: points: tiles broken off". Lines are paired by their place: their words may change with
    the score ("most of a like (+5 each): sunshine, moon")."""
    changes = []
    for seat in sorted(after):
        old = before.get(seat, [])
        for place, (words, points) in enumerate(after[seat]):
            was = old[place][1] if place < len(old) else 0.0
            if points != was:
                changes.append(f"{who(seat)} {points - was:+g}: {words}")
    return changes


def deciding_lines(breakdown: Breakdown, winner: int, other: int) -> list[str]:
    """The lines of the breakdown on which `winner` is ahead of `other`, the widest lead first."""
    theirs = breakdown.get(other, [])
    leads = []
    for place, (words, points) in enumerate(breakdown.get(winner, [])):
        against = theirs[place][1] if place < len(theirs) else 0.0
        if points > against:
            leads.append((points - against, f"{words}: {number_text(points)} to {number_text(against)}"))
    return [line for _, line in sorted(leads, key=lambda lead: -lead[0])]


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
        self.notes = self._html("tb-notes")  # what changed the score, since the last person's action
        self.score_notes: list[tuple[str, int]] = []  # each line, and how many times in a row it came
        self.help = self._html("tb-help")
        self.help.value = self._help_html()
        self.clock: Clock = kernel_clock
        self.pace = w.ToggleButtons(
            options=[("Step", "step"), ("Slow", "slow"), ("Fast", "fast")],
            value="slow",
            tooltips=[
                "Bots wait for the Next bot step button",
                "Bots act by themselves, one action a second",
                "Bots act by themselves, quickly",
            ],
            style={"button_width": "52px"},
            layout=w.Layout(width="auto"),
        )
        self.pace.add_class("tb-pace")
        self.pace.observe(lambda _: self.refresh() if self.table is not None else None, names="value")
        self.pace_row = w.HBox([w.Label("Bots:"), self.pace], layout=w.Layout(align_items="center"))
        self._timer: Cancel | None = None
        self._no_clock = False  # the clock could not schedule (no running event loop): bots wait for the button
        self._timer_for: tuple[Any, ...] = ()  # the moment the pending timer was set for
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
        self.upload = w.FileUpload(accept=".json", multiple=False, description="Load", tooltip="Load a saved game")
        self.upload.layout.width = "auto"
        self.upload.add_class("tb-load")
        self.upload.observe(self._load, names="value")

        self._build_form(players, seed, seats, variant, options)
        tools = w.HBox(
            [self.undo_button, self.upload, self.save_box, self.new_button, self.pace_row],
            layout=w.Layout(flex_flow="row wrap", align_items="center"),
        )
        side = w.VBox(
            [
                w.HTML(STYLE),
                self.help,
                self.status,
                self.message,
                self.notes,
                self.panel,
                self.views,
                self.seats_box,
                tools,
                self.side,
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

    def _help_html(self) -> str:
        """The "How to play" panel (closed at first): the game's own how_to_play.md and a link to its teaching
        notebook."""
        rules = self.kit.how_to_play()
        link = (
            f"<a class='tb-teach' href='{TEACH_URL.format(name=self.name)}' target='_blank' rel='noopener'>"
            "Teaching notebook</a>"
            if self.kit.teach
            else ""
        )
        title = f"<b class='tb-title' style='font-size:16px'>{html.escape(self.spec.title)}</b>"
        help_panel = (
            f"<details><summary>How to play</summary><div class='tb-rules'>{markdown_html(rules)}</div></details>"
            if rules
            else ""
        )
        return f"<div style='display:flex;justify-content:space-between;gap:12px'>{title}{link}</div>{help_panel}"

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
                style={"description_width": "initial"},
            )
            choice.add_class(f"tb-seat-{seat}")
            choice.observe(lambda _: self._setup_status(), names="value")
            self.seat_choices.append(choice)
        if self.table is None:
            self._show_form()
            self._setup_status()
            self._preview()

    def _setup_status(self) -> None:
        """Before the start: the game and exactly the players chosen in the form."""
        chosen = ", ".join(
            f"{swatch(seat)} {'You' if len(self.seat_choices) == 1 else f'Player {seat}'} "
            f"({html.escape(choice.label or '')})"
            for seat, choice in enumerate(self.seat_choices)
        )
        self.status.value = (
            f"Choose the players and the rules, then start.<br><span class='tb-chosen'>Players: {chosen}</span>"
        )

    def _preview(self) -> None:
        preview = new_game(self.name, players=self.players.value, seed=self.seed.value)
        self.grid.show(self.picture.scene(preview.view(None), 0, False))

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
        self._stop_pacing()
        self.table = None
        self.picture.reset()
        self.views.children = []
        self.seats_box.value = self.side.value = self.log.value = self.save_box.value = self.notes.value = ""
        self.undo_button.disabled = True
        # Before a game there is nothing to undo and no other game to leave: only what the setup uses shows.
        self.undo_button.layout.display = self.new_button.layout.display = "none"
        self.pace_row.layout.display = "flex"
        self._show_seat_choices()
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
        self._stop_pacing()
        self.table = table
        self.view_seat = 0
        self.private_seat = None
        self.showing_reveal = False
        self.score_notes = []
        self.picture.reset()
        self.pace_row.layout.display = "flex" if len(table.people()) < len(table.seats) else "none"
        self.undo_button.layout.display = None if table.people() else "none"
        self.new_button.layout.display = None
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
        # The screen is passed only between two people: one playing alone has it all along.
        if seat is None or seat == self.private_seat:
            return None
        assert self.table is not None
        if len(self.table.people()) == 1:
            return None
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
        self._plan()
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
        self._show_notes()
        self._tag()

    # ----- bots by themselves ----------------------------------------------------------------------------

    def _next_wait(self) -> float | None:
        """Seconds until play goes on by itself (a bot acts, or a reveal has been read), None if it waits for a
        person or the step button. Bots never act while a person is to decide: they would play past them."""
        table = self.table
        if table is None or table.game.is_over():
            return None
        pace = PACES[self.pace.value]
        if pace is None:
            return None
        if self.showing_reveal:
            return READING[self.pace.value]
        if table.people_to_move() or not table.bots_to_move():
            return None
        return pace

    def _plan(self) -> None:
        """Schedule what happens next by itself; a timer already set for this very moment is kept."""
        wait = self._next_wait()
        if wait is None:
            self._stop_pacing()
            return
        assert self.table is not None
        moment = (self.table, len(self.table.game.log), self.showing_reveal, self.pace.value)
        if self._timer is not None and self._timer_for == moment:
            return
        self._stop_pacing()
        self._timer_for = moment
        self._timer = self.clock(wait, functools.partial(self._tick, moment))
        self._no_clock = self._timer is None

    def _tick(self, moment: tuple[Any, ...]) -> None:
        """The timer: a reveal has been read, or a bot's turn has come."""
        if moment != self._timer_for:
            return  # a stale timer: the game moved on (undo, a load, a new game) since it was set
        self._timer = None
        self._timer_for = ()
        try:
            if self.showing_reveal:
                self.carry_on()
            else:
                self.bot_step()
        except Exception:  # a timer's failure must not go unseen in the kernel's log only
            log.exception("the %s table failed to go on by itself", self.spec.title)
            self.say("The table stopped: choose Step and go on by the button.", error=True)

    def _stop_pacing(self) -> None:
        if self._timer is not None:
            self._timer()
        self._timer = None
        self._timer_for = ()

    def paced(self) -> bool:
        """Whether play will go on by itself (a timer is set)."""
        return self._timer is not None

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
        names = html.escape(", ".join(self.who(s) for s in bots))
        if bots and (self.pace.value == "step" or self._no_clock):
            # Bots wait for the button: the Step pace (a teacher walking through), or nowhere to schedule.
            controls.append(w.HTML(f"Bots to act: {names}"))
            controls.append(button("Next bot step", "tb-bot-step", self.bot_step, "primary" if acting is None else ""))
        elif bots and self.paced():
            controls.append(w.HTML(f"<span class='tb-bots-busy'>Bots play: {names}…</span>"))
        elif bots:
            controls.append(w.HTML(f"<span class='tb-bots-wait'>{names} will act after you.</span>"))
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
        wait = self._next_wait()
        later = f"Play goes on by itself in {wait:g} s." if wait else ""
        self.panel.children = [
            w.HTML(f"<ul class='tb-reveal'>{lines}</ul>{later}"),
            button("Go on now" if self.paced() else "Carry them out", "tb-continue", self.carry_on, "primary"),
        ]

    def carry_on(self) -> None:
        """Everyone has seen the reveal (its button, or its time to read has passed); the revealed choices stay
        in the notes."""
        table = self.table
        if table is not None and self.showing_reveal:
            game = table.game
            shown = "; ".join(
                f"{self.who(game.log[index][0])}: {self.picture.reveal_words(game, index)}"
                for index in sorted(table.revealed, key=lambda index: (game.log[index][0], index))
            )
            self._note(f"Revealed: {shown}")
        self.showing_reveal = False
        self.refresh()

    # ----- score notes --------------------------------------------------------------------------------

    def _note(self, line: str) -> None:
        # Bots often repeat a move's effect (a crumpled section each turn at the end of ClipCut Parks): one
        # line with a count reads better than the same line again and again.
        if self.score_notes and self.score_notes[-1][0] == line:
            self.score_notes[-1] = (line, self.score_notes[-1][1] + 1)
        else:
            self.score_notes.append((line, 1))

    def _note_scores(self, before: State, movers: list[int]) -> None:
        """A note of what the last actions (by `movers`) changed in the scores, if anything."""
        changes = score_changes(self.kit.score_breakdown(before), self.kit.score_breakdown(self.game), self.who)
        if changes:
            names = " and ".join(self.who(seat) for seat in movers) or "Chance"
            self._note(f"After {names}'s move: " + "; ".join(changes))

    def _show_notes(self) -> None:
        recent = self.score_notes[-NOTE_LINES:][::-1]
        self.notes.value = (
            "<ul style='margin:2px 0;padding-left:1.2em;font-size:13px;line-height:1.3;background:#fff8e1'>"
            + "".join(
                f"<li>{html.escape(line)}" + (f" <i>({times} times in a row)</i>" if times > 1 else "") + "</li>"
                for line, times in recent
            )
            + "</ul>"
            if recent
            else ""
        )

    def _update_side(self, view: State) -> None:
        table = self.table
        assert table is not None
        game = table.game
        scores = self.kit.scores_now(view)
        facts = {seat: self.picture.seat_facts(view, seat) for seat in range(game.players)}
        headings = list(facts[0])
        head = "".join(f"<th style='text-align:left'>{html.escape(h)}</th>" for h in ["player", "score", *headings])
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
            f"<table class='tb-players' style='width:100%;font-size:13px;line-height:1.3;text-align:left'>"
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
        values: dict[str, Any] = {"seq": self.seq, "grid": self.grid.widget.revision, "busy": int(self.paced())}
        values["controls"] = len(self.panel.children)  # the page has caught up when it shows as many
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
        """The log's last lines, the newest first (numbered as in the whole log)."""
        lines = self.log_lines()
        recent = "".join(f"<li>{html.escape(line)}</li>" for line in lines[-LOG_LINES:][::-1])
        return (
            f"<details open><summary>Log ({len(self.game.log)} entries), newest first</summary>"
            f"<ol reversed start='{len(lines)}' style='margin:2px 0;padding-left:2.4em;font-size:13px'>{recent}</ol>"
            "</details>"
        )

    # ----- acting -----------------------------------------------------------------------------------

    def act(self, action: Action | str) -> None:
        """A person's action for the seat on screen; IllegalAction leaves everything as it was."""
        table = self.table
        seat = self.acting_seat()
        if table is None or seat is None:
            raise IllegalAction("turn order", action, "it is not a person's turn on this table now")
        reveals = table.reveal_at
        before = table.game.clone()
        table.act(action, seat)
        if self.private_seat != seat:
            self.private_seat = None  # this person has the screen now: whoever had it before must hand over again
        self.score_notes = []
        self._note_scores(before, [seat])
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
        before = table.game.clone()
        try:
            move(table)
        except Exception as err:  # a bot's bug must not take the dashboard down; its failed move changed nothing
            log.exception("a %s bot failed", self.spec.title)
            self.pace.value = "step"  # going on by itself would only fail again
            self.say(f"A bot failed and did not move: {err}", error=True)
            self.refresh()
            return
        self._note_scores(before, sorted({seat for seat, _ in table.game.log[len(before.log) :] if seat != CHANCE}))
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

    def why_won(self) -> str:
        """Why the winner won, against the best of the rest: the lines of the score they were ahead on."""
        game = self.game
        outcome = game.outcome()
        assert outcome is not None
        if game.players == 1 or len(outcome.winners) != 1:
            return ""
        winner = outcome.winners[0]
        runner = min((seat for seat in range(game.players) if seat != winner), key=lambda seat: outcome.ranks[seat])
        leads = deciding_lines(self.kit.score_breakdown(game), winner, runner)
        if not leads:
            return ""
        return f"{self.who(winner)} was ahead of {self.who(runner)} on " + "; ".join(leads[:2]) + "."

    def _show_end(self) -> None:
        outcome = self.game.outcome()
        assert outcome is not None
        headline, rows = self.end_summary()
        detail = f", {outcome.detail}" if outcome.detail else ""
        why = self.why_won()
        self.status.value = (
            f"<b class='tb-result'>{html.escape(headline)}</b><br>"
            f"The game ended: {html.escape(outcome.termination)}{html.escape(detail)}."
            + (f"<br><span class='tb-why'>{html.escape(why)}</span>" if why else "")
        )
        body = "".join(
            f"<tr data-line='{html.escape(name, quote=True)}'><td style='vertical-align:top'>{html.escape(name)}</td>"
            f"<td style='text-align:right'>{self._end_value_html(value)}</td></tr>"
            for name, value in rows
        )
        self.panel.children = [
            *self.picture.end_controls(self.screen_view(), self.view_seat),
            # In a box of its own height, so that the result, the players' table and New game stay on the screen.
            w.HTML(
                f"<div class='tb-breakdown-box'><table class='tb-breakdown' style='width:100%'>{body}</table></div>"
            ),
            button("New game", "tb-again", self.show_setup, "primary"),
        ]

    @staticmethod
    def _end_value_html(value: str) -> str:
        """A breakdown value with its total in bold and the lines behind it ("(goblins: 2; ...)") in small
        plain type, so that a long breakdown reads as details of the total."""
        total, bracket, lines = value.partition(" (")
        details = f"<br><small style='font-weight:400'>({html.escape(lines)}</small>" if bracket else ""
        return f"<b>{html.escape(total)}</b>{details}"

    # ----- undo, save and load -----------------------------------------------------------------------

    def undo(self) -> None:
        table = self.table
        if table is None or not table.can_undo():
            return
        self._stop_pacing()
        taken = self.undo_words()
        table.undo()
        self.showing_reveal = False
        self.score_notes = []
        self.picture.reset()
        self.say(f"Undone: {taken}.")
        self.refresh()

    def undo_words(self) -> str:
        """What Undo takes back now, in words: the last person's decision named, the rest counted; a secret
        choice made since is named too, for its maker must make it again."""
        table = self.table
        assert table is not None
        index = table.undo_point()
        assert index is not None
        game, seen = table.game, table.game.view(None)
        parts = []
        seat = game.log[index][0]
        words = self.picture.entry_words(seen, index)
        parts.append(f"{self.who(seat)}'s {words}" if words else f"{self.who(seat)}'s move")
        hidden = secret_entries(game)
        secret = sorted({s for s, _ in (game.log[i] for i in range(index + 1, len(game.log)) if i in hidden)})
        parts += [f"{self.who(s)}'s secret choice (to be made again)" for s in secret]
        others = sum(1 for i in range(index + 1, len(game.log)) if game.log[i][0] != CHANCE and i not in hidden)
        if others:
            parts.append(f"{others} move{'s' if others > 1 else ''} after it")
        return ", ".join(parts)

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
