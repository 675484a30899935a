"""The Swap Clops teaching notebook's live boards in the browser (through Voila, which runs every cell):
the flood fill marks the group the engine finds, the first exercise judges a swap made by two clicks, and
the closing game takes a swap by two clicks and the bot answers, as the notebook says."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from cliplab.engine import new_game
from cliplab.games.swap_clops.rules import group_at, space_of

pytestmark = pytest.mark.browser

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "teach" / "swap_clops.ipynb"
KERNEL_TIMEOUT_MS = 120_000
# The live boards in the order the notebook shows them: a table (seed 1), the flood fill, the two
# exercises (the first asks for the biggest collection), the closing game.
FLOOD, CLOSING = 1, 4


def _cell(grid: Locator, r: int, c: int) -> Locator:
    return grid.locator(f".cl-board g[data-kind='cell'][data-r='{r}'][data-c='{c}']")


def _marked(grid: Locator, style: str) -> set[tuple[int, int]]:
    places = grid.locator(f".cl-board > rect.cl-mark-{style}").evaluate_all(
        "(marks) => marks.map((m) => [Number(m.getAttribute('y')), Number(m.getAttribute('x'))])"
    )
    return {(int(y) // 40, int(x) // 40) for y, x in places}


@pytest.fixture(scope="module")
def notebook_url(voila_server: Any) -> str:
    return voila_server(NOTEBOOK).url


def test_the_live_boards_answer_clicks_as_the_notebook_says(page: Page, js_errors: Any, notebook_url: str) -> None:
    page.goto(notebook_url, wait_until="commit", timeout=KERNEL_TIMEOUT_MS)
    grids = page.locator(".cl-grid")
    js_errors.wait_for(grids.nth(CLOSING).locator(".cl-board"), timeout=KERNEL_TIMEOUT_MS)

    flood = grids.nth(FLOOD)
    engine = new_game("swap_clops", players=2, seed=5)  # the flood fill's board
    _cell(flood, 2, 3).click()
    expected = {divmod(space, 8) for space in group_at(engine.board, space_of(2, 3))}
    page.wait_for_function(
        "(el) => el.textContent.includes('The group of (2, 3)')", arg=flood.element_handle(), timeout=20_000
    )
    assert f"The group of (2, 3): {len(expected)} clops" in (flood.text_content() or "")
    assert _marked(flood, "last") == expected, "the marked cells are the group the engine found"

    closing = grids.nth(CLOSING)
    game = new_game("swap_clops", players=2, seed=2026)
    swap = game.swaps()[0]
    _cell(closing, swap.row_a, swap.col_a).click()
    page.wait_for_function(
        "(el) => el.querySelectorAll('rect.cl-mark-target').length > 1", arg=closing.element_handle(), timeout=20_000
    )
    assert (swap.row_b, swap.col_b) in _marked(closing, "target"), "the partner is lit"
    _cell(closing, swap.row_b, swap.col_b).click()
    notice = closing.locator(".cl-notice-text")
    js_errors.wait_for(notice, timeout=20_000)
    words = notice.inner_text()
    assert re.match(rf"You: {swap}, collecting \d+ clops\. player 1: swap ", words), words


def test_the_biggest_swap_exercise_is_answered_by_two_clicks_and_judged_by_the_engine(
    page: Page, js_errors: Any, notebook_url: str
) -> None:
    page.goto(notebook_url, wait_until="commit", timeout=KERNEL_TIMEOUT_MS)
    exercise = page.locator(".cl-lesson").first
    board = exercise.locator(".cl-grid")
    js_errors.wait_for(board.locator(".cl-board"), timeout=KERNEL_TIMEOUT_MS)
    feedback = exercise.locator(".cl-lesson-feedback")

    _cell(board, 5, 4).click()  # the angry square; its partner 7,7 finishes a group of five
    page.wait_for_function(
        "(el) => el.querySelectorAll('rect.cl-mark-target').length > 1", arg=board.element_handle(), timeout=20_000
    )
    _cell(board, 7, 7).click()
    expect(feedback).to_contain_text("swap 5,4 with 7,7. Allowed, but it gains +5 clops", timeout=20_000)
    expect(feedback).to_contain_text("The best move gains +8")

    _cell(board, 3, 0).click()
    _cell(board, 3, 2).click()
    expect(feedback).to_contain_text("Right: it gains +8 clops, the most possible.", timeout=20_000)
