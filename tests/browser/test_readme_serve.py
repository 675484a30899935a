"""The README's serve command, run exactly as written: it must set up, print the gallery's address, show a
dashboard's board in Chromium, and stop with every kernel when sent SIGTERM.

The README's test command runs this file, so a serve command that breaks (as `.[]` did with a newer pip)
fails CI.
"""

from __future__ import annotations

import re
import shlex
import signal
import subprocess
import time
from pathlib import Path

import pytest
from conftest import _free_port, _private_env, _stop
from playwright.sync_api import Page
from test_serve import _children, _outliving

pytestmark = pytest.mark.browser

REPO_ROOT = Path(__file__).resolve().parents[2]
SETUP_AND_START_TIMEOUT = 600.0  # the command sets up the environment first (pip, on a fresh machine)


def quick_start_commands() -> list[str]:
    """The commands of the README's Quick start block, without their comments."""
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.DOTALL)
    assert block, "the README's Quick start has no bash block"
    return [line.split("#", 1)[0].strip() for line in block.group(1).splitlines() if line.split("#", 1)[0].strip()]


def test_the_quick_start_has_exactly_a_serve_and_a_test_command() -> None:
    assert quick_start_commands() == ["bash .ci/serve", "bash .ci/test"]


def test_setup_installs_with_no_extras_named(tmp_path: Path) -> None:
    # The newest pip refuses ".[]"; setup must then install plain ".".
    done = subprocess.run(
        ["bash", ".ci/setup"],
        cwd=REPO_ROOT,
        env={**_private_env(tmp_path / "home"), "CLIPLAB_EXTRAS": ""},
        capture_output=True,
        text=True,
        timeout=SETUP_AND_START_TIMEOUT,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _wait_for_address(process: subprocess.Popen[str], log: list[str]) -> str:
    assert process.stdout is not None
    deadline = time.monotonic() + SETUP_AND_START_TIMEOUT
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            pytest.fail(f"the serve command ended (code {process.wait()}) before printing an address:\n{''.join(log)}")
        log.append(line)
        found = re.search(r"http://\S+", line)
        if found:
            return found.group(0)
    pytest.fail(f"no address printed within {SETUP_AND_START_TIMEOUT:.0f} s:\n{''.join(log)}")


def test_the_readme_serve_command_serves_the_gallery_and_stops_cleanly(tmp_path: Path, page: Page, js_errors) -> None:
    port = _free_port()
    command = [*shlex.split(quick_start_commands()[0]), f"--port={port}"]
    # `bash .ci/serve` ends in `exec cliplab serve`, so this process becomes the server itself.
    process = subprocess.Popen(
        command,
        cwd=REPO_ROOT,
        env=_private_env(tmp_path / "home"),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    log: list[str] = []
    try:
        address = _wait_for_address(process, log)
        # One address, and it is the gallery: the root leads there, never to a file listing.
        printed = [url for line in log for url in re.findall(r"http://\S+", line)]
        assert printed == [f"http://127.0.0.1:{port}/"], printed
        page.goto(address, wait_until="commit", timeout=120_000)  # a busy machine takes a while to run the gallery
        gallery = js_errors.wait_for(page.locator(".cl-gallery"), timeout=120_000)
        assert "/voila/render/index.ipynb" in page.url
        links = {link.get_attribute("href") for link in gallery.locator("a").all()}
        dashboards = {book.name for book in (REPO_ROOT / "notebooks" / "dashboards").glob("*.ipynb")}
        assert links == dashboards - {"index.ipynb"}, "every dashboard the server offers is in the gallery"
        # Each page the gallery offers starts; the comparison page needs the lab's packages installed by setup.
        gallery.locator("a[data-dashboard='compare']").click()
        js_errors.wait_for(page.get_by_role("button", name="Run"), timeout=120_000)
        page.go_back()
        gallery = js_errors.wait_for(page.locator(".cl-gallery"), timeout=120_000)
        gallery.locator("a[data-game='click_crack']").click()
        js_errors.wait_for(page.locator(".tb-start"), timeout=120_000)
        cells = page.locator("div.cl-grid g[data-kind='cell'][data-r]")
        js_errors.wait_until(lambda: cells.count() == 25, "the floe's 25 tiles are drawn", timeout=60_000)

        (voila,) = _children(process.pid)
        kernels = _children(voila)
        assert kernels, "the open dashboard runs in a kernel"
        page.goto("about:blank")  # leave first: a page whose server vanishes reports the lost connection
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0
        assert not _outliving([voila, *kernels]), "a kernel outlived the serve command"
    finally:
        _stop(process)  # type: ignore[arg-type]  # a text-mode Popen stops the same way
