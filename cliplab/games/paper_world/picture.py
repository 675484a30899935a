"""Paper World at the shared table (cliplab.ui.table_app): the centre, the hand and the landscapes.

Taking: click a centre pile's top card, then one of the two buttons beside the board, "take its colour"
or "take its value" (each says how many cards it brings). Placing: click a card in the hand; the spots of
the landscape where it may go are lit; click one to place it. A spot that needs this turn's skip says so
in the line above the board (the discard that pays for it is asked next, by clicking a hand card).
Discards (over the hand limit, or for a skip) are clicks on hand cards. The scissors choice, ending the
turn and passing are buttons. Hands are drawn only from a view in which they show, so the table's
hand-over screen keeps each one to its owner.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w

from cliplab.engine import CHANCE, Action, IllegalAction, State
from cliplab.ui import Intent, Mark, Scene
from cliplab.ui.scene import Kind
from cliplab.ui.table_app import Picture, button

from .board import OFFSET, SCALE, centre_board, hand_board, landscape_board
from .content import objectives
from .rules import (
    BURIED,
    HAND_LIMIT,
    Discard,
    DrawObjective,
    EndTurn,
    PaperWorld,
    Pass,
    PlaceCard,
    Scissors,
    TakeColour,
    TakeValue,
    card,
)

DOING = {
    "turn": "takes or places next",
    "placing": "is placing",
    "trim": "discards to the hand limit",
    "pay": "pays for a skip",
    "scissors": "decides about the scissors",
}


def _game(view: State) -> PaperWorld:
    assert isinstance(view, PaperWorld)
    return view


def skip_spots(game: PaperWorld, seat: int, number: int) -> set[tuple[int, int]]:
    """The landscape cells where placing card `number` would use this turn's skip."""
    found = set()
    for action in game.placements(seat):
        if action.card != number:
            continue
        stack = game.lands[seat].get((action.row, action.col))
        if card(number).value - (card(stack[-1]).value if stack else 0) == 2:
            found.add((action.row, action.col))
    return found


def takes_of(game: PaperWorld, pile: int) -> list[TakeColour | TakeValue]:
    top = game.tops()[pile]
    if top is None or top == BURIED:
        return []
    shown = card(top)
    return [TakeColour(shown.colour), TakeValue(shown.value)]


class PaperWorldPicture(Picture):
    own_boards = True

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.pile: int | None = None  # the centre pile whose top was clicked
        self.picked: int | None = None  # the hand position of the card clicked

    def reset(self) -> None:
        self.pile = self.picked = None

    def _hand_card(self, game: PaperWorld, seat: int) -> int | None:
        hand = game.hands[seat]
        if self.picked is None or self.picked >= len(hand):
            return None
        return hand[self.picked]

    def scene(self, view: State, seat: int, acting: bool) -> Scene:
        game = _game(view)
        phase = game.phase
        boards = []
        centre_marks: tuple[Mark, ...] = ()
        hand_marks: list[Mark] = []
        land_marks: tuple[Mark, ...] = ()
        legal = game.legal_actions(seat) if acting else []
        if acting and phase == "turn":
            shown = {k for k, top in enumerate(game.tops()) if top is not None and top != BURIED}
            centre_marks = tuple(Mark("cell", (0, k), style="last" if k == self.pile else "target") for k in shown)
        number = self._hand_card(game, seat) if acting else None
        if number is not None:
            spots = [(a.row, a.col) for a in legal if isinstance(a, PlaceCard) and a.card == number]
            land_marks = tuple(Mark("cell", (r + OFFSET, c + OFFSET)) for r, c in spots)
        if acting:
            usable = {a.card for a in legal if isinstance(a, PlaceCard | Discard)}
            hand_marks = [Mark("cell", (0, k)) for k, c in enumerate(game.hands[seat]) if c in usable]
        cell: tuple[Kind, ...] = ("cell",)
        centre_click = cell if acting and phase == "turn" else ()
        boards.append(centre_board(game, centre_marks, centre_click))
        if BURIED not in game.hands[seat]:
            hand_click = cell if acting and game.hands[seat] else ()
            boards.append(hand_board(game, seat, self.picked if acting else None, tuple(hand_marks), hand_click))
        land_click = cell if acting and phase in ("turn", "placing") else ()
        boards.append(landscape_board(game, seat, land_marks, land_click))
        boards += [landscape_board(game, other) for other in range(game.players) if other != seat]
        scores = ", ".join(f"{self.app.who(s)}: {game.score(s)}" for s in range(game.players))
        return Scene(tuple(boards), title="Paper World", status=f"Scores now: {scores}", zoom=SCALE)

    def click(self, view: State, seat: int, intent: Intent) -> Action | None:
        game = _game(view)
        if intent.board == "centre":
            self.picked = None
            pile = intent.at[1]
            if not takes_of(game, pile):
                raise IllegalAction("take", f"pile {pile + 1}", "that pile is empty: click a top card")
            self.pile = None if self.pile == pile else pile
            return None
        if intent.board == "hand":
            self.pile = None
            position = intent.at[1]
            if position >= len(game.hands[seat]):
                raise IllegalAction("hand", "an empty place", "click one of your cards")
            if game.phase in ("trim", "pay"):
                return Discard(game.hands[seat][position])
            self.picked = None if self.picked == position else position
            return None
        if intent.board == f"land-{seat}":
            number = self._hand_card(game, seat)
            if number is None:
                raise IllegalAction("place", "the landscape", "click a card in your hand first, then a lit spot")
            self.picked = None
            return PlaceCard(number, intent.at[0] - OFFSET, intent.at[1] - OFFSET)
        raise IllegalAction("place", intent.board, "that is another player's landscape")

    def controls(self, view: State, seat: int) -> tuple[str, list[w.Widget]]:
        game = _game(view)
        who = f"<b>{html.escape(self.app.who(seat))}</b>"
        phase = game.phase
        if phase == "scissors":
            return f"{who}: you placed a scissors card. Move the scissors token onto it?", [
                button("Move the scissors here", "pw-scissors-move", lambda: self.app.do(Scissors("move"))),
                button("Leave them", "pw-scissors-leave", lambda: self.app.do(Scissors("leave"))),
            ]
        if phase == "trim":
            over = len(game.hands[seat]) - HAND_LIMIT
            return f"{who}: over the hand limit: click {over} card{'s' * (over != 1)} to discard.", []
        if phase == "pay":
            return f"{who}: that used your skip: click a card in your hand to discard for it.", []
        if game.legal_actions(seat) == [Pass()]:
            return f"{who}: you can neither take nor place: pass.", [
                button("Pass", "pw-pass", lambda: self.app.do(Pass()))
            ]
        widgets: list[w.Widget] = []
        lines = []
        if phase == "placing":
            widgets.append(button("End the turn", "pw-end", lambda: self.app.do(EndTurn())))
            lines.append("place more cards of the same colour or value, or end the turn.")
        if phase == "turn" and self.pile is not None:
            for take in takes_of(game, self.pile):
                count = len(game.taken_by(take))
                what = f"every {take.colour} top" if isinstance(take, TakeColour) else f"every {take.value} on top"
                css = "pw-take-colour" if isinstance(take, TakeColour) else "pw-take-value"
                widgets.append(
                    button(f"Take {what} ({count} card{'s' * (count != 1)})", css, lambda take=take: self.app.do(take))  # type: ignore[misc]
                )
            lines.append("take by colour or by value with a button, or click a hand card to place instead.")
        number = self._hand_card(game, seat)
        if phase == "turn" and self.pile is None and number is None:
            lines.append("click a centre card to take, or a card in your hand to place it.")
        if number is not None:
            skips = skip_spots(game, seat, number)
            note = (
                " A spot that skips a value uses your skip"
                + (" (free: you hold the scissors)." if game.holds_scissors(seat) else " and costs a discard.")
                if skips
                else ""
            )
            lines = [f"picked the {card(number)}: click a lit spot of your landscape.{note}"]
        return f"{who}: " + " ".join(lines), widgets

    def doing(self, view: State, seat: int) -> str:
        return DOING.get(_game(view).phase, "acts next")

    def seat_facts(self, view: State, seat: int) -> dict[str, str]:
        game = _game(view)
        return {
            "Hand": str(len(game.hands[seat])),
            "Discarded": str(len(game.discards[seat])),
            "Tokens": str(sum(game.claims[seat])),
            "Scissors": "held" if game.holds_scissors(seat) else "-",
        }

    def side(self, view: State, seat: int) -> str:
        game = _game(view)
        if game.scissors is None:
            scissors = "The scissors token lies beside the centre: the first scissors card placed may take it."
        else:
            owner, r, c = game.scissors
            top = card(game.lands[owner][(r, c)][-1])
            scissors = f"{html.escape(self.app.who(owner))} holds the scissors (on their {top.colour} {top.value})."
        rows = []
        for index, number in enumerate(game.objectives):
            goal = objectives()[number]
            left = ", ".join(str(t) for t in game.tokens[index]) or "none"
            claimed = [
                f"{html.escape(self.app.who(s))} {game.claims[s][index]}"
                for s in range(game.players)
                if game.claims[s][index]
            ]
            rows.append(
                f"<li class='pw-objective-{index}'><b>{html.escape(goal.name)}</b> {_pattern(goal.shape)}"
                f" tokens left: {left}; claimed: {', '.join(claimed) or 'nobody yet'}</li>"
            )
        return (
            f"<div class='pw-side'><div class='pw-scissors'>{scissors}</div>"
            f"<b>Objectives</b><ul class='pw-objectives'>{''.join(rows)}</ul></div>"
        )

    def entry_words(self, state: State, index: int) -> str | None:
        seat, action = state.log[index]
        if seat == CHANCE:
            if isinstance(action, DrawObjective):
                return f"Objective in play: {objectives()[action.objective].name}"
            return None  # the deal, card by card: too many lines to be worth reading
        if isinstance(action, PlaceCard):
            return f"placed the {card(action.card)} at {action.row},{action.col}"
        return str(action)

    def tag(self, view: State, seat: int) -> dict[str, Any]:
        return {"pile": -1 if self.pile is None else self.pile, "picked": -1 if self.picked is None else self.picked}


def _pattern(shape: tuple[str, ...]) -> str:
    """A shape objective as a tiny grid of marks (a count objective has no drawing)."""
    if not shape:
        return ""
    rows = "".join(
        "<tr>"
        + "".join(f"<td style='width:.7em;height:.7em;{'background:#0072B2' if m == 'X' else ''}'></td>" for m in row)
        + "</tr>"
        for row in shape
    )
    return f"<table style='display:inline-table;border-collapse:collapse;border:1px solid #999'>{rows}</table>"
