"""The built wheel, installed on its own: it carries the widget front end and serves a clickable board.

Builds the wheel from the checkout, installs it (with its dependencies from the package index) into a
fresh virtual environment without system site packages, and serves a notebook with that environment's
Voila from a temporary folder, so nothing of the checkout can reach the kernel. The board must render
in Chromium and a click on a cell must come back from Python as a changed cell.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from conftest import RunningServer, _free_port, _private_env, _stop, _wait_for_port
from playwright.sync_api import Page

pytestmark = pytest.mark.browser

REPO_ROOT = Path(__file__).resolve().parents[2]
BUILD_TIMEOUT_S = 300
INSTALL_TIMEOUT_S = 900
KERNEL_TIMEOUT_MS = 60_000  # first import in a fresh venv installed without byte-compiling
PAPER = "#FBF8EF"
ORANGE = "#E69F00"
# Variables that could put the checkout (or another environment) in front of the new venv.
LEAKY_VARIABLES = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONUSERBASE", "VIRTUAL_ENV", "CONDA_PREFIX")

GRID_NOTEBOOK = [
    """\
import json, sys
import cliplab, cliplab.ui.widget
print("KERNEL " + json.dumps({"prefix": sys.prefix, "cliplab": cliplab.__file__,
                              "front_end": str(cliplab.ui.widget.FRONT_END)}))""",
    """\
from cliplab.ui.scene import Board, Cell, Scene
from cliplab.ui.widget import Grid

fills = {}

def scene():
    cells = tuple(Cell((r, c), fill=fills.get((r, c), "paper")) for r in range(3) for c in range(3))
    return Scene(boards=(Board("b", "Test board", 3, 3, cells=cells, clickable=("cell",)),))

grid = Grid(scene())

def clicked(intent):
    fills[intent.at] = "orange"
    grid.show(scene())

grid.on("cell", clicked)
grid""",
]


def _clean_env(home: Path, venv: Path) -> dict[str, str]:
    """Private Jupyter dirs, the new venv first on PATH, and nothing that could import the checkout."""
    env = _private_env(home)
    for name in LEAKY_VARIABLES:
        env.pop(name, None)
    env["PYTHONNOUSERSITE"] = "1"
    env["PATH"] = os.pathsep.join([str(venv / "bin"), env.get("PATH", "")])
    return env


def _run(argv: list[str], *, cwd: Path, env: dict[str, str] | None = None, timeout: float) -> str:
    done = subprocess.run(
        argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout
    )
    if done.returncode != 0:
        pytest.fail(
            f"{' '.join(argv)} failed with code {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}",
            pytrace=False,
        )
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    _run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(REPO_ROOT)],
        cwd=out,
        timeout=BUILD_TIMEOUT_S,
    )
    built = sorted(out.glob("cliplab-*.whl"))
    assert len(built) == 1, f"expected one cliplab wheel in {out}, found {built}"
    return built[0]


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory, artifacts_dir: Path) -> Path:
    """A fresh venv (no system site packages) with the wheel and its dependencies installed; its root."""
    base = tmp_path_factory.mktemp("wheel-venv")
    venv = base / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], cwd=base, timeout=120)
    config = (venv / "pyvenv.cfg").read_text()
    assert "include-system-site-packages = false" in config, config
    python = venv / "bin" / "python"
    started = time.monotonic()
    # --no-compile: the byte code is written on first import instead; it saves about a third of the time.
    _run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-compile", str(wheel)],
        cwd=base,
        env=_clean_env(base / "home", venv),
        timeout=INSTALL_TIMEOUT_S,
    )
    seconds = time.monotonic() - started
    line = f"pip install {wheel.name} (with dependencies) into a fresh venv: {seconds:.1f} s"
    print(line)
    (artifacts_dir / "wheel-install-time.txt").write_text(line + "\n")
    return venv


def test_wheel_carries_the_front_end_and_the_games(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in ("cliplab/_widgets/grid.js", "cliplab/_widgets/grid.css", "cliplab/ui/widget.py"):
        assert name in names, f"{wheel.name} lacks {name}"
    game_packages = sorted(REPO_ROOT.glob("cliplab/games/*/__init__.py"))
    assert game_packages, "the checkout has no game packages"
    for init in game_packages:
        name = init.relative_to(REPO_ROOT).as_posix()
        assert name in names, f"{wheel.name} lacks the game package {name}"
    assert not any(n.startswith(("widgets/", "tests/", "notebooks/")) for n in names), sorted(names)
    # What `cliplab serve` serves: the dashboards and each game's teaching notebook.
    for folder, packed in (("dashboards", "_dashboards"), ("teach", "_teach")):
        for book in sorted((REPO_ROOT / "notebooks" / folder).glob("*.ipynb")):
            assert f"cliplab/{packed}/{book.name}" in names, f"{wheel.name} lacks {folder}/{book.name}"


def test_installed_wheel_reads_its_front_end_from_site_packages(installed: Path, tmp_path: Path) -> None:
    probe = (
        "import json, sysconfig, cliplab, cliplab.ui.widget as w\n"
        "print(json.dumps({'purelib': sysconfig.get_paths()['purelib'], 'cliplab': cliplab.__file__,"
        " 'front_end': str(w.FRONT_END), 'esm': str(w.GridWidget._esm)[:200]}))"
    )
    out = _run(
        [str(installed / "bin" / "python"), "-c", probe],
        cwd=tmp_path,
        env=_clean_env(tmp_path / "home", installed),
        timeout=120,
    )
    found = json.loads(out.strip().splitlines()[-1])
    site = Path(found["purelib"]).resolve()
    assert site.is_relative_to(installed.resolve()), found
    assert Path(found["cliplab"]).resolve().is_relative_to(site), found
    front_end = Path(found["front_end"]).resolve()
    assert front_end == site / "cliplab" / "_widgets", found
    assert not front_end.is_relative_to(REPO_ROOT), found
    assert (front_end / "grid.js").is_file() and (front_end / "grid.css").is_file()


@pytest.fixture
def installed_voila(installed: Path, tmp_path: Path, artifacts_dir: Path) -> Iterator[RunningServer]:
    """The new venv's Voila serving a grid notebook, from a temporary folder (never the checkout)."""
    served = tmp_path / "served"
    served.mkdir()
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in GRID_NOTEBOOK]
    path = served / "grid.ipynb"
    nbformat.write(notebook, path)

    home = tmp_path / "home"
    env = _clean_env(home, installed)
    port = _free_port()
    log_path = artifacts_dir / "voila-wheel.log"
    argv = [
        str(installed / "bin" / "python"), "-m", "voila", str(path),
        "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1", "--Voila.port_retries=0",
    ]  # fmt: skip
    with log_path.open("wb") as log:
        log.write(("$ " + " ".join(argv) + "\n").encode())
        log.flush()
        process = subprocess.Popen(
            argv, cwd=served, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT
        )
    server = RunningServer("voila (wheel venv)", f"http://127.0.0.1:{port}/", port, path, log_path, process, home)
    try:
        _wait_for_port(server)
        yield server
    finally:
        _stop(process)


def test_installed_wheel_serves_a_clickable_grid_in_voila(
    installed: Path, installed_voila: RunningServer, page: Page, js_errors
) -> None:
    page.goto(installed_voila.url)

    kernel_line = page.locator(".jp-OutputArea-output", has_text="KERNEL ")
    js_errors.wait_for(kernel_line, timeout=KERNEL_TIMEOUT_MS)
    kernel = json.loads(kernel_line.first.inner_text().strip().removeprefix("KERNEL "))
    assert Path(kernel["prefix"]).resolve() == installed.resolve(), kernel
    for key in ("cliplab", "front_end"):
        assert Path(kernel[key]).resolve().is_relative_to(installed.resolve()), kernel
        assert not Path(kernel[key]).resolve().is_relative_to(REPO_ROOT), kernel

    grid = page.locator("div.cl-grid")
    cells = grid.locator("g[data-kind=cell][data-r][data-c]")
    js_errors.wait_for(cells.nth(8), timeout=KERNEL_TIMEOUT_MS)
    assert cells.count() == 9
    assert grid.locator(".cl-stage").get_attribute("tabindex") == "0"
    assert float(grid.get_attribute("data-render-ms") or "nan") >= 0

    def fill(r: int, c: int) -> str | None:
        return grid.locator(f"g[data-kind=cell][data-r='{r}'][data-c='{c}'] > rect").first.get_attribute("fill")

    assert fill(1, 2) == PAPER
    grid.locator("g[data-kind=cell][data-r='1'][data-c='2']").click()
    js_errors.wait_until(lambda: fill(1, 2) == ORANGE, "the clicked cell (1, 2) comes back orange")
    assert [fill(r, c) for r in range(3) for c in range(3)].count(PAPER) == 8


def test_installed_wheel_serves_the_teaching_pages(installed: Path, tmp_path: Path) -> None:
    """`cliplab serve` from the wheel, started in an empty folder, finds its teaching notebooks in site-packages."""
    port = _free_port()
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [str(installed / "bin" / "cliplab"), "serve", f"--port={port}"],
            cwd=tmp_path,
            env=_clean_env(tmp_path / "home", installed),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    server = RunningServer("cliplab serve (wheel venv)", f"http://127.0.0.1:{port}/", port, tmp_path, log_path,
                           process, tmp_path / "home")  # fmt: skip
    try:
        _wait_for_port(server, timeout=180)
        with urllib.request.urlopen(f"{server.url}teach/swap_clops", timeout=120) as answer:
            page = answer.read().decode()
        assert answer.status == 200 and "<title>Swap Clops" in page, page[:500]
        assert "data:image/svg+xml" in page, "the stored pictures are on the page"
        # The page came from the wheel's copy, not from a checkout.
        (voila,) = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True, text=True).stdout.split()
        arguments = Path(f"/proc/{voila}/cmdline").read_bytes().decode().split("\0")
        (teach,) = (a.removeprefix("--GalleryVoila.teach_dir=") for a in arguments if "teach_dir=" in a)
        assert Path(teach).resolve() == _site_packages(installed) / "cliplab" / "_teach", teach
    finally:
        _stop(process)


def _site_packages(venv: Path) -> Path:
    (site,) = venv.glob("lib/python3*/site-packages")
    return site.resolve()
