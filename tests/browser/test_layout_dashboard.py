"""Every game's dashboard on a projector-sized screen (1280x720): once a game is under way, and again on the
end screen of a finished game, the whole table (the board, the status line, the controls and the players'
table) is on the screen without scrolling, no two of its parts overlap, and the board's picture is drawn
whole at its scale rather than scrolling sideways in a place too narrow for it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import TableDriver
from playwright.sync_api import Page

from cliplab.engine import games, to_json
from cliplab.kit import declaration
from cliplab.ui.table import HotSeatTable

pytestmark = pytest.mark.browser

REPO_ROOT = Path(__file__).resolve().parents[2]
DASHBOARDS = REPO_ROOT / "notebooks" / "dashboards"
SCREEN = {"width": 1280, "height": 720}
PARTS = {"board": "div.cl-grid", "status": ".tb-status", "controls": ".tb-panel", "players": ".tb-players"}
END_PLAYERS = 4  # the end screen's breakdown grows with the players: the most a game allows, up to this

# Each part's box on the screen, and each picture of the board that is wider than the space it has (its
# host scrolls sideways).
BOXES = """(app, parts) => {
  const boxes = {};
  for (const [name, css] of Object.entries(parts)) {
    const found = app.querySelector(css);
    if (!found) continue;
    const r = found.getBoundingClientRect();
    boxes[name] = {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
  }
  const hosts = [...app.querySelectorAll("div.cl-grid .cl-svg-host")];
  const scrolling = hosts.filter((h) => h.scrollWidth > h.clientWidth)
    .map((h) => ({scroll: h.scrollWidth, visible: h.clientWidth}));
  return {boxes, pictures: hosts.length, scrolling};
}"""


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two boxes share more than a pixel's width."""
    return min(a["right"], b["right"]) - max(a["left"], b["left"]) > 1 and (
        min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 1
    )


def check_fits(dash: TableDriver, label: str) -> None:
    """The table at the top of the page: every part on the screen, none overlapping, the board not scrolling."""
    dash.page.evaluate("window.scrollTo(0, 0)")  # a button may have been scrolled to; the table must not need it
    dash.shot(label)
    found = dash.app.evaluate(BOXES, PARTS)
    boxes = found["boxes"]
    assert set(boxes) == set(PARTS), f"{label}: parts missing from the page: {set(PARTS) - set(boxes)}"
    for name, box in boxes.items():
        assert box["left"] >= 0 and box["top"] >= 0, f"{label}: {name} starts off the screen: {box}"
        assert box["right"] <= SCREEN["width"] and box["bottom"] <= SCREEN["height"], f"{label}: {name} runs off: {box}"
    names = sorted(boxes)
    clashes = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :] if overlap(boxes[a], boxes[b])]
    assert not clashes, f"{label}: parts overlap: {clashes} ({boxes})"
    assert found["pictures"] > 0, f"{label}: the board draws no picture"
    assert not found["scrolling"], f"{label}: the board's picture scrolls sideways: {found['scrolling']}"


@pytest.fixture(scope="session")
def dashboards_url(voila_server: Any) -> str:
    return voila_server(DASHBOARDS).url


def open_dashboard(game: str, name: str, page: Page, js_errors: Any, artifacts_dir: Path, url: str) -> TableDriver:
    page.set_viewport_size(SCREEN)
    dash = TableDriver(page, js_errors, artifacts_dir, name, "xx", "(app) => ({})")
    dash.open(f"{url}voila/render/{game}.ipynb")
    return dash


@pytest.mark.parametrize("game", games())
def test_the_whole_table_fits_a_projector_screen_without_overlaps(
    game: str, page: Page, js_errors: Any, artifacts_dir: Path, dashboards_url: str
) -> None:
    dash = open_dashboard(game, f"layout-{game}", page, js_errors, artifacts_dir, dashboards_url)
    spec = declaration(game).spec
    seats = ["person", *[declaration(game).default_bot] * (spec.default_players - 1)]
    dash.start(seats, seed=1)
    check_fits(dash, "playing")


@pytest.mark.parametrize("game", games())
def test_the_end_screen_fits_a_projector_screen_without_overlaps(
    game: str, page: Page, js_errors: Any, artifacts_dir: Path, dashboards_url: str, tmp_path: Path
) -> None:
    kit = declaration(game)
    players = min(END_PLAYERS, kit.spec.max_players)
    table = HotSeatTable.new(game, [kit.default_bot] * players, seed=1)
    table.run_bots()
    assert table.game.is_over(), "the bots stopped before the end"
    save = tmp_path / f"{game}-ended.json"
    save.write_text(to_json(table.game))
    dash = open_dashboard(game, f"layout-end-{game}", page, js_errors, artifacts_dir, dashboards_url)
    dash.load(save)
    assert dash.app.locator(".tb-result").count() == 1, "the loaded game does not show its result"
    check_fits(dash, "ended")
