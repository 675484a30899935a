"""GridWidget, the thin anywidget class, and Grid, the friendly object in front of it."""

from __future__ import annotations

import itertools
import logging
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from cliplab.engine import IllegalAction

from . import svg
from .intents import BadMessage, Intent, parse_intent
from .scene import Scene
from .svg import Tag

log = logging.getLogger(__name__)

_PACKAGE = Path(__file__).resolve().parents[1]
# In a wheel the front end ships inside the package; in a checkout it is read from widgets/ (and reloads).
FRONT_END = next(p for p in (_PACKAGE / "_widgets", _PACKAGE.parent / "widgets") if (p / "grid.js").exists())
_instances = itertools.count()
_notices = itertools.count()
# A notice is read on the board, so it stays short whatever a message carried; the refusal history is for
# inspection, so only the newest refusals are kept however long a page keeps sending bad messages.
NOTICE_LIMIT = 300
REFUSALS_KEPT = 100


class GridWidget(anywidget.AnyWidget):
    """Draws `svg` and reports clicks, drops and keys as intents; knows nothing of games."""

    _esm = FRONT_END / "grid.js"
    _css = FRONT_END / "grid.css"
    # The CSS of every picture, sent once (a still picture carries it in its own <style>).
    scene_style = traitlets.Unicode(svg.STYLE).tag(sync=True)
    # The picture as last sent whole, and what changed since: each changed node under its path, the child
    # indices from the <svg> down to it joined by spaces ("1 0 6 5"). A click sends the few cells it changed,
    # not the picture; a cell goes as `svg.described` puts it, which the page matches without parsing markup,
    # other nodes as markup. (Text, not nested lists: the kernel walks every list of a message.)
    svg = traitlets.Unicode("").tag(sync=True)
    patch = traitlets.Dict().tag(sync=True)
    # Set with `svg`: the revision whose picture `patch` turns into `svg` (-1: none). A page showing that
    # revision then only patches those nodes instead of drawing `svg` whole; a page opening later draws `svg`.
    svg_from = traitlets.Int(-1).tag(sync=True)
    # What the front end needs beyond the picture: for each board its size, what can be clicked and the size
    # of the targets it builds for points and segments; for each tray piece its cells (to preview it under
    # the pointer). Sent when it changes, which most clicks do not.
    geometry = traitlets.Dict().tag(sync=True)
    # A message shown on the board: {"text", "tone": "error"|"info", "board", "kind", "at", "to"}.
    notice = traitlets.Dict().tag(sync=True)
    ids = traitlets.Unicode("").tag(sync=True)
    # Counts the scenes shown; the front end copies it to data-revision once it has drawn that scene
    # (a hook for tests and tools that wait for a redraw, even of an identical picture).
    revision = traitlets.Int(0).tag(sync=True)


Handler = Callable[[Intent], Any]


def _short(text: str) -> str:
    return text if len(text) <= NOTICE_LIMIT else text[: NOTICE_LIMIT - 1] + "…"


def _length(nodes: dict[tuple[int, ...], str]) -> int:
    return sum(map(len, nodes.values()))


def _keyed(nodes: dict[tuple[int, ...], str]) -> dict[str, str]:
    """Nodes under their paths as the widget's `patch` names them: child indices joined by spaces."""
    return {" ".join(map(str, path)): markup for path, markup in nodes.items()}


def _geometry(scene: Scene) -> dict[str, Any]:
    """The widget's `geometry` for a scene: each board's size, what it takes and its targets' sizes, and
    each tray piece's cells."""
    return {
        "boards": {
            b.id: {
                "rows": b.rows,
                "cols": b.cols,
                "clickable": list(b.clickable),
                "pieces": b.accepts_pieces,
                "targets": svg.targets(b),
            }
            for b in scene.boards
        },
        "pieces": {p.id: [list(c.at) for c in p.cells] for p in scene.pieces},
    }


def _entry(node: Tag | str) -> str:
    """A node as the widget's `patch` holds it: an element drawn as one string (a cell, a label) described,
    else its markup."""
    return (isinstance(node, str) and svg.described(node)) or str(node)


class Grid:
    """A board component: give it a Scene, listen for intents, refuse illegal ones with the reason.

        grid = Grid(scene)
        grid.on("cell", lambda intent: ...)   # or "segment", "point", "drop", "any"
        grid                                  # shows the widget in a notebook

    A handler that raises IllegalAction has its reason shown on the board next to where the person
    clicked; the scene stays as it was. Messages that don't fit the scene are refused and shown too.
    """

    def __init__(self, scene: Scene | None = None) -> None:
        self.widget = GridWidget(ids=f"clg{next(_instances)}")
        self.scene = Scene(boards=())
        self._sent: Tag | None = None  # the picture in the widget's `svg`
        self._picture: Tag | None = None  # the picture on screen
        self._patched: set[tuple[int, ...]] = set()  # the paths in the widget's `patch`
        self._shapes: tuple[Any, ...] | None = None  # what the widget's `geometry` was built from
        # Reasons of malformed messages, newest last (for inspection).
        self.refused: deque[str] = deque(maxlen=REFUSALS_KEPT)
        self._handlers: dict[str, list[Handler]] = {}
        self.widget.on_msg(self._receive)
        if scene is not None:
            self.show(scene)

    def show(self, scene: Scene) -> None:
        """Draw a new scene (the notice is cleared)."""
        self.scene = scene
        # Most redraws keep the boards' shapes and the tray's pieces: the geometry is rebuilt (and compared
        # by the trait) only when what it is made of changed.
        shapes = (
            tuple((b.id, b.rows, b.cols, b.clickable, b.accepts_pieces) for b in scene.boards),
            tuple((p.id, tuple(c.at for c in p.cells)) for p in scene.pieces),
        )
        picture = svg.picture(scene, self.widget.ids, style=False)
        patch = self._patch(picture)
        with self.widget.hold_sync():
            if shapes != self._shapes:
                self._shapes = shapes
                self.widget.geometry = _geometry(scene)
            if patch is None:
                markup = str(picture)
                grown = self._grown(picture, markup)
                self._sent, self._patched = picture, set()
                self.widget.svg = markup
                self.widget.svg_from = -1 if grown is None else self.widget.revision
                patch = _keyed(grown or {})
            self.widget.patch = patch
            if self.widget.notice:
                self.widget.notice = {}
            self.widget.revision += 1
        self._picture = picture

    @property
    def svg(self) -> str:
        """The picture on screen, as markup (without the scene's CSS, which the widget holds once)."""
        return str(self._picture or "")

    def _patch(self, picture: Tag) -> dict[str, str] | None:
        """`picture`'s nodes that differ from the picture sent whole, and those named since (the page may
        have drawn them differently); None when the picture should be sent whole."""
        if self._sent is None:
            return None
        nodes = self._named(picture, self._patched | set(svg.changes(self._sent, picture)))
        # Every later redraw sends the patch again until the picture is sent whole: past half the picture's
        # length (the one sent whole stands in for it: it is not worth drawing the new one as text to count),
        # sending it whole once is the shorter way.
        if nodes is None or 2 * _length(nodes) >= len(self.widget.svg):
            return None
        self._patched = set(nodes)
        return _keyed(nodes)

    def _grown(self, picture: Tag, markup: str) -> dict[tuple[int, ...], str] | None:
        """The nodes that differ from the picture on screen, sent with `markup` (the picture sent whole) when
        they are under half its length: a page showing that picture then draws only them."""
        if self._picture is None:
            return None
        nodes = self._named(picture, set(svg.changes(self._picture, picture)))
        return nodes if nodes is not None and 2 * _length(nodes) < len(markup) else None

    @staticmethod
    def _named(picture: Tag, paths: set[tuple[int, ...]]) -> dict[tuple[int, ...], str] | None:
        """`picture`'s nodes at `paths` as the widget's `patch` holds them, but those inside another of them
        (in its markup already); None when one of them is the <svg> itself."""
        if () in paths:
            return None
        return {
            path: _entry(picture.at(path))
            for path in sorted(paths)
            if not any(path[:n] in paths for n in range(1, len(path)))
        }

    def on(self, kind: str, handler: Handler) -> None:
        """Call `handler(intent)` for intents of a kind ("cell", "segment", "point", "drop" or "any")."""
        self._handlers.setdefault(kind, []).append(handler)

    def say(self, text: str, intent: Intent | None = None, tone: str = "info") -> None:
        """Show a message on the board, next to the place an intent named (or under the boards)."""
        # A sequence number makes a repeated, identical notice a change the browser shows again.
        notice: dict[str, Any] = {"text": _short(text), "tone": tone, "seq": next(_notices)}
        if intent is not None:
            notice.update(board=intent.board, kind=intent.kind, at=list(intent.at))
            if intent.to is not None:
                notice["to"] = list(intent.to)
        self.widget.notice = notice

    def _receive(self, _widget: Any, content: Any, _buffers: Any) -> None:
        # Runs in the kernel's message loop: nothing raised here may escape, or the widget goes quiet.
        try:
            intent = parse_intent(content, self.scene)
        except BadMessage as err:
            self.refused.append(_short(str(err)))
            self.say(f"Refused a malformed message: {err}", tone="error")
            return
        self.handle(intent)

    def handle(self, intent: Intent) -> None:
        """Pass a checked intent to the handlers; an IllegalAction's reason is shown where it was tried."""
        try:
            for handler in self._handlers.get(intent.kind, []) + self._handlers.get("any", []):
                handler(intent)
        except IllegalAction as refused:
            self.say(refused.reason[:1].upper() + refused.reason[1:], intent, tone="error")
        except Exception:
            log.exception("a grid handler failed on %s", intent)
            self.say("Something went wrong handling that; the game is unchanged.", intent, tone="error")

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)
