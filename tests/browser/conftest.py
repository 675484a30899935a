"""Browser-test harness: system Chromium driven by Playwright, JupyterLab and Voila servers.

Fixtures
--------
``browser``      session: a Playwright ``Browser`` on the system Chromium (``/usr/bin/chromium``).
``lab_server``   session: factory ``lab_server(root, *extra_args) -> RunningServer`` starting
                 ``jupyter lab`` on ``root`` (no token/password, offline, private Jupyter dirs).
``voila_server`` session: factory ``voila_server(path, *extra_args) -> RunningServer`` starting
                 ``voila path`` the same way.
``js_errors``    function: the ``JsErrors`` collector of the test's page; its ``wait_for`` /
                 ``wait_until`` helpers raise as soon as a JavaScript error is recorded.
``page``         function: a new context and page per test; saves a full-page screenshot to
                 ``test-artifacts/browser/<test name>.png`` and fails the test on any JavaScript error.

Servers are started once per distinct (root, arguments) and stopped at the end of the session;
their logs go to ``test-artifacts/browser/<kind>-<n>.log``.
"""

from __future__ import annotations

import base64
import contextlib
import importlib.util
import itertools
import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NoReturn
from urllib.parse import urlsplit

import pytest

from cliplab.cli import KERNEL_TRANSPORT

if TYPE_CHECKING:
    from playwright.sync_api import Browser, ConsoleMessage, Locator, Page, Request


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SERVER_START_TIMEOUT = 60.0
SERVER_STOP_TIMEOUT = 10.0
DEFAULT_TIMEOUT_MS = 20_000
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}

# User settings written for every JupyterLab run: no news feed, no update checks.
LAB_USER_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
}


def _fail(message: str) -> NoReturn:
    pytest.fail(message, pytrace=False)


def _require_module(name: str, what: str) -> None:
    if importlib.util.find_spec(name) is None:
        _fail(
            f"{what} needs the Python package {name!r}, which is not installed in {sys.executable}; "
            'install the test extras: pip install -e ".[test]"'
        )


def _artifact_name(name: str) -> str:
    return re.sub(r"[^\w.-]+", "_", name).strip("_") or "test"


@pytest.fixture(scope="session")
def artifacts_dir(pytestconfig: pytest.Config) -> Path:
    """``test-artifacts/browser`` at the repository root, created on demand."""
    path = pytestconfig.rootpath / "test-artifacts" / "browser"
    path.mkdir(parents=True, exist_ok=True)
    return path


# --------------------------------------------------------------------------- browser


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """The system Chromium, headless, through Playwright's sync API (never a downloaded browser)."""
    _require_module("playwright", "The browser tests")
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        _fail(
            f"The browser tests drive the system Chromium at {CHROMIUM}, which is missing; "
            "install it with `apt-get install chromium` (do not use `playwright install`)."
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


# --------------------------------------------------------------------------- servers


@dataclass
class RunningServer:
    """A server process started by the harness."""

    kind: str
    url: str  # base URL, ending in "/"
    port: int
    root: Path
    log_path: Path
    process: subprocess.Popen[bytes]
    home: Path  # the private Jupyter config/data/runtime directories live here

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_for_port(server: RunningServer, timeout: float = SERVER_START_TIMEOUT) -> None:
    """Wait until the port accepts TCP connections (fetching ``/`` could start a Voila kernel)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        code = server.process.poll()
        if code is not None:
            _fail(
                f"{server.kind} exited with code {code} before listening on port {server.port}.\n"
                f"Log ({server.log_path}):\n{server.log_tail()}"
            )
        try:
            with socket.create_connection(("127.0.0.1", server.port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    _fail(
        f"{server.kind} did not listen on port {server.port} within {timeout:.0f} s.\n"
        f"Log ({server.log_path}):\n{server.log_tail()}"
    )


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=SERVER_STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=SERVER_STOP_TIMEOUT)


def _private_env(home: Path) -> dict[str, str]:
    """Environment with Jupyter/IPython directories under ``home`` and the repository importable."""
    dirs = {
        "JUPYTER_CONFIG_DIR": home / "config",
        "JUPYTER_DATA_DIR": home / "data",
        "JUPYTER_RUNTIME_DIR": home / "runtime",
        "JUPYTERLAB_SETTINGS_DIR": home / "lab-settings",
        "JUPYTERLAB_WORKSPACES_DIR": home / "lab-workspaces",
        "IPYTHONDIR": home / "ipython",
    }
    for path in dirs.values():
        path.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    env.update({key: str(path) for key, path in dirs.items()})
    env.pop("JUPYTER_PATH", None)
    env.pop("JUPYTER_TOKEN", None)
    env["PYTHONUNBUFFERED"] = "1"
    env["JUPYTER_PLATFORM_DIRS"] = "0"
    return env


class _ServerFactory:
    """Starts servers of one kind, reusing one per (path, extra args), stops them all at the end."""

    def __init__(
        self,
        kind: str,
        command: Callable[[Path, int, Path], list[str]],
        tmp_root: Path,
        artifacts: Path,
        prepare_home: Callable[[Path], None] | None = None,
    ) -> None:
        self.kind = kind
        self.command = command
        self.tmp_root = tmp_root
        self.artifacts = artifacts
        self.prepare_home = prepare_home
        self.servers: dict[tuple[str, tuple[str, ...]], RunningServer] = {}
        self.counter = itertools.count(1)

    def __call__(self, path: Path | str, *extra_args: str) -> RunningServer:
        path = Path(path).resolve()
        if not path.exists():
            _fail(f"{self.kind}: {path} does not exist")
        key = (str(path), extra_args)
        server = self.servers.get(key)
        if server is not None and server.process.poll() is None:
            return server
        number = next(self.counter)
        home = self.tmp_root / f"{self.kind}-{number}"
        env = _private_env(home)
        if self.prepare_home is not None:
            self.prepare_home(home)
        port = _free_port()
        log_path = self.artifacts / f"{self.kind}-{number}.log"
        argv = [*self.command(path, port, home), *extra_args]
        with log_path.open("wb") as log:
            log.write(("$ " + " ".join(argv) + "\n").encode())
            log.flush()
            cwd = path if path.is_dir() else path.parent
            process = subprocess.Popen(  # the PID we hold is the server's own
                argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT
            )
        server = RunningServer(
            kind=self.kind,
            url=f"http://127.0.0.1:{port}/",
            port=port,
            root=path,
            log_path=log_path,
            process=process,
            home=home,
        )
        self.servers[key] = server
        try:
            _wait_for_port(server)
        except BaseException:
            _stop(process)
            raise
        return server

    def stop_all(self) -> None:
        for server in self.servers.values():
            _stop(server.process)
        self.servers.clear()


def _lab_command(root: Path, port: int, home: Path) -> list[str]:
    return [
        sys.executable, "-m", "jupyter", "lab", str(root),
        "--no-browser",
        "--allow-root",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        "--IdentityProvider.token=",
        "--ServerApp.password=",
        # Offline: no news feed, no update check, no announcement prompt.
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        f"--LabApp.user_settings_dir={home / 'lab-settings'}",
        f"--LabApp.workspaces_dir={home / 'lab-workspaces'}",
    ]  # fmt: skip


def _lab_prepare_home(home: Path) -> None:
    settings = home / "lab-settings"
    for relative, values in LAB_USER_SETTINGS.items():
        target = settings / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(values, indent=2))


def _voila_command(path: Path, port: int, home: Path) -> list[str]:
    return [
        sys.executable, "-m", "voila", str(path),
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        "--Voila.port_retries=0",
        *KERNEL_TRANSPORT,  # as cliplab serve: no port for a kernel to lose to another connection
    ]  # fmt: skip


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory: pytest.TempPathFactory, artifacts_dir: Path) -> Iterator[_ServerFactory]:
    """Factory: ``lab_server(root, *extra_args) -> RunningServer`` runs ``jupyter lab root``."""
    _require_module("jupyterlab", "lab_server")
    factory = _ServerFactory(
        "jupyterlab",
        _lab_command,
        tmp_path_factory.mktemp("jupyterlab-homes"),
        artifacts_dir,
        prepare_home=_lab_prepare_home,
    )
    try:
        yield factory
    finally:
        factory.stop_all()


@pytest.fixture(scope="session")
def voila_server(tmp_path_factory: pytest.TempPathFactory, artifacts_dir: Path) -> Iterator[_ServerFactory]:
    """Factory: ``voila_server(path, *extra_args) -> RunningServer`` runs ``voila path``.

    For a notebook file the rendered page is ``server.url``; for a folder it is
    ``server.url + "voila/render/<notebook>"``.
    """
    _require_module("voila", "voila_server")
    factory = _ServerFactory(
        "voila",
        _voila_command,
        tmp_path_factory.mktemp("voila-homes"),
        artifacts_dir,
    )
    try:
        yield factory
    finally:
        factory.stop_all()


# --------------------------------------------------------------------------- page + JS errors


def _is_local(url: str) -> bool:
    if not url or url.startswith(("data:", "blob:", "about:")):
        return True
    return (urlsplit(url).hostname or "") in {h.strip("[]") for h in LOCAL_HOSTS}


@dataclass
class JsErrors:
    """JavaScript errors of one page; waits through it raise at once when one is recorded."""

    page: Page | None = None
    errors: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)  # known offline failures (external hosts)
    console: list[str] = field(default_factory=list)  # every console message, for the log

    # -- listeners
    def on_page_error(self, error: Any) -> None:
        stack = getattr(error, "stack", None) or ""
        self.errors.append(f"pageerror: {error}\n{stack}".rstrip())

    def on_console(self, message: ConsoleMessage) -> None:
        location = message.location or {}
        url = str(location.get("url", ""))
        line = f"console.{message.type}: {message.text} ({url}:{location.get('lineNumber', '?')})"
        self.console.append(line)
        if message.type != "error":
            return
        if message.text.startswith("Failed to load resource") and not _is_local(url):
            self.ignored.append(line)  # e.g. icon fonts from a CDN while offline
            return
        if "status of 403" in message.text and "/voila/api/shutdown/" in url:
            # Leaving a Voila page asks to shut its kernel down without an XSRF token and is refused
            # (voila-dashboards/voila#1458); the kernel is culled anyway. Nothing of ours is involved.
            self.ignored.append(line)
            return
        self.errors.append(line)

    def on_request_failed(self, request: Request) -> None:
        line = f"requestfailed: {request.url} ({request.failure})"
        self.console.append(line)
        if not _is_local(request.url):
            self.ignored.append(line)

    # -- checks and waits
    def check(self) -> None:
        """Fail the test now if any JavaScript error has been recorded."""
        if self.errors:
            listing = "\n".join(f"  {e}" for e in self.errors)
            _fail(f"JavaScript error(s) in the page:\n{listing}")

    def _require_page(self) -> Page:
        if self.page is None:
            raise RuntimeError("js_errors is only usable together with the page fixture")
        return self.page

    def wait_for(
        self,
        locator: Locator,
        *,
        state: Literal["attached", "detached", "visible", "hidden"] = "visible",
        timeout: float = DEFAULT_TIMEOUT_MS,
    ) -> Locator:
        """``locator.wait_for(state)`` in short slices, failing at once on a JavaScript error."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        deadline = time.monotonic() + timeout / 1000
        while True:
            self.check()
            remaining_ms = (deadline - time.monotonic()) * 1000
            if remaining_ms <= 0:
                self.check()
                _fail(f"Timed out after {timeout / 1000:.0f} s waiting for {locator} to be {state}")
            try:
                locator.wait_for(state=state, timeout=min(250.0, max(remaining_ms, 1.0)))
            except PlaywrightTimeout:
                continue
            self.check()
            return locator

    def wait_until(
        self, predicate: Callable[[], bool], description: str, *, timeout: float = DEFAULT_TIMEOUT_MS
    ) -> None:
        """Poll ``predicate`` (which should not block) until true, failing at once on a JS error."""
        page = self._require_page()
        deadline = time.monotonic() + timeout / 1000
        while True:
            self.check()
            if predicate():
                self.check()
                return
            if time.monotonic() >= deadline:
                self.check()
                _fail(f"Timed out after {timeout / 1000:.0f} s waiting until {description}")
            page.wait_for_timeout(100)  # lets Playwright dispatch pending page events

    def flush(self) -> None:
        """Let events already sent by the browser reach the listeners."""
        if self.page is not None and not self.page.is_closed():
            with contextlib.suppress(Exception):
                self.page.evaluate("0")


@pytest.fixture
def js_errors() -> JsErrors:
    """The JavaScript-error collector of this test's ``page``."""
    return JsErrors()


@pytest.fixture
def page(browser: Browser, js_errors: JsErrors, artifacts_dir: Path, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A fresh context and page; screenshot on teardown; any JavaScript error fails the test."""
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    new_page = context.new_page()
    js_errors.page = new_page
    new_page.on("pageerror", js_errors.on_page_error)
    new_page.on("console", js_errors.on_console)
    new_page.on("requestfailed", js_errors.on_request_failed)
    request.node.stash[_JS_ERRORS_KEY] = js_errors
    name = _artifact_name(request.node.name)
    try:
        yield new_page
    finally:
        js_errors.flush()
        with contextlib.suppress(Exception):
            new_page.screenshot(path=str(artifacts_dir / f"{name}.png"), full_page=True, timeout=10_000)
        log = [*js_errors.console, "", "errors:", *js_errors.errors, "", "ignored:", *js_errors.ignored]
        (artifacts_dir / f"{name}.console.txt").write_text("\n".join(log) + "\n")
        context.close()


_JS_ERRORS_KEY = pytest.StashKey[JsErrors]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """After the test body: a JavaScript error recorded since the last wait fails the test."""
    result = yield
    collector = item.stash.get(_JS_ERRORS_KEY, None)
    if collector is not None:
        collector.flush()
        collector.check()
    return result


# --------------------------------------------------------------------------- the table app's dashboards

KERNEL_TIMEOUT_MS = 90_000  # generous: a busy machine starts kernels slowly
STEP_TIMEOUT_MS = 30_000  # one answer of the kernel; bots playing on by themselves renew it with each redraw
SAVE_PREFIX = "data:application/json;base64,"
# The app's buttons that stay on the page whatever happens (all others are redrawn after an answer).
LASTING_BUTTONS = ("tb-undo", "tb-load", "tb-new")


class TableDriver:
    """A table-app dashboard (cliplab.ui.table_app) in a page, played by clicks.

    `prefix` is the picture's class prefix ("cc" for Click & Crack); `snapshot` a JavaScript function
    `(app) => {...}` reading what a test steers by; the driver adds `tag`, the app's hidden page tag (its
    redraw count `seq`, `busy` while bots play on by themselves, `log`, `acting`...). A click that reaches the
    kernel waits until the app has redrawn, the bots have played on up to a person's decision, and the page
    holds still.
    """

    def __init__(self, page: Page, js: JsErrors, artifacts: Path, name: str, prefix: str, snapshot: str) -> None:
        self.page, self.js, self.artifacts, self.name = page, js, artifacts, _artifact_name(name)
        self.prefix, self.script = prefix, snapshot
        self.app = page.locator(".tb-app")

    def open(self, url: str) -> None:
        # Voila runs the notebook before it sends the page: don't wait for "load" under the default timeout.
        self.page.goto(url, wait_until="commit", timeout=KERNEL_TIMEOUT_MS)
        self.js.wait_for(self.page.locator(".tb-start"), timeout=KERNEL_TIMEOUT_MS)

    # ----- reading and waiting

    def tag(self) -> dict[str, str]:
        found: dict[str, str] = self.app.evaluate(
            "(app) => Object.fromEntries(Object.entries(app.querySelector('.tb-tag')?.dataset ?? {}))"
        )
        return found

    def snapshot(self) -> dict[str, Any]:
        snap: dict[str, Any] = self.app.evaluate(self.script)
        snap["tag"] = self.tag()
        return snap

    def shot(self, label: str) -> Path:
        path = self.artifacts / f"{self.name}-{label}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def fail(self, why: str) -> NoReturn:
        shot = self.shot("stuck")
        snap = self.snapshot()
        keep = {key: snap.get(key) for key in ("status", "message", "tag", "buttons")}
        _fail(f"{why}\n  {keep}\n  screenshot: {shot}")

    def settled(self, seq: str | None = None, timeout: float = STEP_TIMEOUT_MS) -> dict[str, Any]:
        """The snapshot once the app has redrawn since redraw `seq` (None: any state), its bots are not playing
        on by themselves, the board and the controls show the last redraw, no control from before is left
        and two reads agree. The time allowed starts again with every redraw (a long run of bot moves is progress)."""
        seen: list[str] = []
        last_seq = seq
        deadline = time.monotonic() + timeout / 1000
        while True:
            self.js.check()
            snap = self.snapshot()
            tag = snap["tag"]
            revision, controls = self.app.evaluate(
                "(app) => [app.querySelector('div.cl-grid')?.dataset.revision ?? '',"
                " String(app.querySelector('.tb-panel')?.children.length ?? '')]"
            )
            now = json.dumps(snap, sort_keys=True)
            stale = self.app.locator("[data-tb-stale]").count()
            drawn = revision == tag.get("grid") and controls == tag.get("controls")
            quiet = tag.get("busy") == "0" and drawn and not stale
            if quiet and tag.get("seq") != seq and seen and seen[-1] == now:
                return snap
            seen.append(now)
            if tag.get("seq") != last_seq:
                last_seq = tag.get("seq")
                deadline = time.monotonic() + timeout / 1000
            if time.monotonic() > deadline:
                self.fail(f"the dashboard did not answer within {timeout / 1000:.0f} s")
            self.page.wait_for_timeout(60)

    def click(self, target: Locator) -> dict[str, Any]:
        """Click something the kernel answers, and wait for its answer (and the bots' moves after it)."""
        seq = self.tag().get("seq")
        self.app.evaluate(
            """(app, [prefix, lasting]) => app.querySelectorAll('button').forEach((b) => {
                 const own = (c) => (c.startsWith(prefix + '-') || c.startsWith('tb-')) && !lasting.includes(c);
                 if ([...b.classList].some(own)) b.setAttribute('data-tb-stale', '1');
               })""",
            [self.prefix, list(LASTING_BUTTONS)],
        )
        target.click()
        return self.settled(seq)

    def button(self, css: str) -> Locator:
        return self.app.locator(f"button.{css}")

    def cell(self, board: str, row: int, col: int) -> Locator:
        return self.app.locator(f".cl-board[data-board='{board}'] g[data-kind='cell'][data-r='{row}'][data-c='{col}']")

    # ----- setting up

    def choose_pace(self, pace: str) -> None:
        """The bots' pace: "Step", "Slow" or "Fast"."""
        choice = self.app.locator(".tb-pace button", has_text=pace)
        choice.click()
        self.js.wait_until(lambda: "mod-active" in (choice.get_attribute("class") or ""), f"the pace is {pace}")

    def start(self, seats: list[str], seed: int, pace: str = "Fast") -> dict[str, Any]:
        """Start a game with these seats ("person" or a bot's name) and seed; bots at `pace`."""
        self.choose_pace(pace)
        count = self.app.locator(".tb-players-count input")
        if count.count():
            count.fill(str(len(seats)))
            count.press("Tab")
            self.js.wait_until(
                lambda: (
                    self.app.locator(f".tb-seat-{len(seats) - 1}").count() == 1
                    and self.app.locator(f".tb-seat-{len(seats)}").count() == 0
                ),
                "the seats follow the player count",
            )
        for seat, kind in enumerate(seats):
            label = kind if kind == "person" else f"{kind} bot"  # the table app names a bot kind "<name> bot"
            self.app.locator(f".tb-seat-{seat} select").select_option(label=label)
        seed_box = self.app.locator(".tb-seed input")
        seed_box.fill(str(seed))
        seed_box.press("Tab")  # IntText sends its value on change
        self.page.wait_for_timeout(200)
        return self.click(self.button("tb-start"))

    # ----- saving and loading

    def save_text(self) -> str:
        href = self.app.locator("a.tb-save").get_attribute("href") or ""
        assert href.startswith(SAVE_PREFIX), f"the save link is not a base64 JSON data: URI: {href[:60]!r}"
        return base64.b64decode(href[len(SAVE_PREFIX) :]).decode()

    def saved_game(self) -> Any:
        """The game in the save link (None while the table offers no save)."""
        from cliplab.engine import from_json

        return from_json(self.save_text()) if self.app.locator("a.tb-save").count() else None

    def load(self, path: Path) -> dict[str, Any]:
        """Choose a file through the Load button (its <input type=file> is not in the document)."""
        seq = self.tag().get("seq")
        with self.page.expect_file_chooser() as chooser:
            self.button("tb-load").click()
        chooser.value.set_files(path)
        return self.settled(seq)
