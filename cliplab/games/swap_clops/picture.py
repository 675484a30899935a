"""Swap Clops at the shared table (cliplab.ui.table_app): the board, and swaps made by two clicks.

The first click picks a clop: it and its legal partners (every other clop of its shape) are marked, and
resting the pointer on a partner outlines the clops that swap would collect. A click on a partner swaps
the two; a click on the picked clop again, or on another shape, picks anew. When
no swap exists, a Pass button stands beside the board.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w

from cliplab.engine import CHANCE, Action, IllegalAction, State
from cliplab.ui import Intent, Mark, Preview, Scene
from cliplab.ui.table_app import Picture, button

from .board import describe, tile_words
from .content import LIKES, tile
from .rules import Draw, Pass, Swap, SwapClops, place_of, space_of


def _game(view: State) -> SwapClops:
    assert isinstance(view, SwapClops)
    return view


def partners(game: SwapClops, space: int) -> list[int]:
    """The spaces whose clops may swap with the one at `space` (same shape, anywhere)."""
    found = []
    for swap in game.swaps():
        ends = (space_of(swap.row_a, swap.col_a), space_of(swap.row_b, swap.col_b))
        if space in ends:
            found.append(ends[1] if ends[0] == space else ends[0])
    return found


def _swap_of(first: int, second: int) -> Swap:
    return Swap(*place_of(min(first, second)), *place_of(max(first, second)))


class SwapClopsPicture(Picture):
    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.picked: int | None = None

    def reset(self) -> None:
        self.picked = None

    def scene(self, view: State, seat: int, acting: bool) -> Scene:
        game = _game(view)
        if not acting:
            return describe(game)
        if self.picked is None:
            return describe(game, (), clickable=("cell",))
        found = partners(game, self.picked)
        marks = tuple(Mark("cell", place_of(space), style="target") for space in [self.picked, *found])
        previews = []
        labels = {}
        for space in found:
            taken = game.outcome_of(_swap_of(self.picked, space))
            previews.append(
                Preview("cell", place_of(space), tuple(Mark("cell", place_of(t), style="preview") for t in taken))
            )
            labels[space] = f"a swap here collects {len(taken)} clops" if taken else "a swap here collects nothing"
        return describe(game, marks, clickable=("cell",), previews=tuple(previews), labels=labels)

    def click(self, view: State, seat: int, intent: Intent) -> Action | None:
        game = _game(view)
        space = space_of(*intent.at)
        if intent.kind != "cell":
            raise IllegalAction("swap", intent.kind, "click a clop")
        if not game.board[space]:
            raise IllegalAction("swap", f"space {intent.at[0]},{intent.at[1]}", "that space is empty: click a clop")
        if self.picked is None or self.picked == space:
            self.picked = None if self.picked == space else space
            return None
        first = self.picked
        if space not in partners(game, first):
            self.picked = space  # another shape: pick that clop instead
            return None
        self.picked = None
        return _swap_of(first, space)

    def controls(self, view: State, seat: int) -> tuple[str, list[w.Widget]]:
        game = _game(view)
        who = f"<b>{html.escape(self.app.who(seat))}</b>"
        if game.legal_actions(seat) == [Pass()]:
            return f"{who}: no two clops of one shape are left to swap: pass.", [
                button("Pass", "sc-pass", lambda: self.app.do(Pass()))
            ]
        if self.picked is None:
            return f"{who}: click a clop, then another of the same shape to swap them.", []
        return f"{who}: picked the {tile_words(game.board[self.picked])}; click a lit clop to swap.", []

    def doing(self, view: State, seat: int) -> str:
        return "swaps next"

    def seat_facts(self, view: State, seat: int) -> dict[str, str]:
        game = _game(view)
        return {"Collected": str(len(game.collected[seat])), "Likes won": ", ".join(game.likes_won()[seat]) or "-"}

    def side(self, view: State, seat: int) -> str:
        game = _game(view)
        rows = []
        for who, tiles in enumerate(game.collected):
            counts = " ".join(f"{like} {sum(tile(t).like == like for t in tiles)}" for like in LIKES)
            rows.append(f"<div class='sc-collected-{who}'>{html.escape(self.app.who(who))}: {counts}</div>")
        return "<div class='sc-collected'><b>Collected, by like</b>" + "".join(rows) + "</div>"

    def entry_words(self, state: State, index: int) -> str | None:
        seat, action = state.log[index]
        if seat == CHANCE and isinstance(action, Draw):
            if index == 0:
                return f"The deal: {len(action.tiles)} clops, row by row"
            return f"Refill: {len(action.tiles)} clops from the supply into the holes, row by row"
        return str(action)

    def tag(self, view: State, seat: int) -> dict[str, Any]:
        return {"picked": -1 if self.picked is None else self.picked}
