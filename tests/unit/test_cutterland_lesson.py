"""The Cutterland lesson's helpers: exercises answered with buttons and judged by the engine, a live region board."""

from __future__ import annotations

from cliplab.games.cutterland.rules import position
from cliplab.games.cutterland.teach import cut_exercise, land, region_board, token_exercise
from cliplab.ui import Intent

CUTS = ["cut card 56 as 1122 1122 3333", "cut card 56 as 1221 1221 3333", "cut card 56 as 1222 3222 3333"]


def test_land_sketches_rows_and_skips_the_gaps() -> None:
    assert land("MC --", "-- WK") == [(0, 0, "MC"), (1, 1, "WK")]


def test_a_cut_exercise_shows_the_engines_refusal_and_the_kraken_beside_a_centaur() -> None:
    game = position(3, hands=[[56], [], []])
    exercise = cut_exercise(game, CUTS)
    exercise.choose((CUTS[0],))
    assert not exercise.solved
    assert "kraken at 0,0 shares a piece with the centaur at 1,0" in exercise.tries[-1].text
    exercise.choose((CUTS[1],))
    assert exercise.tries[-1].text.startswith("Refused (") and "hang together" in exercise.tries[-1].text
    exercise.choose((CUTS[2],))
    assert exercise.solved and game.phase == "cut"  # tried on copies: the game itself is not cut
    assert "1222 3222 3333" in exercise.solution.value and exercise.solution.layout.display == "none"
    exercise.reveal()
    assert exercise.solution.layout.display is None


def test_a_token_exercise_offers_every_placement_and_names_the_best_score() -> None:
    game = position(2, kingdoms=[land("SD SG SG SG"), []], tokens=[{"wall": 1}, {}])
    exercise = token_exercise(game)
    assert exercise.options[-1] == "keep the other tokens" and len(exercise.options) == 4
    exercise.choose(("keep the other tokens",))
    assert not exercise.solved and "the best choice scores" in exercise.tries[-1].text
    exercise.choose(("wall east of 0,0",))
    assert exercise.solved


def test_a_region_board_lights_the_clicked_region_and_leaves_it_on_a_click_off_the_land() -> None:
    game = position(2, kingdoms=[land("MC M. S.", "-- W. S."), []])
    grid = region_board(game).widget
    grid.handle(Intent("kingdom-0", "cell", (1, 1)))  # the centaur's meadow: the board has a margin of one cell
    assert grid.scene.status == "The region of (0, 0): 2 cells"
    assert len(grid.scene.boards[0].marks) == 2
    grid.handle(Intent("kingdom-0", "cell", (2, 1)))  # no land there
    assert grid.scene.status == "The region of (0, 0): 2 cells"
