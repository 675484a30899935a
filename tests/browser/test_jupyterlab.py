"""The project's main job, end to end: JupyterLab serving notebooks, driven in the system Chromium."""

from __future__ import annotations

import fnmatch
import re
import shutil
from pathlib import Path

import nbformat
import pytest
from jupyter_server.services.contents.filemanager import FileContentsManager
from playwright.sync_api import Page

import cliplab

pytestmark = pytest.mark.browser

REPO_ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO_ROOT / "notebooks"
KERNEL_TIMEOUT_MS = 25_000


def _write_notebook(path: Path, *sources: str) -> Path:
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    nbformat.write(notebook, path)
    return path


def test_notebook_cell_imports_cliplab_in_a_real_kernel(tmp_path: Path, lab_server, page: Page, js_errors) -> None:
    source = tmp_path / "source"
    source.mkdir()
    _write_notebook(source / "smoke.ipynb", 'import cliplab; print("cliplab", cliplab.__version__)')
    served = shutil.copytree(source, tmp_path / "served")
    server = lab_server(served)

    page.goto(f"{server.url}lab/tree/smoke.ipynb")
    notebook = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)").first
    # The status bar says "<kernel> | Idle" only once the kernel is connected; the toolbar's
    # execution indicator already reads data-status="idle" while the session is initializing.
    kernel_status = page.locator("#jp-main-statusbar [title='Change kernel for smoke.ipynb']")
    js_errors.wait_for(kernel_status.filter(has_text=re.compile(r"\| Idle$")), timeout=KERNEL_TIMEOUT_MS)
    js_errors.wait_for(notebook.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']"))

    cell = notebook.locator(".jp-CodeCell").first
    cell.locator(".cm-content").click()
    page.keyboard.press("Shift+Enter")

    expected = f"cliplab {cliplab.__version__}"
    output = cell.locator(".jp-OutputArea-output")
    js_errors.wait_until(
        lambda: any(expected in text for text in output.all_inner_texts()),
        f"the cell output shows {expected!r}",
        timeout=KERNEL_TIMEOUT_MS,
    )
    assert output.first.inner_text().strip() == expected


def test_lab_on_notebooks_folder_lists_its_subfolders(lab_server, page: Page, js_errors) -> None:
    hidden = FileContentsManager().hide_globs
    expected = sorted(
        entry.name
        for entry in NOTEBOOKS.iterdir()
        if entry.is_dir()
        and not entry.name.startswith(".")
        and not any(fnmatch.fnmatch(entry.name, glob) for glob in hidden)
    )
    server = lab_server(NOTEBOOKS)

    page.goto(f"{server.url}lab")
    listing = page.locator(".jp-FileBrowser .jp-DirListing-content")
    js_errors.wait_for(listing)
    folders = listing.locator(".jp-DirListing-item[data-isdir='true'] .jp-DirListing-itemText")

    def shown() -> list[str]:
        return sorted(text.strip() for text in folders.all_inner_texts())

    js_errors.wait_until(
        lambda: shown() == expected, f"the file browser lists exactly the folders {expected} (it shows {shown()})"
    )
    assert shown() == expected


def test_voila_renders_a_notebook_output(tmp_path: Path, voila_server, page: Page, js_errors) -> None:
    """Smoke check of the ``voila_server`` fixture, ahead of the playtest dashboards."""
    _write_notebook(tmp_path / "hello.ipynb", 'import cliplab; print("voila says", 6 * 7, cliplab.__version__)')
    server = voila_server(tmp_path / "hello.ipynb")

    page.goto(server.url)
    expected = f"voila says 42 {cliplab.__version__}"
    output = page.locator(".jp-OutputArea-output", has_text="voila says")
    js_errors.wait_for(output, timeout=KERNEL_TIMEOUT_MS)
    assert output.first.inner_text().strip() == expected
