"""The Cutterland teaching notebook in the browser (through Voila, which runs every cell): the region board
lights the region the engine finds, and both exercises are answered with buttons, a wrong try showing the
engine's reason and "Show me" the solution."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "teach" / "cutterland.ipynb"
KERNEL_TIMEOUT_MS = 120_000


@pytest.fixture(scope="module")
def notebook_url(voila_server: Any) -> str:
    return voila_server(NOTEBOOK).url


def test_the_region_board_and_the_exercises_answer_as_the_notebook_says(
    page: Page, js_errors: Any, notebook_url: str
) -> None:
    page.goto(notebook_url, wait_until="commit", timeout=KERNEL_TIMEOUT_MS)
    exercises = page.locator(".cl-lesson")
    js_errors.wait_for(exercises.nth(1).locator(".cl-lesson-show-me"), timeout=KERNEL_TIMEOUT_MS)

    regions = page.locator(".cl-grid").first
    # The kingdom is drawn with a margin of one cell: its cell 0,0 (a centaur's meadow) is the board's 1,1.
    regions.locator(".cl-board g[data-kind='cell'][data-r='1'][data-c='1']").click()
    expect(regions).to_contain_text("The region of (0, 0): 4 cells", timeout=20_000)

    cutting = exercises.nth(0)
    feedback = cutting.locator(".cl-lesson-feedback")
    cutting.get_by_role("button", name="cut card 56 as 1221 1221 3333").click()
    expect(feedback).to_contain_text("Refused (cutting): piece 1", timeout=20_000)
    cutting.get_by_role("button", name="cut card 56 as 1122 1122 3333").click()
    expect(feedback).to_contain_text("the kraken at 0,0 shares a piece with the centaur at 1,0", timeout=20_000)
    solution = cutting.locator(".cl-lesson-solution")
    expect(solution).to_be_hidden()
    cutting.locator(".cl-lesson-show-me").click()
    expect(solution).to_contain_text("cut card 56 as 1222 3222 3333", timeout=20_000)

    walling = exercises.nth(1)
    walling.get_by_role("button", name="keep the other tokens").click()
    expect(walling.locator(".cl-lesson-wrong")).to_contain_text("the best choice scores 9", timeout=20_000)
    walling.get_by_role("button", name="wall east of 0,0").click()
    expect(walling.locator(".cl-lesson-right")).to_contain_text("the most possible", timeout=20_000)
