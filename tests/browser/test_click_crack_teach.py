"""The Click & Crack teaching notebook in the browser (through Voila, which runs every cell): an exercise
is answered by clicking the floe, the engine's reason for a wrong try is on the screen, and "Show me"
reveals the solution and plays it on the board; every picture and exercise fits a 1280x720 screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "teach" / "click_crack.ipynb"
KERNEL_TIMEOUT_MS = 120_000
SCREEN = {"width": 1280, "height": 720}
# The exercises in the order the notebook asks them: which actions are allowed (buttons), the best single
# break (on the floe), the equal halves (on the floe).
BEST_BREAK = 1


def _line(exercise: Locator, a: tuple[int, int], b: tuple[int, int]) -> Locator:
    (r, c), (r2, c2) = a, b
    return exercise.locator(f".cl-hit[data-kind='segment'][data-r='{r}'][data-c='{c}'][data-r2='{r2}'][data-c2='{c2}']")


@pytest.fixture(scope="module")
def notebook_url(voila_server: Any) -> str:
    return voila_server(NOTEBOOK).url


def test_an_exercise_is_answered_by_clicks_with_the_engines_reasons_and_a_show_me(
    page: Page, js_errors: Any, notebook_url: str, artifacts_dir: Path
) -> None:
    page.set_viewport_size(SCREEN)
    page.goto(notebook_url, wait_until="commit", timeout=KERNEL_TIMEOUT_MS)
    exercises = page.locator(".cl-lesson")
    exercise = exercises.nth(BEST_BREAK)
    js_errors.wait_for(exercise.locator(".cl-board"), timeout=KERNEL_TIMEOUT_MS)
    assert exercises.count() == 3
    feedback = exercise.locator(".cl-lesson-feedback")
    solution = exercise.locator(".cl-lesson-solution")
    expect(solution).to_be_hidden()

    # Penguin 0 stands on point (1, 4); player 0 holds break E and break S, so a break north is refused.
    _line(exercise, (0, 4), (1, 4)).click()
    expect(feedback).to_contain_text("your tiles this round are break E and break S", timeout=20_000)
    expect(feedback).to_contain_text("✘")
    expect(exercise.locator(".cl-notice-text")).to_contain_text("Your tiles this round are break E and break S")

    # Breaking south from penguin 1 (at 3, 2) is allowed but scores less than the best break.
    _line(exercise, (3, 2), (4, 2)).click()
    expect(feedback).to_contain_text("Allowed, but it gains +2 points. The best move gains +3.", timeout=20_000)
    expect(feedback).to_contain_text("back at the start")

    exercise.locator(".cl-lesson-show-me").click()
    expect(solution).to_be_visible(timeout=20_000)
    expect(solution).to_contain_text("break E with penguin 0")
    expect(solution).to_contain_text("+2 for break S with penguin 1")
    expect(exercise.locator(".cl-status")).to_contain_text("player 0: 3", timeout=20_000)
    solution.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts_dir / "click_crack_teach_show_me.png"))


def test_every_picture_and_exercise_fits_the_screen(page: Page, js_errors: Any, notebook_url: str) -> None:
    page.set_viewport_size(SCREEN)
    page.goto(notebook_url, wait_until="commit", timeout=KERNEL_TIMEOUT_MS)
    js_errors.wait_for(page.locator(".cl-lesson").nth(2).locator(".cl-board"), timeout=KERNEL_TIMEOUT_MS)
    # Static pictures are the notebook's SVG outputs (the live boards are widgets).
    pictures = page.locator(".jp-RenderedSVG > *").evaluate_all(
        "(all) => all.map((picture) => picture.getBoundingClientRect().height)"
    )
    assert len(pictures) >= 10, "the notebook's pictures are on the page"
    assert max(pictures) <= 600, pictures
    exercises = page.locator(".cl-lesson").evaluate_all("(all) => all.map((e) => e.getBoundingClientRect().height)")
    assert len(exercises) == 3 and max(exercises) <= SCREEN["height"], exercises
