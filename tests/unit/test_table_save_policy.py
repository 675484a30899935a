"""When the table app offers a save (`TableApp.save_refusal`): a game whose private parts last to the end (Paper
World's face-down discards and hands) is saved mid-game whenever nothing private is on screen to the wrong
person, a secret choice waiting on other hidden ones is never saved, and a loaded save is the same game,
starting again at a hand-over screen."""

from __future__ import annotations

import random
from collections.abc import Callable

from cliplab.engine import Hidden
from cliplab.games.paper_world.rules import Discard
from cliplab.ui.table import HotSeatTable, secret_entries
from cliplab.ui.table_app import TableApp

Moment = Callable[[TableApp], bool]


def play_until(app: TableApp, moment: Moment, rng: random.Random, steps: int = 5000) -> None:
    """Play on (people choosing at random, screens passed when asked) until `moment` holds; every screen on
    the way is checked against the save policy."""
    for _ in range(steps):
        check_offer_matches_screen(app)
        if moment(app):
            return
        game = app.game
        assert not game.is_over(), "the game ended before the moment came"
        if app.showing_reveal:
            app.carry_on()
        elif (seat := app.handover_to()) is not None:
            app.ready(seat)
        elif (seat := app.acting_seat()) is not None:
            app.act(rng.choice(game.legal_actions(seat)))
        else:
            app.bot_step()
    raise AssertionError("the moment did not come")


def check_offer_matches_screen(app: TableApp) -> None:
    """The Save link is on the page exactly when the policy allows it, and the words say why when it is not."""
    refusal = app.save_refusal()
    if refusal is None:
        assert "class='tb-save'" in app.save_box.value
    else:
        assert "tb-save-later" in app.save_box.value and refusal in app.save_box.value
        assert "tb-save'" not in app.save_box.value


def after_a_discard(app: TableApp) -> bool:
    return any(isinstance(action, Discard) for _, action in app.game.log)


def hidden_from_spectator(app: TableApp) -> int:
    return sum(isinstance(action, Hidden) for _, action in app.game.view(None).log)


def test_a_paper_world_game_with_face_down_discards_is_saved_at_the_hand_over() -> None:
    app = TableApp("paper_world")
    app.use(HotSeatTable.new("paper_world", ["person", "person", "heuristic"], seed=3))
    rng = random.Random(3)
    play_until(app, lambda a: after_a_discard(a) and a.handover_to() is not None, rng)
    assert hidden_from_spectator(app) > 0, "a discard lies face down"
    assert app.save_refusal() is None


def test_a_paper_world_save_waits_while_a_persons_hand_is_on_screen_at_a_table_of_people() -> None:
    app = TableApp("paper_world")
    app.use(HotSeatTable.new("paper_world", ["person", "person", "heuristic"], seed=3))
    rng = random.Random(3)
    play_until(app, lambda a: after_a_discard(a) and a.acting_seat() is not None, rng)
    assert app.save_refusal() == "Save at the next hand-over"


def test_one_person_against_bots_may_save_while_their_hand_shows() -> None:
    app = TableApp("paper_world")
    app.use(HotSeatTable.new("paper_world", ["person", "heuristic", "heuristic"], seed=4))
    rng = random.Random(4)
    play_until(app, lambda a: after_a_discard(a) and a.acting_seat() == 0 and a.game.phase == "turn", rng)
    assert app.save_refusal() is None


def test_a_loaded_paper_world_save_is_the_same_game_and_opens_at_the_hand_over() -> None:
    app = TableApp("paper_world")
    app.use(HotSeatTable.new("paper_world", ["person", "person", "heuristic"], seed=3))
    rng = random.Random(3)
    play_until(app, lambda a: after_a_discard(a) and a.handover_to() is not None, rng)
    assert app.table is not None
    text, game, seat = app.table.to_json(), app.game.clone(), app.handover_to()
    loaded = TableApp("paper_world")
    loaded.load_text(text)
    assert loaded.game == game, "hands, piles, discards and landscapes come back as they were"
    assert loaded.handover_to() == seat, "the loaded game first passes the screen, as the saved one did"
    # Both go on alike: the same person's choices give the same game.
    for table_app in (app, loaded):
        play_until(table_app, lambda a: len(a.game.log) >= len(game.log) + 40, random.Random(9))
    assert loaded.game == app.game


def test_no_save_while_a_secret_setting_waits_on_anothers_hidden_one() -> None:
    # Click & Crack: everyone sets their tiles in secret, revealed together.
    app = TableApp("click_crack")
    app.use(HotSeatTable.new("click_crack", ["person", "person", "random"], seed=3))
    rng = random.Random(3)
    play_until(app, lambda a: bool(secret_entries(a.game)) and a.handover_to() is not None, rng)
    assert app.save_refusal() == "Save after the reveal"
    play_until(app, lambda a: a.showing_reveal, rng)
    assert not secret_entries(app.game)
    assert app.save_refusal() is None


def test_a_finished_game_is_always_saved() -> None:
    app = TableApp("paper_world")
    app.use(HotSeatTable.new("paper_world", ["person", "person"], seed=2))
    play_until(app, lambda a: a.game.is_over(), random.Random(2), steps=20_000)
    assert app.save_refusal() is None
