"""Voila as `cliplab serve` runs it: the gallery at the server root, warm kernels that live long enough to be
used, and each game's teaching notebook as a read-only page.

Run as `python -m cliplab.ui.voila_server <dashboards folder> [voila options]`; `cliplab serve` builds
that command. Voila alone answers its root with a bare listing of the notebooks, which is not where a
person should land.
"""

from __future__ import annotations

import asyncio
import datetime
import gzip
import itertools
import logging
import os
import re
import shutil
import time
import weakref
from pathlib import Path
from typing import Any, ClassVar

import voila.app
from jupyter_server._tz import utcnow
from jupyter_server.auth.decorator import allow_unauthenticated
from jupyter_server.base.handlers import FileFindHandler, JupyterHandler
from jupyter_server.utils import url_path_join
from tornado import web
from tornado.web import RedirectHandler
from traitlets import Dict, Float, Int, Unicode
from voila.app import Voila
from voila.static_file_handler import MultiStaticFileHandler, TemplateStaticFileHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.voila_kernel_manager import voila_kernel_manager_factory

GALLERY = "voila/render/index.ipynb"
# Voila's page template asks a CDN for Font Awesome, which Voila's own scripts bring as well. On a network that
# drops requests to the CDN (a school's firewall, say) a stylesheet in the page's head holds the page blank
# until the browser gives up on it: the dashboards are sent without those links.
CDN_STYLESHEET = re.compile(r'<link rel="stylesheet" href="https://cdn\.jsdelivr\.net/[^"]*"[^>]*>\s*')
# The teaching pages' template: nbconvert's, without the scripts it would fetch from CDNs.
TEACHING_TEMPLATE = Path(__file__).with_name("templates") / "teaching_page.html.j2"
GAME_NAME = re.compile(r"[a-z][a-z0-9_]{0,63}")
# A kernel handed out of a warm pool is replaced this long after (unless Voila's fill_delay is set), and the
# replacements start this far apart.
REFILL_AFTER_S = 10.0
REFILL_SPACING_S = 3.0
# Where the notebook runs of warm kernels stopped with the server report: nowhere (HandOutKernelManager).
STOPPED_RUNS = logging.getLogger("cliplab.serve.stopped_runs")
STOPPED_RUNS.addHandler(logging.NullHandler())
STOPPED_RUNS.propagate = False
# Files sent gzip-compressed to a browser that accepts it (fonts and pictures are compressed already).
COMPRESSIBLE = frozenset({".js", ".mjs", ".css", ".json", ".html", ".svg", ".map", ".txt", ".ttf", ".eot"})


def _handing_out_fresh_kernels(*args: Any, **kwargs: Any) -> type:
    """Voila's kernel manager class, with a pool kernel's idle clock restarted when it is handed to a visitor,
    and the pool refilled after a class has opened its pages, one kernel at a time.

    A pool kernel keeps the last activity of when its notebook finished running. Voila never culls it while
    it waits in the pool, but once handed out it is judged by that old time: if it waited longer than the
    cull time, the next cull check ends it before a slow page has opened its websocket, and the page shows
    "The model for kernel id ... does not exist". Restarted at hand-out, the page gets the full cull time
    to connect, like a page whose kernel was started for it.

    Voila starts a replacement kernel one second after each hand-out: when 30 pages open together, 30
    kernels start and run the notebook while the server is still sending those pages, each costing more
    CPU than the page it replaces (docs/classroom.md). Here the first replacement starts REFILL_AFTER_S
    after the hand-out (or Voila's `fill_delay`, where the command line sets it) and each further one
    REFILL_SPACING_S after the one before, so the crowd is served
    first and the refill then takes part of one core. A visitor beyond the pool waits for the earliest
    replacement.
    """
    managers: type = voila_kernel_manager_factory(*args, **kwargs)
    if not hasattr(managers, "get_rendered_notebook"):  # no pool (preheating off): nothing is handed out
        return managers

    class HandOutKernelManager(managers):
        fill_delay = Float(REFILL_AFTER_S, config=True, help="Seconds from a hand-out to its replacement's start")
        next_refill = 0.0  # time.monotonic() at which the next replacement kernel may start

        def fill_if_needed(self, delay: float | None = None, *args: Any, **kwargs: Any) -> None:
            if delay is None:  # a refill after a hand-out (the pool's first fill says 0)
                now = time.monotonic()
                start = max(now + self.fill_delay, self.next_refill)
                self.next_refill = start + REFILL_SPACING_S
                delay = start - now
            super().fill_if_needed(delay, *args, **kwargs)

        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.starting: weakref.WeakSet[asyncio.Task[Any]] = weakref.WeakSet()  # pool entries past their wait

        async def _initialize(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
            task = asyncio.current_task()
            if task is not None:
                self.starting.add(task)
            content: dict[str, Any] = await super()._initialize(*args, **kwargs)
            return content

        async def shutdown_all(self, *args: Any, **kwargs: Any) -> None:
            entries: list[asyncio.Task[Any]] = list(itertools.chain.from_iterable(self._pools.values()))
            self._pools.clear()
            for entry in entries:
                if not entry.done() and entry not in self.starting:  # a refill still waiting: no kernel yet
                    entry.cancel()
            # jupyter_client's shutdown_all also names the kernels still starting, which jupyter_server's
            # shutdown refuses ("Kernel does not exist") and so stops before it has ended the others: a
            # Ctrl-C while the pool fills left kernels' files behind. Let those starts finish first.
            await asyncio.gather(*entries, *self._pending_kernels.values(), return_exceptions=True)
            # A warm kernel no visitor has had holds nothing to keep, and a polite shutdown of one still importing
            # or running its notebook logs tracebacks: the interrupt it is sent first lands in its code, and Voila,
            # waiting for the cell's reply, says "Kernel died". Its run is stopped without a word, then it is killed.
            unvisited = [entry.result() for entry in entries if not entry.cancelled() and entry.exception() is None]
            # A renderer makes its executor as its run begins.
            executors = [getattr(content["renderer"], "executor", None) for content in unvisited]
            for content, executor in zip(unvisited, executors, strict=True):
                renderer = content["renderer"]
                renderer.log = STOPPED_RUNS
                if executor is not None:
                    executor.log = STOPPED_RUNS
                content["task"].cancel()
            await asyncio.gather(*(content["task"] for content in unvisited), return_exceptions=True)
            for executor in executors:
                if executor is not None and executor.kc is not None:  # a run stopped before it closed its client
                    executor.kc.stop_channels()
            killing = [self.shutdown_kernel(content["kernel_id"], now=True) for content in unvisited]
            await asyncio.gather(*killing, return_exceptions=True)
            await super().shutdown_all(*args, **kwargs)

        async def get_rendered_notebook(self, *args: Any, **kwargs: Any) -> Any:
            handed_out = await super().get_rendered_notebook(*args, **kwargs)
            _render_task, _rendered, kernel_id = handed_out
            self.get_kernel(kernel_id).last_activity = utcnow()
            return handed_out

    return HandOutKernelManager


class DashboardPage(TornadoVoilaHandler):
    """Voila's page of a dashboard, sent without its CDN stylesheets (CDN_STYLESHEET), which also sets the
    `_xsrf` cookie.

    When a page closes, Voila's script in it asks the server to shut its kernel down and sends the cookie's
    value as proof that the request comes from the page. Voila never sets that cookie, so the request was
    refused (403) and the kernel lived on until culled; with it, a closed page's kernel ends at once.
    """

    async def prepare(self, *args: Any, **kwargs: Any) -> None:
        await super().prepare(*args, **kwargs)
        self.xsrf_token  # noqa: B018  (reading the token sets the cookie)

    def write(self, chunk: str | bytes | dict[str, Any]) -> None:
        super().write(CDN_STYLESHEET.sub("", chunk) if isinstance(chunk, str) else chunk)


def _compressible(path: str) -> bool:
    return os.path.splitext(path)[1] in COMPRESSIBLE


class CompressedOnce(web.StaticFileHandler):
    """Voila's scripts and styles gzip-compressed for a browser that accepts it, each file compressed once and
    kept in memory.

    A dashboard's first visit loads about 100 files, 5.4 MB as Voila sends them and about 1.5 MB compressed:
    30 people opening a dashboard together over a school's Wi-Fi wait for 160 MB, or for 45 MB. Compressing
    each response anew would cost the server as much CPU as serving it; a file is compressed on its first
    request (about 20 ms for the largest, 0.2 s for all a dashboard loads) and again only when it changes on
    disk. A request for part of a file (Range) gets the file as it is.
    """

    compressed: ClassVar[dict[tuple[str, datetime.datetime | None], bytes]] = {}  # (path, modified) -> gzip

    @allow_unauthenticated  # as Voila's own static handlers: the login page's files are among them
    async def get(self, path: str, include_body: bool = True) -> None:
        absolute = None
        if "gzip" in self.request.headers.get("Accept-Encoding", "") and "Range" not in self.request.headers:
            self.path = self.parse_url_path(path)
            found = self.get_absolute_path(self.root, self.path)  # Voila's may choose self.root here: read it after
            absolute = self.validate_absolute_path(self.root, found)
            if absolute is None:  # answered already (a folder's address without its slash is redirected)
                return
        if absolute is None or not _compressible(absolute):
            await super().get(path, include_body)
            return
        self.absolute_path = absolute
        self.modified = self.get_modified_time()
        self.set_headers()
        if self.should_return_304():
            self.set_status(304)
            return
        key = (absolute, self.modified)
        if key not in self.compressed:
            # Read as the plain response reads it, from the path checked to be inside the handler's folders.
            content = self.get_content(absolute)
            plain = content if isinstance(content, bytes) else b"".join(content)
            self.compressed[key] = gzip.compress(plain, compresslevel=9, mtime=0)
        body = self.compressed[key]
        self.set_header("Content-Encoding", "gzip")
        self.set_header("Content-Length", len(body))
        if include_body:
            self.write(body)

    def set_extra_headers(self, path: str) -> None:
        super().set_extra_headers(path)
        if _compressible(path):
            self.set_header("Vary", "Accept-Encoding")  # a cache keeps the compressed and the plain file apart


class CompressedStaticFiles(CompressedOnce, MultiStaticFileHandler):
    """/voila/static/: Voila's scripts."""


class CompressedTemplateFiles(CompressedOnce, TemplateStaticFileHandler):
    """/voila/templates/: the template's styles and fonts."""


class CompressedExtensionFiles(CompressedOnce, FileFindHandler):
    """/voila/labextensions/: the widget managers' and widgets' scripts."""


# Voila's handlers and what `cliplab serve` uses in their place.
OURS = {
    TornadoVoilaHandler: DashboardPage,
    MultiStaticFileHandler: CompressedStaticFiles,
    TemplateStaticFileHandler: CompressedTemplateFiles,
    FileFindHandler: CompressedExtensionFiles,
}


class TeachingPage(JupyterHandler):
    """GET /teach/<game>: the game's teaching notebook as stored (executed), rendered to HTML once.

    The same login as the dashboards guards it (the token, when `cliplab serve --token` is used). Nothing
    runs: the page shows the stored outputs.
    """

    def initialize(self, folder: str, rendered: dict[str, asyncio.Future[str]]) -> None:
        self.folder = Path(folder)
        self.rendered = rendered

    @web.authenticated
    async def get(self, game: str) -> None:
        notebook = self.folder / f"{game}.ipynb"
        if not (GAME_NAME.fullmatch(game) and notebook.is_file()):
            known = ", ".join(sorted(path.stem for path in self.folder.glob("*.ipynb"))) or "none"
            raise web.HTTPError(404, f"There is no teaching notebook for {game[:64]!r}; the games are {known}.")
        if game not in self.rendered:
            # Rendering takes a second or two: it runs beside the server's loop, once per game.
            self.rendered[game] = asyncio.ensure_future(asyncio.to_thread(_render_teaching_page, notebook))
        try:
            html = await asyncio.shield(self.rendered[game])
        except Exception:
            del self.rendered[game]  # a later request tries again
            raise
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(html)

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        # The reason given to HTTPError, as plain text: the visitor learns which games there are.
        error = kwargs.get("exc_info", (None, None))[1]
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(getattr(error, "log_message", None) or self._reason)


def _render_teaching_page(notebook: Path) -> str:
    import nbformat
    from nbconvert import HTMLExporter

    book = nbformat.read(notebook, as_version=4)
    # The page's title is the lesson's first heading (nbconvert would say "Notebook").
    headings = (line for cell in book.cells if cell.cell_type == "markdown" for line in cell.source.splitlines())
    title = next((line.lstrip("#").strip() for line in headings if line.startswith("# ")), notebook.stem)
    exporter = HTMLExporter(template_name="lab", template_file=str(TEACHING_TEMPLATE))
    body, _resources = exporter.from_notebook_node(book, {"metadata": {"name": title}})
    return str(body)


class GalleryVoila(Voila):
    teach_dir = Unicode("", config=True, help="the folder of the teaching notebooks served at /teach/<game>")
    pool_sizes = Dict(
        value_trait=Int(),
        config=True,
        help="warm kernels of chosen notebooks (name.ipynb=N); the others keep Voila's pool_size",
    )

    def init_settings(self) -> dict[str, Any]:
        # Voila builds its kernel manager class from this name when it sets up; the process is Voila's alone.
        voila.app.voila_kernel_manager_factory = _handing_out_fresh_kernels
        # Said here rather than on Voila's command line, which takes this nested dict only with a warning.
        every = {"pool_size": self.voila_configuration.default_pool_size}
        chosen = {name: {"pool_size": size} for name, size in self.pool_sizes.items()}
        self.config.VoilaKernelManager.kernel_pools_config = {"default": every, **chosen}
        settings: dict[str, Any] = super().init_settings()
        return settings

    def stop(self) -> None:
        # Voila shuts the kernels down on an event loop of its own, where waiting for the kernels still starting
        # (their futures belong to the server's loop) failed: Voila exited with a traceback, and those kernels,
        # left without a parent, exited without removing their files. The server's loop runs the shutdown, and
        # Voila's folder of connection files goes once no kernel can write to it any more.
        self.ioloop.run_sync(self.kernel_manager.shutdown_all)
        shutil.rmtree(self.connection_dir, ignore_errors=True)

    def init_handlers(self) -> list[Any]:
        gallery = url_path_join(self.server_url, GALLERY)
        # Earlier handlers win in tornado. The redirects keep the query string (a token, say) and are not
        # permanent, so a browser does not remember them past this version.
        to_gallery = {"url": gallery, "permanent": False}
        ours: list[Any] = [
            (self.server_url, RedirectHandler, to_gallery),
            (url_path_join(self.server_url, r"/voila/tree(?:/.*)?"), RedirectHandler, to_gallery),
        ]
        if self.teach_dir:
            teaching = {"folder": self.teach_dir, "rendered": {}}
            ours.append((url_path_join(self.server_url, r"/teach/([^/]*)"), TeachingPage, teaching))
        voilas: list[Any] = super().init_handlers()
        return ours + [(route[0], OURS.get(route[1], route[1]), *route[2:]) for route in voilas]


if __name__ == "__main__":
    GalleryVoila.launch_instance()
