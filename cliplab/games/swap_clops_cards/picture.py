"""The Swap Clops card game at the shared table (cliplab.ui.table_app): cards drawn as cards, placed,
offered, accepted and scored by clicks.

- Step 1: click one or two cards in your hand (top row of your board), then the set (a row below) to put
  them in. When nothing fits and every set is in use, click a set to score it and make room.
- Step 2 (an opponent): click up to two cards in your hand, then "Offer these" (or "Offer nothing").
  With secret offers the app hands the screen to each offerer in turn and reveals all offers together.
- Step 3: click a card on the table, then the set it goes into; click a set with no card picked to score
  it when a card fits nowhere; "Accept no more" ends accepting.
- End of turn: click a set to score it, "End the turn" when done.
A shared trait of both shape and colour is declared with two buttons. The side panel shows every trait's
chart and how many cards of it the deck holds.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from cliplab.engine import CHANCE, Action, HiddenChance, IllegalAction, State
from cliplab.ui import Intent, Mark, Scene
from cliplab.ui.table_app import Picture, button

from .board import TABLE_FIXED, describe, table_cards
from .content import KINDS, TRAIT_NAMES
from .rules import (
    DECK,
    MOST_OFFERED,
    AcceptOffer,
    Draw,
    EndTurn,
    Lock,
    PlaceOne,
    PlaceTwo,
    Reveal,
    Score,
    StopAccepting,
    SwapClopsCards,
    TakeDeckCard,
    offer_action,
    offered_cards,
)


def _game(view: State) -> SwapClopsCards:
    assert isinstance(view, SwapClopsCards)
    return view


class SwapClopsCardsPicture(Picture):
    own_boards = False
    secret_words = "chose an offer face down"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.picked: list[int] = []  # columns of picked cards in the hand on screen
        self.table_pick: int | None = None  # column of the picked card on the table board

    def reset(self) -> None:
        self.picked = []
        self.table_pick = None

    # ----- drawing ------------------------------------------------------------------------------------

    def scene(self, view: State, seat: int, acting: bool) -> Scene:
        game = _game(view)
        if not acting:
            return describe(game)
        mine = f"seat{seat}"
        marks: dict[str, list[Mark]] = {mine: [Mark("cell", (0, col)) for col in self.picked]}
        clickable: dict[str, tuple[Any, ...]] = {mine: ("cell",)}
        if game.phase == "accept":
            clickable["table"] = ("cell",)
            if self.table_pick is not None:
                marks["table"] = [Mark("cell", (0, self.table_pick))]
        return describe(game, marks, clickable, self._status(game, seat))

    def _status(self, game: SwapClopsCards, seat: int) -> str:
        picked = [game.hands[seat][col] for col in self.picked if col < len(game.hands[seat])]
        if picked:
            return "Picked: " + " and ".join(name.replace("_", " ") for name in picked) + "."
        on_table = table_cards(game)
        if self.table_pick is not None and self.table_pick - TABLE_FIXED < len(on_table):
            card, giver = on_table[self.table_pick - TABLE_FIXED]
            source = "the deck's top card" if giver == DECK else f"player {giver}'s offer: it earns them its value"
            return f"Picked from the table: {card.replace('_', ' ')} ({source}). Now click its set."
        return ""

    # ----- clicks -------------------------------------------------------------------------------------

    def click(self, view: State, seat: int, intent: Intent) -> Action | None:
        game = _game(view)
        row, col = intent.at
        if intent.board == "table":
            return self._click_table(game, col)
        if intent.board != f"seat{seat}":
            raise IllegalAction("sets", intent.board, "click your own hand and sets")
        if row == 0:
            return self._click_hand(game, seat, col)
        return self._click_set(game, seat, row)

    def _click_table(self, game: SwapClopsCards, col: int) -> Action | None:
        if game.phase != "accept":
            raise IllegalAction("step 3 accepting", "the table", "cards on the table are taken in step 3")
        if col < TABLE_FIXED or col - TABLE_FIXED >= len(table_cards(game)):
            raise IllegalAction("step 3 accepting", "the table", "click a card on offer, then one of your sets")
        self.table_pick = None if self.table_pick == col else col
        return None

    def _click_hand(self, game: SwapClopsCards, seat: int, col: int) -> Action | None:
        if game.phase not in ("place", "offer"):
            raise IllegalAction("your hand", "a hand card", "cards in hand are placed in step 1 or offered in step 2")
        if col >= len(game.hands[seat]):
            raise IllegalAction("your hand", "an empty space", "click a card in your hand")
        if col in self.picked:
            self.picked.remove(col)
        elif len(self.picked) >= MOST_OFFERED:
            raise IllegalAction("your hand", game.hands[seat][col], "two cards at most: click a picked card to drop it")
        else:
            self.picked.append(col)
        return None

    def _click_set(self, game: SwapClopsCards, seat: int, row: int) -> Action | None:
        slot = row
        if game.phase == "place":
            if not self.picked:
                if Score(slot) in game.legal_actions(seat):
                    return Score(slot)
                raise IllegalAction("step 1 placing", f"set {slot}", "first click one or two cards in your hand")
            cards = sorted(game.hands[seat][col] for col in self.picked)
            self.picked = []
            return PlaceOne(cards[0], slot) if len(cards) == 1 else PlaceTwo(cards[0], cards[1], slot)
        if game.phase == "accept":
            if self.table_pick is None:
                return Score(slot)  # to make room; the engine says why not when nothing needs it
            card, giver = table_cards(game)[self.table_pick - TABLE_FIXED]
            self.table_pick = None
            return TakeDeckCard(card, slot) if giver == DECK else AcceptOffer(card, giver, slot)
        if game.phase == "score":
            return Score(slot)
        raise IllegalAction("sets", f"set {slot}", "your sets take no clicks now")

    # ----- controls -----------------------------------------------------------------------------------

    def controls(self, view: State, seat: int) -> tuple[str, list[w.Widget]]:
        game = _game(view)
        who = f"<b>{html.escape(self.app.who(seat))}</b>"
        phase = game.phase
        if phase == "place":
            if game.must_make_room():
                return f"{who}: no card in your hand fits a set: click a set to score it and make room.", []
            return f"{who}: click one or two cards in your hand, then the set to place them in.", []
        if phase == "lock":
            slot = game.locking + 1
            buttons = [button(f"Keep its {kind}", f"scc-lock-{kind}", self._declare(slot, kind)) for kind in KINDS]
            return f"{who}: set {slot}'s cards share shape and colour: which does it keep?", buttons
        if phase == "offer":
            secret = game.option("offers") == "simultaneous"

            def offer() -> None:
                cards = sorted(game.hands[seat][col] for col in self.picked)
                self.picked = []
                self.app.do(offer_action(cards, secret))

            def nothing() -> None:
                self.picked = []
                self.app.do(offer_action((), secret))

            how = " in secret" if secret else ""
            line = f"{who}: click up to two cards in your hand to offer{how} to player {game.active}, then Offer."
            return line, [button("Offer these", "scc-offer", offer), button("Offer nothing", "scc-offer-none", nothing)]
        if phase == "accept":
            stop = [button("Accept no more", "scc-stop", lambda: self.app.do(StopAccepting()))]
            if StopAccepting() not in game.legal_actions(seat):
                return f"{who}: you scored a set to make room: click the card for it, then that set.", []
            return f"{who}: click a card on the table, then the set it goes into (two at most).", stop
        if phase == "score":
            end = [button("End the turn", "scc-end", lambda: self.app.do(EndTurn()))]
            return f"{who}: click a set to score it, or end the turn.", end
        return f"{who}: wait.", []

    def _declare(self, slot: int, kind: str) -> Callable[[], None]:
        return lambda: self.app.do(Lock(slot, kind))

    def doing(self, view: State, seat: int) -> str:
        game = _game(view)
        return "chooses an offer" if game.phase == "offer" else "plays the turn"

    def seat_facts(self, view: State, seat: int) -> dict[str, str]:
        game = _game(view)
        return {"Hand": str(len(game.hands[seat])), "Offers earned": str(game.earned[seat])}

    def side(self, view: State, seat: int) -> str:
        game = _game(view)
        rows = []
        for name in TRAIT_NAMES:
            trait = game.content.traits[name]
            chart = " / ".join(str(needed) for needed in trait.chart)
            rows.append(f"<tr><td>{name}</td><td>({trait.count})</td><td>{chart}</td></tr>")
        return (
            "<div class='scc-charts'><b>Charts</b>: cards a set needs for 1 / 2 / 3 / 4 points"
            "<table><tr><th>trait</th><th>in deck</th><th>cards</th></tr>" + "".join(rows) + "</table></div>"
        )

    def entry_words(self, state: State, index: int) -> str | None:
        game = _game(state)
        seat, action = game.log[index]
        words = _words(action)
        if isinstance(action, HiddenChance):
            drawer = next((who for who, found in enumerate(game.draws_at) if index in found), None)
            words = "A card is drawn face down" if drawer is None else f"Player {drawer} draws a card face down"
        elif seat == CHANCE and isinstance(action, Draw):
            words = f"Player {action.seat} draws {action.card.replace('_', ' ')}"
        elif seat == CHANCE and isinstance(action, Reveal):
            words = f"The deck turns up a {action.card.replace('_', ' ')}"
        if index + 1 in game.epoch_starts:
            words += "; the deck ran out and the discard pile is shuffled into a new deck"
        return words

    def reveal_words(self, state: State, index: int) -> str:
        return _words(state.log[index][1])

    def tag(self, view: State, seat: int) -> dict[str, Any]:
        game = _game(view)
        return {
            "phase": game.phase,
            "picked": list(self.picked),
            "table_pick": -1 if self.table_pick is None else self.table_pick,
        }


def _words(action: Action) -> str:
    cards = offered_cards(action)
    if cards and type(action).__name__.startswith(("Offer", "SecretOffer")):
        return "offers " + " and ".join(card.replace("_", " ") for card in cards)
    return str(action).replace("_", " ")
