"""The comparison page through `cliplab serve`, as a designer uses it: a small comparison shows its table and
its plot, a long run shows progress and stops, and a mistake is said on the page.

The question asked is the issue's: should ClipCut Parks solo allow flipping sections (allow_flip)?
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import RunningServer, _free_port, _private_env, _stop, _wait_for_port
from playwright.sync_api import Locator, Page

pytestmark = pytest.mark.browser

REPO_ROOT = Path(__file__).resolve().parents[2]
PAGE_TIMEOUT = 120_000  # the first page of a server waits for its kernel


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    home = tmp_path_factory.mktemp("compare-serve")
    port = _free_port()
    with (home / "serve.log").open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "cliplab.cli", "serve", f"--port={port}"],
            cwd=REPO_ROOT,
            env=_private_env(home / "home"),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    server = RunningServer(
        "cliplab-serve", f"http://127.0.0.1:{port}/", port, REPO_ROOT, home / "serve.log", process, home
    )
    try:
        _wait_for_port(server)
        yield server
    finally:
        _stop(process)


def _open(page: Page, served: RunningServer, js_errors) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{served.url}voila/render/compare.ipynb")
    js_errors.wait_for(page.get_by_role("button", name="Run"), timeout=PAGE_TIMEOUT)


def _choose(page: Page, label: str, value: str, within: Locator | None = None) -> None:
    (within or page).get_by_label(label, exact=True).select_option(value)


def _type(page: Page, label: str, value: str, within: Locator | None = None) -> None:
    field = (within or page).get_by_label(label, exact=True)
    field.fill(value)
    field.press("Tab")  # the widget takes the value when the field is left


def _setup_solo_flip_question(page: Page, games: str, js_errors) -> None:
    _choose(page, "game", "clipcut_parks")
    # The kernel answers a new game with its player counts, its default count, then its options line: once
    # that line is there, choosing a count is not overridden by the default arriving late.
    js_errors.wait_for(page.get_by_text("options of ClipCut Parks:"))
    _choose(page, "players", "1")
    side_b = page.locator(".cl-compare-setup-b")
    js_errors.wait_until(lambda: side_b.locator("select").count() == 2, "setup b has one seat")
    _choose(page, "variant", "(default rules)", side_b)
    _type(page, "options", "allow_flip=yes", side_b)
    _type(page, "games", games)
    _type(page, "workers", "1")


def _status(page: Page) -> Locator:
    return page.locator(".cl-compare-status")


def test_a_small_solo_comparison_shows_its_table_and_plot(served: RunningServer, page: Page, js_errors) -> None:
    _open(page, served, js_errors)
    _setup_solo_flip_question(page, "12", js_errors)
    page.get_by_role("button", name="Run").click()
    js_errors.wait_until(lambda: "done" in _status(page).inner_text(), "the comparison is done", timeout=120_000)
    assert _status(page).inner_text().strip() == "done: 12 games each"

    table = page.locator(".cl-compare-table table")
    js_errors.wait_for(table)
    text = table.inner_text()
    assert "a = default random; b = default allow_flip=yes random" in page.locator(".cl-compare-table").inner_text()
    for shown in ("games needed per side", "score mean", "score median", "cards completed", "sections crumpled"):
        assert shown in text, shown
    for hidden in ("advantage seat", "balance", "lead changes", "winning score"):
        assert hidden not in text, f"a solo comparison has no {hidden!r} line"
    # A row reads metric, a, b, b - a, interval, significant, games needed.
    row = table.locator("tr", has_text="cards completed").first.inner_text().split("\t")
    assert len(row) == 7 and re.fullmatch(r"-?[\d.]+ \.\. -?[\d.]+", row[4]) and row[5] in ("yes", "no")

    plot = page.locator("img.cl-compare-plot")
    plot.scroll_into_view_if_needed()
    js_errors.wait_for(plot)
    width, height = plot.evaluate("image => [image.naturalWidth, image.naturalHeight]")
    assert width > 600 and height > 400, "the plot is a real picture"
    box = plot.bounding_box()
    assert box is not None and box["width"] > 600 and box["height"] > 300, "the plot is shown at a readable size"


def test_a_long_run_shows_progress_and_stops(served: RunningServer, page: Page, js_errors) -> None:
    _open(page, served, js_errors)
    _setup_solo_flip_question(page, "100000", js_errors)
    page.get_by_role("button", name="Run").click()
    bar = page.locator(".cl-compare-progress .progress-bar")
    js_errors.wait_until(
        lambda: float(bar.evaluate("bar => parseFloat(bar.style.width || '0')")) > 0,
        "the progress bar moves",
        timeout=60_000,
    )
    assert re.search(r"simulating default random: [\d,]+ of 100,000 games", _status(page).inner_text())
    stop = page.get_by_role("button", name="Stop")
    assert stop.is_enabled()
    stop.click()
    js_errors.wait_until(lambda: "stopped after" in _status(page).inner_text(), "the run stops", timeout=60_000)
    assert re.search(r"stopped after \d+ of 200000 games", _status(page).inner_text())
    assert page.get_by_role("button", name="Run").is_enabled()
    assert page.locator(".cl-compare-table table").count() == 0, "a stopped run compares nothing"


def test_a_mistake_is_said_on_the_page(served: RunningServer, page: Page, js_errors) -> None:
    _open(page, served, js_errors)
    _setup_solo_flip_question(page, "12", js_errors)
    _type(page, "options", "allow_flip=maybe", page.locator(".cl-compare-setup-b"))
    page.get_by_role("button", name="Run").click()
    js_errors.wait_until(lambda: "setup b" in _status(page).inner_text(), "the mistake is shown")
    assert "allow_flip" in _status(page).inner_text() and "maybe" in _status(page).inner_text()
    assert page.locator(".cl-compare-status span[style*='color']").count() == 1, "in red"
