"""How quick the grid widget feels in the browser, next to what Voila and ipywidgets give anyway.

One run starts a Voila server (this environment's) on a temporary folder of generated notebooks and
drives the system Chromium, headless, through Playwright. It measures:

(a) click round trip: for each click, in page JavaScript (so Playwright's overhead is not counted),
    performance.now(), a click event dispatched on a cell, then a MutationObserver waits until that
    cell's fill has changed (Python's handler re-shows the scene). The same is done on a plain
    ipywidgets Button whose on_click changes its own description. Both pages are open at once, each in a
    browser context of its own, and are measured in alternating batches, in four rounds of fresh pages (and so
    fresh kernels; each round's ratio is printed too). Goal: grid median within 1.2x of the Button's.
(b) page load: from navigation start (performance.timeOrigin) to an interactive board (all cells
    present, the .cl-stage focusable and laid out), against a bare notebook that prints one value
    (time until that output is in the page). Fresh page each load, warm HTTP cache (one load each first
    is not counted), the two kinds alternating. Goal: grid median within 1.3x of the bare one.
(c) full redraw: a 7x9 sheet (cells, glyphs, numbers, cuts, walls, a token, a mark, clickable cells,
    segments and points) with three 3x3 cards (separate boards), re-shown from a Python click handler;
    after each redraw the page reads div.cl-grid's data-render-ms. Goal: under 16 ms (one frame).

With --against TREE (a folder holding another version's cliplab/ and widgets/, such as a `git worktree` of
an older commit), (a) also clicks the grid on pages of a third server whose kernels import cliplab from TREE,
in the same alternating batches: two versions of the widget compared in one run, where separate runs of this
bench differ by more than most changes do. (a) prints each grid's render-ms (the page's drawing of the answer).

Clicks are 150 ms apart (see GAP_MS). Medians and p95 (nearest rank) exclude a few warm-up rounds. (a) and
(c) run on a second server whose pages are cross-origin isolated, for a clock in 5 us steps (ISOLATION_HEADERS).
Run:

    .venv/bin/python bench/widget_latency.py [--clicks N] [--loads N] [--redraws N] [--against TREE]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import math
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

import nbformat
from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# A cross-origin isolated page reads performance.now() in 5 us steps, not 100 us (Chromium coarsens the clock
# of other pages): a click of about 4 ms is then timed to a thousandth, not a fortieth. The clicks and redraws
# are measured on such pages; the loads (1 s or more) on pages served as people get them, since isolation
# changes how a page loads.
ISOLATION_HEADERS = {"Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp"}
SERVER_START_S = 60.0
KERNEL_TIMEOUT_MS = 60_000
WARMUP_CLICKS = 5
WARMUP_REDRAWS = 3
BATCH = 10
CLICK_ROUNDS = 4
# Pause between clicks. Back-to-back clicks (25 ms apart) hit a ~40 ms floor on both widgets (TCP
# delayed-ACK style batching on the loopback websocket), which hides the real difference; 150 ms does not.
GAP_MS = 150
CLICK_GOAL = 1.2
LOAD_GOAL = 1.3
REDRAW_GOAL_MS = 16.0

GRID = """\
from cliplab.ui.scene import Board, Cell, Scene
from cliplab.ui.widget import Grid

fills = {}

def scene():
    cells = tuple(Cell((r, c), fill=fills.get((r, c), "paper")) for r in range(3) for c in range(3))
    return Scene(boards=(Board("b", "Board", 3, 3, cells=cells, clickable=("cell",)),))

grid = Grid(scene())

def clicked(intent):
    fills[intent.at] = "paper" if fills.get(intent.at) == "orange" else "orange"
    grid.show(scene())

grid.on("cell", clicked)
grid"""

BUTTON = """\
import ipywidgets as widgets

button = widgets.Button(description="clicked 0")
count = 0

def clicked(_):
    global count
    count += 1
    button.description = f"clicked {count}"

button.on_click(clicked)
button"""

BARE = 'print("bare says", 6 * 7)'

REDRAW = """\
from cliplab.ui.scene import Board, Cell, Edge, Mark, Scene, Token
from cliplab.ui.widget import Grid

FILLS = ["orange", "sky", "green", "yellow", "blue", "vermillion", "purple", "paper", "ice"]
count = 0

def scene():
    cells = tuple(
        Cell((r, c), fill=FILLS[(r * 9 + c + count) % len(FILLS)],
             text=str((r * c + count) % 10) if (r + c) % 3 == 0 else "")
        for r in range(7) for c in range(9)
    )
    edges = tuple(Edge((3, c), (3, c + 1), style="cut") for c in range(9))
    edges += tuple(Edge((r, 4), (r + 1, 4), style="wall") for r in range(7))
    sheet = Board(
        "sheet", "Sheet", 7, 9, cells=cells, edges=edges, tokens=(Token((1, 1), owner=0, text="1"),),
        marks=(Mark("cell", (count % 7, count % 9), style="last"),), clickable=("cell", "segment", "point"),
    )
    cards = tuple(
        Board(f"card{k}", f"Card {k + 1}", 3, 3, clickable=("cell",),
              cells=tuple(Cell((r, c), fill=FILLS[(k + r + 2 * c) % len(FILLS)]) for r in range(3) for c in range(3)))
        for k in range(3)
    )
    return Scene(boards=(sheet, *cards), status=f"Redraw {count}")

grid = Grid(scene())

def redraw(intent):
    global count
    count += 1
    grid.show(scene())

grid.on("cell", redraw)
grid"""

# Marks window.__readyAt (ms since navigation start) once the page is usable; see (b).
READY_SCRIPT = """
(() => {
  const page = location.pathname.split("/").pop();
  const ready = () => {
    if (page === "button.ipynb") {
      const button = document.querySelector("button.widget-button");
      return button !== null && button.getClientRects().length > 0;
    }
    if (page !== "bare.ipynb") {
      const root = document.querySelector("div.cl-grid");
      if (!root) return false;
      const stage = root.querySelector(".cl-stage");
      return root.querySelectorAll("g[data-kind=cell][data-r][data-c]").length >= 9
        && stage !== null && stage.tabIndex >= 0 && stage.getClientRects().length > 0;
    }
    for (const out of document.querySelectorAll(".jp-OutputArea-output")) {
      if (out.textContent.includes("bare says 42") && out.getClientRects().length > 0) return true;
    }
    return false;
  };
  const observer = new MutationObserver(() => {
    if (window.__readyAt === undefined && ready()) {
      window.__readyAt = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
})();
"""

# Clicks n times, each time waiting for the DOM change; returns [roundTripMs, renderMs|null] pairs.
CLICKS_SCRIPT = """
async ({ n, kind, start, gap }) => {
  const results = [];
  const root = document.querySelector("div.cl-grid");
  for (let i = start; i < start + n; i++) {
    let target, read, watched;
    if (kind === "button") {
      target = document.querySelector("button.widget-button");
      read = () => target.textContent;
      watched = target;
    } else {
      const [r, c] = kind === "redraw" ? [i % 7, (i * 2) % 9] : [i % 3, Math.floor(i / 3) % 3];
      const board = kind === "redraw" ? '[data-board="sheet"] ' : "";
      const selector = `${board}g[data-kind=cell][data-r="${r}"][data-c="${c}"]`;
      target = root.querySelector(`${selector} > rect`);
      // Grid: the cell's fill, read from the clicked square while it is on the page (as the Button's own
      // element is read), else from the one that replaced it; redraw: data-revision (set once the new
      // picture is drawn, even where the patch leaves that cell as it was).
      read = kind === "redraw" ? () => root.dataset.revision
        : () => (target.isConnected ? target : root.querySelector(`${selector} > rect`))?.getAttribute("fill");
      watched = root;
    }
    if (!target) throw new Error(`no click target for ${kind} #${i}`);
    const before = read();
    let observer;
    let timer;
    const changed = new Promise((resolve) => {
      observer = new MutationObserver(() => { if (read() !== before) resolve(performance.now()); });
      observer.observe(watched, { childList: true, subtree: true, characterData: true, attributes: true });
    });
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${kind}: no DOM change 10 s after click #${i}`)), 10000);
    });
    const box = target.getBoundingClientRect();
    const init = { bubbles: true, cancelable: true, composed: true, button: 0, view: window,
      clientX: box.x + box.width / 2, clientY: box.y + box.height / 2 };
    const t0 = performance.now();
    target.dispatchEvent(new MouseEvent("click", init));
    try {
      const t1 = await Promise.race([changed, late]);
      results.push([t1 - t0, root ? Number(root.dataset.renderMs) : null]);
    } finally {
      observer.disconnect();
      clearTimeout(timer);
    }
    await new Promise((resolve) => setTimeout(resolve, gap));
  }
  return results;
}
"""


# --------------------------------------------------------------------------- helpers


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def write_notebook(path: Path, source: str) -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.cells = [nbformat.v4.new_code_cell(source)]
    nbformat.write(notebook, path)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def voila(folder: Path, log_path: Path, isolated: bool, tree: Path | None = None) -> Iterator[str]:
    """This environment's Voila on `folder`, its pages cross-origin isolated or not, its kernels importing
    cliplab from `tree` when given; yields the base URL; stops the server by its PID."""
    home = log_path.with_suffix(".home")
    env = dict(os.environ)
    for name, sub in [("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                      ("JUPYTER_RUNTIME_DIR", "runtime"), ("IPYTHONDIR", "ipython")]:  # fmt: skip
        (home / sub).mkdir(parents=True, exist_ok=True)
        env[name] = str(home / sub)
    env.pop("JUPYTER_PATH", None)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    if isolated:
        settings = {"Voila": {"tornado_settings": {"headers": ISOLATION_HEADERS}}}
        (home / "config" / "voila.json").write_text(json.dumps(settings))
    env["JUPYTER_PLATFORM_DIRS"] = "0"
    env["PYTHONUNBUFFERED"] = "1"
    port = free_port()
    argv = [
        sys.executable, "-m", "voila", str(folder), "--no-browser", f"--port={port}",
        "--Voila.ip=127.0.0.1", "--Voila.port_retries=0",
    ]  # fmt: skip
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            argv, cwd=folder, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + SERVER_START_S
        while True:  # the port, not "/": fetching a page would start a kernel
            if process.poll() is not None:
                raise RuntimeError(f"voila exited with {process.returncode}; see {log_path}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"voila did not listen within {SERVER_START_S:.0f} s; see {log_path}") from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/voila/render/"
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=15)


class Pages:
    """Opens Voila pages in one browser context, collecting JavaScript errors."""

    def __init__(self, browser: Browser, base: str, isolated: bool) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.context.add_init_script(READY_SCRIPT)
        self.base = base
        self.isolated = isolated
        self.errors: list[str] = []

    def open(self, name: str) -> tuple[Page, float]:
        """A new page on notebook `name`, once usable; with ms from navigation start to usable."""
        page = self.context.new_page()
        page.on("pageerror", lambda error: self.errors.append(f"{name}: {error}"))
        page.goto(self.base + name, wait_until="commit", timeout=KERNEL_TIMEOUT_MS)
        page.wait_for_function("window.__readyAt !== undefined", timeout=KERNEL_TIMEOUT_MS, polling=50)
        if self.isolated and not page.evaluate("crossOriginIsolated"):
            raise RuntimeError(f"{name} is not cross-origin isolated: its clock would step by 100 us")
        return page, float(page.evaluate("window.__readyAt"))

    @staticmethod
    def close(page: Page) -> None:
        page.close(run_before_unload=True)  # Voila shuts the page's kernel down on beforeunload
        time.sleep(0.3)


def clicks(page: Page, kind: str, n: int, start: int) -> list[list[float | None]]:
    page.bring_to_front()
    return list(page.evaluate(CLICKS_SCRIPT, {"n": n, "kind": kind, "start": start, "gap": GAP_MS}))


# --------------------------------------------------------------------------- the three measurements


def measure_clicks(
    grids: Pages, buttons: Pages, total: int, against: Pages | None
) -> tuple[dict[str, list[float]], list[float]]:
    """Round trips of clicks on the grid, the Button and (from `against`) the other tree's grid, in batches
    that take turns (each page in turn goes first); under "<name> render-ms", each grid's drawing of the
    answers; and each round's grid / Button ratio of medians. Each page has a browser context of its own,
    and so a renderer process: two pages sharing one slow each other's clicks (a grid ran 1.11x a copy of
    itself in another context; 1.01x once each had its own). Each round opens fresh pages, and so fresh
    kernels: with one pair for the whole run, the ratio swung between 1.03x and 1.17x from run to run with
    the same code, with where the two kernels happened to run rather than with what they ran."""
    times: dict[str, list[float]] = {}
    ratios = []
    per_round = math.ceil(total / CLICK_ROUNDS)
    for first in range(0, total, per_round):
        opened = {"grid": grids.open("grid.ipynb")[0], "button": buttons.open("button.ipynb")[0]}
        if against is not None:
            opened["against"] = against.open("grid.ipynb")[0]
        kinds = {name: "button" if name == "button" else "grid" for name in opened}
        for name, page in opened.items():
            clicks(page, kinds[name], WARMUP_CLICKS, 0)
        this_round: dict[str, list[float]] = {}
        last = min(first + per_round, total)
        for batch, done in enumerate(range(first, last, BATCH)):
            n = min(BATCH, last - done)
            # Each batch starts with the next page in turn: with a fixed order, a copy of the grid under
            # --against read 1.03x itself.
            pages = list(opened.items())
            for name, page in pages[batch % len(pages) :] + pages[: batch % len(pages)]:
                for round_trip, render_ms in clicks(page, kinds[name], n, WARMUP_CLICKS + done):
                    this_round.setdefault(name, []).append(float(round_trip))  # type: ignore[arg-type]
                    if kinds[name] == "grid":
                        this_round.setdefault(f"{name} render-ms", []).append(float(render_ms))  # type: ignore[arg-type]
        for name, values in this_round.items():
            times.setdefault(name, []).extend(values)
        ratios.append(statistics.median(this_round["grid"]) / statistics.median(this_round["button"]))
        for page in opened.values():
            Pages.close(page)
    return times, ratios


def measure_loads(pages: Pages, loads: int) -> tuple[list[float], list[float]]:
    times: dict[str, list[float]] = {"grid.ipynb": [], "bare.ipynb": []}
    for round_ in range(loads + 1):  # round 0 warms the HTTP cache and the kernel's imports
        for name in times:
            page, ready_ms = pages.open(name)
            if round_:
                times[name].append(ready_ms)
            pages.close(page)
    return times["grid.ipynb"], times["bare.ipynb"]


def measure_redraws(pages: Pages, redraws: int) -> tuple[list[float], list[float]]:
    page, _ = pages.open("redraw.ipynb")
    clicks(page, "redraw", WARMUP_REDRAWS, 0)
    results = clicks(page, "redraw", redraws, WARMUP_REDRAWS)
    pages.close(page)
    return [float(rm) for _, rm in results], [float(rt) for rt, _ in results]  # type: ignore[arg-type]


# --------------------------------------------------------------------------- report


def cpu_model() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown CPU"


def version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "?"


def goal(label: str, value: str, ok: bool) -> str:
    return f"{label:<52}{value:>10}  {'met' if ok else 'NOT met'}"


def report(args: argparse.Namespace, chromium: str, results: dict[str, Any], seconds: float) -> str:
    ms = "{:8.2f}".format
    clicked, round_ratios = results["clicks"]
    grid_c, button_c = clicked["grid"], clicked["button"]
    grid_l, bare_l = results["loads"]
    render, redraw_rt = results["redraws"]
    click_ratio = statistics.median(grid_c) / statistics.median(button_c)
    load_ratio = statistics.median(grid_l) / statistics.median(bare_l)
    rows = [("(a) click -> DOM, grid cell", grid_c), ("(a) grid's render-ms", clicked["grid render-ms"])]
    if args.against:
        rows += [
            ("(a) the same, grid of --against", clicked["against"]),
            ("(a) its render-ms", clicked["against render-ms"]),
        ]
    rows += [
        ("(a) click -> DOM, ipywidgets Button", button_c),
        ("(b) open -> board interactive", grid_l),
        ("(b) open -> bare output shown", bare_l),
        ("(c) 7x9 sheet + 3 cards: render-ms", render),
        ("(c) same, click -> redrawn", redraw_rt),
    ]
    lines = [
        "cliplab widget latency",
        f"date      {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}",
        f"python    {platform.python_version()} ({sys.executable})",
        f"chromium  {chromium} (headless, --disable-gpu); (a) and (c) on cross-origin isolated pages (5 us clock)",
        f"machine   {platform.machine()}, {os.cpu_count()} CPUs, {cpu_model()}, {platform.platform(terse=True)}",
        f"packages  voila {version('voila')}, ipywidgets {version('ipywidgets')}, anywidget {version('anywidget')}, "
        f"playwright {version('playwright')}",
        f"load      {results['load'][0]:.2f} {results['load'][1]:.2f} (1-minute load average before and after the run)",
        f"runs      {args.clicks} clicks each (+{WARMUP_CLICKS} warm-up a round), {args.loads} loads each "
        f"(+1 warm-up), {args.redraws} redraws (+{WARMUP_REDRAWS} warm-up); p95 = nearest rank",
        *(
            [f"against   {args.against}: the grid's cliplab and front end for the rows so marked"]
            if args.against
            else []
        ),
        "",
        f"{'measurement (ms)':<38}{'n':>4}{'median':>9}{'p95':>9}{'min':>9}{'max':>9}",
        "-" * 78,
    ]
    for label, values in rows:
        lines.append(
            f"{label:<38}{len(values):>4}{ms(statistics.median(values))}{ms(p95(values))}{ms(min(values))}{ms(max(values))}"
        )
    lines += [
        "-" * 78,
        f"{'goal':<52}{'value':>10}  result",
        goal("(a) grid / Button median click round trip <= 1.2x", f"{click_ratio:.2f}x", click_ratio <= CLICK_GOAL),
        f"    the same in each round of fresh pages: {', '.join(f'{r:.2f}x' for r in round_ratios)}",
        goal("(b) grid / bare median time to interactive <= 1.3x", f"{load_ratio:.2f}x", load_ratio <= LOAD_GOAL),
        goal(
            "(c) redraw render-ms median < 16 ms",
            f"{statistics.median(render):.2f}ms",
            statistics.median(render) < REDRAW_GOAL_MS,
        ),
        goal("(c) redraw render-ms p95 < 16 ms", f"{p95(render):.2f}ms", p95(render) < REDRAW_GOAL_MS),
    ]
    if args.against:
        median = {name: statistics.median(values) for name, values in clicked.items()}
        lines += [
            "",
            f"--against: its grid / Button median click round trip {median['against'] / median['button']:.2f}x; "
            f"this tree's median click {median['grid'] / median['against']:.3f}x its, render-ms "
            f"{median['grid render-ms']:.2f} against {median['against render-ms']:.2f}",
        ]
    lines += [
        "",
        f"JavaScript errors: {len(results['errors'])}; total run time {seconds:.0f} s",
    ]
    lines += [f"  {e}" for e in results["errors"][:5]]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clicks", type=int, default=60, help="measured clicks per widget (default 60)")
    # Five loads each once gave 1.39x and fifteen 1.18x on the same quiet machine: a load's time varies by a third.
    parser.add_argument("--loads", type=int, default=15, help="measured page loads per notebook (default 15)")
    parser.add_argument("--redraws", type=int, default=40, help="measured redraws (default 40)")
    parser.add_argument("--against", type=Path, help="also click a grid whose cliplab comes from this folder")
    args = parser.parse_args()
    if min(args.clicks, args.loads, args.redraws) < 1:
        parser.error("--clicks, --loads and --redraws must be at least 1")
    if args.against and not all((args.against / part).is_file() for part in ("cliplab/__init__.py", "widgets/grid.js")):
        parser.error(f"--against {args.against}: no cliplab/__init__.py and widgets/grid.js in that folder")
    started = time.monotonic()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="cliplab-latency-") as tmp:
        folder = Path(tmp) / "notebooks"
        folder.mkdir()
        for name, source in [("grid", GRID), ("button", BUTTON), ("bare", BARE), ("redraw", REDRAW)]:
            write_notebook(folder / f"{name}.ipynb", source)
        logs = [Path(tmp) / "voila.log", Path(tmp) / "voila-isolated.log", Path(tmp) / "voila-against.log"]
        try:
            with (
                voila(folder, logs[0], isolated=False) as plain,
                voila(folder, logs[1], isolated=True) as isolated,
                voila(folder, logs[2], True, args.against.resolve())
                if args.against
                else contextlib.nullcontext() as other,
                sync_playwright() as playwright,
            ):
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
                try:
                    as_served = Pages(browser, plain, False)
                    timed_finely, buttons = Pages(browser, isolated, True), Pages(browser, isolated, True)
                    against = Pages(browser, other, True) if other else None
                    results: dict[str, Any] = {
                        "loads": measure_loads(as_served, args.loads),
                        "clicks": measure_clicks(timed_finely, buttons, args.clicks, against),
                        "redraws": measure_redraws(timed_finely, args.redraws),
                        "errors": [e for p in (as_served, timed_finely, buttons, against) if p for e in p.errors],
                        "load": (load_before, os.getloadavg()[0]),
                    }
                    chromium = browser.version
                finally:
                    browser.close()
        except Exception:
            for log_path in logs:
                tail = log_path.read_text(errors="replace").splitlines()[-30:] if log_path.exists() else []
                print(f"{log_path.name} (last lines):", *tail, sep="\n", file=sys.stderr)
            raise
    print(report(args, chromium, results, time.monotonic() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
