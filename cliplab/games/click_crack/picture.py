"""Click & Crack at the shared table (cliplab.ui.table_app): the floe, what a click on it means, and the
controls the floe cannot take (secret tiles, the tile to carry out, a side to push, a half to break off).

A click on the floe, for the person to decide:
- placing: a point places a penguin there;
- setting tiles in secret: two clicks, each a point next to one of your penguins (a walk that way) or a
  line starting at one (a break that way);
- carrying out tiles: a penguin carries out the selected tile (or your one walk tile) with it; a point
  next to one of your penguins walks it there, a line starting at one breaks that way;
- a penguin pushed off the edge: the point where it should slide;
- equal halves: a tile of the half that breaks off.
The teaching notebook's live floe uses the same mapping: `click_action`, `tile_at` and `click_marks`.
`click_previews` shows, while a place is hovered, what the engine makes of a click there, played on a copy.
"""

from __future__ import annotations

import functools
import html
import random
from collections.abc import Sequence
from typing import Any

import ipywidgets as w

from cliplab.engine import Action, IllegalAction, State
from cliplab.grid import Point, segment_points, step
from cliplab.ui import Intent, Mark, Scene
from cliplab.ui.scene import Kind, Preview
from cliplab.ui.table_app import Picture, button, swatch

from .board import describe
from .rules import DIRS, KINDS, SIZE, BreakOff, ClickCrack, Pass, Perform, Place, PushAside, SetTiles

ARROWS = {"N": "↑", "E": "→", "S": "↓", "W": "←"}


def tile_text(kind: str, direction: str) -> str:
    return f"{kind} {direction} {ARROWS[direction]}"


def heading(a: tuple[int, int], b: tuple[int, int]) -> str | None:
    """The direction from point `a` to its neighbour `b`, or None."""
    return next((d for d in DIRS if step(a, d) == b), None)


def open_tiles(game: ClickCrack, seat: int) -> list[tuple[str, str]]:
    """The tiles `seat` may carry out now, in the order the engine lists them."""
    return list(dict.fromkeys((a.kind, a.direction) for a in game.legal_actions(seat) if isinstance(a, Perform)))


def click_action(game: ClickCrack, seat: int, intent: Intent, tile: tuple[str, str] | None = None) -> Action:
    """The action a click on the floe stands for (`tile`: the tile selected beside the board, if any).

    The engine then judges it; a click that names nothing raises IllegalAction with a hint. (While tiles
    are set in secret a click names a tile instead: see `tile_at`.)
    """
    kind, at = intent.kind, intent.at
    mine = {game.pos[p]: p for p in game.penguins_of(seat)}
    if game.phase == "place" and kind == "point":
        return Place(*at)
    if game.phase == "break" and kind == "cell":
        half = next((h for h in game.halves if at in h), None)
        if half is None:
            raise IllegalAction("break", f"tile {at[0]},{at[1]}", "click a tile of one of the two equal halves")
        return BreakOff(*min(half))
    if game.phase == "push" and kind == "point":
        chosen = [side for side, moves in game.push_sides.items() if any(to == at for _, to in moves)]
        if not chosen:
            raise IllegalAction("push", f"point {at[0]},{at[1]}", "click a ringed point where the penguin may slide")
        return PushAside(chosen[0])
    if game.phase == "perform" and kind == "point":
        if at in game.pos:  # a penguin: carry out the selected tile with it, or the one walk tile left
            walks = sorted({d for k, d in game.unused_tiles(seat) if k == "walk"})
            if tile is None and len(walks) > 1:
                raise IllegalAction("walk", f"point {at[0]},{at[1]}", "you have two walk tiles: click where to walk")
            kind_, way = tile or ("walk", (walks or ["N"])[0])
            return Perform(kind_, way, game.pos.index(at))
        for penguin_at, penguin in mine.items():  # a point next to one of yours: walk there
            direction = heading(penguin_at, at) if penguin_at is not None else None
            if direction:
                return Perform("walk", direction, penguin)
    if game.phase == "perform" and kind == "segment" and intent.to is not None:
        for a, b in ((intent.at, intent.to), (intent.to, intent.at)):  # a line from one of yours: break it
            if a in mine:
                return Perform("break", heading(a, b) or "N", mine[a])
    raise IllegalAction(
        game.phase, f"{kind} {at[0]},{at[1]}", "click one of your penguins, a point next to it or a line from it"
    )


def tile_at(game: ClickCrack, seat: int, intent: Intent) -> tuple[str, str]:
    """The tile a click names while tiles are set in secret: a point next to one of your penguins is a walk
    that way, a line starting at one of them a break that way."""
    mine = [at for p in game.penguins_of(seat) if (at := game.pos[p]) is not None]
    if intent.kind == "point":
        for at in mine:
            if direction := heading(at, intent.at):
                return "walk", direction
    if intent.kind == "segment" and intent.to is not None:
        for a, b in ((intent.at, intent.to), (intent.to, intent.at)):
            if a in mine:
                return "break", heading(a, b) or "N"
    raise IllegalAction("secret tiles", intent.kind, "click a point next to your penguin or a line from it")


# What a click on the floe may name in each phase (see click_action and tile_at).
CLICKABLE: dict[str, tuple[Kind, ...]] = {
    "place": ("point",),
    "program": ("point", "segment"),
    "perform": ("point", "segment"),
    "push": ("point",),
    "break": ("cell",),
}


def click_marks(game: ClickCrack, seat: int, tile: tuple[str, str] | None = None) -> tuple[Mark, ...]:
    """What the person deciding may click: placing points; the penguins that can carry out the selected
    tile (or, with none selected, each walk as a line to a ring and each break as a line); where a pushed
    penguin may slide; the halves that may break off."""
    legal = game.legal_actions(seat) if seat in game.to_move() else []
    marks: list[Mark] = []
    for action in legal:
        if isinstance(action, Place):
            marks.append(Mark("point", (action.row, action.col)))
        elif isinstance(action, BreakOff):
            marks.append(Mark("cell", (action.row, action.col)))
        elif isinstance(action, Perform) and (at := game.pos[action.penguin]) is not None:
            if tile is not None:
                if (action.kind, action.direction) == tile:
                    marks.append(Mark("point", at))
                continue
            to = step(at, action.direction)
            line = Mark("segment", min(at, to), max(at, to), "ghost" if action.kind == "walk" else "target")
            marks += [line, Mark("point", to)] if action.kind == "walk" else [line]
        elif isinstance(action, PushAside):
            # Where the penguin pushed aside would slide.
            moves = game.push_sides[action.direction]
            marks += [
                Mark("point", to) for p, to in moves if (at := game.pos[p]) and heading(at, to) == action.direction
            ][:1]
    return tuple(marks)


Spot = tuple[Kind, Point, Point | None]  # what a click names: a kind of place, where, and a segment's far end


def _places(clickable: tuple[Kind, ...]) -> list[Spot]:
    """Every place of the floe a click of the `clickable` kinds may name."""
    places: list[Spot] = []
    lattice = [(r, c) for r in range(SIZE + 1) for c in range(SIZE + 1)]
    if "point" in clickable:
        places += [("point", at, None) for at in lattice]
    if "segment" in clickable:
        for r, c in lattice:
            places += [("segment", (r, c), to) for to in ((r, c + 1), (r + 1, c)) if max(to) <= SIZE]
    if "cell" in clickable:
        places += [("cell", (r, c), None) for r in range(SIZE) for c in range(SIZE)]
    return places


def outcome_marks(before: ClickCrack, after: ClickCrack) -> tuple[tuple[Mark, ...], str]:
    """What changed from `before` to `after` as marks and words: where penguins go or fall, the line that
    cracks, the tiles that break off, the choice still to make and the points scored."""
    marks: list[Mark] = []
    words: list[str] = []
    for penguin, (was, now) in enumerate(zip(before.pos, after.pos, strict=True)):
        if was is None or was == now:
            continue
        if now is None:
            marks.append(Mark("point", was, style="lost"))
            words.append(f"penguin {penguin} falls")
        else:
            marks.append(Mark("point", now, style="preview"))
            words.append(f"penguin {penguin} to point {now[0]},{now[1]}")
    for crack in sorted(after.cracks - before.cracks):
        a, b = segment_points(crack)
        marks.append(Mark("segment", a, b, "preview"))
        words.append(f"cracks the line {a[0]},{a[1]}-{b[0]},{b[1]}")
    gone = sorted(before.main - after.main)
    marks += [Mark("cell", at, style="lost") for at in gone]
    if gone:
        words.append(f"{len(gone)} tile{'s' if len(gone) != 1 else ''} break off")
    if after.phase == "push":
        for moves in after.push_sides.values():
            marks += [Mark("point", to, style="ghost") for _, to in moves]
        words.append("then you choose the side the penguin is pushed to")
    if after.phase == "break":
        marks += [Mark("cell", at, style="ghost") for half in after.halves for at in sorted(half)]
        words.append("the floe splits into equal halves: you choose which breaks off")
    scores = enumerate(zip(before.scores, after.scores, strict=True))
    words += [f"player {seat} {now - was:+d} points" for seat, (was, now) in scores if now != was]
    if after.ended:
        words.append("the game ends")
    return tuple(marks), "; ".join(words) or "nothing changes"


def click_previews(
    game: ClickCrack, seat: int, tile: tuple[str, str] | None, clickable: tuple[Kind, ...]
) -> tuple[Preview, ...]:
    """For each place a click may name now, what the engine makes of that click, played on a copy of the
    game (the same `click_action` a real click goes through, so a preview is never a second rule book)."""
    if seat not in game.to_move() or game.phase not in ("perform", "push", "break"):
        return ()
    legal = game.legal_actions(seat)
    previews = []
    for kind, at, to in _places(clickable):
        try:
            action = click_action(game, seat, Intent("floe", kind, at, to), tile)
        except IllegalAction:
            continue
        if action not in legal:
            continue
        # A view takes no actions: the click is played on a game consistent with it (while tiles are carried
        # out nothing is hidden).
        after = game.determinize(random.Random(0))
        assert isinstance(after, ClickCrack)
        after.apply(action, seat)
        marks, note = outcome_marks(game, after)
        previews.append(Preview(kind, at, marks, to, f"{capital_words(action)}: {note}"))
    return tuple(previews)


def capital_words(action: Action) -> str:
    """An action as the start of a preview's words, e.g. "Walk E with penguin 2"."""
    if isinstance(action, Perform):
        return f"{action.kind.capitalize()} {action.direction} {ARROWS[action.direction]} with penguin {action.penguin}"
    if isinstance(action, PushAside):
        return f"Push {action.direction}"
    if isinstance(action, BreakOff):
        return "Break off this half"
    return str(action)


class ClickCrackPicture(Picture):
    """The floe for everyone, with the controls a person needs beside it."""

    secret_words = "set their tiles in secret"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.selected: tuple[str, str] | None = None  # the tile chosen beside the board
        self.picked: list[tuple[Intent, tuple[str, str]]] = []  # tiles set so far by clicks, in secret

    def reset(self) -> None:
        self.selected = None
        self.picked = []

    def _tile(self, game: ClickCrack, seat: int) -> tuple[str, str] | None:
        tiles = open_tiles(game, seat) if game.phase == "perform" else []
        if self.selected not in tiles:
            self.selected = tiles[0] if tiles else None
        return self.selected

    def scene(self, view: State, seat: int, acting: bool) -> Scene:
        assert isinstance(view, ClickCrack)
        if not acting:
            return describe(view, clickable=())
        tile = self._tile(view, seat)
        clickable = CLICKABLE.get(view.phase, ()) if view.phase != "perform" or tile else ()
        picked = tuple(
            Mark("segment" if intent.to else "point", intent.at, intent.to, "ghost") for intent, _ in self.picked
        )
        previews = click_previews(view, seat, tile, clickable)
        return describe(view, click_marks(view, seat, tile) + picked, clickable, previews)

    def click(self, view: State, seat: int, intent: Intent) -> Action | None:
        assert isinstance(view, ClickCrack)
        if view.phase == "program":
            self.picked.append((intent, tile_at(view, seat, intent)))
            if len(self.picked) < 2:
                return None
            (_, first), (_, second) = self.picked
            self.picked = []
            return SetTiles(*first, *second)
        return click_action(view, seat, intent, self._tile(view, seat))

    def controls(self, view: State, seat: int) -> tuple[str, list[w.Widget]]:
        assert isinstance(view, ClickCrack)
        who = f"{swatch(seat)} <b>{html.escape(self.app.who(seat))}</b>"
        legal = view.legal_actions(seat)
        if view.phase == "program":
            picked = f" First tile: {tile_text(*self.picked[0][1])}." if self.picked else ""
            return (
                f"{who}: choose both tiles, then lock them in (or click twice on the floe: a point next to a "
                f"penguin of yours walks that way, a line from it breaks).{picked}",
                self._setting(seat),
            )
        if view.phase == "place":
            return f"{who}: click an intersection to place a penguin.", []
        if view.phase == "push":
            return f"{who}: a penguin would be pushed off the floe. Which side does it go?", [
                button(
                    f"Push it {a.direction} {ARROWS[a.direction]}",
                    f"cc-push-{a.direction}",
                    functools.partial(self.app.do, a),
                )
                for a in legal
                if isinstance(a, PushAside)
            ]
        if view.phase == "break":
            return f"{who}: the floe split into equal halves. Choose the half that breaks off.", [
                button(
                    f"Break off the half with tile {a.row},{a.col}",
                    f"cc-half-{a.row}-{a.col}",
                    functools.partial(self.app.do, a),
                )
                for a in legal
                if isinstance(a, BreakOff)
            ]
        if legal == [Pass()]:
            return f"{who}: no tile can be carried out, so you pass.", [
                button("Pass", "cc-pass", lambda: self.app.do(Pass()), "warning")
            ]
        return f"{who}: pick a tile, then click one of your highlighted penguins.", self._perform(view, seat, legal)

    def _setting(self, seat: int) -> list[w.Widget]:
        rows: list[w.Widget] = []
        choices = []
        for number in (1, 2):
            kind = w.ToggleButtons(options=KINDS, value="walk", description=f"Tile {number}")
            kind.add_class(f"cc-kind-{number}")
            direction = w.ToggleButtons(options=[(ARROWS[d] + " " + d, d) for d in DIRS], value="N")
            direction.add_class(f"cc-dir-{number}")
            rows += [kind, direction]
            choices.append((kind, direction))

        def lock() -> None:
            (k1, d1), (k2, d2) = ((k.value, d.value) for k, d in choices)
            self.app.do(SetTiles(k1, d1, k2, d2))

        return [*rows, button("Lock in", "cc-lock", lock, "primary")]

    def _perform(self, view: ClickCrack, seat: int, legal: Sequence[Any]) -> list[w.Widget]:
        selected = self._tile(view, seat)
        tiles = []
        for tile in open_tiles(view, seat):
            picked = tile == selected
            # The chosen tile stands out by more than a shade: a tick, its own colour and the word "chosen".
            text = f"\u2714 {tile_text(*tile)} (chosen)" if picked else tile_text(*tile)
            chosen = button(text, f"cc-tile-{tile[0]}-{tile[1]}", functools.partial(self._select, tile))
            chosen.button_style = "primary" if picked else ""
            if picked:
                chosen.add_class("cc-chosen")
            tiles.append(chosen)
        penguins = [
            button(
                f"{a.kind} {a.direction} with penguin {a.penguin}",
                f"cc-do-{a.penguin}",
                functools.partial(self.app.do, a),
            )
            for a in legal
            if isinstance(a, Perform) and (a.kind, a.direction) == selected
        ]
        return [w.HTML("Your tiles:"), w.HBox(tiles), w.HTML("Or choose here:"), *penguins]

    def _select(self, tile: tuple[str, str]) -> None:
        self.selected = tile
        self.app.refresh()

    def seat_facts(self, view: State, seat: int) -> dict[str, str]:
        assert isinstance(view, ClickCrack)
        return {"penguins": str(len(view.penguins_of(seat)))}

    def reveal_words(self, state: State, index: int) -> str:
        action = state.log[index][1]
        assert isinstance(action, SetTiles)
        return " and ".join(tile_text(kind, direction) for kind, direction in action.tiles)
