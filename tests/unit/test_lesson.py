"""The lesson toolkit of the teaching notebooks: pictures sized to the screen, checks that ask the engine,
and exercises answered by clicks or buttons with a "Show me" button for the solution."""

from __future__ import annotations

import re

import pytest

from cliplab.engine import IllegalAction
from cliplab.games.click_crack.rules import FLOE, ClickCrack, position
from cliplab.games.click_crack.teach import (
    allowed_exercise,
    best_move_exercise,
    points_gained,
    turn_unfinished,
)
from cliplab.games.clipcut_parks.teach import arrange, completion_exercise, cut_exercise, new
from cliplab.games.paper_world.content import objectives
from cliplab.games.paper_world.rules import position as paper_position
from cliplab.games.paper_world.teach import CardNames, objective_exercise, take_exercise
from cliplab.games.swap_clops.rules import layout
from cliplab.games.swap_clops.rules import position as swap_position
from cliplab.games.swap_clops.teach import biggest_swap_exercise
from cliplab.games.swap_clops_cards.rules import position as cards_position
from cliplab.games.swap_clops_cards.teach import offer_exercise
from cliplab.ui import Board, Intent, Scene, render
from cliplab.ui.lesson import (
    SCREEN_HEIGHT,
    ChoiceExercise,
    Verdict,
    attempt,
    best_line,
    fit,
    judge_allowed,
    judge_best,
    lines_of_play,
    live,
    picture,
    still,
    tried,
    why_not,
)
from cliplab.ui.widget import Grid


def drawn_height(svg: str) -> float:
    """The height in pixels a picture is drawn at when its container is wide enough (its max-width)."""
    box = re.search(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"', svg)
    width = re.search(r"max-width:([\d.]+)px", svg)
    assert box and width
    return float(width.group(1)) * float(box.group(2)) / float(box.group(1))


def corner_position() -> ClickCrack:
    """Player 0 may walk N or break W with penguin 0; penguin 1 stands by the broken-off corner."""
    game = position(2, penguins=[(1, 2), (1, 0), (0, 2), (0, 1)], gone=[(0, 0)])
    game.apply("set walk N and break W", 0)
    game.apply("set walk S and walk S", 1)
    return game


def halves_position() -> ClickCrack:
    """One crack splits the floe into equal halves; player 0 then picks the half that breaks off."""
    game = position(
        2,
        penguins=[(2, 2), (3, 3), (3, 1), (4, 1)],
        cracks=[((3, 1), (3, 2)), ((4, 1), (4, 2))],
        gone=FLOE - {(r, c) for r in range(2, 5) for c in range(4)},
    )
    game.apply("set break S and walk E", 0)
    game.apply("set walk N and walk N", 1)
    return game


def test_a_tall_picture_is_shrunk_to_the_screen_and_a_small_one_is_left_alone() -> None:
    tall = Scene((Board("tall", "A tall board", 20, 4),), status="status", zoom=2.0)
    assert drawn_height(render(tall)) > SCREEN_HEIGHT
    assert drawn_height(render(fit(tall))) == pytest.approx(SCREEN_HEIGHT, abs=1)
    # A picture states its size, so a page showing it as an image (Voila) does not stretch it to its width.
    stated = re.search(r'<svg [^>]*width="(\d+)" height="(\d+)"', picture(tall).data)
    assert stated is not None and 'width="100%"' not in picture(tall).data
    assert float(stated.group(2)) == pytest.approx(SCREEN_HEIGHT, abs=1)
    box = re.search(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"', picture(tall).data)
    assert box is not None
    ratio = float(box.group(1)) / float(box.group(2))
    assert float(stated.group(1)) / float(stated.group(2)) == pytest.approx(ratio, rel=0.01)
    small = Scene((Board("small", "A small board", 3, 3),), zoom=1.0)
    assert fit(small).zoom == 1.0
    assert drawn_height(render(fit(small, max_height=100))) == pytest.approx(100, abs=1)


def test_a_live_widget_stands_in_with_a_fixed_sentence_where_no_kernel_runs() -> None:
    data, _ = live(Grid(), "Run me.")._repr_mimebundle_()
    assert data["text/plain"] == "Run me."
    assert "application/vnd.jupyter.widget-view+json" in data


def test_tried_plays_on_a_copy_and_raises_the_engines_refusal() -> None:
    game = corner_position()
    after = tried(game, 0, ["walk N with penguin 0"])
    assert after.pos[0] == (0, 2) and game.pos[0] == (1, 2)
    with pytest.raises(IllegalAction, match="walk off the floe"):
        tried(game, 0, ["walk N with penguin 1"])
    assert why_not(game, 0, ["walk N with penguin 1", "walk N with penguin 0"]) == (
        "walk N with penguin 1 (penguin 1 would walk off the floe)"
    )


def test_judge_allowed_gives_the_engines_reason_then_counts_the_missing_then_agrees() -> None:
    game = corner_position()
    wrong = judge_allowed(game, 0, ["walk N with penguin 0", "walk N with penguin 1"])
    assert not wrong.right and "walk N with penguin 1" in wrong.text and "walk off the floe" in wrong.text
    short = judge_allowed(game, 0, ["walk N with penguin 0"])
    assert not short.right and "1 more" in short.text
    assert judge_allowed(game, 0, ["walk N with penguin 0", "break W with penguin 0"]).right


def test_lines_of_play_go_on_through_a_choice_and_the_best_line_is_found() -> None:
    game = halves_position()
    lines = dict(lines_of_play(game, 0, turn_unfinished(0)))
    top = ("break S with penguin 0", "break off the part with tile 2,0")
    right = ("break S with penguin 0", "break off the part with tile 2,2")
    assert top in lines and right in lines
    gain = points_gained(0)
    assert best_line(game, 0, gain, turn_unfinished(0)) == right
    assert judge_best(game, 0, tried(game, 0, right[:1]), gain, turn_unfinished(0)) is None, "a half is still to pick"
    worse = judge_best(game, 0, lines[top], gain, turn_unfinished(0))
    assert worse is not None and not worse.right and "+4" in worse.text and "+5" in worse.text


def test_a_board_exercise_shows_a_refusal_resets_a_worse_answer_and_keeps_the_right_one() -> None:
    game = halves_position()
    exercise = best_move_exercise(game, 0)
    start = exercise.trial.pos

    exercise.grid.handle(Intent("floe", "segment", (2, 2), (3, 2)))  # the crack: a half is still to pick
    assert exercise.trial.phase == "break" and "another click" in exercise.feedback.value
    exercise.grid.handle(Intent("floe", "cell", (0, 0)))  # water: in neither half
    assert "cl-lesson-wrong" in exercise.feedback.value and "equal halves" in exercise.feedback.value
    assert "equal halves" in exercise.grid.widget.notice["text"], "the reason is on the board too"
    assert exercise.trial.phase == "break", "a refused click changes nothing"

    exercise.grid.handle(Intent("floe", "cell", (2, 0)))  # the worse half
    assert "+4" in exercise.feedback.value and "back at the start" in exercise.feedback.value
    assert exercise.trial.pos == start and exercise.trial.phase == "perform"
    assert not exercise.solved

    exercise.grid.handle(Intent("floe", "segment", (2, 2), (3, 2)))
    exercise.grid.handle(Intent("floe", "cell", (2, 3)))
    assert exercise.solved and "cl-lesson-right" in exercise.feedback.value
    assert exercise.trial.is_over()
    assert game.phase == "perform" and list(game.scores) == [0, 0], "the exercise never touches the game it was given"


def test_show_me_reveals_the_solution_and_plays_it_on_the_board() -> None:
    exercise = best_move_exercise(halves_position(), 0)
    assert exercise.solution.layout.display == "none"
    exercise.show_me.click()
    assert exercise.solution.layout.display is None
    assert "break off the part with tile 2,2" in exercise.solution.value
    assert "+4 for" in exercise.solution.value, "the solution shows how the engine scores every choice"
    assert exercise.trial.scores[0] == 5
    assert "Scores: player 0: 5" in exercise.grid.scene.status


def test_a_choice_exercise_with_many_answers_is_checked_by_the_engine() -> None:
    exercise = allowed_exercise(corner_position(), 0)
    assert "pass" in exercise.options and "walk N with penguin 1" in exercise.options
    for option, toggle in zip(exercise.options, exercise.toggles, strict=True):
        toggle.value = option in {"walk N with penguin 0", "walk N with penguin 1"}
    exercise.choose(exercise.chosen())
    assert "walk off the floe" in exercise.feedback.value and not exercise.solved
    for option, toggle in zip(exercise.options, exercise.toggles, strict=True):
        toggle.value = option in {"walk N with penguin 0", "break W with penguin 0"}
    exercise.choose(exercise.chosen())
    assert exercise.solved and "cl-lesson-right" in exercise.feedback.value
    assert "walk off the floe" in exercise.solution.value, "the solution gives the engine's reasons"


def test_a_choice_exercise_with_one_answer_judges_a_single_click() -> None:
    heard: list[tuple[str, ...]] = []

    def judge(chosen: tuple[str, ...]) -> Verdict:
        heard.append(chosen)
        return Verdict(chosen == ("b",), "b it is" if chosen == ("b",) else "not that one")

    exercise = ChoiceExercise(["a", "b"], judge, "b")
    buttons = exercise.widget.children[0].children
    buttons[0].click()
    assert "not that one" in exercise.feedback.value and "✘" in exercise.feedback.value
    buttons[1].click()
    assert heard == [("a",), ("b",)] and exercise.solved and "✔" in exercise.feedback.value


def test_a_swap_exercise_takes_two_clicks_and_the_engine_counts_what_the_swap_collects() -> None:
    rows = ["tS .. tB", "tS .. tB", "tS .. tB", "tB cW tS cW", "cH .. cH .. cH", "sW sW sW sW sA cH", ".. .. .. .. cH"]
    game = swap_position(2, board=layout([*rows, ".. .. .. .. .. .. .. sW"]), supply=[])
    exercise = biggest_swap_exercise(game)
    exercise.grid.handle(Intent("clops", "cell", (5, 4)))
    assert exercise.tries == [] and exercise.trial.log == game.log, "the first click only picks"
    exercise.grid.handle(Intent("clops", "cell", (5, 5)))  # a circle: picks it instead of swapping
    exercise.grid.handle(Intent("clops", "cell", (5, 4)))  # a square again: picked anew
    assert exercise.tries == []
    exercise.grid.handle(Intent("clops", "cell", (7, 7)))
    assert not exercise.tries[-1].right and "+5 clops" in exercise.tries[-1].text
    assert "swap 3,0 with 3,2" in exercise.solution.value
    exercise.grid.handle(Intent("clops", "cell", (3, 0)))
    exercise.grid.handle(Intent("clops", "cell", (3, 2)))
    assert exercise.solved and "+8 clops" in exercise.tries[-1].text


def test_the_offer_exercise_names_the_card_that_feeds_the_best_set_and_caps_an_offer_at_two() -> None:
    game = cards_position(
        2,
        hands=[["yellow_circle"], ["red_circle", "blue_square", "blue_triangle", "green_circle", "yellow_triangle"]],
        sets=[[["red_square", "red_triangle", "red_circle"], ["blue_circle"], []], [[], [], []]],
        deck=["white_circle"] * 4,
    )
    game.apply("place yellow_circle in set 3")
    exercise = offer_exercise(game, 1)
    exercise.choose(("red_circle",))
    assert "would feed the best set 1" in exercise.tries[-1].text
    exercise.choose(("blue_square", "green_circle", "yellow_triangle"))
    assert "at most two cards" in exercise.tries[-1].text
    exercise.choose(("blue_square", "green_circle"))
    assert not exercise.tries[-1].right and "could earn 3" in exercise.tries[-1].text
    exercise.choose(("blue_triangle", "green_circle"))
    assert exercise.solved


def test_the_take_exercise_refuses_a_take_nothing_matches_and_counts_the_hand_limit() -> None:
    paper = CardNames()
    tops = [paper.many(code) for code in ("y2", "y4", "y1", "y3", "b2")]
    game = paper_position(
        2, seed=2, piles=tops, hands=[paper.many("k2", "k3", "k4", "g3", "g4", "b4"), paper.many("k1")]
    )
    exercise = take_exercise(game)
    buttons = {button.description: button for button in exercise.widget.children[0].children}
    buttons["take colour green"].click()
    assert "no card on top of a centre pile shows the colour green" in exercise.tries[-1].text
    buttons["take colour yellow"].click()
    assert "10 in hand, over the limit of 9" in exercise.tries[-1].text
    buttons["take value 2"].click()
    assert exercise.solved and "take value 2" in exercise.solution.value


def test_the_objective_exercise_plays_a_clicked_placement_and_ends_the_turn() -> None:
    paper = CardNames()
    b1, b1_too, k1, g3 = paper.many("b1", "b1", "k1", "g3")
    goal = next(o.number for o in objectives() if o.name == "L of one colour")
    quiet = [next(o.number for o in objectives() if o.name == words) for words in ("nine stacks", "24 stars showing")]
    game = paper_position(
        2,
        seed=7,
        hands=[[b1_too, k1, g3], paper.many("g1")],
        landscapes=[[[0, 0, [b1]], [0, 1, [paper("b1")]]], []],
        objectives=[goal, *quiet],
        piles=[paper.many("y5"), [], [], [], []],
    )
    exercise = objective_exercise(game, goal)

    def place(number: int, row: int, col: int) -> None:
        exercise.grid.handle(Intent("hand", "cell", (0, game.hands[0].index(number))))
        exercise.grid.handle(Intent("land-0", "cell", (row + 2, col + 2)))  # the landscape's 0,0 is drawn at 2,2

    place(g3, 1, 0)
    assert "a new stack starts with a 1" in exercise.tries[-1].text
    place(k1, 1, 0)
    assert "No token" in exercise.tries[-1].text and exercise.trial.hands[0] == game.hands[0], "back at the start"
    place(b1_too, 1, 0)
    assert exercise.solved and "token 2" in exercise.tries[-1].text


def test_a_clipcut_cut_exercise_is_answered_by_two_points_and_a_drop_completes_a_card() -> None:
    earlier = ["cut 1 from 0,3 going S", "cut 1 from 1,0 going E", "cut 2 from 7,6 going N"]
    earlier += ["cut 1 from 5,9 going W", "cut 1 from 3,0 going E", "cut 2 from 4,2 going N"]
    cutting = cut_exercise(arrange(new(1, seed=9), die=[2], earlier=earlier), size=3)
    cutting.grid.handle(Intent("sheet", "point", (1, 2)))  # inside the sheet, at no cut's end
    assert "a cut starts on the sheet's edge" in cutting.tries[-1].text
    cutting.grid.handle(Intent("sheet", "point", (1, 1)))
    cutting.grid.handle(Intent("sheet", "point", (1, 3)))
    assert cutting.solved and "frees a section of 3 squares" in cutting.tries[-1].text

    plus = [[(4, 5), (5, 4), (5, 5), (5, 6), (6, 5)]]
    building = completion_exercise(
        arrange(new(1, seed=9), face_up=[("park", 6), ("park", 15)], sections=plus), [("park", 6)]
    )
    building.grid.handle(Intent("park-6", "drop", (0, 0), piece="s1", turns=0))
    assert "asks for a wildlife icon" in building.tries[-1].text
    assert "turned 2" in building.solution.value
    building.grid.handle(Intent("park-6", "drop", (0, 0), piece="s1", turns=2))
    assert building.solved and "Bandstand Cross" in building.tries[-1].text
    building.start_again()
    assert building.trial.log == building.start.log and "back at the start" in building.feedback.value


def test_attempt_prints_what_was_done_or_the_engines_refusal_and_still_drops_the_click_targets(
    capsys: pytest.CaptureFixture[str],
) -> None:
    game = corner_position()
    attempt(game, "walk N with penguin 1")
    attempt(game, "walk N with penguin 0")
    assert capsys.readouterr().out.splitlines() == [
        "refused: walk N with penguin 1  (walk: penguin 1 would walk off the floe)",
        "done:    walk N with penguin 0",
    ]
    board = still(Scene((Board("floe", "The floe", 5, 5, clickable=("point",)),)), "After", "after")
    assert (board.id, board.label, board.clickable) == ("after", "After", ())
