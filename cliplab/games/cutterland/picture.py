"""Cutterland at the shared table (cliplab.ui.table_app): cut, pick, join, place tokens, feed dragons.

- Cut: each card in hand is a board; click the lines between its cells to cut or mend them. The pieces
  the cuts make are numbered as they form, and the line under the boards says whether the cut is legal
  (the engine's reason when not); the "Cut card N" button cuts.
- Pick: click any cell of a piece on the table (resting the pointer on it outlines the piece).
- Join: the piece waits in the tray. Drag it onto the kingdom, or click it, turn it with R (or the
  turn button) and click where its top-left corner goes; the ghost shows where it would land. Clicking
  a lit cell of the kingdom joins it there as it is turned now, with a ghost shown on hover.
- Tokens: click a cell with a monster for a tower, the line between two cells for a wall; for a bridge
  click one end, then a lit cell two steps away. "Keep the rest" keeps the tokens left (1 point each).
- Dragons: the hungry dragon is ringed; click the monster it eats.
- The hunt, once the game is over: played on the board step by step from the game's record of it, one
  kraken's catch or dragon's meal at a time (the hunter ringed, its prey flashing, the walls, bridges and
  towers that changed its hunt lit), with play and pause, Back and Next.
"""

from __future__ import annotations

import html
from functools import partial
from typing import Any

import ipywidgets as w

from cliplab.engine import CHANCE, Action, IllegalAction, State
from cliplab.grid import edge_between, segment_points
from cliplab.ui import Intent, Mark, Preview, Scene
from cliplab.ui.scene import Board, Piece
from cliplab.ui.table_app import Picture, button

from .board import (
    bridge_edges,
    card_board,
    describe,
    eaten_in,
    kingdom_board,
    land_cell,
    status_line,
    table_board,
    window,
)
from .content import CARD_COLS, CARD_ROWS, MONSTERS
from .rules import (
    KEEP,
    SCORE_LINES,
    Bridge,
    Cutterland,
    Deal,
    Feed,
    HuntStep,
    Join,
    Kingdom,
    Pair,
    Take,
    Tower,
    Wall,
    cut_of,
    cut_problem,
    joined_cells,
    joins,
    piece_cells,
    pieces_cut_by,
)

MOST_PIECES = 9  # a cut names its pieces with the digits 1-9
HUNT_PACE_MS = 2000  # how long each step of the hunt stays on screen while it plays: time to read its line


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def step_words(step: HuntStep, kingdom: Kingdom, name: str) -> str:
    """One step of the hunt in words: who eats whom, and what a wall, a bridge or a tower changed."""

    def listed(cells: tuple[tuple[int, int], ...]) -> str:
        return ", ".join(f"the {MONSTERS[kingdom.monster(cell)]} at {cell[0]},{cell[1]}" for cell in cells)

    at = f"{step.hunter[0]},{step.hunter[1]}"
    if step.kind == "dragon":
        words = f"{name}: the dragon at {at} eats {listed(step.prey)}"
        if step.walls:
            words += f"; {_plural(len(step.walls), 'wall')} on its region's edge keep land beyond out of its reach"
        if step.bridges:
            words += f"; its region reaches over {_plural(len(step.bridges), 'bridge')}"
        return words + "."
    words = f"{name}: the kraken at {at} " + (f"eats {listed(step.prey)}" if step.prey else "eats nothing")
    over = tuple(end for bridge in step.bridges for end in bridge if end != step.hunter)
    if over:
        words += f"; a bridge brings it {listed(over)}"
    if step.walled:
        words += f"; {'a wall keeps' if len(step.walls) == 1 else 'walls keep'} it from {listed(step.walled)}"
    if step.towered:
        words += f"; {'a tower saves' if len(step.towered) == 1 else 'towers save'} {listed(step.towered)}"
    return words + "."


def _game(view: State) -> Cutterland:
    assert isinstance(view, Cutterland)
    return view


def _on_card(cell: tuple[int, int]) -> bool:
    return 0 <= cell[0] < CARD_ROWS and 0 <= cell[1] < CARD_COLS


def wall_action(a: tuple[int, int], b: tuple[int, int]) -> Wall:
    """The wall on the segment between two side-by-side kingdom cells, named from its west or north cell."""
    (r, c), (r2, _) = sorted((a, b))
    return Wall("south" if r2 > r else "east", r, c)


class CutterlandPicture(Picture):
    own_boards = True

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.hunt_step = 0
        self.reset()
        # The hunt's player is made once: the timer of its play button must outlive the redraws it causes.
        self.hunt_play = w.Play(min=0, max=0, interval=HUNT_PACE_MS, show_repeat=False, description="Hunt")
        self.hunt_play.add_class("ct-hunt-play")
        self.hunt_play.observe(lambda change: self.show_hunt_step(change["new"]), names="value")
        self.hunt_words = w.HTML()
        self.hunt_words.add_class("ct-hunt-step")
        self.hunt_player = w.VBox(
            [
                w.HTML("<b>Watch the hunt</b> (play, pause, or step with Back and Next)"),
                w.HBox(
                    [
                        self.hunt_play,
                        button("Back", "ct-hunt-back", lambda: self.show_hunt_step(self.hunt_step - 1)),
                        button("Next", "ct-hunt-next", lambda: self.show_hunt_step(self.hunt_step + 1)),
                    ],
                    layout=w.Layout(flex_flow="row wrap", align_items="center"),
                ),
                self.hunt_words,
            ]
        )
        self.hunt_player.add_class("ct-hunt-player")

    def reset(self) -> None:
        table = self.app.table
        if table is None or not table.game.is_over():
            self.hunt_step = 0  # the step of the hunt on the board once the game is over (0: its end)
        self.cuts: dict[int, set[Pair]] = {}  # card number -> the segments cut so far
        self.card = 0  # the card last cut at
        self.turns = 0  # how the held piece is turned for clicks on the kingdom
        self.bridge_from: tuple[int, int] | None = None  # a bridge's first end (kingdom cell)
        self.cell_token = "tower"  # what a click on a kingdom cell places: "tower" or "bridge"

    # ----- drawing ------------------------------------------------------------------------------------

    def scene(self, view: State, seat: int, acting: bool) -> Scene:
        game = _game(view)
        phase = game.phase
        boards: list[Board] = []
        pieces: tuple[Piece, ...] = ()
        kingdom = None
        if phase == "cut" and acting:
            boards += [self._hand_card(game, number) for number in sorted(game.hands[seat])]
        elif phase in ("take", "join"):
            if phase == "take" and acting:
                boards.append(self._table_to_pick(game))
            else:
                boards.append(table_board(game))
        if phase == "join" and acting:
            kingdom, pieces = self._kingdom_to_join(game, seat)
        elif phase == "tokens" and acting:
            kingdom = self._kingdom_for_tokens(game, seat)
        elif phase == "dragons" and acting:
            kingdom = self._kingdom_to_feed(game, seat)
        steps = game.hunt_steps() if phase == "over" else []
        if 0 < self.hunt_step <= len(steps):
            return self._hunt_scene(game, steps)
        boards.append(kingdom or kingdom_board(game, seat))
        status = self._status(game, seat) if acting else status_line(game)
        return Scene(tuple(boards), pieces, title="Cutterland", status=status, tray_label="Your piece")

    def _hunt_scene(self, game: Cutterland, steps: list[HuntStep]) -> Scene:
        """The kingdom of the hunt's step `hunt_step` as it stands after that step: its hunter ringed, its
        prey flashing, the monsters a wall or a tower kept from it and the walls and bridges that mattered lit."""
        step = steps[self.hunt_step - 1]
        shift = window(game, step.seat)
        marks = [Mark("cell", shift.board_cell(step.hunter), style="last")]
        marks += [Mark("cell", shift.board_cell(cell), style="fresh") for cell in step.prey]
        marks += [Mark("cell", shift.board_cell(cell)) for cell in (*step.walled, *step.towered)]
        marks += [Mark("segment", *segment_points((shift.board_cell(a), shift.board_cell(b)))) for a, b in step.walls]
        marks += [Mark("segment", edge.a, edge.b) for bridge in step.bridges for edge in bridge_edges(bridge, shift)]
        eaten = eaten_in(steps[: self.hunt_step], step.seat)
        board = kingdom_board(game, step.seat, marks, eaten=eaten)
        status = f"Hunt step {self.hunt_step} of {len(steps)}: {self.app.who(step.seat)}'s {step.kind}"
        return Scene((board,), title="Cutterland", status=status)

    def show_hunt_step(self, number: int) -> None:
        """Put step `number` of the hunt on the board (0: the end of the game, everything eaten)."""
        view = self.app.screen_view()
        steps = _game(view).hunt_steps()
        number = max(0, min(number, len(steps)))
        self.hunt_step = number
        if self.hunt_play.value != number:
            self.hunt_play.value = number  # its observer comes back here to draw
            return
        self.hunt_words.value = self._hunt_step_words(_game(view), steps)
        self.app.grid.show(self.scene(view, self.app.view_seat, False))

    def _hunt_step_words(self, game: Cutterland, steps: list[HuntStep]) -> str:
        if not steps:
            return "Nobody was eaten."
        if self.hunt_step == 0:
            return html.escape(f"The hunt took {_plural(len(steps), 'step')}: press play, or Next, to watch it.")
        step = steps[self.hunt_step - 1]
        words = step_words(step, game.kingdom(step.seat), self.app.who(step.seat))
        return f"Step {self.hunt_step} of {len(steps)}: {html.escape(words)}"

    def end_controls(self, view: State, seat: int) -> list[w.Widget]:
        game = _game(view)
        steps = game.hunt_steps()
        self.hunt_play.max = len(steps)
        self.hunt_play.value = min(self.hunt_step, len(steps))
        self.hunt_words.value = self._hunt_step_words(game, steps)
        return [self.hunt_player]

    def _hand_card(self, game: Cutterland, number: int) -> Board:
        cuts = self.cuts.get(number, set())
        labels = pieces_cut_by(cuts) if cuts else None
        marks = tuple(Mark("segment", *segment_points(cut)) for cut in sorted(cuts))
        return card_board(number, f"card-{number}", f"Card {number}", labels, (), marks, ("segment",), piece_fills=True)

    def _table_to_pick(self, game: Cutterland) -> Board:
        marks: list[Mark] = []
        previews = []
        for piece in game.pieces_left:
            outline = tuple(Mark("cell", cell, style="preview") for cell in piece_cells(game.cut_labels, piece))
            for cell in piece_cells(game.cut_labels, piece):
                marks.append(Mark("cell", cell))
                previews.append(Preview("cell", cell, outline))
        return table_board(game, marks, ("cell",), tuple(previews))

    def _kingdom_to_join(self, game: Cutterland, seat: int) -> tuple[Board, tuple[Piece, ...]]:
        shift = window(game, seat)
        legal = [join for join in joins(game.kingdoms[seat], game.holding) if join.turns == self.turns]
        marks, previews = [], []
        for join in legal:
            at = shift.board_cell((join.row, join.col))
            ghost = tuple(
                Mark("cell", shift.board_cell(cell), style="ghost") for cell, _ in joined_cells(game.holding, join)
            )
            marks.append(Mark("cell", at))
            previews.append(Preview("cell", at, ghost))
        held = tuple(land_cell(cell, code) for cell, code in game.holding)
        tray = (Piece("held", held, label=f"the piece to join ({len(held)} cells)"),)
        board = kingdom_board(game, seat, marks, ("cell",), tuple(previews), accepts_pieces=True)
        return board, tray

    def _kingdom_for_tokens(self, game: Cutterland, seat: int) -> Board:
        shift = window(game, seat)
        marks: list[Mark] = []
        bridging = self._cell_token(game, seat) == "bridge"
        for action in game.token_placements(seat):
            if isinstance(action, Tower) and not bridging:
                marks.append(Mark("cell", shift.board_cell((action.row, action.col))))
            elif isinstance(action, Wall) and self.bridge_from is None:
                a = (action.row, action.col)
                b = (a[0] + 1, a[1]) if action.side == "south" else (a[0], a[1] + 1)
                marks.append(Mark("segment", *segment_points((shift.board_cell(a), shift.board_cell(b)))))
            elif isinstance(action, Bridge) and bridging:
                ends = self._bridge_ends(action)
                if self.bridge_from is None:
                    marks += [Mark("cell", shift.board_cell(end)) for end in ends]
                elif self.bridge_from in ends:
                    other = ends[1] if ends[0] == self.bridge_from else ends[0]
                    marks.append(Mark("cell", shift.board_cell(other)))
        if self.bridge_from is not None:
            marks.append(Mark("cell", shift.board_cell(self.bridge_from), style="last"))
        unique = tuple(dict.fromkeys(marks))
        return kingdom_board(game, seat, unique, ("cell", "segment"))

    @staticmethod
    def _bridge_ends(action: Bridge) -> tuple[tuple[int, int], tuple[int, int]]:
        a = (action.row, action.col)
        return a, ((a[0] + 2, a[1]) if action.side == "south" else (a[0], a[1] + 2))

    def _kingdom_to_feed(self, game: Cutterland, seat: int) -> Board:
        shift = window(game, seat)
        dragon = game.hungry[0][1]
        marks = [Mark("cell", shift.board_cell(dragon), style="last")]
        for action in game.legal_actions(seat):
            assert isinstance(action, Feed)
            marks.append(Mark("cell", shift.board_cell((action.prey_row, action.prey_col))))
        return kingdom_board(game, seat, marks, ("cell",))

    # ----- clicks -------------------------------------------------------------------------------------

    def click(self, view: State, seat: int, intent: Intent) -> Action | None:
        game = _game(view)
        phase = game.phase
        if phase == "cut":
            return self._cut_click(intent)
        if phase == "take":
            if intent.board != "table" or intent.kind != "cell":
                raise IllegalAction("picking", intent.kind, "click a piece on the table")
            return Take(game.cut_labels[intent.at[0] * CARD_COLS + intent.at[1]])
        shift = window(game, seat)
        if intent.board != f"kingdom-{seat}":
            raise IllegalAction("joining" if phase == "join" else phase, intent.board, "click your own kingdom")
        if phase == "join":
            row, col = shift.kingdom_cell(intent.at)
            turns = intent.turns if intent.kind == "drop" else self.turns
            return Join(row, col, turns)
        if phase == "tokens":
            return self._token_click(game, seat, intent)
        prey = shift.kingdom_cell(intent.at)
        return Feed(*game.hungry[0][1], *prey)

    def _cut_click(self, intent: Intent) -> Action | None:
        if intent.kind != "segment" or not intent.board.startswith("card-") or intent.to is None:
            raise IllegalAction("cutting", intent.kind, "click a line between two cells of a card")
        number = int(intent.board.removeprefix("card-"))
        a, b = edge_between(intent.at, intent.to)
        if not (_on_card(a) and _on_card(b)):
            raise IllegalAction("cutting", "the card's edge", "the card's own edge is not cut: click a line inside it")
        cuts = self.cuts.setdefault(number, set())
        cuts.symmetric_difference_update({(a, b)})
        self.card = number
        return None

    def note(self, view: State, seat: int, intent: Intent) -> str | None:
        """Beside a cut line just clicked: why the card's cut is not legal yet (the engine's reason)."""
        game = _game(view)
        cuts = self.cuts.get(self.card)
        if game.phase != "cut" or intent.kind != "segment" or not cuts:
            return None
        problem = cut_problem(pieces_cut_by(cuts), game.pieces_per_card)
        return f"Not a legal cut yet: {problem}" if problem else None

    def _token_click(self, game: Cutterland, seat: int, intent: Intent) -> Action | None:
        shift = window(game, seat)
        if intent.kind == "segment" and intent.to is not None:
            a, b = (shift.kingdom_cell(cell) for cell in edge_between(intent.at, intent.to))
            self.bridge_from = None
            return wall_action(a, b)
        cell = shift.kingdom_cell(intent.at)
        if self._cell_token(game, seat) == "tower":
            return Tower(*cell)
        if self.bridge_from is None:
            if cell not in game.kingdoms[seat]:
                raise IllegalAction("tokens", f"{cell[0]},{cell[1]}", "a bridge starts on a cell of your kingdom")
            self.bridge_from = cell
            return None
        start, self.bridge_from = self.bridge_from, None
        if start == cell:
            return None
        (r, c), (r2, c2) = sorted((start, cell))
        if (r2 - r, c2 - c) not in ((0, 2), (2, 0)):
            raise IllegalAction(
                "tokens", f"{cell[0]},{cell[1]}", "a bridge's ends are two steps apart in a row or column"
            )
        return Bridge("south" if r2 > r else "east", r, c)

    def _cell_token(self, game: Cutterland, seat: int) -> str:
        """What a cell click places now: the chosen kind if it is held, else the other (towers first)."""
        held = game.tokens[seat]
        if held[self.cell_token]:
            return self.cell_token
        return "bridge" if held["bridge"] else "tower"

    # ----- controls -----------------------------------------------------------------------------------

    def _status(self, game: Cutterland, seat: int) -> str:
        phase = game.phase
        if phase == "cut":
            cuts = self.cuts.get(self.card)
            if not cuts:
                return f"Cut one of your cards into {game.pieces_per_card} pieces: click the lines between cells."
            labels = pieces_cut_by(cuts)
            problem = cut_problem(labels, game.pieces_per_card)
            if problem:
                return f"Card {self.card}, not cut yet: {problem}."
            return f"Card {self.card}: {len(set(labels))} pieces, ready to cut."
        if phase == "take":
            return "Click a piece on the table to take it."
        if phase == "join":
            return f"Join the piece to your kingdom (turned {90 * self.turns} degrees): click a lit cell, or drag it."
        if phase == "tokens":
            held = ", ".join(f"{count} {kind}" for kind, count in game.tokens[seat].items() if count)
            start = (
                f" Bridge from {self.bridge_from[0]},{self.bridge_from[1]}: click its other end."
                if self.bridge_from
                else ""
            )
            how = (
                "click a lit cell for a tower"
                if self._cell_token(game, seat) == "tower"
                else "click a bridge's first end"
            )
            return f"Place your tokens ({held}) or keep them: {how}, a line between two cells for a wall.{start}"
        dragon = game.hungry[0][1]
        return f"The dragon at {dragon[0]},{dragon[1]} eats: click its prey."

    def controls(self, view: State, seat: int) -> tuple[str, list[w.Widget]]:
        game = _game(view)
        who = f"<b>{html.escape(self.app.who(seat))}</b>"
        phase = game.phase
        if phase == "cut":
            cut_buttons = []
            for number in sorted(game.hands[seat]):
                cuts = self.cuts.get(number)
                if cuts and max(pieces_cut_by(cuts)) <= MOST_PIECES:
                    cut_buttons.append(
                        button(f"Cut card {number}", f"ct-cut-{number}", partial(self._do_cut, number), "primary")
                    )
            return f"{who}: {html.escape(self._status(game, seat))}", cut_buttons
        if phase == "join":
            turn = button("Turn the piece (R)", "ct-turn", self._turn)
            return f"{who}: {html.escape(self._status(game, seat))}", [turn]
        if phase == "tokens":
            found: list[w.Widget] = [button("Keep the rest (1 point each)", "ct-keep", lambda: self.app.do(KEEP))]
            held = game.tokens[seat]
            if held["tower"] and held["bridge"]:
                mode = w.ToggleButtons(
                    options=[("Cells take towers", "tower"), ("Cells take bridges", "bridge")],
                    value=self._cell_token(game, seat),
                )
                mode.add_class("ct-mode")
                mode.observe(lambda change: self._set_cell_token(change["new"]), names="value")
                found.append(mode)
            return f"{who}: {html.escape(self._status(game, seat))}", found
        return f"{who}: {html.escape(self._status(game, seat))}", []

    def _do_cut(self, number: int) -> None:
        self.app.do(cut_of(number, pieces_cut_by(self.cuts.get(number, set()))))

    def _set_cell_token(self, kind: str) -> None:
        self.cell_token, self.bridge_from = kind, None
        self.app.refresh()

    def _turn(self) -> None:
        self.turns = (self.turns + 1) % 4
        self.app.refresh()

    def doing(self, view: State, seat: int) -> str:
        return {"cut": "cuts a card", "take": "takes a piece", "join": "joins a piece", "tokens": "places tokens"}.get(
            _game(view).phase, "feeds a dragon"
        )

    def seat_facts(self, view: State, seat: int) -> dict[str, str]:
        game = _game(view)
        held = ", ".join(f"{count} {kind}" for kind, count in game.tokens[seat].items() if count) or "-"
        return {"Cards": str(len(game.hands[seat])), "Tokens": held, "Cells": str(len(game.kingdoms[seat]))}

    def side(self, view: State, seat: int) -> str:
        game = _game(view)
        rows = []
        for who in range(game.players):
            lines = "".join(
                f"<tr><td>{html.escape(words)}</td><td class='ct-points'>{points}</td></tr>"
                for words, points in zip(SCORE_LINES, game.score_lines(who), strict=True)
            )
            total = sum(game.score_lines(who))
            rows.append(
                f"<div class='ct-score ct-score-{who}'><b>{html.escape(self.app.who(who))}</b>"
                f"<table>{lines}<tr><td><b>total</b></td><td class='ct-total'><b>{total}</b></td></tr></table></div>"
            )
        when = "" if game.phase == "over" else " (if the hunt came now)"
        hunt = self._hunt_words(game) if game.phase in ("dragons", "over") else ""
        return f"{hunt}<div class='ct-scores'><b>Scores, line by line{when}</b>{''.join(rows)}</div>"

    def _hunt_words(self, game: Cutterland) -> str:
        """The hunt in order, step by step, in words."""
        steps = [step_words(step, game.kingdom(step.seat), self.app.who(step.seat)) for step in game.hunt_steps()]
        items = "".join(f"<li>{html.escape(step)}</li>" for step in steps) or "<li>nobody is eaten</li>"
        return f"<div class='ct-hunt'><b>The hunt, step by step</b><ol>{items}</ol></div>"

    def entry_words(self, state: State, index: int) -> str | None:
        seat, action = state.log[index]
        if seat == CHANCE and isinstance(action, Deal):
            return f"Card {action.card} is dealt to player {action.seat}"
        return str(action)

    def tag(self, view: State, seat: int) -> dict[str, Any]:
        game = _game(view)
        return {"phase": game.phase, "turns": self.turns, "tokens": sum(game.tokens[seat].values())}


__all__ = ["CutterlandPicture", "describe"]
