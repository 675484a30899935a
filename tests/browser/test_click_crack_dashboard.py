"""The Click & Crack dashboard in Voila, played by clicks: a whole seeded game against bots checked against
the engine, hot-seat secrecy, undo that stops at a reveal, and save/load through the page."""

from __future__ import annotations

import base64
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page

from cliplab.engine import CHANCE, from_json
from cliplab.games.click_crack.rules import BreakOff, ClickCrack, Pass, Perform, Place, PushAside, SetTiles
from cliplab.ui.table import HotSeatTable

pytestmark = pytest.mark.browser

REPO_ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO_ROOT / "notebooks" / "dashboards" / "click_crack.ipynb"
KERNEL_TIMEOUT_MS = 90_000  # generous: a busy machine starts kernels slowly
STEP_TIMEOUT_MS = 20_000
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
    .filter((g) => (g.getAttribute('aria-label') ?? '').includes('open water'))
    .map((g) => [num(g, 'data-r'), num(g, 'data-c')]);
  const scores = [...app.querySelectorAll('.tb-score')].map((s) => [num(s, 'data-seat'), s.innerText.trim()]);
  return {
    status: text('.tb-status'), message: text('.tb-message'), log: text('.tb-log summary'),
    result: text('.tb-result'), reveal: text('.tb-reveal'), setting: !!app.querySelector('.cc-kind-1'),
    undo_disabled: app.querySelector('.tb-undo')?.disabled ?? null,
    buttons, points, cells, tokens, cracks, water, scores,
  };
}"""


def _seat_in(status: str) -> int:
    match = re.search(r"Player (\d+)", status)
    assert match, f"no seat named in the status {status!r}"
    return int(match.group(1))


def _decode_save(href: str) -> str:
    prefix = "data:application/json;base64,"
    assert href.startswith(prefix), f"the save link is not a base64 JSON data: URI: {href[:60]!r}"
    return base64.b64decode(href[len(prefix) :]).decode()


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
    bot_turns: int = 0
    used: set[str] = field(default_factory=set)  # the kinds of control clicked

    def tiles_for(self, seat: int) -> tuple[tuple[str, str], tuple[str, str]]:
        k = self.settings_done.get(seat, 0)
        return ("break", DIRS[k % 4]), ("walk", DIRS[(k + 1) % 4])


class Dashboard:
    """The dashboard on a page, driven by clicks; every click waits for the kernel's new picture."""

    def __init__(self, page: Page, js: Any, artifacts: Path, name: str) -> None:
        self.page, self.js, self.artifacts, self.name = page, js, artifacts, name
        self.app = page.locator(".tb-app")

    def open(self, url: str) -> None:
        # Voila runs the notebook before it sends the page: don't wait for "load" under the default timeout.
        self.page.goto(url, wait_until="commit", timeout=KERNEL_TIMEOUT_MS)
        self.js.wait_for(self.page.locator(".tb-start"), timeout=KERNEL_TIMEOUT_MS)
        cells = self.page.locator("div.cl-grid g[data-kind='cell'][data-r]")
        self.js.wait_until(lambda: cells.count() == 25, "the floe's 25 tiles are drawn")

    # ----- reading and waiting

    def snapshot(self) -> dict[str, Any]:
        return self.app.evaluate(SNAPSHOT)

    def fail(self, why: str) -> None:
        shot = self.artifacts / f"{self.name}-stuck.png"
        self.page.screenshot(path=str(shot), full_page=True)
        snap = self.snapshot()
        pytest.fail(
            f"{why}\n  status: {snap['status']!r}\n  message: {snap['message']!r}\n  buttons: "
            f"{[b['cls'] for b in snap['buttons']]}\n  log: {snap['log']!r}\n  screenshot: {shot}",
            pytrace=False,
        )

    def settled(self, before: str | None = None, timeout: float = STEP_TIMEOUT_MS) -> dict[str, Any]:
        """The snapshot once it differs from `before`, no stale control is left and two reads agree."""
        seen: list[str] = []

        def ready() -> bool:
            now = json.dumps(self.snapshot(), sort_keys=True)
            stale = self.page.locator("[data-cc-stale]").count()
            done = now != before and not stale and bool(seen) and seen[-1] == now
            seen.append(now)
            return done

        deadline = self.page.evaluate("Date.now()") + timeout
        while not ready():
            self.js.check()
            if self.page.evaluate("Date.now()") > deadline:
                self.fail(f"the dashboard did not answer within {timeout / 1000:.0f} s")
            self.page.wait_for_timeout(80)
        return json.loads(seen[-1])

    def click(self, target: Locator) -> dict[str, Any]:
        """Click, then wait until the kernel has redrawn the controls (the old ones are marked stale)."""
        before = json.dumps(self.snapshot(), sort_keys=True)
        self.app.evaluate(
            """(app) => app.querySelectorAll('button').forEach((b) => {
                 if ([...b.classList].some((c) => /^(cc|tb)-/.test(c) && !['tb-undo', 'tb-load', 'tb-new'].includes(c)))
                   b.setAttribute('data-cc-stale', '1');
               })"""
        )
        target.click()
        return self.settled(before)

    def button(self, cls: str) -> Locator:
        return self.app.locator(f"button.{cls}")

    def point(self, r: int, c: int) -> Locator:
        return self.app.locator(f".cl-board[data-board='floe'] .cl-hit[data-kind='point'][data-r='{r}'][data-c='{c}']")

    def load(self, path: Path) -> None:
        """Choose a file through the Load button (its <input type=file> is not in the document)."""
        with self.page.expect_file_chooser() as chooser:
            self.button("tb-load").click()
        chooser.value.set_files(path)

    def save_text(self) -> str:
        return _decode_save(self.app.locator("a.tb-save").get_attribute("href") or "")

    # ----- setting up and setting tiles

    def start(self, seats: list[str], seed: int) -> dict[str, Any]:
        for seat, kind in enumerate(seats):
            label = kind if kind == "person" else f"{kind} bot"  # the table app names a bot kind "<name> bot"
            self.app.locator(f".tb-seat-{seat} select").select_option(label=label)
        seed_box = self.app.locator(".tb-seed")
        seed_box.locator("input").fill(str(seed))
        seed_box.locator("input").press("Tab")  # IntText sends its value on change
        return self.click(self.button("tb-start"))

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
        if "tb-continue" in classes:
            policy.used.add("continue")
            return self.click(self.button("tb-continue"))
        if "tb-bot-step" in classes:
            policy.bot_turns += 1
            run = policy.bot_turns % 4 == 0  # mostly step by step, sometimes run until a person is needed
            policy.used.add("run" if run else "next")
            return self.click(self.button("tb-run-bots" if run else "tb-bot-step"))
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
    assert {"place", "ready", "lock", "continue", "next", "run", "tile", "board perform", "button perform"} <= (
        policy.used
    ), f"the game did not exercise every control: {sorted(policy.used)}"

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
    assert snap["reveal"], "the settings are revealed after the last lock"
    game = from_json(dash.save_text())
    assert isinstance(game, ClickCrack) and game.phase == "perform"
    arrows = {"N": "↑", "E": "→", "S": "↓", "W": "←"}
    expected = [
        f"Player {seat}: " + " and ".join(f"{k} {d} {arrows[d]}" for k, d in tiles)
        for seat, tiles in enumerate(game.tiles)
    ]
    assert [line.strip() for line in snap["reveal"].splitlines() if line.strip()] == expected
    assert "break E →" in expected[0] and "walk S ↓" in expected[0] and "break W ←" in expected[1]
    log_text = dash.app.locator(".tb-log").inner_text()
    assert "Player 0: set break E and walk S" in log_text and "Player 1: set break W and walk N" in log_text


def test_undo_never_reaches_back_past_a_reveal(dash: Dashboard) -> None:
    policy = Policy(prefer="walk")
    snap = dash.start(BOTS, seed=7)
    snap = dash.play(policy, lambda s: bool(s["reveal"]), snap)
    assert snap["undo_disabled"] is True, "undo is enabled on the reveal"
    snap = dash.click(dash.button("tb-continue"))
    snap = dash.play(policy, lambda s: bool(_classes(s, "cc-tile-")), snap)
    assert snap["undo_disabled"] is True, "undo is enabled with the person to act right after the reveal"

    before, entries, scores = _board(snap), _log_count(snap), _scores(snap)
    snap = dash.play(policy, lambda s: _log_count(s) > entries, snap)  # select a walk tile and carry it out
    assert policy.actions[-1][1].startswith("walk"), policy.actions[-1]
    assert snap["undo_disabled"] is False, "undo is disabled after the person's tile"
    assert _board(snap) != before, "the walk moved a penguin"

    snap = dash.click(dash.button("tb-undo"))
    assert snap["message"] == "Undone."
    assert (_board(snap), _log_count(snap), _scores(snap)) == (before, entries, scores)
    assert _classes(snap, "cc-tile-"), "the person is to act again"
    assert snap["undo_disabled"] is True
    policy.actions.pop()

    # Play on to the next round: before its reveal undo reaches this round's actions; after it, nothing.
    snap = dash.play(policy, lambda s: "tb-ready" in _classes(s, "tb-ready"), snap)
    assert snap["undo_disabled"] is False, "undo is disabled before the next reveal"
    snap = dash.play(policy, lambda s: bool(s["reveal"]), snap)
    assert snap["undo_disabled"] is True, "undo is enabled after the next round's reveal"
    snap = dash.click(dash.button("tb-continue"))
    assert snap["undo_disabled"] is True


def test_save_and_load_through_the_page(dash: Dashboard, tmp_path: Path) -> None:
    policy = Policy()
    snap = dash.start(BOTS, seed=7)
    mid_game = re.compile(r"tb-bot-step|cc-tile-")
    snap = dash.play(policy, lambda s: _log_count(s) >= 20 and any(mid_game.match(c) for c in _classes(s, "")), snap)
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
    before = json.dumps(dash.snapshot(), sort_keys=True)
    dash.load(good)
    snap = dash.settled(before)
    assert snap["message"] == "Loaded."
    assert (_board(snap), _scores(snap), _log_count(snap), snap["status"]) == shown
    assert dash.save_text() == text

    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text(text[: len(text) // 2])
    before = json.dumps(dash.snapshot(), sort_keys=True)
    dash.load(corrupt)
    snap = dash.settled(before)
    assert snap["message"].startswith("Could not load that file"), snap["message"]
    assert "not valid JSON" in snap["message"]
    assert (_board(snap), _scores(snap), _log_count(snap), snap["status"]) == shown
    assert dash.save_text() == text
    # The loaded game goes on.
    dash.step(snap, policy)  # waits for the kernel's answer
