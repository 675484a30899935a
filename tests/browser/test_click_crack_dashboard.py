"""The Click & Crack dashboard in Voila, played by clicks: a whole seeded game against bots checked against
the engine, hot-seat secrecy, undo that stops at a reveal, and save/load through the page."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from conftest import KERNEL_TIMEOUT_MS, TableDriver
from playwright.sync_api import Locator, Page

from cliplab.engine import CHANCE, from_json
from cliplab.games.click_crack.rules import BreakOff, ClickCrack, Pass, Perform, Place, PushAside, SetTiles
from cliplab.ui.table import HotSeatTable

pytestmark = pytest.mark.browser

REPO_ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO_ROOT / "notebooks" / "dashboards" / "click_crack.ipynb"
UNIT = 40  # viewBox pixels per cell (cliplab.ui.svg.UNIT)
DIRS = ("N", "E", "S", "W")
BOTS = ["person", "random", "random"]

# One read of everything the dashboard shows that the tests steer by.
SNAPSHOT = """(app) => {
  const text = (sel) => (app.querySelector(sel)?.innerText ?? '').trim();
  const num = (el, a) => Number(el.getAttribute(a));
  const buttons = [...app.querySelectorAll('button')]
    .map((b) => ({cls: [...b.classList].find((c) => /^(cc|tb)-/.test(c)), info: b.classList.contains('cc-chosen'),
                  disabled: b.disabled}))
    .filter((b) => b.cls && b.cls !== 'tb-load');
  const board = app.querySelector('.cl-board[data-board="floe"]');
  const points = [...(board?.querySelectorAll('circle.cl-mark-target') ?? [])]
    .map((m) => [Math.round(num(m, 'cy') / 40), Math.round(num(m, 'cx') / 40)]);
  const cells = [...(board?.querySelectorAll('rect.cl-mark-target') ?? [])]
    .map((m) => [Math.floor(num(m, 'y') / 40), Math.floor(num(m, 'x') / 40)]);
  const tokens = [...(board?.querySelectorAll('.cl-token') ?? [])]
    .map((t) => [t.getAttribute('aria-label'), num(t, 'data-r'), num(t, 'data-c')]);
  const cracks = [...(board?.querySelectorAll('line.cl-edge-crack') ?? [])]
    .map((l) => ['x1', 'y1', 'x2', 'y2'].map((a) => num(l, a)));
  const water = [...(board?.querySelectorAll('g[data-kind="cell"]') ?? [])]
    .filter((g) => (g.querySelector(':scope > title')?.textContent ?? '').includes('open water'))
    .map((g) => [num(g, 'data-r'), num(g, 'data-c')]);
  const scores = [...app.querySelectorAll('.tb-score')].map((s) => [num(s, 'data-seat'), s.innerText.trim()]);
  return {
    status: text('.tb-status'), message: text('.tb-message'), log: text('.tb-log summary'),
    result: text('.tb-result'), reveal: text('.tb-reveal'), setting: !!app.querySelector('.cc-kind-1'),
    notes: text('.tb-notes'),
    undo_disabled: app.querySelector('.tb-undo')?.disabled ?? null,
    buttons, points, cells, tokens, cracks, water, scores,
  };
}"""


def _seat_in(status: str) -> int:
    match = re.search(r"Player (\d+)", status)
    assert match, f"no seat named in the status {status!r}"
    return int(match.group(1))


def _log_count(snap: dict[str, Any]) -> int:
    match = re.search(r"Log \((\d+) entries\)", snap["log"])
    assert match, f"unexpected log summary {snap['log']!r}"
    return int(match.group(1))


def _board(snap: dict[str, Any]) -> tuple[Any, ...]:
    """The floe as drawn: penguins, cracks and open water."""
    return sorted(map(tuple, snap["tokens"])), sorted(map(tuple, snap["cracks"])), sorted(map(tuple, snap["water"]))


def _scores(snap: dict[str, Any]) -> list[int]:
    return [int(points) for _, points in sorted(snap["scores"])]


def _classes(snap: dict[str, Any], prefix: str) -> list[str]:
    return [b["cls"] for b in snap["buttons"] if b["cls"].startswith(prefix)]


@dataclass
class Policy:
    """Deterministic choices for the people at the table; records what each person did, as action text."""

    prefer: str = ""  # a tile kind to carry out when offered ("walk" / "break"); else the last tile offered
    actions: list[tuple[int, str]] = field(default_factory=list)
    settings_done: dict[int, int] = field(default_factory=dict)
    performs: int = 0
    board_performs: int = 0
    used: set[str] = field(default_factory=set)  # the kinds of control clicked

    def tiles_for(self, seat: int) -> tuple[tuple[str, str], tuple[str, str]]:
        k = self.settings_done.get(seat, 0)
        return ("break", DIRS[k % 4]), ("walk", DIRS[(k + 1) % 4])


class Dashboard(TableDriver):
    """The Click & Crack dashboard on a page, driven by the person's clicks (bots play on by themselves)."""

    def __init__(self, page: Page, js: Any, artifacts: Path, name: str) -> None:
        super().__init__(page, js, artifacts, name, "cc", SNAPSHOT)

    def open(self, url: str) -> None:
        super().open(url)
        cells = self.page.locator("div.cl-grid g[data-kind='cell'][data-r]")
        self.js.wait_until(lambda: cells.count() == 25, "the floe's 25 tiles are drawn")

    def point(self, r: int, c: int) -> Locator:
        return self.app.locator(f".cl-board[data-board='floe'] .cl-hit[data-kind='point'][data-r='{r}'][data-c='{c}']")

    # ----- setting up and setting tiles

    def toggle(self, group: str, pattern: str) -> None:
        choice = self.app.locator(f".{group} button", has_text=re.compile(pattern))
        assert choice.count() == 1, f"{group} has no single button matching {pattern!r}"
        if "mod-active" not in (choice.get_attribute("class") or ""):
            choice.click()
        self.js.wait_until(lambda: "mod-active" in (choice.get_attribute("class") or ""), f"{group} {pattern} is on")

    def set_tiles(self, tile1: tuple[str, str], tile2: tuple[str, str]) -> dict[str, Any]:
        for number, (kind, direction) in ((1, tile1), (2, tile2)):
            self.toggle(f"cc-kind-{number}", rf"^{kind}$")
            self.toggle(f"cc-dir-{number}", rf"\b{direction}$")
        return self.click(self.button("cc-lock"))

    # ----- one step of play

    def step(self, snap: dict[str, Any], policy: Policy) -> dict[str, Any]:
        """Make the next move a person or a bot needs, by clicks; return the new snapshot."""
        classes = [b["cls"] for b in snap["buttons"]]
        if "tb-ready" in classes:
            policy.used.add("ready")
            return self.click(self.button("tb-ready"))
        if snap["setting"]:
            seat = _seat_in(snap["status"])
            tile1, tile2 = policy.tiles_for(seat)
            policy.settings_done[seat] = policy.settings_done.get(seat, 0) + 1
            policy.actions.append((seat, str(SetTiles(*tile1, *tile2))))
            policy.used.add("lock")
            return self.set_tiles(tile1, tile2)
        bot_controls = {"tb-continue", "tb-bot-step"} & set(classes)
        assert not bot_controls, f"the person is asked to click for the bots: {bot_controls}"
        seat = _seat_in(snap["status"]) if snap["status"] else -1
        if "cc-pass" in classes:
            policy.actions.append((seat, str(Pass())))
            policy.used.add("pass")
            return self.click(self.button("cc-pass"))
        pushes = sorted(_classes(snap, "cc-push-"))
        if pushes:
            policy.actions.append((seat, str(PushAside(pushes[0].removeprefix("cc-push-")))))
            policy.used.add("push")
            return self.click(self.button(pushes[0]))
        halves = sorted(_classes(snap, "cc-half-"), key=lambda c: tuple(int(v) for v in c.split("-")[2:]))
        if halves:
            row, col = (int(v) for v in halves[0].split("-")[2:])
            policy.actions.append((seat, str(BreakOff(row, col))))
            policy.used.add("half")
            return self.click(self.button(halves[0]))
        tiles = _classes(snap, "cc-tile-")
        if tiles:
            return self._perform(snap, policy, seat, tiles)
        if snap["points"] and "place a penguin" in snap["status"]:
            points = sorted(map(tuple, snap["points"]))
            inner = [p for p in points if 0 < p[0] < 5 and 0 < p[1] < 5]
            row, col = (inner or points)[0]
            policy.actions.append((seat, str(Place(row, col))))
            policy.used.add("place")
            return self.click(self.point(row, col))
        self.fail("no control the test knows is offered")
        raise AssertionError  # unreachable

    def _perform(self, snap: dict[str, Any], policy: Policy, seat: int, tiles: list[str]) -> dict[str, Any]:
        wanted = [t for t in tiles if t.startswith(f"cc-tile-{policy.prefer}-")] if policy.prefer else []
        tile = (wanted or tiles)[-1]
        selected = next(b["cls"] for b in snap["buttons"] if b["cls"].startswith("cc-tile-") and b["info"])
        if tile != selected:
            policy.used.add("tile")
            return self.click(self.button(tile))  # the highlighted penguins follow the tile
        _, kind, direction = tile.split("-")[1:]
        assert snap["points"], f"tile {tile} is selected but no penguin is highlighted"
        row, col = sorted(map(tuple, snap["points"]))[0]
        label = next(t[0] for t in snap["tokens"] if (t[1], t[2]) == (row, col))
        penguin = int(re.match(r"penguin (\d+) of player", label).group(1))  # type: ignore[union-attr]
        policy.actions.append((seat, str(Perform(kind, direction, penguin))))
        policy.performs += 1
        if policy.performs % 3 != 0:  # mostly on the board, sometimes the button
            policy.board_performs += 1
            policy.used.add("board perform")
            return self.click(self.point(row, col))
        policy.used.add("button perform")
        return self.click(self.button(f"cc-do-{penguin}"))

    def play(self, policy: Policy, until: Any, snap: dict[str, Any] | None = None, cap: int = 500) -> dict[str, Any]:
        snap = snap or self.settled()
        for _ in range(cap):
            if until(snap):
                return snap
            if snap["result"]:
                self.fail("the game ended before the test got what it waited for")
            snap = self.step(snap, policy)
        self.fail(f"still playing after {cap} steps")
        raise AssertionError  # unreachable


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="session")
def dashboard_url(voila_server: Any) -> str:
    return voila_server(NOTEBOOK).url


@pytest.fixture
def dash(page: Page, js_errors: Any, artifacts_dir: Path, dashboard_url: str, request: pytest.FixtureRequest):
    board = Dashboard(page, js_errors, artifacts_dir, re.sub(r"\W+", "_", request.node.name))
    board.open(dashboard_url)
    return board


# --------------------------------------------------------------------------- tests


def _replay_with_fresh_bots(record: dict[str, Any]) -> None:
    """The saved log again, at a new table with the same seats and seed: the bots must choose the same."""
    table = HotSeatTable.new("click_crack", record["seats"], seed=record["seed"], **record["options"])
    for index, (seat, text) in enumerate(record["log"]):
        if seat == CHANCE:
            continue
        if table.is_person(seat):
            table.act(text, seat)
        else:
            step = table.next_bot_step()
            assert step is not None and (step[0], str(step[1])) == (seat, text), f"log[{index}]: bot chose {step}"
    assert len(table.game.log) == len(record["log"])


def test_a_seeded_game_played_by_clicks_ends_as_the_engine_says(dash: Dashboard, tmp_path: Path) -> None:
    policy = Policy()
    snap = dash.start(BOTS, seed=7)
    snap = dash.play(policy, lambda s: bool(s["result"]), snap)
    assert {"place", "lock", "tile", "board perform", "button perform"} <= policy.used, (
        f"the game did not exercise every control: {sorted(policy.used)}"
    )
    assert "ready" not in policy.used, "one person at the table is never asked to pass the screen"

    # The save, downloaded through the link as a person would.
    with dash.page.expect_download() as info:
        dash.app.locator("a.tb-save").click()
    path = tmp_path / "saved.json"
    info.value.save_as(path)
    text = path.read_text()
    assert text == dash.save_text()
    record = json.loads(text)
    assert (record["seed"], record["seats"]) == (7, BOTS)
    game = from_json(text)
    assert isinstance(game, ClickCrack) and game.is_over()
    outcome = game.outcome()
    assert outcome is not None
    assert _scores(snap) == list(outcome.scores)
    result = snap["result"]
    assert [int(s) for s in re.findall(r"Player (\d+)", result)] == list(outcome.winners), result
    assert ("share the win" if len(outcome.winners) > 1 else "wins") in result
    assert outcome.termination in snap["status"]
    if len(outcome.winners) == 1:
        assert "was ahead of" in snap["status"] and "points" in snap["status"], "the end says why the winner won"
    # The person's actions, in the order the test made them (placements, settings, performs...).
    person = [(seat, str(action)) for seat, action in game.log if seat == 0]
    assert person == [a for a in policy.actions if a[0] == 0]
    assert [t for _, t in person[:2]] == [t for _, t in policy.actions[:2]] and person[0][1].startswith("place")
    _replay_with_fresh_bots(record)


def test_hot_seat_settings_stay_secret_until_the_reveal(dash: Dashboard) -> None:
    policy = Policy()
    snap = dash.start(["person", "person", "random"], seed=3)
    snap = dash.play(policy, lambda s: "tb-ready" in _classes(s, "tb-ready"), snap)
    assert _seat_in(snap["status"]) == 0
    snap = dash.click(dash.button("tb-ready"))
    assert snap["setting"] and _seat_in(snap["status"]) == 0
    secret = ["break E", "walk S"]
    snap = dash.set_tiles(("break", "E"), ("walk", "S"))

    # Hand-over to person 1, then person 1 setting: nothing of person 0's choice anywhere on screen.
    for stage in ("hand-over", "setting"):
        assert _seat_in(snap["status"]) == 1, snap["status"]
        assert ("tb-ready" in _classes(snap, "tb-ready")) == (stage == "hand-over")
        assert snap["setting"] == (stage == "setting")
        page_text = dash.page.inner_text("body")
        log_text = dash.app.locator(".tb-log").inner_text()
        for words in secret:
            assert words not in page_text, f"{words!r} is on screen at person 1's {stage}"
            assert words not in log_text
        assert "Player 0 set their tiles in secret" in log_text
        assert "set break" not in log_text and "set walk" not in log_text
        assert snap["reveal"] == ""
        # A save would carry the whole log, secret settings included: it waits for the reveal.
        assert dash.app.locator("a.tb-save").count() == 0
        assert dash.app.locator(".tb-save-later").count() == 1
        dash.page.screenshot(path=str(dash.artifacts / f"{dash.name}-{stage}.png"), full_page=True)
        if stage == "hand-over":
            snap = dash.click(dash.button("tb-ready"))

    snap = dash.set_tiles(("break", "W"), ("walk", "N"))
    assert "Revealed:" in snap["notes"], "the settings are revealed after the last lock, and the notes keep them"
    game = from_json(dash.save_text())
    assert isinstance(game, ClickCrack) and game.phase == "perform"
    arrows = {"N": "↑", "E": "→", "S": "↓", "W": "←"}
    expected = [
        f"Player {seat}: " + " and ".join(f"{k} {d} {arrows[d]}" for k, d in tiles)
        for seat, tiles in enumerate(game.tiles)
    ]
    assert "Revealed: " + "; ".join(expected) in snap["notes"], snap["notes"]
    assert "break E →" in expected[0] and "walk S ↓" in expected[0] and "break W ←" in expected[1]
    log_text = dash.app.locator(".tb-log").inner_text()
    assert "Player 0: set break E and walk S" in log_text and "Player 1: set break W and walk N" in log_text


def test_undo_never_reaches_back_past_a_reveal(dash: Dashboard) -> None:
    policy = Policy(prefer="walk")
    snap = dash.start(BOTS, seed=7)
    snap = dash.play(policy, lambda s: bool(_classes(s, "cc-tile-")), snap)
    assert "Revealed: Player 0:" in snap["notes"], "the reveal went by on its own and stays in the notes"
    assert snap["undo_disabled"] is True, "undo is enabled with the person to act right after the reveal"

    before, entries, scores = _board(snap), _log_count(snap), _scores(snap)
    snap = dash.play(policy, lambda s: _log_count(s) > entries, snap)  # select a walk tile and carry it out
    assert policy.actions[-1][1].startswith("walk"), policy.actions[-1]
    assert snap["undo_disabled"] is False, "undo is disabled after the person's tile"
    assert _board(snap) != before, "the walk moved a penguin"

    snap = dash.click(dash.button("tb-undo"))
    assert snap["message"].startswith("Undone: Player 0's walk"), snap["message"]
    assert (_board(snap), _log_count(snap), _scores(snap)) == (before, entries, scores)
    assert _classes(snap, "cc-tile-"), "the person is to act again"
    assert snap["undo_disabled"] is True
    policy.actions.pop()

    # Play on to the next round: before its reveal undo reaches this round's actions; after it, nothing.
    snap = dash.play(policy, lambda s: s["setting"], snap)
    assert snap["undo_disabled"] is False, "undo is disabled before the next reveal"
    snap = dash.play(policy, lambda s: bool(_classes(s, "cc-tile-")), snap)
    assert snap["undo_disabled"] is True, "undo is enabled after the next round's reveal"


def test_bots_act_by_themselves_at_the_slow_pace(dash: Dashboard) -> None:
    snap = dash.start(BOTS, seed=7, pace="Slow")
    assert _log_count(snap) == 0 and snap["points"], "the person places first"
    seq = snap["tag"]["seq"]
    dash.point(1, 1).click()
    dash.js.wait_until(lambda: dash.tag().get("busy") == "1", "the bots are on their way", timeout=20_000)
    assert dash.app.locator(".tb-bots-busy").is_visible(), "the page says the bots are playing"
    snap = dash.settled(seq, timeout=60_000)
    assert _log_count(snap) == 3, "both bots placed without a click"
    assert snap["points"] and "place a penguin" in snap["status"]


def test_save_and_load_through_the_page(dash: Dashboard, tmp_path: Path) -> None:
    policy = Policy()
    snap = dash.start(BOTS, seed=7)
    snap = dash.play(policy, lambda s: _log_count(s) >= 20 and bool(_classes(s, "cc-tile-")), snap)
    text = dash.save_text()
    saved = from_json(text)
    assert isinstance(saved, ClickCrack) and not saved.is_over()
    expected_board = sorted(
        (f"penguin {p} of player {p // 2}", at[0], at[1]) for p, at in enumerate(saved.pos) if at is not None
    )
    assert sorted(map(tuple, snap["tokens"])) == expected_board
    assert _scores(snap) == saved.scores
    shown = (_board(snap), _scores(snap), _log_count(snap), snap["status"])

    dash.page.reload(wait_until="commit", timeout=KERNEL_TIMEOUT_MS)
    dash.page.locator(".tb-start").wait_for(timeout=KERNEL_TIMEOUT_MS)
    # Voila's kernel shutdown on unload is refused for want of an XSRF token (voila-dashboards/voila#1458).
    shutdown = [e for e in dash.js.errors if "/voila/api/shutdown/" in e and "403" in e]
    dash.js.errors[:] = [e for e in dash.js.errors if e not in shutdown]
    dash.js.ignored.extend(shutdown)
    dash.js.check()
    assert not dash.snapshot()["tokens"], "a new kernel shows an empty floe"
    good = tmp_path / "click_crack.json"
    good.write_text(text)
    snap = dash.load(good)
    assert snap["message"] == "Loaded."
    assert (_board(snap), _scores(snap), _log_count(snap), snap["status"]) == shown
    assert dash.save_text() == text

    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text(text[: len(text) // 2])
    snap = dash.load(corrupt)
    assert snap["message"].startswith("Could not load that file"), snap["message"]
    assert "not valid JSON" in snap["message"]
    assert (_board(snap), _scores(snap), _log_count(snap), snap["status"]) == shown
    assert dash.save_text() == text
    # The loaded game goes on.
    dash.step(snap, policy)  # waits for the kernel's answer
