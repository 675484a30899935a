"""The table app of every registered game, without a browser: a whole game with bots in every seat, a person
seat played by clicks through the game's picture, the board drawn in every kind of decision with a way for
the person to decide, and every spec option and variant reachable from the setup form."""

from __future__ import annotations

import html
import random
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator

import ipywidgets as w
import pytest
from contract_samples import decision_kind, decision_samples

from cliplab.engine import Option, OptionValue, State, games, spec
from cliplab.kit import RANDOM, declaration
from cliplab.ui import Intent, Scene, render
from cliplab.ui.table import PERSON, HotSeatTable, secret_entries
from cliplab.ui.table_app import TableApp

SEED = 5
MOST_STEPS = 20_000  # a cap well above the longest game the tests play
MOST_CLICKS = 300  # clicks tried for one decision before the test gives it through the controls


def play_out(app: TableApp, person: random.Random | None = None) -> Counter[str]:
    """Play the app's game to its end the way people at the screen would: pass the screen when asked, carry
    on after a reveal, let bots step, and decide for the person (by clicks where the board takes them, else
    through the controls). Returns how the person's decisions were made, by kind."""
    made: Counter[str] = Counter()
    for steps in range(MOST_STEPS):
        game = app.game
        if game.is_over():
            return made
        if app.showing_reveal:
            app.carry_on()
        elif (seat := app.handover_to()) is not None:
            app.ready(seat)
        elif (seat := app.acting_seat()) is not None:
            assert person is not None, "a person is asked to decide at a table of bots"
            kind = "/".join(decision_kind(game, seat))
            made[f"{'click' if click_through(app, person) else 'control'} {kind}"] += 1
        else:
            assert app.table is not None and app.table.bots_to_move(), "nobody can move and the game is not over"
            app.run_bots() if steps % 2 else app.bot_step()
    pytest.fail(f"{app.name}: the game did not end within {MOST_STEPS} steps")


def places(scene: Scene) -> Iterator[Intent]:
    """Every click and drop the scene on screen takes: marked places first, then the rest, then drops."""
    marked, rest, drops = [], [], []
    for board in scene.boards:
        for mark in board.marks:
            if mark.kind in board.clickable:
                marked.append(Intent(board.id, mark.kind, mark.at, mark.to))
        for kind in board.clickable:
            if kind == "cell":
                rest += [Intent(board.id, "cell", (r, c)) for r in range(board.rows) for c in range(board.cols)]
            elif kind == "point":
                rest += [
                    Intent(board.id, "point", (r, c)) for r in range(board.rows + 1) for c in range(board.cols + 1)
                ]
            else:
                for r in range(board.rows + 1):
                    for c in range(board.cols + 1):
                        rest += [Intent(board.id, "segment", (r, c), to) for to in ((r + 1, c), (r, c + 1))]
        if board.accepts_pieces:
            drops += [
                Intent(board.id, "drop", (r, c), piece=piece.id, turns=turns)
                for piece in scene.pieces
                for r in range(board.rows)
                for c in range(board.cols)
                for turns in range(4)
            ]
    yield from marked
    yield from rest
    yield from drops


def click_through(app: TableApp, rng: random.Random) -> bool:
    """Make the acting person's next decision by clicks on the board, as the picture maps them (marked
    places first); when no click in reach makes one, a random legal action through the controls. True if
    clicks made it. A refused click must leave the game as it was and say why on the board."""
    game = app.game
    seat = app.acting_seat()
    assert seat is not None
    length, before = len(game.log), game.fingerprint()
    for _ in range(MOST_CLICKS):
        scene = app.grid.scene
        candidates = list(places(scene))
        if not candidates:
            break
        marked = [intent for intent in candidates if _is_marked(scene, intent)]
        intent = rng.choice(marked or candidates)
        app.grid.handle(intent)  # the path a click from the browser takes once its message is checked
        if len(game.log) > length:
            return True
    assert game.fingerprint() == before, f"{app.name}: clicks that made no decision changed the game"
    app.do(rng.choice(game.legal_actions(seat)))
    assert len(game.log) > length, f"{app.name}: a legal action from the controls was refused: {app.message.value}"
    return False


def _is_marked(scene: Scene, intent: Intent) -> bool:
    board = scene.board(intent.board)
    return intent.kind != "drop" and any(m.kind == intent.kind and m.at == intent.at for m in board.marks)


def all_seats(app: TableApp, kind: str) -> None:
    for choice in app.seat_choices:
        choice.value = kind


@pytest.mark.parametrize("game", games())
def test_the_table_app_plays_a_whole_random_game_with_bots_in_every_seat(game: str) -> None:
    app = TableApp(game, seed=SEED)
    all_seats(app, RANDOM)
    app.start()
    assert app.table is not None and app.table.seats == (RANDOM,) * spec(game).default_players
    play_out(app)
    outcome = app.game.outcome()
    assert outcome is not None
    headline, rows = app.end_summary()
    assert "tb-result" in app.status.value and outcome.termination in app.status.value
    assert len(rows) >= app.game.players
    if app.game.players > 1:
        assert all(f"Player {seat}" in headline for seat in outcome.winners), headline
    assert app.log_lines(), "the log is empty after a whole game"
    # The save on the page is the finished game.
    saved = HotSeatTable.from_json(app.table.to_json(), game=game)
    assert saved.game.outcome() == outcome and saved.seats == app.table.seats


@pytest.mark.parametrize("game", games())
def test_a_person_plays_a_whole_game_by_clicks_on_the_picture(game: str) -> None:
    app = TableApp(game, seed=SEED)
    all_seats(app, RANDOM)
    app.seat_choices[0].value = PERSON
    app.start()
    made = play_out(app, random.Random(SEED))
    assert app.game.is_over()
    clicked = {kind for kind in made if kind.startswith("click ")}
    assert clicked, f"{game}: no decision of the person was made by a click on the board: {dict(made)}"


@pytest.mark.parametrize("game", games())
def test_the_board_is_drawn_in_every_kind_of_decision_and_offers_a_way_to_decide(game: str) -> None:
    samples = decision_samples(game)
    assert samples
    for state, seat in samples:
        kind = decision_kind(state, seat)
        app = TableApp(game, players=state.players)
        app.use(HotSeatTable([PERSON] * state.players, state.clone()))
        app.look_at(seat)
        if app.handover_to() == seat:
            # Before the screen is passed, the board shows only what everyone may see.
            _check_drawn(app.grid.scene, f"{game} {kind} hand-over")
            app.ready(seat)
        assert app.acting_seat() == seat, f"{game} {kind}: the person in seat {seat} is not asked to decide"
        scene = app.grid.scene
        _check_drawn(scene, f"{game} {kind}")
        takes_clicks = any(board.clickable or board.accepts_pieces for board in scene.boards)
        assert takes_clicks or _controls(app.panel), f"{game} {kind}: no click or control lets the person decide"


def _check_drawn(scene: Scene, where: str) -> None:
    assert scene.boards, f"{where}: nothing is drawn"
    root = ET.fromstring(render(scene, ids="t"))
    drawn = {g.get("data-board") for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "cl-board"}
    assert drawn == {board.id for board in scene.boards}, where


def _controls(box: w.Widget) -> list[w.Widget]:
    found = []
    for child in getattr(box, "children", ()):
        if isinstance(child, w.Button | w.ToggleButtons | w.ToggleButton) and not getattr(child, "disabled", False):
            found.append(child)
        found += _controls(child)
    return found


def _other_value(option: Option) -> OptionValue:
    """A value of the option other than its default."""
    if option.kind is bool:
        return not option.default
    if option.choices:
        return next(choice for choice in option.choices if choice != option.default)
    assert isinstance(option.default, int)
    if option.maximum is not None and option.default < option.maximum:
        return option.default + 1
    return option.default - 1


def _started(app: TableApp) -> State:
    all_seats(app, RANDOM)
    app.start()
    assert app.table is not None, app.message.value
    return app.game


@pytest.mark.parametrize("game", games())
def test_every_option_variant_and_player_count_is_reachable_from_the_setup_form(game: str) -> None:
    rules = spec(game)
    app = TableApp(game, seed=SEED)
    rows = {cls: row for row in app.panel.children for cls in row._dom_classes}
    for option in rules.options:
        row = rows.get(f"tb-option-{option.name}")
        assert row is not None, f"{game}: the form has no field for {option.name}"
        field = app.option_widgets[option.name]
        assert field in row.children and field.tooltip == option.help
        words = " ".join(child.value for child in row.children if isinstance(child, w.HTML))
        assert html.escape(option.help) in words, f"{game}: the help of {option.name} is not on the form"
    kinds = [value for _, value in app.seat_choices[0].options]
    assert kinds == [PERSON, *declaration(game).bot_names()]

    for players in range(rules.min_players, rules.max_players + 1):
        app.players.value = players
        assert len(app.seat_choices) == players
        assert _started(app).players == players
        app.show_setup()
    app.players.value = rules.default_players

    for option in rules.options:
        value = _other_value(option)
        app.option_widgets[option.name].value = value
        assert _started(app).option(option.name) == value, f"{game}: {option.name}={value!r} did not reach the game"
        app.show_setup()
        app.option_widgets[option.name].value = option.default

    for variant, chosen in rules.variants.items():
        app.variant.value = variant
        started = _started(app)
        for name, value in chosen.items():
            assert started.option(name) == value, f"{game}: variant {variant} did not set {name}"
        app.show_setup()
        app.variant.value = ""


def screen_text(app: TableApp) -> str:
    """Everything the app shows, as text: the board's SVG and every text, label and choice beside it."""
    parts = [app.grid.svg, str(app.grid.widget.notice)]

    def visit(widget: w.Widget) -> None:
        for name in ("value", "description", "tooltip"):
            value = getattr(widget, name, None)
            if isinstance(value, str):
                parts.append(value)
        parts.extend(str(option) for option in getattr(widget, "options", ()))
        for child in getattr(widget, "children", ()):
            visit(child)

    visit(app.widget)
    return "\n".join(parts)


@pytest.mark.parametrize("game", games())
def test_secret_decisions_stay_off_the_screen_until_they_are_revealed(game: str) -> None:
    rules = spec(game)
    app = TableApp(game, players=max(2, rules.min_players), seed=SEED)
    all_seats(app, PERSON)
    app.start()
    rng = random.Random(SEED)
    secret_made = handovers = 0
    for _ in range(MOST_STEPS):
        state = app.game
        if state.is_over():
            break
        if app.showing_reveal:
            app.carry_on()
            continue
        secret = secret_entries(state)
        if (seat := app.handover_to()) is not None:
            shown = screen_text(app)
            for index in secret:
                action = state.log[index][1]
                assert str(action) not in shown, f"{game}: the secret {action} is on the hand-over screen"
                assert app.picture.reveal_words(state, index) not in shown
            handovers += 1
            app.ready(seat)
            continue
        seat = app.acting_seat()
        assert seat is not None
        action = rng.choice(state.legal_actions(seat))
        secret_made += action.SECRET
        app.do(action)
    assert app.game.is_over()
    assert handovers >= bool(secret_made), f"{game}: secret decisions were made without a hand-over screen"
