"""ClipCut Parks drawn as a board description: one player's park sheet, face-up cards and loose sections.

The sheet shows the squares still in it (the rest drawn as holes), every cut made so far and, stronger,
this round's cuts. Each face-up card is a board of its own: an empty space shows what it asks for in a
pale version of the colour (with the colour's glyph), an icon, or nothing; a covered space shows the
park square lying on it in full colour, as on the sheet, with a yellow disc bearing the token's glyph
where a token waived the space's need. Sections waiting to be built lie in the tray, ready to be dragged
onto a card. `Clicks` turns a click or a drop on these boards into an action, the same on the dashboard
and in the teaching notebook.

Colours follow Okabe-Ito, each with a glyph: pavilions orange with a tent, water sky blue with a wave,
greenery green with a tree, play areas reddish purple with a person. Wildlife and recycling icons sit
on a small white badge in the square's corner (a paw, a recycling triangle); a gardener token is a sprout.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import replace
from itertools import pairwise
from typing import Literal

from cliplab.engine import Action, IllegalAction
from cliplab.grid import DIRECTIONS, Point, edge_between, segment_points
from cliplab.ui.intents import Intent
from cliplab.ui.scene import PALETTE, Board, Cell, Edge, Kind, Mark, Piece, Preview, Scene

from .content import COLOURS, DIE_FACES, SHEET_COLS, SHEET_ROWS, Square
from .explain import why_illegal
from .rules import DIRS, ClipCutParks, Cut, Keep, Place, card_of, sheet_of, waiver

CardRef = tuple[str, int]
MarkStyle = Literal["target", "last", "ghost"]

# Park colour -> (palette key, glyph, spoken name).
COLOUR_LOOK: dict[str, tuple[str, str, str]] = {
    "pavilion": ("orange", "tent", "pavilion (tents)"),
    "water": ("sky", "wave", "water"),
    "greenery": ("green", "tree", "greenery (trees)"),
    "play": ("purple", "person", "play area (people)"),
}
ICON_GLYPHS = {"wildlife": "paw", "recycling": "recycling"}
TOKEN_GLYPHS = ICON_GLYPHS | {"gardener": "sprout"}
BONUS_WORDS = {
    "wildlife": "a wildlife token",
    "recycling": "a recycling token",
    "gardener": "a gardener token",
    "cut": "an immediate 1 or 2 cut",
}
DIRECTION_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}
SHEET_BOARD = "sheet"


def _tint(hex_colour: str, amount: float = 0.55) -> str:
    """The colour mixed with white: an empty card space that asks for it (lighter than a real square)."""
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    mix = (round(v + (255 - v) * amount) for v in (r, g, b))
    return "#" + "".join(f"{v:02X}" for v in mix)


REQUIREMENT_FILLS = {colour: _tint(PALETTE[key][0]) for colour, (key, _, _) in COLOUR_LOOK.items()}


def die_text(face: int) -> str:
    """A die face as the lengths it asks for, e.g. "1-2-3"."""
    return "-".join(str(n) for n in DIE_FACES[face - 1]) if 1 <= face <= len(DIE_FACES) else "not rolled"


def card_id(ref: CardRef) -> str:
    return f"{ref[0]}-{ref[1]}"


def card_ref(board_id: str) -> CardRef | None:
    """The card a board id names ("park-12" -> ("park", 12)), or None."""
    kind, _, number = board_id.partition("-")
    if kind in ("park", "grand") and number.isdigit():
        return kind, int(number)
    return None


def card_title(ref: CardRef) -> str:
    """e.g. "Park 12 Playground Gate" or "Grand park 3 Botanic Quarter"."""
    kind = "Park" if ref[0] == "park" else "Grand park"
    return f"{kind} {ref[1]} {card_of(ref).name}"


def square_words(square: Square) -> str:
    words = COLOUR_LOOK[square.colour][2]
    return f"{words} with a {square.icon} icon" if square.icon else words


def square_cell(at: tuple[int, int], square: Square, label: str) -> Cell:
    """A park square as drawn on the sheet, on a card or in the tray."""
    key, glyph, _ = COLOUR_LOOK[square.colour]
    return Cell(at, fill=key, glyph=glyph, label=label, badge=ICON_GLYPHS.get(square.icon, ""))


def seat_to_show(state: ClipCutParks) -> int:
    movers = state.to_move()
    return movers[0] if movers else 0


# ----- the sheet ---------------------------------------------------------------------------------------


def start_points(state: ClipCutParks, seat: int) -> list[Point]:
    """Points from which a legal cut starts now (in reading order)."""
    if seat not in state.to_move() or state.stage[seat] not in ("cut", "bonus"):
        return []
    return sorted({(a.row, a.col) for a in state.legal_cuts(seat) if isinstance(a, Cut)})


def cuts_from(state: ClipCutParks, seat: int, point: Point) -> dict[Point, Cut]:
    """The legal cuts with an end at `point`, by their other end (a line may be named from either end)."""
    if seat not in state.to_move() or state.stage[seat] not in ("cut", "bonus"):
        return {}
    found = {}
    for action in state.legal_cuts(seat):
        if not isinstance(action, Cut):
            continue
        first, last = action.points[0], action.points[-1]
        if first == point:
            found[last] = action
        elif last == point:
            found.setdefault(first, action)
    return found


def cut_between(start: Point, end: Point) -> Cut | None:
    """The cut running straight from `start` to `end`, or None if they are not on one line."""
    dr, dc = end[0] - start[0], end[1] - start[1]
    if (dr == 0) == (dc == 0):
        return None
    length = abs(dr) + abs(dc)
    step = (dr // length, dc // length)
    direction = next(name for name, delta in DIRECTIONS.items() if delta == step)
    return Cut(length, start[0], start[1], direction)


def cut_preview(state: ClipCutParks, seat: int, end: Point, cut: Cut) -> Preview:
    """What a cut ending at `end` would do, made by the engine on a copy of the game: the line it runs
    along and the squares that would come free (or the equal parts one of which must be kept)."""
    # A view takes no actions: the cut is played on a game consistent with it (what it hides, the order of
    # the piles, plays no part in what a cut frees).
    after = state.determinize(random.Random(0))
    assert isinstance(after, ClipCutParks)
    after.apply(cut, seat)
    marks = [Mark("segment", p, q, "preview") for p, q in pairwise(cut.points)]
    freed = [after.sections[seat][n] for n in sorted(set(after.sections[seat]) - set(state.sections[seat]))]
    marks += [Mark("cell", at, style="lost") for section in freed for at in section]
    if freed:
        sizes = ", ".join(str(len(section)) for section in freed)
        words = f"frees {len(freed)} section{'s' if len(freed) > 1 else ''} ({sizes} squares)"
    elif after.stage[seat] == "keep":
        marks += [Mark("cell", at, style="ghost") for part in after.tied[seat] for at in sorted(part)]
        words = f"leaves {len(after.tied[seat])} equal largest parts: you then choose the one that stays"
    else:
        words = "frees nothing yet"
    return Preview("point", end, tuple(marks), note=f"{capital_words(cut_words(cut))}: {words}")


def capital_words(text: str) -> str:
    return text[:1].upper() + text[1:]


def _sheet_board(state: ClipCutParks, seat: int, start: Point | None, interactive: bool) -> Board:
    number = state.sheet_number[seat]
    sheet = sheet_of(max(number, 0))
    present = state.sheet[seat]
    cells = []
    for r in range(SHEET_ROWS):
        for c in range(SHEET_COLS):
            if (r, c) in present:
                cells.append(square_cell((r, c), sheet.square((r, c)), square_words(sheet.square((r, c)))))
            else:
                cells.append(Cell((r, c), absent=True, label="cut out"))
    # Every cut that still borders the sheet; this round's cuts again on top, highlighted.
    edges = [
        Edge(*segment_points(seg), style="cut")
        for seg in sorted(state.cuts[seat])
        if seg[0] in present or seg[1] in present
    ]
    fresh = []
    for a, b, _axis in state.round_cuts[seat]:
        length = abs(b[0] - a[0]) + abs(b[1] - a[1])
        dr, dc = (b[0] - a[0]) // length, (b[1] - a[1]) // length
        for k in range(length):
            p, q = (a[0] + k * dr, a[1] + k * dc), (a[0] + (k + 1) * dr, a[1] + (k + 1) * dc)
            side = edge_between(p, q)
            if side[0] in present or side[1] in present:
                fresh.append(Edge(p, q, style="highlight"))
    edges = fresh + edges
    marks: list[Mark] = []
    previews: list[Preview] = []
    clickable: tuple[Kind, ...] = ()
    stage = state.stage[seat] if seat in state.to_move() else "done"
    if interactive and stage in ("cut", "bonus"):
        clickable = ("point",)
        ends = cuts_from(state, seat, start) if start is not None else {}
        if start is not None and ends:  # the chosen end, and the other ends of the cuts it may be part of
            marks.append(Mark("point", start, style="last"))
            marks.extend(Mark("point", end) for end in sorted(ends))
            previews.extend(cut_preview(state, seat, end, cut) for end, cut in sorted(ends.items()))
        else:
            marks.extend(Mark("point", p) for p in start_points(state, seat))
    elif interactive and stage == "keep":
        clickable = ("cell",)
        styles: tuple[MarkStyle, ...] = ("ghost", "last", "target")  # parts told apart by their marks
        for k, part in enumerate(state.tied[seat]):
            marks.extend(Mark("cell", at, style=styles[k % len(styles)]) for at in sorted(part))
    where = "standard park sheet" if number <= 0 else f"park sheet {number} of the pad"
    owner = "Your" if state.players == 1 else f"Player {seat}'s"
    return Board(
        SHEET_BOARD,
        f"{owner} {where}",
        SHEET_ROWS,
        SHEET_COLS,
        tuple(cells),
        tuple(edges),
        marks=tuple(marks),
        clickable=clickable,
        previews=tuple(previews),
        coordinates="points",
    )


# ----- the cards ---------------------------------------------------------------------------------------


def requirement_cell(at: tuple[int, int], wanted: str) -> Cell:
    """An empty card space, showing what it asks for; its dashed outline tells it from a covered one."""
    if wanted in COLOURS:
        _, glyph, words = COLOUR_LOOK[wanted]
        return Cell(at, fill=REQUIREMENT_FILLS[wanted], glyph=glyph, label=f"empty, needs {words}", vacant=True)
    if wanted in ICON_GLYPHS:
        return Cell(at, fill="paper", glyph=ICON_GLYPHS[wanted], label=f"empty, needs a {wanted} icon", vacant=True)
    return Cell(at, fill="paper", glyph="", label="empty, blank: any square", vacant=True)


def _walkway_edges(walkways: Iterable[tuple[tuple[int, int], ...]]) -> list[Edge]:
    """Each walkway as the borders it crosses between the spaces it joins."""
    edges = []
    for walkway in walkways:
        joined = set(walkway)
        for r, c in walkway:
            if (r, c + 1) in joined:
                edges.append(Edge((r, c + 1), (r + 1, c + 1), style="link"))
            if (r + 1, c) in joined:
                edges.append(Edge((r + 1, c), (r + 1, c + 1), style="link"))
    return edges


def waived_spaces(state: ClipCutParks, seat: int, ref: CardRef) -> dict[tuple[int, int], str]:
    """The covered spaces of a card whose requirement a token waived, with that token: the engine's own
    waiver rule applied to the square lying on each space (a token is spent exactly where it says one is)."""
    card = card_of(ref)
    sheet = sheet_of(max(state.sheet_number[seat], 0))
    waived = {}
    for space, (_, square_at) in state.covered[seat].get(ref, {}).items():
        square = sheet.square(square_at)
        token = waiver(card.requirement(space), square.colour, square.icon)
        if token is not None:
            waived[space] = token
    return waived


def card_board(state: ClipCutParks, seat: int, ref: CardRef, interactive: bool = False) -> Board:
    card = card_of(ref)
    sheet = sheet_of(max(state.sheet_number[seat], 0))
    covered = state.covered[seat].get(ref, {})
    waived = waived_spaces(state, seat, ref)
    walkway_of = {cell: k for k, walkway in enumerate(card.walkways) for cell in walkway}
    cells = []
    for r in range(card.rows):
        for c in range(card.cols):
            at = (r, c)
            if at not in card.cells:
                cells.append(Cell(at, absent=True, label="not a space of the card"))
                continue
            wanted = card.requirement(at)
            path = ", on a walkway" if at in walkway_of else ""
            if at in covered:
                section, square_at = covered[at]
                square = sheet.square(square_at)
                label = f"covered by section {section}: {square_words(square)} (space needs {wanted}{path})"
                cell = square_cell(at, square, label)
                if at in waived:
                    token = waived[at]
                    label += f"; a {token} token waived its need"
                    cell = replace(cell, label=label, stamp=TOKEN_GLYPHS[token])
                cells.append(cell)
            else:
                cell = requirement_cell(at, wanted)
                cells.append(replace(cell, label=cell.label + path))
    building = interactive and seat in state.to_move() and state.stage[seat] == "build"
    return Board(
        card_id(ref),
        card_title(ref),
        card.rows,
        card.cols,
        tuple(cells),
        tuple(_walkway_edges(card.walkways)),
        accepts_pieces=building,
        coordinates="cells",
    )


# ----- the tray ---------------------------------------------------------------------------------------


def section_piece(state: ClipCutParks, seat: int, section: int, flipped: bool = False) -> Piece:
    """A loose section as a tray piece (id "s<number>"), its squares relative to its own corner.

    `flipped` draws it mirrored left to right (for games that allow sections to be turned over).
    """
    squares = state.sections[seat][section]
    sheet = sheet_of(max(state.sheet_number[seat], 0))
    r0 = min(r for r, _ in squares)
    c0 = min(c for _, c in squares)
    c1 = max(c for _, c in squares)
    cells = []
    for r, c in squares:
        square = sheet.square((r, c))
        at = (r - r0, (c1 - c) if flipped else (c - c0))
        cells.append(square_cell(at, square, square_words(square)))
    tally = section_words(state, seat, section)
    return Piece(f"s{section}", tuple(cells), label=f"section {section}: {tally}")


def section_words(state: ClipCutParks, seat: int, section: int) -> str:
    """e.g. "3 squares: 2 water, 1 greenery (trees); 1 wildlife icon"."""
    squares = state.sections[seat][section]
    sheet = sheet_of(max(state.sheet_number[seat], 0))
    colours: dict[str, int] = {}
    icons: dict[str, int] = {}
    for at in squares:
        square = sheet.square(at)
        colours[square.colour] = colours.get(square.colour, 0) + 1
        if square.icon:
            icons[square.icon] = icons.get(square.icon, 0) + 1
    size = len(squares)
    text = f"{size} square{'s' if size != 1 else ''}: " + ", ".join(
        f"{n} {COLOUR_LOOK[colour][2]}" for colour, n in sorted(colours.items(), key=lambda kv: -kv[1])
    )
    if icons:
        text += "; " + ", ".join(f"{n} {icon} icon{'s' if n != 1 else ''}" for icon, n in icons.items())
    return text


# ----- the whole table ----------------------------------------------------------------------------------


def status_line(state: ClipCutParks, seat: int) -> str:
    if state.ended:
        return f"Game over after {state.round} rounds: {state.ended}."
    if state.phase != "play":
        return "Setting up."
    parts = [f"Round {state.round}", f"die {die_text(state.face)}"]
    # The solo game ends when a round starts with the pile empty; any game at its round limit.
    if state.solo and not state.pile[seat]:
        parts.insert(0, "\u26a0 Last round: the pile is empty")
    elif state.round >= state.option("round_limit"):
        parts.insert(0, "\u26a0 Last round")
    stage = state.stage[seat]
    if stage == "bonus":
        parts.append("bonus cut: 1 or 2")
    else:
        left = "-".join(str(n) for n in sorted(state.to_cut[seat])) or "none"
        parts.append(f"cuts left {left}")
    held = [f"{n} {token}" for token, n in state.tokens[seat].items() if n]
    parts.append("tokens " + (", ".join(held) if held else "none"))
    parts.append(f"crumpled {len(state.crumpled[seat])}")
    if state.solo:
        parts.append(f"completed {len(state.completed[seat])}, pile {len(state.pile[seat])}")
    else:
        parts.append(f"completed {len(state.completed[seat])} of {state.dealt[seat]}")
    return " · ".join(parts)


def describe(
    state: ClipCutParks,
    seat: int | None = None,
    start: Point | None = None,
    marks: dict[str, tuple[Mark, ...]] | None = None,
    interactive: bool = False,
    flipped: bool = False,
    zoom: float = 0.85,
) -> Scene:
    """One player's table as a Scene: their sheet, face-up cards and the sections waiting to be built.

    `seat` defaults to the first player to move. `interactive` makes the scene something to click: the
    sheet takes points while cutting (the legal start points marked, or, once `start` is chosen, the
    other ends of the legal cuts from it) and squares while a tie of largest parts is chosen; cards take
    dropped sections while building. `marks` adds marks per board id. `flipped` mirrors the tray's sections.
    """
    if seat is None:
        seat = seat_to_show(state)
    boards = [_sheet_board(state, seat, start, interactive)]
    boards += [card_board(state, seat, ref, interactive) for ref in state.face_up[seat]]
    if marks:
        boards = [replace(b, marks=b.marks + marks.get(b.id, ())) for b in boards]
    pieces = tuple(section_piece(state, seat, section, flipped) for section in state.pending[seat])
    title = "ClipCut Parks" + ("" if state.players == 1 else f", player {seat}")
    return Scene(
        tuple(boards),
        pieces,
        title=title,
        status=status_line(state, seat),
        # 34 pixels a square (cut points 24 pixels across): the sheet and two cards side by side fit a
        # 1280x720 screen with the table beside them; the zoom control makes them larger for a room.
        zoom=zoom,
        wrap=23,
        tray_label="Sections to build" if pieces else "Pieces",
        status_gap=0.9,  # clear of the rings on the sheet's bottom edge
    )


# ----- what a click means ---------------------------------------------------------------------------------


class Clicks:
    """The mapping from a click or a drop on a seat's boards to an action, with the little it remembers
    between clicks: the chosen start of a cut, and whether the tray shows sections turned over."""

    def __init__(self) -> None:
        self.start: Point | None = None
        self.flipped = False

    def scene(self, game: ClipCutParks, seat: int, acting: bool) -> Scene:
        if self.start is not None and (not acting or not cuts_from(game, seat, self.start)):
            self.start = None  # nothing can be cut from the chosen point any more
        return describe(game, seat, self.start, interactive=acting, flipped=self.flipped)

    def action(self, game: ClipCutParks, seat: int, intent: Intent) -> Action | None:
        """The action a click or drop stands for, or None when it chose (or dropped) the start of a cut."""
        stage = game.stage[seat] if seat in game.to_move() else "done"
        if intent.kind == "point" and stage in ("cut", "bonus"):
            return self._point(game, seat, intent.at)
        if intent.kind == "cell" and stage == "keep":
            return Keep(*intent.at)
        if intent.kind == "drop" and stage == "build":
            ref = card_ref(intent.board)
            if ref is None or intent.piece is None:
                raise IllegalAction("build", intent.kind, "drop the section onto one of your cards")
            turns = intent.turns + (4 if self.flipped else 0)
            return Place(int(intent.piece.removeprefix("s")), ref[0], ref[1], intent.at[0], intent.at[1], turns)
        raise IllegalAction(stage, intent.kind, HINTS.get(stage, "nothing to click here now"))

    def _point(self, game: ClipCutParks, seat: int, point: Point) -> Action | None:
        """The first click chooses one end of a cut (the ringed starts, or any end of a legal cut), the
        second its other end; the engine names the line from whichever end a cut may start at."""
        starts = start_points(game, seat)
        if self.start is None:
            if point not in starts and not cuts_from(game, seat, point):
                raise not_a_start(game, seat, point)
            self.start = point
            return None
        if point == self.start:
            self.start = None
            return None
        legal = cuts_from(game, seat, self.start)
        if point in legal:
            return legal[point]
        cut = cut_between(self.start, point)
        wanted = game.lengths_to_cut(seat)
        if cut is not None and cut.length in wanted:
            return cut  # not a legal cut: refused with the engine's reason
        if point in starts or cuts_from(game, seat, point):  # a change of mind: start from here instead
            self.start = point
            return None
        if cut is None:
            r, c = self.start
            raise IllegalAction(
                "cut",
                f"from {r},{c} to {point[0]},{point[1]}",
                f"a cut runs straight along one line: end it in row {r} or column {c} of the points, "
                "or click the start point again to choose another",
            )
        return cut


HINTS = {
    "cut": "click a ringed point of the sheet to start a cut",
    "bonus": "click a ringed point of the sheet to start your bonus cut",
    "keep": "click a square of the part that should stay your sheet",
    "build": "drag a section from the tray onto a card",
}


def not_a_start(game: ClipCutParks, seat: int, point: Point) -> IllegalAction:
    """Why no cut can start at `point`, in the engine's words."""
    lengths = sorted({1, 2} if game.stage[seat] == "bonus" else set(game.to_cut[seat]))
    reasons = []
    for direction in DIRS:
        for length in lengths:
            cut = Cut(length, point[0], point[1], direction)
            rule, reason = why_illegal(game, seat, cut)
            reasons.append((rule, cut, reason))
    useful = [entry for entry in reasons if "run off" not in entry[2]] or reasons
    rule, cut, reason = useful[0]
    return IllegalAction(rule, cut, reason, seat)


# ----- words for the log ----------------------------------------------------------------------------------


def cut_words(cut: Cut) -> str:
    end = cut.points[-1]
    return f"a {cut.length} cut from point {cut.row},{cut.col} {DIRECTION_WORDS[cut.direction]} to {end[0]},{end[1]}"
