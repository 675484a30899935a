"""Help on every dashboard: each game's "How to play" text (its how_to_play.md, read by the kit) in a closed
panel with a legend table, a link to the game's teaching notebook where `cliplab serve` serves it, and the
setup listing exactly the players chosen."""

from __future__ import annotations

import pytest

from cliplab.engine import games
from cliplab.kit import declaration
from cliplab.ui.table import HotSeatTable
from cliplab.ui.table_app import TableApp


@pytest.mark.parametrize("game", games())
def test_every_game_has_a_short_how_to_play_with_a_legend(game: str) -> None:
    text = declaration(game).how_to_play()
    assert 40 <= len(text.split()) <= 400, "a few lines, not the rulebook"
    assert "| On " in text and "|---|---|" in text, "a legend of what is on the board"


@pytest.mark.parametrize("game", games())
def test_the_help_panel_is_closed_and_links_the_teaching_notebook(game: str) -> None:
    app = TableApp(game)
    panel = app.help.value
    assert "<details><summary>How to play</summary>" in panel, "closed until asked for"
    assert "<table>" in panel, "the legend is drawn as a table"
    assert f"href='../../teach/{game}'" in panel


def test_the_setup_lists_exactly_the_players_chosen() -> None:
    app = TableApp("click_crack")
    app.players.value = 3
    chosen = app.status.value
    assert "Player 2 (heuristic bot)" in chosen and "Player 3" not in chosen
    app.players.value = 4
    app.seat_choices[3].value = "person"
    assert "Player 3 (person)" in app.status.value
    app.players.value = 2
    assert "Player 2" not in app.status.value


def test_the_players_table_has_a_heading_for_every_column() -> None:
    app = TableApp("click_crack")
    app.use(HotSeatTable.new("click_crack", ["person", "random"], seed=1))
    head = app.seats_box.value.split("</tr>")[0]
    assert [cell.split(">")[1] for cell in head.split("<th")[1:]] == ["player</th", "score</th", "penguins</th"]


def test_the_log_shows_its_newest_line_first() -> None:
    app = TableApp("click_crack")
    app.use(HotSeatTable.new("click_crack", ["person", "random"], seed=1))
    app.act(app.game.legal_actions(0)[0])
    app.bot_step()
    lines = app.log.value.split("<li>")[1:]
    assert lines[0].startswith("Player 1: place") and lines[1].startswith("Player 0: place")
