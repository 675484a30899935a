"""Words for the Swap Clops card game: why an action is refused, and the table as text."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cliplab.engine import Action

from .rules import (
    DECK,
    MOST_PLACED,
    SLOTS,
    AcceptOffer,
    Draw,
    EndTurn,
    Lock,
    OfferNothing,
    OfferOne,
    OfferTwo,
    PlaceOne,
    PlaceTwo,
    Reveal,
    Score,
    StopAccepting,
    TakeDeckCard,
    offered_cards,
    shared_traits,
)

if TYPE_CHECKING:
    from .rules import SwapClopsCards

PHASE_WORDS = {
    "place": "step 1 (placing cards from your hand)",
    "lock": "declaring a set's trait",
    "offer": "step 2 (offers)",
    "accept": "step 3 (accepting offered cards)",
    "score": "scoring at the end of the turn",
    "over": "the end of the game",
}


def why_illegal(state: SwapClopsCards, player: int, action: Action) -> tuple[str, str]:
    """The rule and reason for refusing an action that is not in the legal list."""
    if isinstance(action, Draw | Reveal):
        return "chance", "cards come off the deck by chance; nobody chooses them"
    phase = state.phase
    if isinstance(action, Score) and not 1 <= action.slot <= SLOTS:
        return "sets", f"there are sets 1 to {SLOTS}, not set {action.slot}"
    if isinstance(action, PlaceOne | PlaceTwo | TakeDeckCard | AcceptOffer) and not 1 <= action.slot <= SLOTS:
        return "sets", f"there are sets 1 to {SLOTS}, not set {action.slot}"
    if phase == "place":
        return _why_not_placing(state, player, action)
    if phase == "lock":
        slot = state.locking + 1
        if isinstance(action, Lock):
            return "locking a set's trait", f"set {slot} waits for its trait to be declared, not set {action.slot}"
        return "locking a set's trait", f"first say whether set {slot} keeps its shape or its colour"
    if phase == "offer":
        if isinstance(action, OfferNothing | OfferOne | OfferTwo):
            return "step 2 offers", _why_not_offering(state, player, action)
        return "step 2 offers", "the other players are choosing what to offer"
    if phase == "accept":
        return _why_not_accepting(state, player, action)
    if phase == "score":
        if isinstance(action, Score):
            return "scoring", f"set {action.slot} is empty: there is nothing to score"
        return "scoring", "the turn is over but for scoring: score a set or end the turn"
    return "actions", f"that is not a move in {PHASE_WORDS.get(phase, phase)}"


def _missing(hand: Sequence[str], cards: Sequence[str]) -> str:
    """A card named that the hand does not hold (as often as named), else ""."""
    short = Counter(cards) - Counter(hand)
    return next(iter(short), "")


def _why_not_placing(state: SwapClopsCards, player: int, action: Action) -> tuple[str, str]:
    if state.must_make_room():
        return "making room", "no card in your hand fits a set and every set is in use: score a set first"
    if isinstance(action, PlaceOne | PlaceTwo):
        cards = offered_cards(action)
        lacking = _missing(state.hands[player], cards)
        if lacking:
            return "step 1 placing", f"your hand holds no {lacking}" + (
                " to spare" if lacking in state.hands[player] else ""
            )
        slot = action.slot - 1
        if state.room_slot >= 0 and slot != state.room_slot:
            return "making room", f"you scored set {state.room_slot + 1} to make room: place into it"
        if len(cards) == 2 and not shared_traits(cards):
            return "step 1 placing", f"{cards[0]} and {cards[1]} share neither a shape nor a colour"
        return "locking a set's trait", _why_not_fitting(state, player, slot, cards)
    if isinstance(action, Score):
        return "making room", "a set is scored before the end of the turn only to make room, and your cards fit"
    return "step 1 placing", f"first place one or two cards from your hand into a set ({MOST_PLACED} at most)"


def _why_not_fitting(state: SwapClopsCards, seat: int, slot: int, cards: Sequence[str]) -> str:
    held, lock = state.sets[seat][slot], state.locks[seat][slot]
    table = state.content.cards
    if not held:
        return f"set {slot + 1} is empty and would take any card, but not this way now"
    if lock:
        trait = table[held[0]].trait(lock)
        odd = next(card for card in cards if table[card].trait(lock) != trait)
        return f"set {slot + 1} keeps {trait} cards (its {lock}) and {odd} is not {trait}"
    return f"set {slot + 1} holds {held[0]}, which shares neither shape nor colour with {' and '.join(cards)}"


def _why_not_offering(state: SwapClopsCards, player: int, action: Action) -> str:
    if player == state.active:
        return "you are the one being offered cards; the others offer"
    lacking = _missing(state.hands[player], offered_cards(action))
    if lacking:
        return f"your hand holds no {lacking}" + (" to spare" if lacking in state.hands[player] else "")
    if (state.option("offers") == "simultaneous") != action.SECRET:
        how = "face down, all at once" if state.option("offers") == "simultaneous" else "openly, in turn"
        return f"offers are made {how} in this game"
    return "that offer is not possible now"


def _why_not_accepting(state: SwapClopsCards, player: int, action: Action) -> tuple[str, str]:
    table = state.table_cards()
    if isinstance(action, TakeDeckCard | AcceptOffer):
        giver = DECK if isinstance(action, TakeDeckCard) else action.giver
        if giver != DECK and not (0 <= giver < state.players and giver != state.active):
            return "step 3 accepting", f"player {giver} is not one of the players offering you cards"
        if isinstance(action, AcceptOffer) and giver == DECK:
            return (
                "step 3 accepting",
                f"the deck's card is taken with: take the deck's {action.card} into set {action.slot}",
            )
        source = "the deck" if giver == DECK else f"player {giver}"
        if (action.card, giver) not in table:
            return "step 3 accepting", f"{source} has no {action.card} on offer"
        slot = action.slot - 1
        if state.room_slot >= 0 and slot != state.room_slot:
            return "making room", f"you scored set {state.room_slot + 1} to make room: a card goes into it"
        if state.room_slot >= 0:
            return "making room", f"{action.card} fits another set: the room you made is for a card that fits none"
        return "locking a set's trait", _why_not_fitting(state, player, slot, (action.card,))
    if isinstance(action, Score):
        if state.room_slot >= 0:
            return "making room", "you have made room already: take a card into the set you scored"
        return "making room", "every card on offer fits one of your sets: scoring waits for the end of the turn"
    if isinstance(action, StopAccepting):
        return "making room", "you scored a set to make room: take a card into it"
    if isinstance(action, EndTurn):
        return "step 3 accepting", "first accept offered cards or say you accept no more"
    return "step 3 accepting", "choose which offered cards to accept"


def _set_words(cards: Sequence[str], lock: str, trait: str) -> str:
    if not cards:
        return "empty"
    kept = f" (keeps {trait}, its {lock})" if lock else ""
    return " ".join(cards) + kept


def render(state: SwapClopsCards) -> str:
    """The table as text: deck and discard counts, each seat's hand (as this copy holds it), sets, points."""
    lines = [
        f"deck: {len(state.deck)} cards, run out {state.run_outs} times; discard pile: {len(state.discard)} cards",
    ]
    if state.deck_card or any(state.offers):
        offered = [f"{state.deck_card} from the deck"] if state.deck_card else []
        offered += [f"{card} from player {giver}" for giver, cards in enumerate(state.offers) for card in cards]
        lines.append("on offer: " + ", ".join(offered))
    for seat in range(state.players):
        marker = "*" if seat == state.active else " "
        lines.append(
            f"{marker}player {seat}: {state.score_of(seat)} points; hand: {' '.join(state.hands[seat]) or '-'}"
        )
        for slot in range(SLOTS):
            cards, lock = state.sets[seat][slot], state.locks[seat][slot]
            trait = state.content.cards[cards[0]].trait(lock) if cards and lock else ""
            lines.append(f"   set {slot + 1}: {_set_words(cards, lock, trait)}")
    if state.phase == "over":
        lines.append(f"over: {state.ended}")
    else:
        waiting = ", ".join(f"player {seat}" for seat in state.to_move())
        lines.append(f"{PHASE_WORDS.get(state.phase, state.phase)}; to move: {waiting}")
    return "\n".join(lines)
