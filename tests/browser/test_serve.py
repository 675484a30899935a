"""`cliplab serve`, the main job: the gallery, a dashboard behind it, safe defaults, a clean stop."""

from __future__ import annotations

import asyncio
import gzip
import json
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import RunningServer, _free_port, _private_env, _stop, _wait_for_port
from playwright.sync_api import Page, expect
from traitlets import Float
from traitlets.config import Config, LoggingConfigurable

pytestmark = pytest.mark.browser

REPO_ROOT = Path(__file__).resolve().parents[2]


def _serve(tmp_path: Path, *args: str) -> subprocess.Popen[bytes]:
    log = (tmp_path / "serve.log").open("wb")
    return subprocess.Popen(
        [sys.executable, "-m", "cliplab.cli", "serve", *args],
        cwd=REPO_ROOT,
        env=_private_env(tmp_path / "home"),
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def _wait_listening(tmp_path: Path, process: subprocess.Popen[bytes], port: int) -> None:
    """Wait until a server started by _serve listens (its log is shown if it never does)."""
    _wait_for_port(RunningServer("cliplab-serve", "", port, REPO_ROOT, tmp_path / "serve.log", process, tmp_path))


@pytest.fixture
def served(tmp_path: Path) -> Iterator[RunningServer]:
    port = _free_port()
    process = _serve(tmp_path, f"--port={port}")
    server = RunningServer(
        "cliplab-serve", f"http://127.0.0.1:{port}/", port, REPO_ROOT, tmp_path / "serve.log", process, tmp_path
    )
    try:
        _wait_for_port(server)
        yield server
    finally:
        _stop(process)


def test_gallery_links_to_a_dashboard_with_a_board(served: RunningServer, page: Page, js_errors) -> None:
    # Voila runs the notebook before it sends the page; on a busy machine that takes longer than goto's default.
    page.goto(f"{served.url}voila/render/index.ipynb", wait_until="commit", timeout=120_000)
    card = js_errors.wait_for(page.locator(".cl-gallery a[data-game='click_crack']"), timeout=60_000)
    assert "2-4 players" in card.inner_text()
    assert card.locator("svg.cl-scene").count() == 1  # a picture of the board
    # A screen reader hears the card's words, not the name of every tile in its picture.
    expect(card).to_have_accessible_name(re.compile(r"^Click & Crack 2-4 players Penguins [^,]*\. A random-bot game"))
    card.click()
    js_errors.wait_for(page.locator(".tb-start"), timeout=60_000)
    cells = page.locator("div.cl-grid g[data-kind='cell'][data-r]")
    js_errors.wait_until(lambda: cells.count() == 25, "the floe's 25 tiles are drawn")
    # Sources are stripped: the page shows no code.
    assert "ClickCrackApp" not in page.content()


def test_ctrl_c_stops_the_server_and_its_kernels(tmp_path: Path) -> None:
    port = _free_port()
    process = _serve(tmp_path, f"--port={port}")
    try:
        _wait_listening(tmp_path, process, port)
        (voila,) = _children(process.pid)
        deadline = time.monotonic() + 60
        # The kernels are preheated once the server listens; a child just forked still shows Voila's own command.
        while not ((kernels := _children(voila)) and all(map(_is_kernel, kernels))) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert kernels, "Voila preheats kernels for the dashboards"
        # Over Unix sockets no port picked for a kernel can be taken by another connection before it binds.
        files = [_connection_file(kernel) for kernel in kernels]
        assert all(json.loads(file.read_text())["transport"] == "ipc" for file in files)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=40) == 0
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        assert not _outliving([voila, *kernels]), "a process outlived cliplab serve"
        left = [path.name for file in files for path in file.parent.glob(f"{file.stem}*")]
        assert not left, "a stopped kernel's connection file and sockets are removed"
    finally:
        _stop(process)


def test_ctrl_c_while_the_warm_kernels_start_stops_them_all_and_leaves_no_files(tmp_path: Path) -> None:
    # Stopped while its pool still filled, Voila waited for the starting kernels on a loop of its own, failed with
    # a traceback, and those kernels, left without a parent, exited without removing their files. Stopped a
    # little later, the warm kernels died while running their notebooks, with a traceback for each.
    for attempt, later_s in enumerate((0.0, 0.0, 1.5, 3.0)):  # at the kernels' first sight, and as they run
        folder = tmp_path / str(attempt)
        folder.mkdir()
        port = _free_port()
        process = _serve(folder, f"--port={port}")
        try:
            deadline = time.monotonic() + 60
            kernels: list[int] = []
            while not kernels and time.monotonic() < deadline:
                voila = _children(process.pid)
                kernels = _kernels(voila[0]) if voila else []
                time.sleep(0.05)
            assert kernels, "Voila starts warm kernels for the dashboards"
            time.sleep(later_s)
            kernels = _kernels(voila[0])
            folders = {_connection_file(kernel).parent for kernel in kernels}
            process.send_signal(signal.SIGINT)
            assert process.wait(timeout=60) == 0
            assert not _outliving([*voila, *kernels]), "a process outlived cliplab serve"
            said = (folder / "serve.log").read_text()
            assert "Traceback" not in said, said[-3000:]
            left = [path.name for connections in folders for path in connections.glob("kernel-*")]
            assert not left, "the kernels' connection files and sockets are removed"
        finally:
            _stop(process)


def test_ctrl_c_after_pages_took_warm_kernels_starts_none_of_their_replacements(tmp_path: Path) -> None:
    # Each warm kernel handed to a page is replaced 10 s later, the next 3 s after that, and so on. Voila's stop
    # waited for every replacement due, started it and shut it down: past cliplab serve's 20 s wait for Voila
    # after five pages, which then killed Voila and left those kernels running.
    port = _free_port()
    process = _serve(tmp_path, f"--port={port}", "--pool=click_crack=3")
    try:
        _wait_listening(tmp_path, process, port)
        (voila,) = _children(process.pid)
        _kernels_settle(voila)
        for _ in range(3):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/voila/render/click_crack.ipynb", timeout=120):
                pass
        before = set(_children(voila))
        process.send_signal(signal.SIGINT)
        seen: set[int] = set()
        while process.poll() is None:
            seen.update(_kernels(voila))
            time.sleep(0.05)
        assert process.returncode == 0
        assert not seen - before, "a replacement kernel was started after Ctrl-C"
        assert not _outliving([voila, *before]), "a process outlived cliplab serve"
        assert "Traceback" not in (tmp_path / "serve.log").read_text()
    finally:
        _stop(process)


def _kernels(voila: int) -> list[int]:
    """Voila's child processes that are kernels."""
    return [child for child in _children(voila) if _is_kernel(child)]


def _is_kernel(pid: int) -> bool:
    try:
        return "ipykernel_launcher" in Path(f"/proc/{pid}/cmdline").read_text()
    except OSError:
        return False


def _connection_file(kernel: int) -> Path:
    arguments = Path(f"/proc/{kernel}/cmdline").read_bytes().decode().split("\0")
    return Path(arguments[arguments.index("-f") + 1])


def _children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(child) for child in found.stdout.split()]


def _outliving(pids: list[int], grace: float = 15) -> list[int]:
    """The processes still running after a short grace (a kernel told to stop takes a moment to exit)."""
    deadline = time.monotonic() + grace
    while (alive := [pid for pid in pids if _alive(pid)]) and time.monotonic() < deadline:
        time.sleep(0.2)
    return alive


def _alive(pid: int) -> bool:
    # A process that has exited but not been reaped shows as a zombie: it is gone for our purpose.
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def test_a_taken_port_gives_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        process = _serve(tmp_path, f"--port={port}")
        assert process.wait(timeout=30) != 0
    output = (tmp_path / "serve.log").read_text()
    assert f"port {port} on 127.0.0.1 is taken" in output and "--port" in output


def test_with_a_token_requests_without_it_are_turned_away(tmp_path: Path) -> None:
    port = _free_port()
    process = _serve(tmp_path, f"--port={port}", "--token=classroom-secret")
    try:
        _wait_listening(tmp_path, process, port)
        base = f"http://127.0.0.1:{port}/voila/render/index.ipynb"
        # Without the token the server sends the request to its login page instead of the gallery.
        opener = urllib.request.build_opener(_NoRedirect)
        with pytest.raises(urllib.error.HTTPError) as refused:
            opener.open(base, timeout=30)
        assert refused.value.code == 302 and "login" in refused.value.headers["Location"]
        with urllib.request.urlopen(f"{base}?token=classroom-secret", timeout=60) as answer:
            assert answer.status == 200
        # The teaching pages are behind the same login.
        teach = f"http://127.0.0.1:{port}/teach/click_crack"
        with pytest.raises(urllib.error.HTTPError) as refused:
            opener.open(teach, timeout=30)
        assert refused.value.code == 302 and "login" in refused.value.headers["Location"]
        with urllib.request.urlopen(f"{teach}?token=classroom-secret", timeout=60) as answer:
            assert answer.status == 200 and "Click &amp; Crack" in answer.read().decode()
    finally:
        _stop(process)


@pytest.mark.parametrize("path", ["", "voila/tree", "voila/tree/compare.ipynb"])
def test_the_root_and_the_file_listing_lead_to_the_gallery(served: RunningServer, path: str) -> None:
    opener = urllib.request.build_opener(_NoRedirect)
    with pytest.raises(urllib.error.HTTPError) as moved:
        opener.open(f"{served.url}{path}?token=kept", timeout=30)
    assert moved.value.code == 302
    assert moved.value.headers["Location"] == "/voila/render/index.ipynb?token=kept"


def _kernels_settle(voila: int, timeout: float = 120) -> int:
    """The number of kernels once it has stopped changing for a few seconds (the pool fills after start)."""
    deadline = time.monotonic() + timeout
    last, steady_since = -1, time.monotonic()
    while time.monotonic() < deadline:
        count = len(_children(voila))
        if count != last:
            last, steady_since = count, time.monotonic()
        elif time.monotonic() - steady_since > 6:
            return count
        time.sleep(0.5)
    pytest.fail(f"the kernel count never settled (last {last})")


def _kernels_become(voila: int, count: int, timeout: float = 180) -> int:
    """The number of kernels once it is `count`, or when the time is up (a busy machine culls late)."""
    deadline = time.monotonic() + timeout
    while (now := len(_children(voila))) != count and time.monotonic() < deadline:
        time.sleep(0.5)
    return now


def test_pages_fetched_and_left_give_their_kernels_back(tmp_path: Path) -> None:
    port = _free_port()
    process = _serve(tmp_path, f"--port={port}", "--cull-after=4", "--pool=click_crack=2")
    try:
        _wait_listening(tmp_path, process, port)
        (voila,) = _children(process.pid)
        pool = _kernels_settle(voila)
        pages = len(list((REPO_ROOT / "notebooks" / "dashboards").glob("*.ipynb")))
        assert pool == pages + 1, "one warm kernel a page, two for Click & Crack"
        warm = set(_children(voila))
        for _ in range(3):  # fetched, never opened: no page will ever connect to these kernels (2 warm, 1 cold)
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/voila/render/click_crack.ipynb", timeout=120):
                pass
        # The pages' kernels end at the cull while the pool refills later (10 s after a hand-out), so the count
        # can dip below the pool's size on the way: wait for the two warm kernels the pages took to be replaced.
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            now = set(_children(voila))
            if len(now) == pool and len(warm - now) == 2:
                break
            time.sleep(0.5)
        assert len(warm - now) == 2, "the two warm kernels the pages took were ended"
        assert _kernels_settle(voila) == pool, "the fetched pages' kernels were ended; the pool stays warm"
    finally:
        _stop(process)


def test_sharing_beyond_this_machine_needs_a_token(tmp_path: Path) -> None:
    process = _serve(tmp_path, "--ip=0.0.0.0", f"--port={_free_port()}")
    assert process.wait(timeout=60) != 0
    said = (tmp_path / "serve.log").read_text()
    assert "--ip 0.0.0.0" in said and "--token" in said


def test_a_restart_on_the_same_port_works_at_once(tmp_path: Path) -> None:
    port = _free_port()
    first = _serve(tmp_path, f"--port={port}")
    try:
        _wait_listening(tmp_path, first, port)
        # A browser's connection still open when the server stops, read to its end and closed after the
        # server's side, leaves the port in TIME-WAIT for a minute.
        with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
            client.sendall(b"GET /voila/static/ HTTP/1.1\r\nHost: x\r\n\r\n")
            time.sleep(1)
            first.send_signal(signal.SIGINT)
            assert first.wait(timeout=40) == 0
            while client.recv(65536):
                pass
        lingering = subprocess.run(["ss", "-tan", f"sport = :{port}"], capture_output=True, text=True).stdout
        assert "TIME-WAIT" in lingering, "the test must leave the port as a stopped server does"
        again = _serve(tmp_path, f"--port={port}")
        try:
            _wait_listening(tmp_path, again, port)
        finally:
            _stop(again)
    finally:
        _stop(first)


def _kernel_ids(voila: int) -> set[str]:
    """The ids of the kernels running under the Voila server (from their connection files' names)."""
    ids = set()
    for pid in _children(voila):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().decode()
        except FileNotFoundError:
            continue  # a kernel that ended since it was listed
        found = re.search(r"kernel-([0-9a-f-]{36})\.json", command)
        if found:
            ids.add(found.group(1))
    return ids


def test_a_warm_kernel_handed_out_after_the_cull_time_waits_for_a_slow_page(
    tmp_path: Path, page: Page, js_errors
) -> None:
    cull_after = 20  # Voila then checks every 5 s
    port = _free_port()
    process = _serve(tmp_path, f"--port={port}", f"--cull-after={cull_after}")
    try:
        _wait_listening(tmp_path, process, port)
        (voila,) = _children(process.pid)
        _kernels_settle(voila)
        warm = _kernel_ids(voila)
        time.sleep(cull_after + 2)  # the pool's kernels have now been idle for longer than the cull time
        assert _kernel_ids(voila) == warm, "kernels waiting in the pool are never culled"

        def connect_late(socket_route) -> None:  # a slow page: it connects to its kernel 12 s after the fetch
            time.sleep(12)
            socket_route.connect_to_server()

        page.route_web_socket(re.compile(r"/api/kernels/[0-9a-f-]{36}/channels"), connect_late)
        page.goto(f"http://127.0.0.1:{port}/voila/render/click_crack.ipynb", wait_until="commit", timeout=120_000)
        js_errors.wait_for(page.locator(".tb-start"), timeout=120_000)
        cells = page.locator("div.cl-grid g[data-kind='cell'][data-r]")
        js_errors.wait_until(lambda: cells.count() == 25, "the floe's 25 tiles are drawn", timeout=60_000)
        config = json.loads(page.locator("#jupyter-config-data").text_content() or "{}")
        assert config["kernelId"] in warm, "the page was given a kernel from the warm pool"
    finally:
        _stop(process)


def test_a_games_teaching_notebook_is_a_read_only_page(
    served: RunningServer, page: Page, js_errors, artifacts_dir: Path
) -> None:
    # Offline and local only: the page's requests for scripts from a CDN are not sent at all.
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/])"), lambda route: route.abort())
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{served.url}teach/click_crack", timeout=120_000)
    heading = page.get_by_role("heading", name="Click & Crack, one rule at a time", level=1)
    js_errors.wait_for(heading, timeout=60_000)
    assert page.title() == "Click & Crack, one rule at a time"
    assert "Every round each player picks two moves in secret" in page.locator("body").inner_text()
    # The stored pictures of the board are drawn (decoded, with a size), not only present in the markup.
    pictures = page.locator("img[src^='data:image/svg+xml']")
    assert pictures.count() >= 10
    picture = pictures.first
    picture.scroll_into_view_if_needed()
    assert picture.is_visible()
    assert picture.evaluate("(img) => img.complete && img.naturalWidth > 100 && img.naturalHeight > 100")
    assert "A live board: run the notebook to click on it." in page.locator("body").inner_text()
    assert page.locator("textarea, [contenteditable='true'], input").count() == 0, "nothing on it can be edited"
    page.screenshot(path=str(artifacts_dir / "teach-click_crack-1280x720.png"))


def test_the_pages_show_on_a_network_that_never_answers_a_request_for_the_internet(
    served: RunningServer, page: Page, js_errors
) -> None:
    # A school's firewall may drop requests to a CDN without refusing them: a page whose head waits for a
    # stylesheet or script from one stays blank until the browser gives up. Here such requests are held forever.
    held: list[str] = []
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/])"), lambda route: held.append(route.request.url))
    page.goto(f"{served.url}voila/render/index.ipynb", wait_until="commit", timeout=120_000)
    js_errors.wait_for(page.locator(".cl-gallery a[data-game='click_crack']"), timeout=60_000)
    page.goto(f"{served.url}voila/render/click_crack.ipynb", wait_until="commit", timeout=120_000)
    js_errors.wait_for(page.locator(".tb-start"), timeout=60_000)
    # Button icons (the Load button's) still have their font: Voila's own copy of Font Awesome.
    icon_font = "[...document.fonts].some((f) => f.family === 'Font Awesome 5 Free' && f.status === 'loaded')"
    js_errors.wait_until(lambda: page.evaluate(icon_font), "the icon font is loaded")
    page.goto(f"{served.url}teach/click_crack", wait_until="commit", timeout=120_000)
    js_errors.wait_for(page.get_by_role("heading", name="Click & Crack, one rule at a time", level=1), timeout=60_000)
    assert held == [], "the pages asked the internet for these"


def test_a_game_without_a_teaching_notebook_is_a_clear_404(served: RunningServer) -> None:
    for game in ("no_such_game", "..%2Fdashboards%2Findex", "click_crack.ipynb"):
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(f"{served.url}teach/{game}", timeout=60)
        assert missing.value.code == 404
        said = missing.value.read().decode()
        assert said.startswith("There is no teaching notebook for "), said
        assert "the games are click_crack, clipcut_parks," in said


def test_an_open_page_keeps_its_kernel_and_a_closed_one_gives_it_back(tmp_path: Path, page: Page, js_errors) -> None:
    cull_after = 6
    port = _free_port()
    process = _serve(tmp_path, f"--port={port}", f"--cull-after={cull_after}")
    try:
        _wait_listening(tmp_path, process, port)
        (voila,) = _children(process.pid)
        pool = _kernels_settle(voila)
        page.goto(f"http://127.0.0.1:{port}/voila/render/click_crack.ipynb", wait_until="commit", timeout=120_000)
        js_errors.wait_for(page.locator(".tb-start"), timeout=120_000)
        kernel = json.loads(page.locator("#jupyter-config-data").text_content() or "{}")["kernelId"]
        time.sleep(3 * cull_after)  # idle all along, but the page is connected
        assert kernel in _kernel_ids(voila), "an open page keeps its kernel however long it is idle"
        page.goto("about:blank")  # the tab is closed, as far as the server can tell
        deadline = time.monotonic() + 120
        while kernel in _kernel_ids(voila) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert kernel not in _kernel_ids(voila), "the closed page's kernel was ended"
        assert _kernels_become(voila, pool) == pool, "the warm pool is full again and nothing else is left"
    finally:
        _stop(process)


@pytest.mark.parametrize(
    ("pool", "said"),
    [
        ("many", "--pool 'many' is neither N nor DASHBOARD=N"),
        ("click_crack=", "--pool 'click_crack=' is neither N nor DASHBOARD=N"),
        ("../index=3", "--pool '../index=3' is neither N nor DASHBOARD=N"),
        ("chess=3", "--pool names no dashboard called chess"),
    ],
)
def test_a_wrong_pool_size_is_refused_before_anything_starts(pool: str, said: str) -> None:
    from cliplab.cli import main

    with pytest.raises(SystemExit, match=re.escape(said)):
        main(["serve", f"--pool={pool}", f"--port={_free_port()}"])


def test_pool_sizes_reach_voila() -> None:
    from cliplab.cli import parse_pool, voila_command

    assert parse_pool([]) == (1, {})
    assert parse_pool(["2", "click_crack=30", "compare=0"]) == (2, {"click_crack": 30, "compare": 0})
    command = voila_command(Path("/d"), "127.0.0.1", 1, None, pool=(2, {"click_crack": 30}))
    assert "--pool_size=2" in command and "--GalleryVoila.pool_sizes=click_crack.ipynb=30" in command


def test_a_warm_pool_is_refilled_after_a_crowd_one_kernel_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    from cliplab.ui import voila_server

    delays: list[float] = []

    class VoilaKernelManager(
        LoggingConfigurable
    ):  # what Voila's factory returns with preheating on, as far as the refill goes
        fill_delay = Float(1.0, config=True)

        async def get_rendered_notebook(self) -> None: ...

        def fill_if_needed(self, delay: float | None = None, **kwargs: object) -> None:
            delays.append(delay if delay is not None else -1.0)

    monkeypatch.setattr(voila_server, "voila_kernel_manager_factory", lambda *args, **kwargs: VoilaKernelManager)
    spacing = voila_server.REFILL_SPACING_S
    # Our first-refill delay by default; Voila's own setting, when a command line gives it, wins.
    for config, after in (
        (Config(), voila_server.REFILL_AFTER_S),
        (Config({"VoilaKernelManager": {"fill_delay": 4.0}}), 4.0),
    ):
        delays.clear()
        manager = voila_server._handing_out_fresh_kernels()(config=config)
        manager.fill_if_needed(delay=0, notebook_name="click_crack.ipynb")  # the pool's first fill, at start
        for _ in range(4):  # four pages handed out together
            manager.fill_if_needed(delay=None, notebook_name="click_crack.ipynb")
        assert delays[0] == 0, "the first fill starts at once"
        assert delays[1:] == pytest.approx([after + k * spacing for k in range(4)], abs=0.5)


def test_closing_a_page_ends_its_kernel_at_once(tmp_path: Path, browser) -> None:
    port = _free_port()
    process = _serve(tmp_path, f"--port={port}", "--cull-after=600")  # so no cull can be what ends it
    context = browser.new_context()
    try:
        _wait_listening(tmp_path, process, port)
        (voila,) = _children(process.pid)
        pool = _kernels_settle(voila)
        page = context.new_page()
        page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/])"), lambda route: route.abort())
        page.goto(f"http://127.0.0.1:{port}/voila/render/click_crack.ipynb", wait_until="commit", timeout=120_000)
        page.locator(".tb-start").wait_for(timeout=120_000)
        kernel = json.loads(page.locator("#jupyter-config-data").text_content() or "{}")["kernelId"]
        assert kernel in _kernel_ids(voila)
        page.close(run_before_unload=True)  # as a person closes the tab: the page asks for its kernel's end
        deadline = time.monotonic() + 60
        while kernel in _kernel_ids(voila) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert kernel not in _kernel_ids(voila), "the closed page's kernel is still running"
        assert _kernels_become(voila, pool) == pool
        assert "403 POST /voila/api/shutdown" not in (tmp_path / "serve.log").read_text()
    finally:
        context.close()
        _stop(process)


def test_a_stand_in_asks_what_a_page_asked_gets_the_dashboards_widgets_and_ends_its_kernel_on_close(
    tmp_path: Path, browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    # bench/serve_load.py's stand-ins for a class's browsers must ask the server what a real page asks, hold what
    # it needs to draw the dashboard when they count as ready, and give their kernel back as a closed tab does.
    monkeypatch.syspath_prepend(str(REPO_ROOT / "bench"))
    from stand_in import LEAVE_SCRIPT, Recording, StandIn

    port = _free_port()
    base = f"http://127.0.0.1:{port}/"
    process = _serve(tmp_path, f"--port={port}", "--cull-after=600")  # so no cull can be what ends a kernel
    context = browser.new_context()
    try:
        _wait_listening(tmp_path, process, port)
        (voila,) = _children(process.pid)
        _kernels_settle(voila)
        recording = Recording(base)
        page = context.new_page()
        page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/])"), lambda route: route.abort())
        recording.watch(page)
        page.goto(f"{base}voila/render/click_crack.ipynb", wait_until="commit", timeout=120_000)
        page.locator(".tb-start").wait_for(timeout=120_000)
        recording.ready = True
        page.evaluate(LEAVE_SCRIPT)  # as a person closes the tab: the page asks for its kernel's end
        deadline = time.monotonic() + 30
        while not recording.on_close and time.monotonic() < deadline:
            context.cookies()  # the sync API hands the browser's events over during its calls
            time.sleep(0.2)
        page.close()
        assert recording.problems() == [], "the stand-ins replay what the page asked for"
        assert len(recording.files) > 50 and any(path.startswith("voila/static/") for path in recording.files)

        stand_in = StandIn(recording, "stand-in")
        opened: dict[str, object] = {}

        async def visit_and_leave() -> None:
            opened["arrival"] = arrival = await stand_in.open()
            opened["running"] = arrival.kernel in _kernel_ids(voila)
            opened["closing errors"] = await stand_in.close()

        worker = threading.Thread(target=lambda: asyncio.run(visit_and_leave()))  # away from Playwright's loop
        worker.start()
        worker.join(timeout=300)
        arrival = opened["arrival"]
        assert arrival.errors == [] and arrival.ready_ms is not None, arrival
        assert arrival.files == len(recording.files) + 1 and arrival.bytes > 1_000_000
        assert opened["running"], "the stand-in was given a kernel of its own, as the page was"
        assert arrival.kernel != recording.kernel
        classes = [state["state"].get("_dom_classes", []) for state in stand_in.states.values()]
        assert any("tb-start" in names for names in classes), "the dashboard's Start button is in the widget state"
        assert "AnyModel" in arrival.models, "and the board, an anywidget"
        assert opened["closing errors"] == []
        deadline = time.monotonic() + 60
        while arrival.kernel in _kernel_ids(voila) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert arrival.kernel not in _kernel_ids(voila), "the closed stand-in's kernel is still running"
    finally:
        context.close()
        _stop(process)


def _get(url: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=60) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as refused:
        return refused.code, dict(refused.headers), b""


def test_scripts_and_styles_go_compressed_to_a_browser_that_accepts_it(served: RunningServer) -> None:
    for path in (
        "voila/static/voila.js",
        "voila/templates/lab/static/index.css",
        "voila/labextensions/@jupyter-widgets/jupyterlab-manager/package.json",
    ):
        url = served.url + path
        status, plain_headers, plain = _get(url, {})
        assert status == 200 and "Content-Encoding" not in plain_headers and len(plain) > 1000, path
        for _ in range(2):  # compressed on the first request, kept for the next
            status, headers, packed = _get(url, {"Accept-Encoding": "gzip, deflate, br, zstd"})
            assert status == 200 and headers["Content-Encoding"] == "gzip" and headers["Vary"] == "Accept-Encoding"
            assert int(headers["Content-Length"]) == len(packed) < len(plain) / 2, path
            assert gzip.decompress(packed) == plain, path
        # A part of the file is sent as it is; a browser that has the file gets "not modified" either way.
        status, headers, part = _get(url, {"Accept-Encoding": "gzip", "Range": "bytes=0-99"})
        assert status == 206 and "Content-Encoding" not in headers and part == plain[:100], path
        if "Etag" in plain_headers:  # the extensions' files are sent without one (jupyter_server's choice)
            assert _get(url, {"Accept-Encoding": "gzip", "If-None-Match": plain_headers["Etag"]})[0] == 304, path
    # The compressed way out looks files up as the plain one does: nothing outside the static folders.
    for path in ("voila/static/..%2F..%2F..%2F..%2Fetc%2Fpasswd", "voila/labextensions/..%2F..%2F..%2Fetc%2Fpasswd"):
        status, _headers, body = _get(served.url + path, {"Accept-Encoding": "gzip"})
        assert status in (403, 404) and b"root:" not in body, path
