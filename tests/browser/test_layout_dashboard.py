"""Every game's dashboard on a projector-sized screen (1280x720): once a game is under way, the whole table
(the board, the status line, the controls and the players' table) is on the screen without scrolling, and
no two of its parts overlap."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import TableDriver
from playwright.sync_api import Page

from cliplab.engine import games
from cliplab.kit import declaration

pytestmark = pytest.mark.browser

REPO_ROOT = Path(__file__).resolve().parents[2]
DASHBOARDS = REPO_ROOT / "notebooks" / "dashboards"
SCREEN = {"width": 1280, "height": 720}
PARTS = {"board": "div.cl-grid", "status": ".tb-status", "controls": ".tb-panel", "players": ".tb-players"}

# Each part's box on the screen.
BOXES = """(app, parts) => {
  const boxes = {};
  for (const [name, css] of Object.entries(parts)) {
    const found = app.querySelector(css);
    if (!found) continue;
    const r = found.getBoundingClientRect();
    boxes[name] = {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
  }
  return {boxes};
}"""


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two boxes share more than a pixel's width."""
    return min(a["right"], b["right"]) - max(a["left"], b["left"]) > 1 and (
        min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 1
    )


@pytest.fixture(scope="session")
def dashboards_url(voila_server: Any) -> str:
    return voila_server(DASHBOARDS).url


@pytest.mark.parametrize("game", games())
def test_the_whole_table_fits_a_projector_screen_without_overlaps(
    game: str, page: Page, js_errors: Any, artifacts_dir: Path, dashboards_url: str
) -> None:
    page.set_viewport_size(SCREEN)
    dash = TableDriver(page, js_errors, artifacts_dir, f"layout-{game}", "xx", "(app) => ({})")
    dash.open(f"{dashboards_url}voila/render/{game}.ipynb")
    spec = declaration(game).spec
    seats = ["person", *[declaration(game).default_bot] * (spec.default_players - 1)]
    dash.start(seats, seed=1)
    page.evaluate("window.scrollTo(0, 0)")  # the Start button may have been scrolled to; the table must not need it
    dash.shot("playing")
    found = dash.app.evaluate(BOXES, PARTS)
    boxes = found["boxes"]
    assert set(boxes) == set(PARTS), f"parts missing from the page: {set(PARTS) - set(boxes)}"
    for name, box in boxes.items():
        assert box["left"] >= 0 and box["top"] >= 0, f"{name} starts off the screen: {box}"
        assert box["right"] <= SCREEN["width"] and box["bottom"] <= SCREEN["height"], f"{name} runs off: {box}"
    names = sorted(boxes)
    clashes = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :] if overlap(boxes[a], boxes[b])]
    assert not clashes, f"parts overlap: {clashes} ({boxes})"
