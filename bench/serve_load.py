"""How `cliplab serve` holds up when a class opens the Click & Crack dashboard at the same moment.

One run starts `cliplab serve` on a free port (private Jupyter folders, this checkout; --pool and
--cull-after are passed on), waits until its warm kernels are ready, then drives the system Chromium,
headless, through Playwright: one browser, one context per person.

1. One page alone: load the dashboard (/voila/render/click_crack.ipynb, on the shared table app), seat a
   person and two random bots, start, and make --actions state-changing clicks (whatever the game asks:
   a bot step, a hand-over, "Lock in", push and break choices, a highlighted point on the floe: a
   placement or a penguin to carry out a tile; a new game if one ends). With --actions 0 the page only
   opens and starts a game.
   What this page asks the server for is recorded (bench/stand_in.py's Recording): the dashboard page,
   every file it fetched until it was ready, its kernel websocket and the messages it sent there, and the
   request it sent as it closed. Then the run waits for the warm pool to be full again, as it would be
   between two visitors.
2. --pages visitors at once (default 10) doing the same. With --stand-ins N, N of them are stand-ins
   (bench/stand_in.py: one process, one event loop) that replay the recording with a kernel of their own,
   asking the server for all the page asked and reading it to the end, then stay connected; the other
   visitors are real pages. A stand-in is ready once it holds the page, every file and the kernel's widget
   state: all a browser needs to draw the dashboard, which a stand-in does not do. On a 2-core machine, 30
   Chromium pages cost about three times the server's CPU; in a class each person's machine draws its own.
3. Every visitor leaves, as a person closes a tab (a stand-in sends what the page sent as it closed): the
   visitors' kernels must end (`cliplab serve` also culls a kernel no page is connected to after
   --cull-after seconds). The run waits up to --settle seconds for them to end and for the warm pool to be
   full again, and prints the kernels and their memory before, at most during and after the crowd.

The warm pool is ready when as many kernels as the pool holds are running and none of them has used more
than a little CPU time for a few seconds (each has run its notebook). Voila says "Kernel pool ... is
filled" only at log level INFO, and `cliplab serve` logs at WARN.

Measured in the page (so Playwright's own overhead is not counted):
  time to ready   navigation start -> the dashboard's "Start game" button is on screen (for a stand-in:
                  its first request -> the widget state is in; also printed: when it had the page and
                  every file);
  click -> first  the click event -> the first change the kernel's answer makes on the page (status,
                  log, message, panel buttons or penguins);
  click -> settled the click event -> the last change of that answer (nothing more for 1 s after it).
Also: errors (JavaScript errors, timeouts, clicks that changed nothing or were refused; must be 0); the
kernel processes under the Voila server and the memory they hold (VmRSS, summed) before the pages open,
at the most while they are open, and after they close; the
peak resident memory (VmHWM in /proc/PID/status) of every kernel process under the Voila server, sampled
each second, for the kernels that served a page (matched by the kernel id in the page); the server
process's own peak; and a heartbeat: a GET of the server's root every second, not following its redirect
to the gallery (a render of a notebook starts a kernel, which would stay until culled), all of which must
answer 302.

It also counts Voila's "Timeout waiting for IOPub output" warnings (a cell's output that came later than
Voila waited for is dropped, and that visitor gets a page without the dashboard), and prints the
machine's load average as the crowd starts and once it is served.

CPU time, to judge where a class's pages cost: the CPU seconds (user + system, from /proc) that every
process spent from the moment the pages were asked for until the last of them was ready, by process: the
Voila server, the pages' own kernels, the other kernels (the warm pool refilling), Chromium's renderers,
Chromium's other processes (browser, GPU, network), the stand-ins and Playwright's driver. "Server side" is
Voila and the
kernels: what the class's server pays. "Browser side" is Chromium: here every page runs in one Chromium on
the same cores as the server, while in a class each person's machine renders its own page; so the run's
wall-clock times are those of a server that also draws all 30 screens. Each person has a browser context of
their own, so each page downloads and compiles Voila's scripts (about 5 MB) as a first visit does.

Voila's loading spinner is stopped in the bench's pages (--spinner keeps it turning): it turns 60 times
a second in every waiting page, which cost 0.07-0.13 CPU-s per page per second here (0.01 when still), so 30
pages waiting together in one Chromium took more than both cores, which in a class is each machine's own.

Traffic stays on 127.0.0.1: Chromium resolves no other host name (the page asks a CDN for icon fonts).
Requests are not intercepted, which would switch Chromium's cache off and pass every request (about 100
per page) through Playwright's driver.

    .venv/bin/python bench/serve_load.py [--pages N] [--actions N] [--settle S] [--pool N | DASHBOARD=N ...]
                                         [--cull-after S] [--spinner] [--stand-ins N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import psutil
from playwright.async_api import Browser, Page, async_playwright
from playwright.async_api import TimeoutError as PlaywrightTimeout
from stand_in import LEAVE_SCRIPT, Arrival, Recording  # bench/, this script's folder

from cliplab.cli import DEFAULT_CULL_AFTER, parse_pool

REPO_ROOT = Path(__file__).resolve().parents[1]
STAND_IN = Path(__file__).resolve().with_name("stand_in.py")
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]
DASHBOARD = "voila/render/click_crack.ipynb"
SEATS = ["person", "random bot", "random bot"]
SERVER_START_S = 120.0
READY_TIMEOUT_MS = 300_000  # ten kernels starting together on a busy 2-core machine take a while
ANSWER_TIMEOUT_MS = 90_000
# An answer is complete when the page has not changed for this long (the next click waits for that).
QUIET_MS = 1000
CLICK_TIMEOUT_MS = 20_000
NOT_LOCAL = re.compile(r"^(https?|wss?)://(?!127\.0\.0\.1[:/])")
KERNEL_ID = re.compile(r"kernel-([0-9a-f-]{36})\.json")

# Runs before the page's own scripts: notes when "Start game" is first on screen (ms since navigation).
READY_SCRIPT = """(() => {
  // Checked on every change of the page and every 50 ms: the button can become visible through a style
  // sheet or a class on an ancestor, which is not a change of the button itself.
  const seen = () => {
    const start = document.querySelector(".tb-start");
    if (window.__tbReady === undefined && start && start.getClientRects().length) {
      window.__tbReady = performance.now();
      watcher.disconnect();
      clearInterval(timer);
    }
  };
  const watcher = new MutationObserver(seen);
  watcher.observe(document, {childList: true, subtree: true, attributes: true});
  const timer = setInterval(seen, 50);
})();"""

# Stops Voila's loading spinner (a CSS animation) before the page has any content.
STILL_SPINNER_SCRIPT = """(() => {
  const still = new CSSStyleSheet();
  still.replaceSync("#loading, #loading * { animation: none !important; }");
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, still];
})();"""

# Sets up the measurement of the next click: when the click event starts, then when the dashboard first
# shows a change, and when the last change of the answer came (none for QUIET_MS after it).
# window.__measured resolves to {first, settled, refused} in ms.
ARM_SCRIPT = """() => {
  const app = document.querySelector(".tb-app");
  const text = (css) => document.querySelector(css)?.textContent ?? "";
  const signature = () => [
    text(".tb-status"), text(".tb-log"), text(".tb-message"),
    [...app.querySelectorAll("[class*='cc-'], [class*='tb-']")].map((e) => e.getAttribute("class")).join(" "),
    [...app.querySelectorAll(".cl-token")].map((t) => `${t.dataset.r},${t.dataset.c}`).join(" "),
  ].join("|");
  const before = signature();
  let clicked = null;
  document.addEventListener("click", () => { clicked ??= performance.now(); }, {capture: true, once: true});
  window.__measured = new Promise((resolve) => {
    let first = null, last = null, quiet = null;
    const watcher = new MutationObserver(() => {
      const now = performance.now();
      if (first === null) {
        if (clicked === null || signature() === before) return;
        first = now;
      }
      last = now;
      clearTimeout(quiet);
      quiet = setTimeout(done, QUIET_MS);
    });
    const limit = setTimeout(() => { watcher.disconnect(); resolve({error: "the page did not change"}); }, LIMIT_MS);
    const done = () => {
      watcher.disconnect();
      clearTimeout(limit);
      const notice = document.querySelector(".cl-notice[data-tone='error']:not([hidden]) .cl-notice-text");
      resolve({first: first - clicked, settled: last - clicked, refused: notice ? notice.textContent : null});
    };
    watcher.observe(app, {subtree: true, childList: true, attributes: true, characterData: true});
  });
}""".replace("LIMIT_MS", str(ANSWER_TIMEOUT_MS)).replace("QUIET_MS", str(QUIET_MS))

# What to click next: the first control the table offers, else a highlighted point on the floe (a place
# for a penguin, or a penguin that carries out the chosen tile).
CHOOSE_SCRIPT = """(pick) => {
  const shown = (css) => [...document.querySelectorAll(css)].filter((e) => e.getClientRects().length);
  const buttons = [".tb-bot-step", ".tb-ready", ".tb-continue", ".cc-lock", "[class*='cc-push-']",
                   "[class*='cc-half-']", ".cc-pass", ".tb-again", ".tb-start"];
  for (const css of buttons) {
    const found = shown(css);
    if (found.length) return {what: css, css, nth: pick % found.length};
  }
  const marks = shown(".cl-board[data-board='floe'] circle.cl-mark-target");
  if (marks.length) {
    const mark = marks[pick % marks.length];
    const r = Math.round(mark.getAttribute("cy") / 40), c = Math.round(mark.getAttribute("cx") / 40);
    return {what: "floe point",
            css: `.cl-board[data-board='floe'] .cl-hit[data-kind='point'][data-r='${r}'][data-c='${c}']`, nth: 0};
  }
  return null;
}"""


# --------------------------------------------------------------------------- the server


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _private_env(home: Path) -> dict[str, str]:
    """Jupyter and IPython folders of this run only, so no user configuration changes the result."""
    env = dict(os.environ)
    for key, name in [
        ("JUPYTER_CONFIG_DIR", "config"),
        ("JUPYTER_DATA_DIR", "data"),
        ("JUPYTER_RUNTIME_DIR", "runtime"),
        ("IPYTHONDIR", "ipython"),
    ]:
        (home / name).mkdir(parents=True, exist_ok=True)
        env[key] = str(home / name)
    for key in ("JUPYTER_PATH", "JUPYTER_TOKEN"):
        env.pop(key, None)
    env["PYTHONUNBUFFERED"] = "1"
    env["JUPYTER_PLATFORM_DIRS"] = "0"
    return env


def start_server(home: Path, options: list[str]) -> tuple[subprocess.Popen[bytes], int, Path]:
    port = _free_port()
    log_path = home / "serve.log"
    env = _private_env(home / "jupyter")
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "cliplab.cli", "serve", f"--port={port}", *options],
            cwd=REPO_ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + SERVER_START_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"cliplab serve exited early:\n{log_path.read_text(errors='replace')[-3000:]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return process, port, log_path
        except OSError:
            time.sleep(0.2)
    process.terminate()
    raise SystemExit(f"cliplab serve did not listen within {SERVER_START_S:.0f} s")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()  # cliplab serve stops Voila and its kernels on SIGTERM
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=20)


def pool_size(pool: list[str]) -> int:
    """How many warm kernels `cliplab serve --pool ...` keeps: its pool over every dashboard."""
    every, named = parse_pool(pool)
    dashboards = [book.stem for book in (REPO_ROOT / "notebooks" / "dashboards").glob("*.ipynb")]
    return sum(named.get(name, every) for name in dashboards)


# --------------------------------------------------------------------------- watchers (threads)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Heartbeat(threading.Thread):
    """GET the server's root every second, without following its redirect; keeps (status, seconds) of each."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.results: list[tuple[int, float]] = []
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            started = time.monotonic()
            try:
                with urllib.request.build_opener(_NoRedirect).open(self.url, timeout=10) as answer:
                    answer.read()
                    status = answer.status
            except urllib.error.HTTPError as answer:  # the redirect, not followed, arrives as an HTTPError
                status = answer.code
            except Exception:
                status = 0
            self.results.append((status, time.monotonic() - started))
            self.stopping.wait(max(0.0, 1.0 - (time.monotonic() - started)))


def _kib(status: str, key: str) -> int:
    match = re.search(rf"^{key}:\s+(\d+) kB", status, re.M)
    return int(match.group(1)) if match else 0


class MemoryWatch(threading.Thread):
    """Each second: the peak RSS (VmHWM) of the Voila server and of each kernel process under it, and how
    many kernel processes are alive with how much memory (VmRSS) between them."""

    def __init__(self, serve_pid: int) -> None:
        super().__init__(daemon=True)
        self.serve = psutil.Process(serve_pid)
        self.kernels: dict[str, int] = {}  # kernel id -> VmHWM in KiB (last seen; it only grows)
        self.server_kib = 0
        self.together_kib = 0  # the most RSS all kernels held at one moment
        self.alive = 0  # kernel processes at the last sample
        self.alive_kib = 0  # their RSS together at the last sample
        self.most_alive = 0  # the most kernel processes seen at one moment
        self.cpu_s = 0.0  # CPU time of the Voila server and its kernels alive at the last sample, together
        self.alive_ids: set[str] = set()  # the ids of the kernels alive at the last sample
        self.stopping = threading.Event()

    def sample(self) -> None:
        together = alive = 0
        cpu_s = 0.0
        ids = set()
        try:
            children = self.serve.children(recursive=True)
        except psutil.Error:
            return
        for child in children:
            try:
                cmdline = " ".join(child.cmdline())
                status = Path(f"/proc/{child.pid}/status").read_text()
                cpu = child.cpu_times()
            except (psutil.Error, OSError):
                continue
            cpu_s += cpu.user + cpu.system
            if "ipykernel" in cmdline:
                alive += 1
                found = KERNEL_ID.search(cmdline)
                if found:
                    self.kernels[found.group(1)] = max(self.kernels.get(found.group(1), 0), _kib(status, "VmHWM"))
                    ids.add(found.group(1))
                together += _kib(status, "VmRSS")
            elif "voila" in cmdline:
                self.server_kib = max(self.server_kib, _kib(status, "VmHWM"))
        self.together_kib = max(self.together_kib, together)
        self.alive, self.alive_kib, self.cpu_s, self.alive_ids = alive, together, cpu_s, ids
        self.most_alive = max(self.most_alive, alive)

    async def settled(self, size: int, log_path: Path, timeout: float, quiet_s: float = 4.0) -> float | None:
        """Wait until `size` kernels run, no more, and neither they nor the server have worked for quiet_s
        seconds (the server renders each warm kernel's notebook); the seconds waited, None after `timeout`."""
        started = time.monotonic()
        last_cpu, quiet_since = -1.0, time.monotonic()
        while time.monotonic() - started < timeout:
            if not self.serve.is_running():
                said = log_path.read_text(errors="replace")[-3000:]
                raise SystemExit(f"cliplab serve ended before its warm pool was ready:\n{said}")
            self.sample()
            if self.alive != size or self.cpu_s - last_cpu > 0.1 * quiet_s:  # a tenth of a core: idle
                last_cpu, quiet_since = self.cpu_s, time.monotonic()
            elif time.monotonic() - quiet_since >= quiet_s:
                return time.monotonic() - started
            await asyncio.sleep(0.5)
        return None

    async def ended(self, kernels: set[str], timeout: float) -> float | None:
        """Wait until none of these kernels runs; the seconds waited, None after `timeout`."""
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            self.sample()
            if not kernels & self.alive_ids:
                return time.monotonic() - started
            await asyncio.sleep(0.2)
        return None

    async def pool_ready(self, size: int, log_path: Path, timeout: float = 600.0) -> float:
        """Wait until the warm pool is full and its kernels have run their notebook; the seconds waited."""
        waited = await self.settled(size, log_path, timeout)
        if waited is None:
            raise SystemExit(f"the warm pool never settled: {self.alive} of {size} kernels after {timeout:.0f} s")
        return waited

    def run(self) -> None:
        while not self.stopping.is_set():
            self.sample()
            self.stopping.wait(1.0)


VOILA, PAGE_KERNELS, OTHER_KERNELS = SERVER_SIDE = ["Voila server", "the pages' kernels", "other kernels (pool refill)"]
RENDERERS, OTHER_CHROMIUM = BROWSER_SIDE = ["Chromium renderers", "Chromium browser, GPU, network"]
STAND_INS = "stand-ins (bench/stand_in.py)"
DRIVER = "Playwright driver"
CPU_KINDS = [*SERVER_SIDE, *BROWSER_SIDE, STAND_INS, DRIVER]


def cpu_kind(cmdline: str, page_kernels: set[str]) -> str:
    if "ipykernel" in cmdline:
        found = KERNEL_ID.search(cmdline)
        return PAGE_KERNELS if found and found.group(1) in page_kernels else OTHER_KERNELS
    if "voila_server" in cmdline:
        return VOILA
    if "chromium" in cmdline:
        return RENDERERS if "--type=renderer" in cmdline else OTHER_CHROMIUM
    return STAND_INS if STAND_IN.name in cmdline else DRIVER


def cpu_times(serve_pid: int) -> dict[int, tuple[float, str]]:
    """CPU seconds (user + system) and command line of every process under the server and under this
    script (Playwright's driver and its Chromium), by process id. A process that ends takes its time along."""
    found: dict[int, tuple[float, str]] = {}
    for root in (serve_pid, os.getpid()):
        try:
            processes = psutil.Process(root).children(recursive=True)
        except psutil.Error:
            continue
        for process in processes:
            try:
                spent = process.cpu_times()
                found[process.pid] = (spent.user + spent.system, " ".join(process.cmdline()))
            except psutil.Error:
                continue
    return found


def cpu_split(
    before: dict[int, tuple[float, str]], after: dict[int, tuple[float, str]], page_kernels: set[str]
) -> dict[str, float]:
    """The CPU seconds spent between two readings of cpu_times, by kind of process (CPU_KINDS)."""
    spent = dict.fromkeys(CPU_KINDS, 0.0)
    for pid, (seconds, cmdline) in after.items():
        spent[cpu_kind(cmdline, page_kernels)] += seconds - before.get(pid, (0.0, ""))[0]
    return spent


class Arrivals:
    """Reads the CPU times when the last of `expected` pages is ready (or has failed)."""

    def __init__(self, serve_pid: int, expected: int) -> None:
        self.serve_pid, self.left = serve_pid, expected
        self.before = cpu_times(serve_pid)
        self.after = self.before
        self.seconds = 0.0
        self.started = time.monotonic()

    def arrived(self) -> None:
        self.left -= 1
        if self.left == 0:
            self.after = cpu_times(self.serve_pid)
            self.seconds = time.monotonic() - self.started

    def split(self, visits: list[Visit]) -> dict[str, float]:
        return cpu_split(self.before, self.after, {v.kernel for v in visits if v.kernel})


# --------------------------------------------------------------------------- one person at the dashboard


@dataclass
class Visit:
    name: str
    ready_ms: float | None = None
    kernel: str | None = None
    clicks: list[tuple[str, float, float]] = field(default_factory=list)  # (what, first ms, settled ms)
    errors: list[str] = field(default_factory=list)
    retries: int = 0  # clicks tried again because the control was replaced before the click landed


STARTED = time.monotonic()


def progress(text: str) -> None:
    """A line on stderr as the run goes (the table goes to stdout at the end)."""
    print(f"[{time.monotonic() - STARTED:6.1f} s] {text}", file=sys.stderr, flush=True)


def _watch_errors(page: Page, visit: Visit) -> None:
    page.on("pageerror", lambda error: visit.errors.append(f"pageerror: {error}"))

    def console(message: Any) -> None:
        url = str((message.location or {}).get("url", ""))
        offline = message.text.startswith("Failed to load resource") and NOT_LOCAL.match(url)
        if message.type == "error" and not offline:  # requests to other hosts are aborted on purpose
            visit.errors.append(f"console.error: {message.text}")

    page.on("console", console)


async def play(
    browser: Browser,
    base: str,
    name: str,
    args: argparse.Namespace,
    seed: int,
    arrived: Callable[[], None],
    recording: Recording | None = None,
) -> Visit:
    """One person at the dashboard; `arrived` is called once the page is ready or has failed. With a
    `recording`, what the page asks the server for is noted in it."""
    visit = Visit(name)
    actions = args.actions
    ready = False  # `arrived` was called (the page's kernel id alone cannot say: it may read as null)
    context = await browser.new_context(viewport={"width": 1366, "height": 900})
    context.set_default_timeout(ANSWER_TIMEOUT_MS)
    if not args.spinner:
        await context.add_init_script(STILL_SPINNER_SCRIPT)
    await context.add_init_script(READY_SCRIPT)
    page = await context.new_page()
    _watch_errors(page, visit)
    if recording is not None:
        recording.watch(page)
    try:
        await page.goto(base + DASHBOARD, wait_until="commit", timeout=READY_TIMEOUT_MS)
        await page.wait_for_function("() => window.__tbReady !== undefined", timeout=READY_TIMEOUT_MS, polling=100)
        visit.ready_ms = await page.evaluate("window.__tbReady")
        if recording is not None:
            recording.ready = True
        progress(f"{name}: ready after {visit.ready_ms / 1000:.1f} s")
        visit.kernel = await page.evaluate(
            "JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
        )
        ready = True
        arrived()
        for seat, kind in enumerate(SEATS):
            await page.locator(f".tb-seat-{seat} select").select_option(label=kind)
        await page.locator(".tb-start").click()
        await page.wait_for_function(
            """() => ![...document.querySelectorAll(".tb-start")].some((b) => b.getClientRects().length)
                && document.querySelector(".tb-status")?.textContent.includes("place a penguin")"""
        )
        for step in range(actions):
            pick = seed * 7919 + step * 31
            for _attempt in range(3):
                found = await page.wait_for_function(CHOOSE_SCRIPT, arg=pick, timeout=ANSWER_TIMEOUT_MS)
                target = await found.json_value()
                await page.evaluate(ARM_SCRIPT)
                try:
                    await page.locator(target["css"]).nth(target["nth"]).click(timeout=CLICK_TIMEOUT_MS)
                    break
                except PlaywrightTimeout as err:
                    visit.retries += 1  # the control went away under the pointer: look again
                    progress(f"{name}: click {step + 1} on {target['what']} again ({str(err).splitlines()[0]})")
            else:
                visit.errors.append(f"click {step + 1}: could not click {target['what']}")
                break
            answer = await page.evaluate("window.__measured")
            if "error" in answer:
                visit.errors.append(f"click {step + 1} ({target['what']}): {answer['error']}")
                break
            if answer["refused"]:
                visit.errors.append(f"click {step + 1} ({target['what']}) refused: {answer['refused']}")
            visit.clicks.append((target["what"], answer["first"], answer["settled"]))
    except Exception as err:
        visit.errors.append(f"{type(err).__name__}: {str(err).splitlines()[0]}")
        try:  # what the page showed when it gave up
            shown = await page.evaluate(
                """() => ({start: [...document.querySelectorAll(".tb-start")].map((b) => b.getClientRects().length),
                          status: document.querySelector(".tb-status")?.textContent ?? null,
                          text: document.body?.innerText.slice(0, 300) ?? null})"""
            )
            visit.errors.append(f"the page showed {shown}")
        except Exception as failed:
            visit.errors.append(f"the page could not be read ({type(failed).__name__})")
        if not ready:
            arrived()
    progress(f"{name}: {len(visit.clicks)} clicks, {len(visit.errors)} errors")
    return visit


async def close_all(browser: Browser, recording: Recording | None = None) -> None:
    """Leave every page as a person closing its tab would: its beforeunload handler asks for its kernel's end.
    With a `recording` of one of the pages, wait until the recording has heard that request."""
    for context in browser.contexts:
        for page in context.pages:
            await page.evaluate(LEAVE_SCRIPT)
        deadline = time.monotonic() + 30
        while recording is not None and not recording.on_close and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        await context.close()


class StandIns:
    """bench/stand_in.py's worker process: `count` stand-ins replaying what the page alone asked for."""

    def __init__(self, process: asyncio.subprocess.Process, count: int) -> None:
        self.process, self.count = process, count
        self.arrivals: list[Arrival] = []

    @classmethod
    async def start(cls, recording: Recording, count: int, folder: Path) -> StandIns:
        """Started (and its imports done) before the crowd, so that its start is not counted as the crowd's."""
        recorded = folder / "recording.json"
        recorded.write_text(json.dumps(asdict(recording)))
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            str(STAND_IN),
            str(recorded),
            str(count),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=REPO_ROOT,
        )
        assert process.stdout is not None
        said = await process.stdout.readline()
        if said.strip() != b"loaded":
            raise SystemExit(f"bench/stand_in.py did not start (it said {said!r})")
        return cls(process, count)

    async def _tell(self, word: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{word}\n".encode())
        await self.process.stdin.drain()

    async def _heard(self) -> Any:
        assert self.process.stdout is not None
        line = await self.process.stdout.readline()
        if not line:
            raise SystemExit("bench/stand_in.py ended before it had said everything")
        return json.loads(line)

    async def visit(self, arrived: Callable[[], None]) -> list[Visit]:
        """Every stand-in opens the dashboard at once; `arrived` is called as each is ready or has failed."""
        await self._tell("go")
        visits = []
        for _ in range(self.count):
            arrival = Arrival(**await self._heard())
            self.arrivals.append(arrival)
            visits.append(Visit(arrival.name, arrival.ready_ms, arrival.kernel, errors=list(arrival.errors)))
            ready = f"ready after {arrival.ready_ms / 1000:.1f} s" if arrival.ready_ms is not None else "failed"
            progress(f"{arrival.name}: {ready}")
            arrived()
        return visits

    async def close(self, visits: list[Visit]) -> None:
        """As their tabs close; a stand-in's errors in closing are added to its visit's."""
        await self._tell("close")
        failed = (await self._heard())["closed"]
        for visit in visits:
            visit.errors += failed.get(visit.name, [])
        await self.process.wait()


# --------------------------------------------------------------------------- statistics and table


@dataclass
class KernelCounts:
    """Kernel processes under the server (and their RSS in KiB) around the crowd of pages."""

    before: int
    before_kib: int
    most: int = 0
    most_kib: int = 0
    after: int = 0
    after_kib: int = 0
    settled_s: float = 0.0
    ended_s: float | None = None  # from closing the visitors until all their kernels had ended
    left: int = 0  # the visitors' kernels still running when the run stopped waiting


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def summary(values: list[float], scale: float = 1.0, digits: int = 0) -> str:
    if not values:
        return "-"
    return f"{statistics.median(values) * scale:.{digits}f} / {p95(values) * scale:.{digits}f}"


def counted(count: int, thing: str) -> str:
    return f"{count} {thing}{'s' * (count != 1)}"


def mib(kib: float) -> str:
    return f"{kib / 1024:.0f}"


async def run(args: argparse.Namespace) -> int:
    options = [f"--pool={size}" for size in args.pool] + [f"--cull-after={args.cull_after}"]
    pool = pool_size(args.pool)
    real = args.pages - args.stand_ins
    with tempfile.TemporaryDirectory(prefix="cliplab-serve-load-") as tmp:
        process, port, log_path = start_server(Path(tmp), options)
        base = f"http://127.0.0.1:{port}/"
        heartbeat, memory = Heartbeat(base), MemoryWatch(process.pid)
        heartbeat.start()
        memory.start()
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
                waited = await memory.pool_ready(pool, log_path)
                progress(f"server on port {port}; its {pool} warm kernels ready after {waited:.0f} s; one page alone")
                # 1. One page alone, which also shows what a page asks the server for.
                recording = Recording(base)
                alone_clock = Arrivals(process.pid, 1)
                alone = [await play(browser, base, "alone", args, 0, alone_clock.arrived, recording)]
                alone_cpu = alone_clock.split(alone)
                memory.sample()
                alone_kernels = {v.kernel: memory.kernels.get(v.kernel or "", 0) for v in alone}
                await close_all(browser, recording)
                # The closed page's kernel ends and the pool refills.
                await memory.pool_ready(pool, log_path)
                stand_ins = None
                if args.stand_ins:
                    if recording.problems():
                        raise SystemExit("the stand-ins cannot replay the page: " + "; ".join(recording.problems()))
                    stand_ins = await StandIns.start(recording, args.stand_ins, Path(tmp))
                counts = KernelCounts(memory.alive, memory.alive_kib)
                memory.most_alive = memory.alive
                load_before = os.getloadavg()[0]
                progress(
                    f"{counted(real, 'page')} and {counted(args.stand_ins, 'stand-in')} at once "
                    f"({counts.before} kernels running, "
                    f"load {load_before:.1f})"
                )
                # 2. N visitors at once.
                started = time.monotonic()
                crowd_clock = Arrivals(process.pid, args.pages)
                crowd, standing = await asyncio.gather(
                    asyncio.gather(
                        *(play(browser, base, f"page {k + 1}", args, k + 1, crowd_clock.arrived) for k in range(real))
                    ),
                    stand_ins.visit(crowd_clock.arrived) if stand_ins else asyncio.sleep(0, []),
                )
                crowd_cpu = crowd_clock.split([*crowd, *standing])
                crowd_seconds = time.monotonic() - started
                load_served = os.getloadavg()[0]
                memory.sample()
                crowd_kernels = {v.kernel: memory.kernels.get(v.kernel or "", 0) for v in crowd}
                stand_in_kernels = {v.kernel: memory.kernels.get(v.kernel or "", 0) for v in standing}
                counts.most, counts.most_kib = memory.most_alive, memory.together_kib
                # 3. Every page closed (and every stand-in, as its tab would): their kernels must go.
                await asyncio.gather(close_all(browser), stand_ins.close(standing) if stand_ins else asyncio.sleep(0))
                await browser.close()
                visitors = {v.kernel for v in [*crowd, *standing] if v.kernel}
                counts.ended_s = await memory.ended(visitors, args.settle)
                counts.left = len(visitors & memory.alive_ids)
                # The pool refills (from 10 s after the hand-outs, one kernel every 3 s).
                waited = await memory.settled(pool, log_path, args.settle)
                counts.after, counts.after_kib = memory.alive, memory.alive_kib
                counts.settled_s = args.settle if waited is None else waited
                progress(f"pages closed: {counts.after} kernels after {counts.settled_s:.0f} s")
        finally:
            heartbeat.stopping.set()
            memory.stopping.set()
            heartbeat.join()
            memory.join()
            stop_server(process)
            iopub_timeouts = log_path.read_text(errors="replace").count("Timeout waiting for IOPub output")

    columns = [
        Column("1 page alone", alone, alone_kernels),
        Column(counted(real, "page"), list(crowd), crowd_kernels),
        Column(counted(args.stand_ins, "stand-in"), list(standing), stand_in_kernels, clicks=False),
    ]
    columns = [column for column in columns if column.visits]  # no column for a kind of visitor not asked for
    print_table(args, columns, crowd_seconds, heartbeat, memory)
    if stand_ins:
        print_stand_ins(recording, stand_ins.arrivals)
    print_cpu(real, args.stand_ins, alone_cpu, crowd_cpu, crowd_clock.seconds)
    print(
        f"Kernel processes (their RSS together): {counts.before} ({mib(counts.before_kib)} MiB) before the pages "
        f"opened (the warm pool holds {pool}), at most {counts.most} "
        f"({mib(counts.most_kib)} MiB) while they were open, {counts.after} ({mib(counts.after_kib)} MiB) "
        f"{counts.settled_s:.0f} s after they closed (--cull-after {args.cull_after})."
    )
    if counts.ended_s is not None:
        print(f"The visitors' kernels had all ended {counts.ended_s:.1f} s after they closed.")
    print(f"Load average: {load_before:.1f} as the pages opened, {load_served:.1f} once they were served.")
    print(f'Voila warnings "Timeout waiting for IOPub output": {iopub_timeouts}.')
    errors = [f"{v.name}: {e}" for v in [*alone, *crowd, *standing] for e in v.errors]
    if counts.left:
        errors.append(f"{counts.left} of the visitors' kernels still ran {args.settle:.0f} s after they closed")
    if counts.after > pool:
        errors.append(f"after the pages closed: {counts.after} kernels, more than the pool's {pool}")
    short = [v.name for v in [*alone, *crowd] if len(v.clicks) < args.actions]
    beats_bad = [r for r in heartbeat.results if r[0] != 302]
    for line in errors:
        print("error:", line)
    if short:
        print("pages that did not make every click:", ", ".join(short))
    return 1 if errors or short or beats_bad else 0


@dataclass
class Column:
    """One column of the table: a group of visitors and the peak RSS of their kernels."""

    title: str
    visits: list[Visit]
    kernels: dict[str | None, int]
    clicks: bool = True  # stand-ins only open the dashboard

    def cells(self, actions: int) -> list[str]:
        visits = self.visits
        ready = [v.ready_ms for v in visits if v.ready_ms is not None]
        first = [c[1] for v in visits for c in v.clicks]
        settled = [c[2] for v in visits for c in v.clicks]
        board = sum(1 for v in visits for c in v.clicks if c[0] == "floe point")
        peaks = [kib for kib in self.kernels.values() if kib]
        short = sum(1 for v in visits if len(v.clicks) < actions) if self.clicks else 0
        return [
            str(len(visits)),
            summary(ready, 1 / 1000, 1),
            summary(first) if self.clicks else "-",
            summary(settled) if self.clicks else "-",
            f"{len(first)} ({board} on the floe)" if self.clicks else "-",
            str(sum(len(v.errors) for v in visits) + short),
            f"{mib(statistics.median(peaks))} / {mib(max(peaks))}" if peaks else "-",
        ]


def print_table(
    args: argparse.Namespace, columns: list[Column], crowd_seconds: float, heartbeat: Heartbeat, memory: MemoryWatch
) -> None:
    rows = [
        "visitors",
        "time to ready, s (median / p95)",
        "click -> first change, ms (median / p95)",
        "click -> settled, ms (median / p95)",
        "clicks measured",
        "errors",
        "kernel peak RSS, MiB (median / max)",
    ]
    cells = [column.cells(args.actions) for column in columns]
    width = max(map(len, rows))
    wide = max(18, *(len(column.title) for column in columns))
    print(
        f"\ncliplab serve under load: {args.pages} visitors at once ({args.stand_ins} of them stand-ins), "
        f"{args.actions} clicks each ({os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the end)\n"
    )
    print(f"{'':{width}}" + "".join(f"  {column.title:>{wide}}" for column in columns))
    for k, name in enumerate(rows):
        print(f"{name:{width}}" + "".join(f"  {row[k]:>{wide}}" for row in cells))
    beats = heartbeat.results
    ok = sum(1 for status, _ in beats if status == 302)
    slowest = max((seconds for _, seconds in beats), default=0.0)
    retries = sum(v.retries for column in columns for v in column.visits)
    print(f"\nClicks tried again because the control was replaced just before the click: {retries}.")
    print(f"{args.pages} visitors took {crowd_seconds:.0f} s from the first request to their last click.")
    print(f"Heartbeat GET / every second: {ok}/{len(beats)} answered 302, slowest {slowest * 1000:.0f} ms.")
    print(
        f"Voila server peak RSS {mib(memory.server_kib)} MiB; all kernels together at most "
        f"{mib(memory.together_kib)} MiB at one moment ({len(memory.kernels)} kernel processes seen, "
        "pool kernels included)."
    )


def print_stand_ins(recording: Recording, arrivals: list[Arrival]) -> None:
    ready = [a for a in arrivals if a.ready_ms is not None]
    if not ready:
        return
    got = ready[0]
    print(
        f"\nEach stand-in asked for what the page alone did: the dashboard page and {len(recording.files)} files, "
        f"then on its kernel's websocket: {', '.join(recording.sent[:4])}. The first ready one read {got.files} "
        f"responses ({got.bytes / 1e6:.1f} MB as sent) and a widget state reply of {got.state_bytes / 1e3:.0f} KB "
        f"with {got.states} widgets ({', '.join(got.models)})."
    )
    stages = [
        ("the dashboard page", [a.page_ms or 0.0 for a in ready]),
        ("every file", [a.files_ms or 0.0 for a in ready]),
        ("the widget state (ready)", [a.ready_ms or 0.0 for a in ready]),
    ]
    said = ", ".join(f"{what} {summary(times, 1 / 1000, 1)}" for what, times in stages)
    print(f"Stand-ins had, s from their first request (median / p95): {said}.")


def print_cpu(real: int, stand_ins: int, alone: dict[str, float], crowd: dict[str, float], ready_s: float) -> None:
    """CPU seconds of the page alone, and of the crowd, in all and per visitor: the server's per visitor, the
    browser's per real page, the stand-ins' per stand-in."""
    visitors = real + stand_ins
    per = dict.fromkeys(SERVER_SIDE, visitors) | dict.fromkeys([*BROWSER_SIDE, DRIVER], real) | {STAND_INS: stand_ins}
    rows = [(kind, alone[kind], crowd[kind], per[kind]) for kind in CPU_KINDS]
    for side, kinds, count in (
        ("server side (Voila + kernels)", SERVER_SIDE, visitors),
        ("browser side (Chromium)", BROWSER_SIDE, real),
    ):
        rows.append((side, sum(alone[k] for k in kinds), sum(crowd[k] for k in kinds), count))
    width = max(len(name) for name, *_ in rows)
    print(f"\nCPU seconds, from the request until the last visitor was ready ({os.cpu_count()} CPUs)\n")
    print(f"{'':{width}}  {'1 page alone':>12}  {'crowd, all':>10}  {'crowd, each':>11}  (each of)")
    for name, one, together, count in rows:
        each = f"{together / count:.2f}" if count else "-"
        of = "visitors" if count == visitors else ("stand-ins" if name == STAND_INS else "real pages")
        print(f"{name:{width}}  {one:>12.2f}  {together:>10.1f}  {each:>11}  {of}")
    server = sum(crowd[k] for k in SERVER_SIDE)
    cores = os.cpu_count() or 1
    print(
        f"\nThe {visitors} visitors were all ready {ready_s:.1f} s after they were asked for. Their server side "
        f"took {server:.1f} CPU-s ({server / cores:.1f} s of all {cores} cores); the real pages' browser side "
        f"{sum(crowd[k] for k in BROWSER_SIDE):.1f} CPU-s, which a class spreads over its own machines; the "
        f"{counted(stand_ins, 'stand-in')} {crowd[STAND_INS]:.1f} CPU-s."
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=10, help="pages opened at once (default 10)")
    parser.add_argument(
        "--actions", type=int, default=20, help="state-changing clicks per page (default 20; 0: open only)"
    )
    parser.add_argument(
        "--settle", type=float, default=180.0, help="seconds to wait for the kernels to go once the pages close"
    )
    parser.add_argument(
        "--pool",
        action="append",
        default=[],
        metavar="N or DASHBOARD=N",
        help="passed to `cliplab serve --pool` (default: its own, 1 warm kernel per dashboard)",
    )
    parser.add_argument(
        "--cull-after",
        type=int,
        default=DEFAULT_CULL_AFTER,
        help=f"passed to `cliplab serve --cull-after` (default {DEFAULT_CULL_AFTER})",
    )
    parser.add_argument("--spinner", action="store_true", help="keep Voila's loading spinner turning in the pages")
    parser.add_argument(
        "--stand-ins",
        type=int,
        default=0,
        metavar="N",
        help="N of the --pages visitors are bench/stand_in.py's protocol clients, the rest real pages (default 0)",
    )
    args = parser.parse_args()
    if args.pages < 1 or args.actions < 0 or not 0 <= args.stand_ins <= args.pages:
        parser.error("--pages must be at least 1, --actions at least 0 and --stand-ins from 0 to --pages")
    return asyncio.run(run(args))


if __name__ == "__main__":
    raise SystemExit(main())
