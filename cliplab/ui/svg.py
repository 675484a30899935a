"""Scene -> SVG text. Used for _repr_svg_ (boards show on GitHub without a kernel), for export, and by
the widget, whose front end draws this very markup and adds interaction on top of it.

Markup the front end relies on: every board is a <g class="cl-board" data-board=ID> holding its cells
(<g data-kind="cell" data-r data-c>); the invisible targets for clicks on segments and points are built by
the front end from the board's geometry (see `targets`). Tray pieces are <g class="cl-piece" data-piece=ID>
drawn at the origin of their own cells.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from html import escape, unescape
from typing import Any

from .glyphs import GLYPHS
from .scene import PALETTE, SEAT_COLOURS, SEAT_GLYPHS, Board, Cell, Edge, Mark, Piece, Preview, Scene, spoken_cell

UNIT = 40  # pixels per cell in the viewBox; the picture scales to its container
LABEL_HEIGHT = 1.0  # board labels, in cells (clear of tokens on the top row)
LABEL_RISE = 0.6  # a board label's baseline above the board's top edge, in cells: clear of rings on its top row
# Room for the coordinates along a board's left and bottom edges, in cells: numbers of lattice lines sit
# outside the tokens and rings on the outer points; numbers of cells need only their own height.
COORDINATE_MARGIN = {"": 0.0, "cells": 0.5, "points": 0.9}
# Click targets (see `targets`), in cells: a point's radius and half the thickness of a segment's. At the
# smallest board scale in use (34 pixels a cell) a point target is 24 pixels across; a segment is as thick
# from 60 pixels a cell.
POINT_HIT = 0.36
SEGMENT_HIT = 0.2
# Where segments take clicks too, points give up some room: a segment's free middle is 0.4 of a cell.
POINT_HIT_WITH_SEGMENTS = 0.3
STATUS_CHAR_WIDTH = 0.21  # an average character of the status line, in cells
LABEL_CHAR_WIDTH = 0.25  # an average character of a board label (bold, larger), in cells
DARK_FILLS = {"blue", "vermillion", "green", "black"}

STYLE = """
.cl-scene{font-family:var(--jp-ui-font-family,system-ui,sans-serif)}
.cl-scene .cl-label{fill:var(--cl-ink,#1d1d1d);font-size:16px;font-weight:600}
.cl-scene .cl-status{fill:var(--cl-ink,#1d1d1d);font-size:15px}
.cl-scene .cl-lines{stroke:var(--cl-grid,#8a8a8a);stroke-width:1;fill:none}
.cl-scene .cl-frame{stroke:var(--cl-line,#1d1d1d);stroke-width:2;fill:none}
.cl-scene .cl-absent rect{fill:var(--cl-hole,transparent);stroke:none}
.cl-scene .cl-text{font-size:15px;font-weight:700;text-anchor:middle;dominant-baseline:central}
.cl-scene .cl-emphasis rect{stroke:var(--cl-line,#1d1d1d);stroke-width:3}
.cl-scene .cl-edge{stroke-linecap:round;fill:none}
.cl-scene .cl-edge-cut{stroke:var(--cl-line,#1d1d1d);stroke-width:4}
.cl-scene .cl-edge-crack{stroke:#D55E00;stroke-width:5;stroke-dasharray:7 4}
.cl-scene .cl-edge-wall{stroke:var(--cl-line,#1d1d1d);stroke-width:7}
.cl-scene .cl-edge-walkway{stroke:#7a5a2f;stroke-width:6;stroke-dasharray:2 6}
.cl-scene .cl-edge-highlight{stroke:#F0E442;stroke-width:5;stroke-dasharray:9 5}
.cl-scene .cl-edge-highlight-under{stroke:var(--cl-line,#1d1d1d);stroke-width:11;stroke-linecap:round}
.cl-scene .cl-coord{fill:var(--cl-ink-soft,#555);font-size:11px;text-anchor:end;dominant-baseline:central}
.cl-scene .cl-coord-col{text-anchor:middle}
.cl-scene .cl-vacant{fill:none;stroke:#1d1d1d;stroke-width:1.5;stroke-dasharray:4 3;opacity:.7}
.cl-scene .cl-edge-bridge{stroke:#7a5a2f;stroke-width:9;opacity:.7}
.cl-scene .cl-mark{fill:none;stroke-width:3;pointer-events:none}
.cl-scene line.cl-mark{stroke-width:7;stroke-linecap:round}
.cl-scene .cl-mark-target{stroke:#009E73;stroke-dasharray:5 3}
.cl-scene .cl-halo-mark{fill:none;stroke:#ffffff;stroke-width:7;opacity:.9;pointer-events:none}
.cl-scene line.cl-halo-mark{stroke-width:11;stroke-linecap:round}
.cl-scene .cl-mark-last{stroke:#CC79A7}
.cl-scene .cl-mark-ghost{stroke:#0072B2;fill:#0072B2;fill-opacity:.25}
.cl-scene .cl-mark-preview{stroke:#000000;stroke-width:4;fill:#ffffff;fill-opacity:.45}
.cl-scene .cl-mark-lost{stroke:#D55E00;stroke-width:4;fill:#ffffff;fill-opacity:.35}
.cl-scene .cl-mark-fresh{stroke:#E69F00;stroke-width:4;fill:#E69F00;fill-opacity:0;animation:cl-fresh .6s ease-out 3}
@keyframes cl-fresh{from{fill-opacity:.75}to{fill-opacity:0}}
@media (prefers-reduced-motion:reduce){.cl-scene .cl-mark-fresh{animation:none}}
.cl-scene .cl-preview{display:none}
.cl-scene .cl-preview.cl-preview-on{display:inline}
.cl-scene .cl-token circle{stroke:var(--cl-line,#1d1d1d);stroke-width:2}
.cl-scene .cl-token text{fill:#fff;font-size:12px;font-weight:700;text-anchor:middle;dominant-baseline:central}
"""


@dataclass(frozen=True, slots=True)
class Tag:
    """An element drawn as its start tag, its children (each exactly one element's markup or a Tag) and
    `rest`, markup of any number of nodes after them. The widget sends only the children that changed."""

    start: str
    children: tuple[Tag | str, ...] = ()
    rest: str = ""
    end: str = "</g>"

    def __str__(self) -> str:
        return f"{self.start}{''.join(map(str, self.children))}{self.rest}{self.end}"

    def at(self, path: tuple[int, ...]) -> Tag | str:
        """The node reached by following child indices from this one."""
        node: Tag | str = self
        for index in path:
            assert isinstance(node, Tag), f"no child {index} under {node[:40]!r}"
            node = node.children[index]
        return node


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _attrs(**values: object) -> str:
    parts = []
    for key, value in values.items():
        if value is None or value is False:
            continue
        name = key.rstrip("_").replace("_", "-")
        parts.append(f'{name}="{escape(str(value), quote=True)}"')
    return " ".join(parts)


def _glyph(name: str, x: float, y: float, size: float, colour: str) -> str:
    path = GLYPHS.get(name)
    if path is None:
        return ""
    return (
        f'<path d="{path}" fill="{colour}" fill-rule="evenodd" opacity=".85" '
        f'transform="translate({_num(x)} {_num(y)}) scale({_num(size)})"/>'
    )


@lru_cache(maxsize=8192)  # most cells are the same from one redraw to the next
def draw_cell(cell: Cell, x: float, y: float, ids: str | None = None, in_grid: bool = True) -> str:
    """One cell at pixel (x, y): its square, glyph and text; on a board, marked up as a grid cell."""
    r, c = cell.at
    colour, default_glyph, _ = PALETTE.get(cell.fill, (cell.fill, "", cell.fill))
    classes = "cl-cell" + (" cl-absent" if cell.absent else "") + (" cl-emphasis" if cell.emphasis else "")
    attrs = _attrs(
        class_=classes,
        role="gridcell" if in_grid else None,
        id=f"{ids}-c{r}-{c}" if ids else None,
        data_kind="cell" if in_grid else None,
        data_r=r,
        data_c=c,
    )
    # The <title> is both the tooltip and the accessible name: an aria-label saying it again cost a click
    # that changes a cell a second write in the browser, and every picture its length again.
    body = [f"<title>{escape(spoken_cell(cell))}</title>"]
    body.append(f'<rect x="{_num(x)}" y="{_num(y)}" width="{UNIT}" height="{UNIT}" fill="{colour}"/>')
    if cell.vacant and not cell.absent:
        inset = UNIT * 0.1
        body.append(
            f'<rect class="cl-vacant" x="{_num(x + inset)}" y="{_num(y + inset)}" '
            f'width="{_num(UNIT - 2 * inset)}" height="{_num(UNIT - 2 * inset)}" rx="3"/>'
        )
    if not cell.absent:
        glyph = default_glyph if cell.glyph is None else cell.glyph
        ink = "#ffffff" if cell.fill in DARK_FILLS else "#1d1d1d"
        corner = bool(cell.text or cell.badge or cell.stamp)  # the glyph moves to the top-left to make room
        if glyph:
            size = UNIT * (0.42 if corner else 0.56)
            gx = x + (UNIT - size) / 2 if not corner else x + UNIT * 0.06
            gy = y + (UNIT - size) / 2 if not corner else y + UNIT * 0.06
            body.append(_glyph(glyph, gx, gy, size, ink))
        if cell.badge:
            # On a light disc with a dark rim, so it reads the same on every fill.
            cx, cy, radius = x + UNIT * 0.7, y + UNIT * 0.7, UNIT * 0.27
            body.append(
                f'<circle class="cl-badge" cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(radius)}" '
                'fill="#ffffff" stroke="#1d1d1d" stroke-width="1.2"/>'
            )
            size = UNIT * 0.36
            body.append(_glyph(cell.badge, cx - size / 2, cy - size / 2, size, "#1d1d1d"))
        if cell.stamp:
            # Yellow like a token, with a dark rim and a glyph: told apart from the white icon badge.
            cx, cy, radius = x + UNIT * 0.72, y + UNIT * 0.28, UNIT * 0.25
            body.append(
                f'<circle class="cl-stamp" cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(radius)}" '
                f'fill="{PALETTE["yellow"][0]}" stroke="#1d1d1d" stroke-width="1.2"/>'
            )
            size = UNIT * 0.34
            body.append(_glyph(cell.stamp, cx - size / 2, cy - size / 2, size, "#1d1d1d"))
        if cell.text:
            tx, ty = x + UNIT * (0.68 if glyph else 0.5), y + UNIT * (0.68 if glyph else 0.5)
            if cell.badge:  # the badge holds the bottom-right corner: the text takes the top-right
                tx, ty = x + UNIT * 0.74, y + UNIT * 0.26
            body.append(f'<text class="cl-text" x="{_num(tx)}" y="{_num(ty)}" fill="{ink}">{escape(cell.text)}</text>')
    return f"<g {attrs}>{''.join(body)}</g>"


def _grid_lines(board: Board) -> str:
    gone = frozenset(cell.at for cell in board.cells if cell.absent)
    return _outline(board.rows, board.cols, gone) if gone else _lines(board.rows, board.cols)


@lru_cache(maxsize=256)  # the same on every redraw of a board
def _lines(rows: int, cols: int) -> str:
    """Grid lines and the frame of a board without holes."""
    w, h = cols * UNIT, rows * UNIT
    lines = [f"M0 {r * UNIT}H{w}" for r in range(1, rows)]
    lines += [f"M{c * UNIT} 0V{h}" for c in range(1, cols)]
    return f'<path class="cl-lines" d="{"".join(lines)}"/><rect class="cl-frame" width="{w}" height="{h}"/>'


@lru_cache(maxsize=256)
def _outline(rows: int, cols: int, gone: frozenset[tuple[int, int]]) -> str:
    """Grid lines between the cells that are there, and the frame around them (holes get neither)."""

    def there(r: int, c: int) -> bool:
        return 0 <= r < rows and 0 <= c < cols and (r, c) not in gone

    inner: list[str] = []
    frame: list[str] = []
    for r in range(rows + 1):
        for c in range(cols):  # the horizontal side above cell (r, c)
            above, below = there(r - 1, c), there(r, c)
            if above or below:
                (inner if above and below else frame).append(f"M{c * UNIT} {r * UNIT}h{UNIT}")
    for r in range(rows):
        for c in range(cols + 1):  # the vertical side left of cell (r, c)
            left, right = there(r, c - 1), there(r, c)
            if left or right:
                (inner if left and right else frame).append(f"M{c * UNIT} {r * UNIT}v{UNIT}")
    return (
        f'<path class="cl-lines" d="{"".join(inner)}"/>'
        f'<path class="cl-frame" stroke-linecap="square" d="{"".join(frame)}"/>'
    )


def _cross(cx: float, cy: float, half: float, cls: str) -> str:
    """An X over a place: what a "lost" mark adds, so a loss is told by shape and not by colour alone."""
    d = f"M{_num(cx - half)} {_num(cy - half)}L{_num(cx + half)} {_num(cy + half)}"
    d += f"M{_num(cx - half)} {_num(cy + half)}L{_num(cx + half)} {_num(cy - half)}"
    return f'<path class="{cls}" d="{d}"/>'


def _mark(mark: Mark, occupied: frozenset[tuple[int, int]] = frozenset()) -> str:
    shape = _mark_shape(mark, occupied)
    if mark.style != "target":
        return shape
    # A legal target sits on a white halo, so its green dashes show on green squares and dark pieces too.
    halo = re.sub(r'class="[^"]*"', 'class="cl-halo-mark"', shape, count=1)
    return halo + shape


def _mark_shape(mark: Mark, occupied: frozenset[tuple[int, int]]) -> str:
    r, c = mark.at
    cls = f"cl-mark cl-mark-{mark.style}"
    lost = mark.style == "lost"
    if mark.kind == "cell":
        inset = 4
        cross = _cross((c + 0.5) * UNIT, (r + 0.5) * UNIT, UNIT * 0.3, cls) if lost else ""
        return (
            f'<rect class="{cls}" x="{c * UNIT + inset}" y="{r * UNIT + inset}" '
            f'width="{UNIT - 2 * inset}" height="{UNIT - 2 * inset}" rx="4"/>{cross}'
        )
    if mark.kind == "point":
        # Around a token standing on the point (radius 0.36) the ring goes just outside it; on an empty point
        # it stays small, so that the rings of neighbouring points never touch.
        radius = 0.42 if mark.at in occupied else 0.3
        cross = _cross(c * UNIT, r * UNIT, UNIT * 0.26, cls) if lost else ""
        return f'<circle class="{cls}" cx="{c * UNIT}" cy="{r * UNIT}" r="{UNIT * radius:.0f}"/>{cross}'
    assert mark.to is not None
    r2, c2 = mark.to
    return f'<line class="{cls}" x1="{c * UNIT}" y1="{r * UNIT}" x2="{c2 * UNIT}" y2="{r2 * UNIT}"/>'


def _preview(preview: Preview, occupied: frozenset[tuple[int, int]]) -> str:
    """A preview's marks in a hidden group the widget shows while its place is hovered or focused."""
    to = preview.to or ("", "")
    place = "|".join(str(part) for part in (preview.kind, *preview.at, *to))
    marks = "".join(_mark(mark, occupied) for mark in preview.marks)
    note = _attrs(data_note=preview.note or None)
    return f'<g class="cl-preview" aria-hidden="true" data-for="{place}"{" " + note if note else ""}>{marks}</g>'


def _edge(edge: Edge) -> str:
    y1, x1, y2, x2 = (float(v) for v in (*edge.a, *edge.b))
    if edge.style == "link":
        # Drawn across the side, from inside one cell to inside the other: the two cells are joined.
        my, mx, half = (y1 + y2) / 2, (x1 + x2) / 2, 0.16
        if y1 == y2:  # a horizontal side joins the cells above and below it
            y1, y2, x1, x2 = my - half, my + half, mx, mx
        else:
            y1, y2, x1, x2 = my, my, mx - half, mx + half
    # The link's look is inline rather than in STYLE, which every stored picture repeats word for word.
    look = ' stroke="#7a5a2f" stroke-width="8"' if edge.style == "link" else ""
    ends = f'x1="{_num(x1 * UNIT)}" y1="{_num(y1 * UNIT)}" x2="{_num(x2 * UNIT)}" y2="{_num(y2 * UNIT)}"'
    # A highlighted line (this round's cut) is yellow dashes on a wide dark line: seen by its pattern too.
    under = f'<line class="cl-edge cl-edge-highlight-under" {ends}/>' if edge.style == "highlight" else ""
    return f'{under}<line class="cl-edge cl-edge-{edge.style}" {ends}{look}/>'


def targets(board: Board) -> dict[str, float]:
    """The invisible click targets the widget lays over a board for the places it takes besides cells: a
    point's radius and half a segment's thickness, in viewBox pixels. Sent once with the board's geometry
    (the browser builds the targets), never in a picture: a still one takes no clicks."""
    sizes = {}
    if "segment" in board.clickable:
        sizes["segment"] = UNIT * SEGMENT_HIT
    if "point" in board.clickable:
        sizes["point"] = UNIT * (POINT_HIT_WITH_SEGMENTS if "segment" in board.clickable else POINT_HIT)
    return sizes


@lru_cache(maxsize=64)
def _coordinates(rows: int, cols: int, kind: str) -> str:
    """Row numbers left of the board and column numbers under it, as refusals and the log cite them."""
    if not kind:
        return ""
    # Lattice numbers clear a ring around a token on an outer point (0.42 of a cell, and its stroke).
    shift, last, left, below = (0.0, 0, -0.55, 0.7) if kind == "points" else (0.5, 1, -0.3, 0.3)
    left, below = left * UNIT, (rows + below) * UNIT
    text = '<text class="cl-coord" x="{}" y="{}">{}</text>'
    numbers = [text.format(_num(left), _num((r + shift) * UNIT), r) for r in range(rows + 1 - last)]
    numbers += [
        text.format(_num((c + shift) * UNIT), _num(below), c).replace("cl-coord", "cl-coord cl-coord-col")
        for c in range(cols + 1 - last)
    ]
    return f'<g class="cl-coords" aria-hidden="true" data-coordinates="{kind}">{"".join(numbers)}</g>'


def _token_glyph(owner: int) -> str:
    return SEAT_GLYPHS[owner % len(SEAT_GLYPHS)]


@lru_cache(maxsize=256)  # the same on every redraw of a board
def _board_head(
    board_id: str, label: str, rows: int, cols: int, clickable: tuple[str, ...], pieces: bool, coordinates: str
) -> tuple[str, str]:
    """A board's start tag and its label above it."""
    attrs = _attrs(
        class_="cl-board",
        role="grid",
        aria_label=label,
        data_board=board_id,
        data_rows=rows,
        data_cols=cols,
        data_clickable=" ".join(clickable),
        data_accepts_pieces="1" if pieces else None,
    )
    left = -COORDINATE_MARGIN[coordinates] * UNIT
    text = f'<text class="cl-label" x="{_num(left)}" y="{-UNIT * LABEL_RISE:.0f}">{escape(label)}</text>'
    return f"<g {attrs}>", text


def draw_board(board: Board, ids: str | None = None) -> Tag:
    """A board at its own origin (the caller places it): label above, then the grid; each row of cells a child."""
    cells = {cell.at: cell for cell in board.cells}
    prefix = f"{ids}-{board.id}" if ids else None
    rows = []
    for r in range(board.rows):
        # A blank cell is made only where the board has none (a default argument to get() would be made for each).
        row = (draw_cell(cells.get((r, c)) or Cell((r, c)), c * UNIT, r * UNIT, prefix) for c in range(board.cols))
        rows.append(Tag('<g role="row">', tuple(row)))
    edges = "".join(_edge(edge) for edge in board.edges)
    tokens = []
    for token in board.tokens:
        colour = PALETTE[SEAT_COLOURS[token.owner % len(SEAT_COLOURS)]][0]
        r, c = token.at
        radius = UNIT * 0.36
        label = token.label or f"player {token.owner + 1}'s piece"
        # The seat's glyph above, the token's own text below, both inside the disc.
        size = radius * (0.62 if token.text else 1.1)
        top = r * UNIT - (radius * 0.88 if token.text else size / 2)
        glyph = _glyph(_token_glyph(token.owner), c * UNIT - size / 2, top, size, "#ffffff")
        text = (
            f'<text x="{c * UNIT}" y="{r * UNIT + radius * 0.4:.1f}">{escape(token.text)}</text>' if token.text else ""
        )
        attrs = _attrs(class_=f"cl-token cl-seat-{token.owner}", data_r=r, data_c=c, aria_label=label)
        tokens.append(
            f"<g {attrs}><title>{escape(label)}</title>"
            f'<circle cx="{c * UNIT}" cy="{r * UNIT}" r="{radius:.0f}" fill="{colour}"/>{glyph}{text}</g>'
        )
    start, label = _board_head(
        board.id, board.label, board.rows, board.cols, board.clickable, board.accepts_pieces, board.coordinates
    )
    # Marks and previews come after the tokens, so a hint on an occupied place is drawn over its piece.
    occupied = frozenset(token.at for token in board.tokens)
    marks = "".join(_mark(m, occupied) for m in board.marks) + "".join(_preview(p, occupied) for p in board.previews)
    coordinates = _coordinates(board.rows, board.cols, board.coordinates)
    rest = _grid_lines(board) + coordinates + edges + "".join(tokens) + marks
    return Tag(start, (label, *rows), rest)


def draw_piece(piece: Piece) -> str:
    cells = "".join(draw_cell(cell, cell.at[1] * UNIT, cell.at[0] * UNIT, in_grid=False) for cell in piece.cells)
    label = piece.label or f"piece {piece.id}, {len(piece.cells)} squares"
    attrs = _attrs(class_="cl-piece", role="button", data_piece=piece.id, aria_label=label)
    return f"<g {attrs}>{cells}</g>"


def _layout(
    sizes: Iterable[tuple[float, float]], gap: float, wrap: int
) -> tuple[list[tuple[float, float]], float, float]:
    """Place boxes (w, h in cells) left to right, starting a new row past `wrap` cells."""
    places, x, y, row_h, width = [], 0.0, 0.0, 0.0, 0.0
    for w, h in sizes:
        if x > 0 and x + w > wrap:
            x, y, row_h = 0.0, y + row_h + gap + LABEL_HEIGHT, 0.0
        places.append((x, y + LABEL_HEIGHT))
        x += w + gap
        row_h = max(row_h, h)
        width = max(width, x - gap)
    return places, width, y + row_h + LABEL_HEIGHT


def render(scene: Scene, ids: str | None = None) -> str:
    """The whole scene as one <svg> that scales to the width of its container.

    `ids` prefixes element ids (needed by the widget for keyboard focus); static pictures leave it out.
    """
    return str(picture(scene, ids))


def picture(scene: Scene, ids: str | None = None, style: bool = True) -> Tag:
    """What render() draws, as a Tag: the <svg> whose children are the title, the style (unless `style` is
    false: the widget holds STYLE once for every picture), a <g> around each board, the tray and the status."""
    # A board takes the width of its label when that is wider, so labels of narrow boards never overlap;
    # its coordinates take a margin on its left and below it.
    margins = [COORDINATE_MARGIN[b.coordinates] for b in scene.boards]
    boxes = zip(scene.boards, margins, strict=True)
    sizes = ((max(b.cols + m, len(b.label) * LABEL_CHAR_WIDTH), b.rows + m) for b, m in boxes)
    places, width, height = _layout(sizes, scene.board_gap, scene.wrap)
    parts: list[Tag | str] = [
        Tag(f'<g transform="translate({_num((x + m) * UNIT)} {_num(y * UNIT)})">', (draw_board(board, ids),))
        for board, m, (x, y) in zip(scene.boards, margins, places, strict=True)
    ]
    if scene.pieces:
        tray_sizes = [(1 + max(c.at[1] for c in p.cells), 1 + max(c.at[0] for c in p.cells)) for p in scene.pieces]
        tray_places, tray_w, tray_h = _layout(tray_sizes, 0.5, max(scene.wrap, int(width)))
        tray = [f'<g class="cl-tray" transform="translate(0 {_num(height * UNIT)})">']
        tray.append(f'<text class="cl-label" x="0" y="{UNIT * 0.5:.0f}">{escape(scene.tray_label)}</text>')
        for piece, (x, y) in zip(scene.pieces, tray_places, strict=True):
            tray.append(f'<g transform="translate({_num(x * UNIT)} {_num(y * UNIT)})">{draw_piece(piece)}</g>')
        parts.append("".join(tray) + "</g>")
        width, height = max(width, tray_w), height + tray_h
    if scene.status:
        baseline = height + scene.status_gap
        parts.append(f'<text class="cl-status" x="0" y="{_num(baseline * UNIT)}">{escape(scene.status)}</text>')
        height = baseline + 0.25
        width = max(width, len(scene.status) * STATUS_CHAR_WIDTH)
    pad = UNIT * 0.45  # room for tokens standing on the outer corners
    view = f"{-pad} {-pad} {_num(width * UNIT + 2 * pad)} {_num(height * UNIT + 2 * pad)}"
    head = [f"<title>{escape(scene.title)}</title>"] if scene.title else []
    if style:
        head.append(f"<style>{STYLE}</style>")
    start = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="cl-scene" viewBox="{view}" '
        f'width="100%" style="max-width:{_num((width * UNIT + 2 * pad) * scene.zoom)}px" role="group" '
        f'aria-label="{escape(scene.title or "boards", quote=True)}">'
    )
    return Tag(start, (*head, *parts), end="</svg>")


def changes(old: Tag, new: Tag, path: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    """Paths (child indices from `new`) of the nodes that differ from `old`'s: an element whose own tag,
    `rest` or number of children changed is named whole."""
    if old.start != new.start or old.rest != new.rest or len(old.children) != len(new.children):
        return [path]
    found: list[tuple[int, ...]] = []
    for i, (was, now) in enumerate(zip(old.children, new.children, strict=True)):
        if was == now:
            continue
        if isinstance(was, Tag) and isinstance(now, Tag):
            found += changes(was, now, (*path, i))
        else:
            found.append((*path, i))
    return found


# Reading back a node's markup, which is our own: attributes double-quoted, values and text escaped.
_MARKUP = re.compile(r'<([a-z][\w-]*)((?:\s+[a-z][\w-]*="[^"]*")*)\s*(/?)>|</([a-z][\w-]*)>|([^<]+)')
_ATTRIBUTE = re.compile(r'([a-z][\w-]*)="([^"]*)"')


@lru_cache(maxsize=8192)  # a click changes a few cells, mostly into cells drawn before
def described(markup: str) -> str | None:
    """One element's markup as the widget's front end builds it without parsing markup: JSON [name,
    {attribute: value}, text or [child, ...]] (values and text unescaped). None for anything else, or for
    an element that holds both text and elements."""
    top: list[Any] | None = None
    inside: list[list[Any]] = []  # the elements open at this point, innermost last
    at = 0
    for token in _MARKUP.finditer(markup):
        name, attributes, closed, end, text = token.groups()
        if token.start() != at:
            return None
        at = token.end()
        if name:
            element: list[Any] = [name, {key: unescape(value) for key, value in _ATTRIBUTE.findall(attributes)}, []]
            if inside:
                if isinstance(inside[-1][2], str):
                    return None  # an element beside text
                inside[-1][2].append(element)
            elif top is None:
                top = element
            else:
                return None  # a second element
            if not closed:
                inside.append(element)
        elif end:
            if not inside or inside[-1][0] != end:
                return None
            inside.pop()
        elif not inside or inside[-1][2]:
            return None  # text outside the element, or beside elements
        else:
            inside[-1][2] = unescape(text)
    if at != len(markup) or inside or top is None:
        return None
    return json.dumps(top, separators=(",", ":"))
