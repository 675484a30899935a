"""Bots at the table app act by themselves at a chosen pace (a fake clock stands for the kernel's event loop):
never while a person is to decide, stopping cleanly at an undo, a new game, a load and the end; the screen is
handed over only between two people; every score change is noted; undo says what it takes back."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise

import pytest

from cliplab.ui.table import HotSeatTable
from cliplab.ui.table_app import READING, TableApp, deciding_lines, score_changes


@dataclass
class FakeClock:
    """Holds scheduled calls until the test lets time pass."""

    pending: list[tuple[float, Callable[[], None]]] = field(default_factory=list)

    def __call__(self, delay: float, callback: Callable[[], None]) -> Callable[[], None]:
        entry = (delay, callback)
        self.pending.append(entry)
        return lambda: self.pending.remove(entry) if entry in self.pending else None

    def tick(self) -> float:
        """Run the first scheduled call; returns its delay."""
        delay, callback = self.pending.pop(0)
        callback()
        return delay


def paced_app(game: str, seats: list[str], seed: int = 1, pace: str = "fast") -> tuple[TableApp, FakeClock]:
    app = TableApp(game)
    clock = FakeClock()
    app.clock = clock
    app.pace.value = pace
    app.use(HotSeatTable.new(game, seats, seed=seed))
    return app, clock


def play_by_the_persons_clicks(app: TableApp, clock: FakeClock, rng: random.Random) -> int:
    """Play to the end with the person's actions only, letting time pass whenever something is scheduled;
    returns how many actions the person made. Checks that bots never act while a person is to decide."""
    table = app.table
    assert table is not None
    actions = 0
    for _ in range(5000):
        if app.game.is_over():
            assert not clock.pending, "nothing is scheduled after the end"
            return actions
        assert app.handover_to() is None, "one person is never asked to pass the screen"
        if clock.pending:
            assert not table.people_to_move() or app.showing_reveal, "a bot was scheduled while a person decides"
            clock.tick()
            continue
        seat = app.acting_seat()
        assert seat is not None, f"nothing scheduled and no person asked: {app.status.value}"
        assert not any(getattr(b, "description", "") == "Next bot step" for b in app.panel.children)
        app.act(rng.choice(app.game.legal_actions(seat)))
        actions += 1
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", ["click_crack", "clipcut_parks", "swap_clops", "swap_clops_cards"])
def test_one_person_against_a_bot_plays_a_whole_game_with_their_own_actions_only(game: str) -> None:
    app, clock = paced_app(game, ["person", "random"])
    actions = play_by_the_persons_clicks(app, clock, random.Random(3))
    assert actions > 0 and app.game.is_over()
    assert app.panel.children, "the end screen is shown"


def test_bots_wait_for_the_person_and_go_on_after_their_action() -> None:
    app, clock = paced_app("click_crack", ["person", "random", "random"], pace="slow")
    assert app.acting_seat() == 0 and not clock.pending, "the person places first: nothing runs"
    app.act(app.game.legal_actions(0)[0])
    assert [delay for delay, _ in clock.pending] == [1.0], "one bot action is scheduled, a second away"
    assert app.paced() and "tb-bots-busy" in str([getattr(c, "value", "") for c in app.panel.children])
    clock.tick()
    assert len(app.game.log) == 2 and len(clock.pending) == 1, "the first bot placed; the second is next"
    clock.tick()
    assert len(app.game.log) == 3 and not clock.pending and app.acting_seat() == 0


def test_a_reveal_is_shown_then_play_goes_on_by_itself() -> None:
    app, clock = paced_app("click_crack", ["person", "random"], pace="slow")
    while app.game.phase == "place" or clock.pending:
        if clock.pending:
            clock.tick()
        else:
            seat = app.acting_seat()
            assert seat is not None
            app.act(app.game.legal_actions(seat)[0])
    assert app.game.phase == "program" and app.acting_seat() == 0
    app.act(next(a for a in app.game.legal_actions(0) if a.SECRET))
    assert app.showing_reveal, "the bot's secret choice and the person's are revealed together"
    assert clock.tick() == READING["slow"], "the reveal stays long enough to read at the slow pace"
    assert not app.showing_reveal
    assert "Revealed: Player 0:" in app.notes.value, "the revealed choices stay in the notes"


def test_the_step_pace_waits_for_the_button() -> None:
    app, clock = paced_app("click_crack", ["person", "random"], pace="step")
    app.act(app.game.legal_actions(0)[0])
    assert not clock.pending and not app.paced()
    steps = [c for c in app.panel.children if "tb-bot-step" in getattr(c, "_dom_classes", ())]
    assert len(steps) == 1, "a teacher walks through with the Next bot step button"
    steps[0].click()
    assert len(app.game.log) == 2


@pytest.mark.parametrize("stop", ["undo", "new game", "load"])
def test_pacing_stops_cleanly(stop: str) -> None:
    app, clock = paced_app("click_crack", ["person", "random", "random"])
    assert app.table is not None
    saved = app.table.to_json()
    app.act(app.game.legal_actions(0)[0])
    assert clock.pending
    _, stale = clock.pending[0]
    if stop == "undo":
        app.undo()
    elif stop == "new game":
        app.show_setup()
    else:
        app.load_text(saved)
    assert not clock.pending, f"{stop} cancels the scheduled bot"
    if app.table is not None:
        before = app.game.clone()
        stale()  # even a timer the loop had already taken off its list does nothing now
        assert app.game == before
        assert app.acting_seat() == 0


def test_a_table_of_bots_plays_to_the_end_by_itself() -> None:
    app, clock = paced_app("swap_clops", ["random", "random"])
    ticks = 0
    while clock.pending:
        clock.tick()
        ticks += 1
    assert app.game.is_over() and ticks >= len([1 for seat, _ in app.game.log if seat >= 0])


def test_the_screen_is_handed_over_between_two_people_only() -> None:
    app, clock = paced_app("click_crack", ["person", "person", "random"], seed=3)
    rng = random.Random(3)
    handovers = []
    while app.game.phase != "perform":
        if clock.pending:
            clock.tick()
        elif (seat := app.handover_to()) is not None:
            handovers.append(seat)
            app.ready(seat)
        else:
            seat = app.acting_seat()
            assert seat is not None
            app.act(rng.choice(app.game.legal_actions(seat)))
    assert handovers == [0, 1], "each person gets the screen once before setting their tiles"
    alone, _ = paced_app("click_crack", ["person", "random", "random"])
    assert alone.handover_to() is None


def test_undo_at_a_hand_over_says_it_takes_back_the_previous_persons_secret_choice() -> None:
    app, clock = paced_app("click_crack", ["person", "person"], seed=2)
    rng = random.Random(2)
    while app.game.phase == "place":
        seat = app.acting_seat()
        assert seat is not None and not clock.pending
        app.act(rng.choice(app.game.legal_actions(seat)))
    first = app.handover_to()
    assert first is not None
    app.ready(first)
    app.act(rng.choice(app.game.legal_actions(first)))  # the first person sets their tiles in secret
    assert app.handover_to() == 1 - first
    words = app.undo_words()
    secret = f"Player {first}'s secret choice (to be made again)"
    assert words.startswith("Player 1's place at") and secret in words, words
    app.undo()
    assert secret.replace("'", "&#x27;") in app.message.value
    assert app.game.phase == "place"


def test_score_changes_are_said_line_by_line_in_the_games_words() -> None:
    before = {0: [("tiles broken off", 2.0), ("penguins lost", 0.0)], 1: [("tiles broken off", 0.0)]}
    after = {0: [("tiles broken off", 5.0), ("penguins lost", -1.0)], 1: [("tiles broken off", 0.0)]}
    changes = score_changes(before, after, lambda seat: f"Player {seat}")
    assert changes == ["Player 0 +3: tiles broken off", "Player 0 -1: penguins lost"]
    assert deciding_lines(after, 0, 1) == ["tiles broken off: 5 to 0"]


def test_each_action_that_changes_a_score_leaves_a_note() -> None:
    app, clock = paced_app("swap_clops", ["person", "random"])
    rng = random.Random(4)
    while not app.game.is_over() and "After" not in app.notes.value:
        if clock.pending:
            clock.tick()
        else:
            seat = app.acting_seat()
            assert seat is not None
            app.act(rng.choice(app.game.legal_actions(seat)))
    assert "clops collected" in app.notes.value, app.notes.value


def test_a_score_note_that_the_next_moves_repeat_is_one_line_with_a_count() -> None:
    # At the end of ClipCut Parks bots crumple a section turn after turn: seed 0 gives ten in a row.
    app, clock = paced_app("clipcut_parks", ["random", "random"], seed=0)
    while clock.pending:
        clock.tick()
    lines = re.findall(r"<li>(.*?)(?: <i>\((\d+) times in a row\)</i>)?</li>", app.notes.value)
    assert len(lines) == 4, app.notes.value
    assert all(above[0] != below[0] for above, below in pairwise(lines)), "a repeat is counted, not shown again"
    crumpled = "After Player 0&#x27;s move: Player 0 +1: crumpled sections (first tie-break: fewer wins)"
    assert lines[0] == (crumpled, "10")


def test_the_end_screen_says_why_the_winner_won() -> None:
    app, clock = paced_app("click_crack", ["random", "random"], seed=5)
    while clock.pending:
        clock.tick()
    outcome = app.game.outcome()
    assert outcome is not None and len(outcome.winners) == 1
    assert "tb-why" in app.status.value and "was ahead of" in app.status.value


def test_after_another_person_acted_a_secret_decision_needs_the_screen_passed_again() -> None:
    app, clock = paced_app("click_crack", ["person", "person"], seed=2)
    rng = random.Random(5)
    holder = None  # the person known to hold the screen: given it at a hand-over, and since then alone acting
    secret_decisions = 0
    while not app.game.is_over():
        if clock.pending:
            clock.tick()
        elif (seat := app.handover_to()) is not None:
            app.ready(seat)
            holder = seat
        else:
            seat = app.acting_seat()
            assert seat is not None
            if app.table is not None and app.table.decides_in_secret(seat):
                assert holder == seat, f"Player {seat} decides in secret on a screen last held by {holder}"
                secret_decisions += 1
            elif holder != seat:
                holder = None  # a public decision: whoever sat there, the screen is no one's private view
            app.act(rng.choice(app.game.legal_actions(seat)))
    assert secret_decisions >= 4
