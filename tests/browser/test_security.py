"""What a browser can do to `cliplab serve`: nothing beyond playing.

The browser is untrusted. Against a real `cliplab serve` (Voila over the dashboards) these tests check
that a page cannot run code in its kernel over the kernel websocket, cannot list kernels or files,
cannot upset the Click & Crack dashboard with malformed widget messages or tampered save files, and,
with --token, cannot reach the kernel API without the token. A static check (no browser) keeps
eval/exec/pickle/file and process calls in cliplab to a reviewed list.
"""

from __future__ import annotations

import ast
import asyncio
import json
import re
import subprocess
import sys
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import pytest
from conftest import RunningServer, _free_port, _private_env, _stop, _wait_for_port
from playwright.sync_api import Locator, Page

from cliplab.engine import new_game, to_json

REPO_ROOT = Path(__file__).resolve().parents[2]
PACKAGE = REPO_ROOT / "cliplab"
DASHBOARD = "voila/render/click_crack.ipynb"
KERNEL_TIMEOUT_MS = 120_000  # the machine may be busy: kernels start slowly
ANSWER_TIMEOUT_MS = 30_000
SEATS = ["person", "random", "random"]  # seat kinds as saved; the seat menus say "random bot"
browser = pytest.mark.browser  # on every test that starts a server or drives Chromium; the static checks need neither


# --------------------------------------------------------------------------- the server


def _start_serve(home: Path, *args: str) -> RunningServer:
    port = _free_port()
    log_path = home / "serve.log"
    home.mkdir(parents=True, exist_ok=True)
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "cliplab.cli", "serve", f"--port={port}", *args],
            cwd=REPO_ROOT,
            env=_private_env(home / "jupyter"),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    server = RunningServer("cliplab-serve", f"http://127.0.0.1:{port}/", port, REPO_ROOT, log_path, process, home)
    try:
        _wait_for_port(server)
    except BaseException:
        _stop(process)
        raise
    return server


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """One `cliplab serve` (no token) for the browser tests of this module; each page gets its own kernel."""
    server = _start_serve(tmp_path_factory.mktemp("serve"))
    try:
        yield server
    finally:
        _stop(server.process)


def _get(url: str, timeout: float = 120) -> tuple[int, str]:
    """Status and body of a GET that does not follow redirects."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None

    try:
        with urllib.request.build_opener(NoRedirect).open(url, timeout=timeout) as answer:
            return answer.status, answer.read().decode(errors="replace")
    except urllib.error.HTTPError as refused:
        return refused.code, ""


# --------------------------------------------------------------------------- the dashboard in a page

# What the dashboard shows of the game: the floe as drawn by Python, the status line and the log.
READ_GAME = """() => {
  const floe = document.querySelector("div.cl-grid svg .cl-board[data-board='floe']");
  const text = (css) => document.querySelector(css)?.textContent ?? null;
  return {
    cells: [...floe.querySelectorAll(".cl-cell[data-kind='cell']")].map(
      (g) => `${g.dataset.r},${g.dataset.c}:${g.querySelector("rect").getAttribute("fill")}`),
    tokens: [...floe.querySelectorAll(".cl-token")].map((t) => `${t.dataset.r},${t.dataset.c}:${t.textContent}`),
    cracks: [...floe.querySelectorAll("line.cl-edge-crack")].map(
      (l) => ["x1", "y1", "x2", "y2"].map((a) => l.getAttribute(a)).join(",")),
    marks: [...floe.querySelectorAll(".cl-mark")].map((m) => m.outerHTML),
    status: text(".tb-status"),
    log: text(".tb-log"),
  };
}"""


def _open_dashboard(page: Page, js_errors: Any, server: RunningServer) -> None:
    # Offline and local only: Voila's page asks a CDN for icon fonts; those requests are not sent at all.
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/])"), lambda route: route.abort())
    # Voila runs the notebook before it sends the page: only wait for the response to start.
    page.goto(server.url + DASHBOARD, wait_until="commit", timeout=KERNEL_TIMEOUT_MS)
    js_errors.wait_for(page.locator(".tb-start"), timeout=KERNEL_TIMEOUT_MS)


def _start_game(page: Page, js_errors: Any) -> None:
    """Person in seat 0, random bots in seats 1 and 2: seat 0 places first (clickable marks appear). The bots
    wait for the Next bot step button (the Step pace), so the game stands still between the test's checks."""
    page.locator(".tb-pace button", has_text="Step").click()
    for seat, kind in enumerate(SEATS):
        page.locator(f".tb-seat-{seat} select").select_option(label=kind if kind == "person" else f"{kind} bot")
    page.locator(".tb-start").click()
    js_errors.wait_until(lambda: page.locator("circle.cl-mark").count() == 36, "the 36 placement points are marked")


def _game(page: Page) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate(READ_GAME)
    return state


def _log_entries(page: Page) -> int:
    match = re.search(r"Log \((\d+) entries\)", page.locator(".tb-log summary").inner_text())
    assert match, "the dashboard shows its log"
    return int(match.group(1))


def _point(page: Page, r: int, c: int) -> Locator:
    return page.locator(
        f"div.cl-grid .cl-board[data-board='floe'] .cl-hit[data-kind='point'][data-r='{r}'][data-c='{c}']"
    )


def _place_by_clicking(page: Page, js_errors: Any, r: int, c: int) -> None:
    """A real click on an intersection; the kernel places seat 0's penguin there and logs it."""
    entries = _log_entries(page)
    _point(page, r, c).click()
    js_errors.wait_until(
        lambda: _log_entries(page) == entries + 1 and any(t.startswith(f"{r},{c}:") for t in _game(page)["tokens"]),
        f"a penguin stands on {r},{c} after the click",
        timeout=ANSWER_TIMEOUT_MS,
    )


def _kernel_id(page: Page) -> str:
    config = json.loads(page.locator("#jupyter-config-data").text_content() or "{}")
    kernel: str = config["kernelId"]
    assert re.fullmatch(r"[0-9a-f-]{36}", kernel), f"unexpected kernel id {kernel!r}"
    return kernel


# --------------------------------------------------------------------------- (a) no code from the browser

# From the page itself: a second connection to the page's own kernel, as any script in the page could
# open. It sends execute requests (shell and control channels), then a harmless kernel_info_request as a
# control: its reply proves the connection works and that the server has dealt with the messages before
# it. Returns every message the kernel sent back on this connection.
SEND_EXECUTE = """async ({kernel, code}) => {
  const config = JSON.parse(document.getElementById("jupyter-config-data").textContent);
  const url = `ws://${location.host}${config.baseUrl}api/kernels/${kernel}/channels?session_id=intruder`;
  const ws = new WebSocket(url);
  const received = [];
  ws.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    received.push({channel: msg.channel, type: msg.header.msg_type, parent: msg.parent_header?.msg_id ?? null});
  };
  await new Promise((opened, failed) => { ws.onopen = opened; ws.onerror = () => failed(new Error("no socket")); });
  const send = (channel, type, id, content) => ws.send(JSON.stringify({
    channel, buffers: [], metadata: {}, parent_header: {}, content,
    header: {msg_id: id, msg_type: type, username: "intruder", session: "intruder",
             date: new Date().toISOString(), version: "5.3"},
  }));
  const execute = {code, silent: false, store_history: true, user_expressions: {}, allow_stdin: false,
                   stop_on_error: true};
  send("shell", "execute_request", "exec-shell", execute);
  send("control", "execute_request", "exec-control", execute);
  send("shell", "execute_request", "exec-silent", {...execute, silent: true});
  send("shell", "kernel_info_request", "info", {});
  const deadline = performance.now() + 60000;
  while (!received.some((m) => m.type === "kernel_info_reply" && m.parent === "info")) {
    if (performance.now() > deadline) break;
    await new Promise((done) => setTimeout(done, 100));
  }
  await new Promise((done) => setTimeout(done, 3000));  // time for any late effect of the executes
  ws.close();
  return received;
}"""


@browser
def test_the_browser_cannot_run_code_in_its_kernel(
    served: RunningServer, page: Page, js_errors: Any, tmp_path: Path
) -> None:
    marker = tmp_path / "the-browser-ran-code"
    _open_dashboard(page, js_errors, served)
    kernel = _kernel_id(page)
    code = f"open({str(marker)!r}, 'w').write('ran')\nimport pathlib; pathlib.Path({str(marker)!r}).touch()"

    received = page.evaluate(SEND_EXECUTE, {"kernel": kernel, "code": code})

    assert {"channel": "shell", "type": "kernel_info_reply", "parent": "info"} in received, (
        f"the control request got no reply, so the test proves nothing: {received}"
    )
    answered = [m for m in received if str(m["parent"]).startswith("exec-")]
    assert not answered, f"the kernel answered an execute request from the browser: {answered}"
    assert not marker.exists(), "code sent by the browser ran in the kernel"
    log = served.log_path.read_text(errors="replace")
    assert log.count('Received message of type "execute_request", which is not allowed. Ignoring.') >= 3

    # The dashboard is unharmed: a game starts and a real click on the floe places a penguin.
    _start_game(page, js_errors)
    _place_by_clicking(page, js_errors, 2, 3)
    assert not marker.exists()


@browser
@pytest.mark.parametrize(
    "path",
    [
        "api/kernels",
        "api/sessions",
        "api/contents",
        "api/contents/click_crack.ipynb",
        "api/kernelspecs",
        "api/terminals",
        "api/config/notebook",
        "voila/files/click_crack.ipynb",
        "voila/files/..%2F..%2Fpyproject.toml",
    ],
)
def test_server_listings_and_files_are_not_served(served: RunningServer, path: str) -> None:
    status, body = _get(served.url + path, timeout=60)
    assert status in (403, 404), f"/{path} answered {status}: {body[:200]!r}"


# --------------------------------------------------------------------------- (b) malformed widget messages

HUGE = "x" * 2_000_000  # 2 MB

# (what, message sent as the floe's own widget would send it, the reason the refusal gives). Each reason
# differs from the one before it, so each refusal is a new notice.
MALFORMED = [
    ("a list, not an object", ["intent", "floe", "point", 1, 1], "a message must be an object"),
    ("not an intent", {"type": "execute", "board": "floe"}, "only intents are accepted"),
    ("a field to run code", {"type": "intent", "code": "__import__('os').system('id')"}, "unexpected field 'code'"),
    ("a board id of the wrong type", {"type": "intent", "board": 42, "kind": "point", "at": [1, 1]},
     "board must be a short text"),
    ("an unknown board", {"type": "intent", "board": "sheet", "kind": "point", "at": [1, 1]},
     "there is no board 'sheet' on screen"),
    ("coordinates as text", {"type": "intent", "board": "floe", "kind": "point", "at": "1,1"},
     "at must be a [row, column] pair of whole numbers"),
    ("a 2 MB board id", {"type": "intent", "board": HUGE, "kind": "point", "at": [1, 1]},
     "board must be a short text"),
    ("a kind of the wrong type", {"type": "intent", "board": "floe", "kind": ["point"], "at": [1, 1]},
     "['point'] is not something to click on The floe"),
    ("a 2 MB coordinate", {"type": "intent", "board": "floe", "kind": "point", "at": [HUGE, 1]},
     "at must be a [row, column] pair of whole numbers"),
    ("a point off the floe", {"type": "intent", "board": "floe", "kind": "point", "at": [6, 0]},
     "at [6, 0] is outside the board (rows 0-5, columns 0-5)"),
    ("booleans for numbers", {"type": "intent", "board": "floe", "kind": "point", "at": [True, False]},
     "at must be a [row, column] pair of whole numbers"),
    ("an unknown board with a 2 MB kind", {"type": "intent", "board": "cards", "kind": HUGE, "at": [0, 0]},
     "there is no board 'cards' on screen"),
    ("a drop where pieces are not dropped",
     {"type": "intent", "board": "floe", "kind": "drop", "piece": "L", "turns": 0, "at": [0, 0]},
     "pieces cannot be dropped on The floe"),
]  # fmt: skip


def _send(page: Page, message: Any) -> None:
    page.locator("div.cl-grid").evaluate("(root, message) => root.cliplabSend(message)", message)


def _refusal_text(page: Page) -> str | None:
    notice = page.locator("div.cl-grid .cl-notice[data-tone='error']")
    return notice.locator(".cl-notice-text").inner_text() if notice.is_visible() else None


@browser
def test_malformed_widget_messages_are_refused_without_harm(served: RunningServer, page: Page, js_errors: Any) -> None:
    _open_dashboard(page, js_errors, served)
    _start_game(page, js_errors)
    before = _game(page)
    for what, message, reason in MALFORMED:
        _send(page, message)
        expected = f"Refused a malformed message: {reason}"
        js_errors.wait_until(
            lambda expected=expected: _refusal_text(page) == expected,
            f"the floe refuses {what} with {expected!r} (it shows {str(_refusal_text(page))[:200]!r})",
            timeout=ANSWER_TIMEOUT_MS,
        )
        assert _game(page) == before, f"{what} changed the game"
    assert _log_entries(page) == 0

    # Still answering: a real click places seat 0's penguin, then a bot steps.
    _place_by_clicking(page, js_errors, 4, 1)
    page.locator(".tb-bot-step").click()
    js_errors.wait_until(lambda: _log_entries(page) == 2, "the bot has placed a penguin", timeout=ANSWER_TIMEOUT_MS)


@browser
def test_a_huge_unknown_field_name_is_not_echoed_back(served: RunningServer, page: Page, js_errors: Any) -> None:
    _open_dashboard(page, js_errors, served)
    _start_game(page, js_errors)
    before = _game(page)
    _send(page, {"type": "intent", "board": "floe", "kind": "point", "at": [1, 1], HUGE: 1})
    js_errors.wait_until(
        lambda: (_refusal_text(page) or "").startswith("Refused a malformed message: unexpected field"),
        "the floe refuses the unknown field",
        timeout=ANSWER_TIMEOUT_MS,
    )
    assert _game(page) == before
    assert len(_refusal_text(page) or "") < 500, "the refusal repeats the 2 MB field name"


# --------------------------------------------------------------------------- (c) tampered save files


def _save_record() -> dict[str, Any]:
    """A genuine save of a 3-seat game after the placements (as the dashboard's Save link writes it)."""
    game = new_game("click_crack", players=3, seed=11)
    for seat, at in [(0, "1,1"), (1, "2,2"), (2, "3,3"), (0, "4,4"), (1, "0,5"), (2, "5,0")]:
        game.apply(f"place at {at}", seat)
    record: dict[str, Any] = json.loads(to_json(game))
    record["seats"] = list(SEATS)
    return record


def _tampered(change: Any) -> bytes:
    record = _save_record()
    if callable(change):
        change(record)
        return json.dumps(record).encode()
    return bytes(change)


def _insert_illegal(record: dict[str, Any]) -> None:
    record["log"].insert(2, [2, "place at 1,1"])  # a penguin already stands there


def _twice(record: dict[str, Any]) -> None:
    record["log"].insert(1, [0, "place at 0,0"])  # seat 0 again, out of turn


TAMPERED = [
    ("an illegal placement inserted in the log", _insert_illegal,
     "log[2]: seat 2, 'place at 1,1': a penguin already stands on that intersection"),
    ("a move out of turn inserted in the log", _twice, "log[1]: seat 0, 'place at 0,0': it is not your turn"),
    ("an action no rule knows", lambda r: r["log"].__setitem__(3, [0, "teleport to 9,9"]),
     "log[3]: seat 0, 'teleport to 9,9': this game has no action written like that"),
    ("a seed that is not a number", lambda r: r.__setitem__("seed", "11; import os"),
     "seed: has the wrong type (str)"),
    ("a wrong version", lambda r: r.__setitem__("version", 7),
     "version: this cliplab reads version 1, the file is version 7"),
    ("a wrong format", lambda r: r.__setitem__("format", "pickle"), "format: expected 'cliplab-save'"),
    ("too many players", lambda r: r.__setitem__("players", 9),
     "configuration: Click & Crack is for 2-4 players, not 9"),
    ("an unknown rule option", lambda r: r["options"].__setitem__("eval", "1"),
     "options: click_crack has no option 'eval'"),
    ("a seat played by a program", lambda r: r.__setitem__("seats", ["person", "python -c 'print(1)'", "random bot"]),
     "unknown seat kind \"python -c 'print(1)'\""),
    ("garbage", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR garbage", "line 1, column 1: not valid JSON"),
    ("a truncated file", json.dumps(_save_record()).encode()[:150],
     re.compile(r"line 1, column (\d{2,}): not valid JSON")),
    ("a list instead of a save", b"[1, 2, 3]", "top level: a save is a JSON object"),
    # Input that once cost the kernel its memory or showed a traceback: refused before any work.
    ("lists nested 100,000 deep", b"[" * 100_000 + b"]" * 100_000,
     "file: lists or objects nested too deeply for a save"),
    ("a seed of 5,000 digits", json.dumps(_save_record()).replace('"seed": 11', '"seed": ' + "7" * 5000).encode(),
     "file: a number of 5000 digits; at most 20 are read"),
    ("a placement ten million rows down", lambda r: r["log"].__setitem__(3, [0, "place at 10000000,10000000"]),
     "log[3]: seat 0, 'place at 10000000,10000000': row has 8 digits; at most 6 are read"),
]  # fmt: skip


def _upload(page: Page, data: bytes) -> None:
    """Choose a file in the dashboard's Load button (ipywidgets opens a file chooser on click)."""
    with page.expect_file_chooser(timeout=ANSWER_TIMEOUT_MS) as chooser:
        page.locator(".tb-load").click()
    chooser.value.set_files({"name": "click_crack.json", "mimeType": "application/json", "buffer": data})


def _refused_with(message: str, reason: str | re.Pattern[str]) -> bool:
    if not message.startswith("Could not load that file:"):
        return False
    return reason in message if isinstance(reason, str) else reason.search(message) is not None


def _message(page: Page) -> str:
    return page.locator(".tb-message").inner_text().strip()


@browser
def test_tampered_save_files_are_refused_and_the_game_stays(served: RunningServer, page: Page, js_errors: Any) -> None:
    _open_dashboard(page, js_errors, served)
    _start_game(page, js_errors)
    _place_by_clicking(page, js_errors, 2, 3)
    before = _game(page)
    for what, change, reason in TAMPERED:
        _upload(page, _tampered(change))
        js_errors.wait_until(
            lambda reason=reason: _refused_with(_message(page), reason),
            f"the dashboard refuses {what}, saying {reason!r} (it says {_message(page)!r})",
            timeout=ANSWER_TIMEOUT_MS,
        )
        assert _game(page) == before, f"loading {what} changed the current game"

    # The current game still plays, and a genuine save still loads (so the refusals above are real).
    page.locator(".tb-bot-step").click()
    js_errors.wait_until(lambda: _log_entries(page) == 2, "the bot has placed a penguin", timeout=ANSWER_TIMEOUT_MS)
    _upload(page, json.dumps(_save_record()).encode())
    # Six placements, then the two bots set their tiles in secret; the person (alone: no hand-over) is asked next.
    js_errors.wait_until(
        lambda: _message(page) == "Loaded." and _log_entries(page) == 8 and page.locator(".cc-lock").is_visible(),
        "the genuine save loads",
        timeout=ANSWER_TIMEOUT_MS,
    )
    assert "Player 2: place at 5,0" in page.locator(".tb-log").inner_text()


@browser
def test_a_save_whose_seed_no_longer_matches_its_chance_events_is_refused(
    served: RunningServer, page: Page, js_errors: Any
) -> None:
    game = new_game("click_crack", players=3, seed=11, random_start=True)
    record: dict[str, Any] = json.loads(to_json(game))
    drawn = record["log"][0]
    # Another seed whose draw for the start player differs from the logged one.
    other = next(
        s
        for s in range(12, 200)
        if json.loads(to_json(new_game("click_crack", 3, s, random_start=True)))["log"][0] != drawn
    )
    record["seed"], record["seats"] = other, list(SEATS)
    _open_dashboard(page, js_errors, served)
    _start_game(page, js_errors)
    _upload(page, json.dumps(record).encode())
    js_errors.wait_until(lambda: _message(page) != "", "the dashboard answers the load", timeout=ANSWER_TIMEOUT_MS)
    assert _message(page).startswith("Could not load that file: log[0]"), _message(page)


# --------------------------------------------------------------------------- (e) the token guards the API


def _websocket_status(url: str) -> int:
    """101 when the websocket opens, else the HTTP status of the refused handshake."""
    from tornado.httpclient import HTTPClientError, HTTPRequest
    from tornado.websocket import websocket_connect

    async def attempt() -> int:
        try:
            connection = await websocket_connect(HTTPRequest(url, connect_timeout=60, request_timeout=60))
        except HTTPClientError as refused:
            return refused.code
        connection.close()
        return 101

    # Playwright's event loop runs in this thread: the client gets a thread and a loop of its own.
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, attempt()).result(timeout=180)


@browser
def test_with_a_token_the_kernel_api_and_websocket_need_it(tmp_path: Path) -> None:
    token = "classroom-secret"
    server = _start_serve(tmp_path, f"--token={token}")
    try:
        status, page = _get(f"{server.url}{DASHBOARD}?token={token}")
        assert status == 200
        kernel = json.loads(re.search(r'id="jupyter-config-data"[^>]*>(.*?)</script>', page, re.S)[1])["kernelId"]
        api = f"{server.url}api/kernels/{kernel}"
        channels = f"ws://127.0.0.1:{server.port}/api/kernels/{kernel}/channels"

        assert _get(f"{server.url}api/kernels")[0] in (403, 404)
        assert _get(f"{server.url}api/kernels?token={token}")[0] in (403, 404)  # no listing, even with it
        assert _get(api)[0] == 403
        assert _get(f"{api}?token=wrong")[0] == 403
        assert _websocket_status(channels) == 403
        assert _websocket_status(f"{channels}?token=wrong") == 403
        # The same requests with the token get through, so the refusals above are the token's doing.
        assert _get(f"{api}?token={token}")[0] == 200
        assert _websocket_status(f"{channels}?token={token}") == 101
    finally:
        _stop(server.process)


# --------------------------------------------------------------------------- (d) static: no dangerous sinks

# Calls that run code, unpickle, touch files or start processes. Every use in cliplab/ is listed below
# with why it is safe; a new one fails the test until it is reviewed and added (or removed).
CODE = {"eval", "exec", "compile", "__import__", "breakpoint"}
IMPORT = {"importlib.import_module", "importlib.__import__", "import_module"}
FILES = {"open", "io.open", "os.open", "Path", "pathlib.Path", "os.remove", "os.unlink", "os.replace", "os.rename"}
FILE_PREFIXES = ("shutil.", "tempfile.")
# Methods that read or write a file named by their object or first argument (pathlib, pandas).
PATH_METHODS = {"read_text", "write_text", "read_bytes", "write_bytes", "unlink", "rmdir", "mkdir", "touch",
                "read_csv", "read_parquet", "to_csv", "to_parquet"}  # fmt: skip
PROCESS_PREFIXES = ("subprocess.", "os.system", "os.popen", "os.exec", "os.spawn", "os.fork", "pty.", "webbrowser.")
SERIAL_MODULES = {"pickle", "cPickle", "dill", "cloudpickle", "marshal", "shelve", "joblib", "yaml"}

# (file, enclosing function, call) -> why the browser cannot steer it.
ALLOWED = {
    ("cliplab/cli.py", "<module>", "Path"): "the package folder, from __file__",
    ("cliplab/cli.py", "serve", "subprocess.Popen"): "starts Voila with a fixed command (cli.py only)",
    ("cliplab/cli.py", "serve", "webbrowser.open"): "opens the server's own address, only with --open",
    ("cliplab/ui/widget.py", "<module>", "Path"): "the front-end folder, from __file__",
    ("cliplab/ui/voila_server.py", "<module>", "Path"): "the teaching pages' template, from __file__",
    ("cliplab/ui/voila_server.py", "stop", "shutil.rmtree"): "Voila's own folder of connection files, as it stops",
    ("cliplab/ui/voila_server.py", "initialize", "Path"): "the teaching notebooks' folder that `cliplab serve` "
    "names; a visitor's game name must match [a-z][a-z0-9_]* and be a notebook there before it is read",
    ("cliplab/ui/gallery.py", "show_gallery", "Path"): "the dashboards folder named by the notebook's own code",
    ("cliplab/ui/gallery.py", "_notebook_heading", "read_text"): "a dashboard notebook found in that folder",
    ("cliplab/engine/save.py", "save", "Path"): "a path from Python code (the dashboard saves by data: link)",
    ("cliplab/engine/save.py", "save", "write_text"): "same path as above",
    ("cliplab/engine/save.py", "load", "open"): "a path from Python code (the dashboard loads by upload)",
    ("cliplab/engine/content.py", "read_toml", "open"): "a game's content file (see the content modules below)",
    ("cliplab/kit.py", "how_to_play", "read_text"): "how_to_play.md in the package an installed game's entry point "
    "names; the game is the one the dashboard's own code opened, never a name from the browser",
    ("cliplab/kit.py", "resolve", "importlib.import_module"): "a 'module:attr' named by an installed game's "
    "declaration, or a bot named by the person running `cliplab simulate` (bots by name are checked first)",
    # Every game's content module: its package's data folder from __file__, or a designer's file named from
    # Python code, read only through read_toml (the pattern stands for each game's folder).
    ("cliplab/games/*/content.py", "<module>", "Path"): "the package's data folder, from __file__",
    ("cliplab/games/*/content.py", "load_*", "Path"): "the data folder, or a path from Python code",
    ("cliplab/games/clipcut_parks/content.py", "_pad_pictures", "read_text"): "data/pad.txt, the fixed PAD_FILE "
    "of the package (pad_sheet checks the sheet's number before it is read)",
    # cliplab.sim: batch runs from `cliplab simulate` or Python; no dashboard imports it.
    ("cliplab/sim/__init__.py", "__getattr__", "importlib.import_module"): "a submodule from the fixed _LAZY table",
    ("cliplab/sim/command.py", "side_files", "Path"): "the --out file named on the command line",
    ("cliplab/sim/command.py", "compare_run", "Path"): "the --plot file named on the command line",
    ("cliplab/sim/command.py", "compare_run", "write_bytes"): "same",
    ("cliplab/sim/store.py", "write", "to_parquet"): "the results file named on the command line",
    ("cliplab/sim/store.py", "write", "to_csv"): "same",
    ("cliplab/sim/store.py", "write", "os.replace"): "same",
    ("cliplab/sim/store.py", "read", "Path"): "same",
    ("cliplab/sim/store.py", "read", "read_parquet"): "same",
    ("cliplab/sim/store.py", "read", "read_csv"): "same",
    ("cliplab/sim/store.py", "__init__", "Path"): "same",
    ("cliplab/sim/store.py", "save_part", "mkdir"): "the parts folder beside the results file",
    ("cliplab/sim/store.py", "finish", "mkdir"): "same",
    ("cliplab/sim/store.py", "finish", "shutil.rmtree"): "same",
}


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr}" if inner else node.attr
    if isinstance(node, ast.Call):
        return _dotted(node.func)  # Path(x).read_text() -> "Path.read_text"
    return ""


class _Sinks(ast.NodeVisitor):
    def __init__(self, path: str) -> None:
        self.path = path
        self.scope = ["<module>"]
        self.found: list[tuple[str, str, str, int]] = []

    def _add(self, name: str, line: int) -> None:
        self.found.append((self.path, self.scope[-1], name, line))

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Import(self, node: ast.Import | ast.ImportFrom) -> None:
        modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        for module in modules:
            if module.split(".")[0] in SERIAL_MODULES:
                self._add(f"import {module}", node.lineno)
        self.generic_visit(node)

    visit_ImportFrom = visit_Import

    def visit_Call(self, node: ast.Call) -> None:
        name = _dotted(node.func)
        last = name.rsplit(".", 1)[-1]
        if (
            name in CODE
            or name in IMPORT
            or name in FILES
            or name.startswith(FILE_PREFIXES)
            or name.startswith(PROCESS_PREFIXES)
            or name.split(".")[0] in SERIAL_MODULES
            or (isinstance(node.func, ast.Attribute) and last in PATH_METHODS)
        ):
            path_method = isinstance(node.func, ast.Attribute) and last in PATH_METHODS and name not in FILES
            self._add(last if path_method else name, node.lineno)
        self.generic_visit(node)


def _sinks() -> list[tuple[str, str, str, int]]:
    found = []
    for source in sorted(PACKAGE.rglob("*.py")):
        relative = source.relative_to(REPO_ROOT).as_posix()
        visitor = _Sinks(relative)
        visitor.visit(ast.parse(source.read_text(encoding="utf-8"), filename=relative))
        found += visitor.found
    return found


def _reviewed_as(call: tuple[str, str, str]) -> tuple[str, str, str] | None:
    """The ALLOWED key that covers a found call (keys may hold shell patterns), or None."""
    if call in ALLOWED:
        return call
    matching = (key for key in ALLOWED if all(fnmatch(part, pattern) for part, pattern in zip(call, key, strict=True)))
    return next(matching, None)


def test_no_browser_data_reaches_code_files_or_processes() -> None:
    found = _sinks()
    unreviewed = [f"{path}:{line} in {scope}(): {name}" for path, scope, name, line in found
                  if _reviewed_as((path, scope, name)) is None]  # fmt: skip
    assert not unreviewed, (
        "new calls that run code, unpickle, touch files or start processes; review them (can anything the "
        "browser sends reach them?) and list them in ALLOWED:\n  " + "\n  ".join(unreviewed)
    )
    present = Counter(_reviewed_as((path, scope, name)) for path, scope, name, _ in found)
    stale = sorted(key for key in ALLOWED if key not in present)
    assert not stale, f"ALLOWED lists calls that are gone; remove them: {stale}"
    # The dashboards never load the batch-simulation package whose file writes are listed above.
    probe = (
        "import sys, cliplab.ui.table_app, cliplab.games.click_crack.picture, cliplab.games.clipcut_parks.picture,"
        " cliplab.ui.gallery;"
        " print('cliplab.sim' in sys.modules)"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    assert loaded.stdout.strip() == "False", "a dashboard module imports cliplab.sim"
    outside_cli = sorted({path for path, _, name, _ in found if name.startswith("subprocess.")} - {"cliplab/cli.py"})
    assert not outside_cli, f"subprocess used outside cli.py: {outside_cli}"


def test_the_sink_check_catches_what_it_should(tmp_path: Path) -> None:
    """The checker itself: each kind of dangerous call in a sample is found."""
    sample = (
        "import pickle\nfrom pathlib import Path\nimport subprocess, importlib\n"
        "def handler(msg):\n"
        "    eval(msg['x']); exec(msg['y']); pickle.loads(msg['z']); open(msg['p']).read()\n"
        "    Path(msg['p']).write_text('x'); subprocess.run(msg['cmd']); importlib.import_module(msg['m'])\n"
    )
    visitor = _Sinks("sample.py")
    visitor.visit(ast.parse(sample))
    names = {name for _, scope, name, _ in visitor.found if scope in ("handler", "<module>")}
    expected = {"import pickle", "eval", "exec", "pickle.loads", "open", "Path", "write_text", "subprocess.run"}
    assert expected | {"importlib.import_module"} <= names, names


def test_voila_is_started_without_sources_or_tracebacks() -> None:
    """What the browser gets: no notebook source, no Python tracebacks, only this machine unless asked."""
    from cliplab.cli import voila_command

    command = voila_command(Path("/d"), "127.0.0.1", 1, None)
    assert "--strip_sources=True" in command and "--show_tracebacks=False" in command
    assert "--Voila.ip=127.0.0.1" in command
