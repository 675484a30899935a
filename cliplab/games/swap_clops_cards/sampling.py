"""Filling a view of the Swap Clops card game back in: the hidden cards of a determinized sample.

What a view hides: the cards other seats drew (their hands, and which of their draws became the cards they
later played), what the deck still holds, the other hands of a start position and the offers still chosen in
secret. What it shows: every deck's contents when it began (the first deck, then each reshuffled discard
pile), when each seat drew, the deck's revealed cards and every card played from a hand.

A sample must be a game whose log rebuilds it, so every card a seat played has to be one of its earlier
draws, and every deck has to give out no card more often than it held it. The sample pairs each card another
seat played with one of that seat's hidden draws made before it, from a deck that still had such a card to
give (a small search: hands hold five cards, and draws from two decks meet only around a reshuffle); the
draws left unpaired (the cards still in hand) then take the rest of their deck's cards at random, and what
remains of the last deck is the deck.
"""

from __future__ import annotations

import bisect
import random
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cliplab.engine import CHANCE, Action, Hidden, HiddenChance

from .rules import (
    FACE_DOWN,
    Draw,
    OfferNothing,
    OfferOne,
    OfferTwo,
    PlaceOne,
    PlaceTwo,
    Reveal,
    offered_cards,
    offers_from,
    start_with_cards,
)

if TYPE_CHECKING:
    from .rules import SwapClopsCards

START = -1  # the "log index" of a card in a start position's hand


@dataclass
class _Draw:
    """A hidden card entering a seat's hand: at log index `at` (START for a start hand), from deck `deck`."""

    seat: int
    at: int
    deck: int
    card: str = ""


def sample_hidden(game: SwapClopsCards, rng: random.Random) -> None:
    """Replace every hidden card and secret offer of this copy of a view by a consistent sample."""
    starts = game.epoch_starts
    left = [Counter(cards) for cards in game.epoch_decks]  # what each deck held and nobody is known to have taken

    def deck_of(index: int) -> int:
        return bisect.bisect_right(starts, index) - 1 if index >= 0 else 0

    drawer = {index: seat for seat, found in enumerate(game.draws_at) for index in found}
    hidden: list[_Draw] = []
    fields = game.config.start_fields() or {}
    start_hands = fields.get("hands")
    if start_hands is not None:
        for seat, hand in enumerate(start_hands):
            for card in hand:
                if card == FACE_DOWN:
                    hidden.append(_Draw(seat, START, 0))
                else:
                    left[0][card] -= 1
    played: list[tuple[int, int, str]] = []  # (log index, seat, card) of cards other seats played from hand
    secret_offers: list[int] = []
    for index, (seat, action) in enumerate(game.log):
        if isinstance(action, HiddenChance):
            hidden.append(_Draw(drawer[index], index, deck_of(index)))
        elif isinstance(action, Hidden):
            secret_offers.append(index)
        elif isinstance(action, Draw | Reveal):
            left[deck_of(index)][action.card] -= 1
        elif isinstance(action, PlaceOne | PlaceTwo | OfferNothing | OfferOne | OfferTwo) and seat != CHANCE:
            played += [(index, seat, card) for card in offered_cards(action)]
    # Only seats with hidden draws played hidden cards (the viewer's own draws are all visible).
    concealed = {draw.seat for draw in hidden}
    played = [entry for entry in played if entry[1] in concealed]
    in_hand = _pair(hidden, played, left, rng)
    if in_hand is None:
        raise RuntimeError("no hidden cards agree with this view: the view is inconsistent")
    for deck, slots in in_hand.items():
        pool = list(left[deck].elements())
        rng.shuffle(pool)
        for slot, card in zip(slots, pool, strict=False):
            slot.card = card
    _rebuild(game, hidden, secret_offers, rng)


def _pair(
    hidden: list[_Draw], played: list[tuple[int, int, str]], left: list[Counter[str]], rng: random.Random
) -> dict[int, list[_Draw]] | None:
    """Give each played card one of its seat's earlier hidden draws from a deck that still has such a card
    (taking it from `left`); returns the draws left unpaired by deck, or None when no pairing exists."""
    free = {draw_id: draw for draw_id, draw in enumerate(hidden)}

    def search(step: int) -> bool:
        if step == len(played):
            return True
        at, seat, card = played[step]
        by_deck: dict[int, list[int]] = {}
        for draw_id, draw in free.items():
            if draw.seat == seat and draw.at < at and left[draw.deck][card] > 0:
                by_deck.setdefault(draw.deck, []).append(draw_id)
        decks = list(by_deck)
        rng.shuffle(decks)
        for deck in decks:
            draw_id = rng.choice(by_deck[deck])
            draw = free.pop(draw_id)
            draw.card = card
            left[deck][card] -= 1
            if search(step + 1):
                return True
            left[deck][card] += 1
            draw.card = ""
            free[draw_id] = draw
        return False

    if not search(0):
        return None
    unpaired: dict[int, list[_Draw]] = {}
    for draw in free.values():
        unpaired.setdefault(draw.deck, []).append(draw)
    return unpaired


def _rebuild(game: SwapClopsCards, hidden: list[_Draw], secret_offers: list[int], rng: random.Random) -> None:
    """Replay the log with the sampled cards and secret offers in place of the hidden entries."""
    config = game.config
    fields = config.start_fields()
    if fields is not None and "hands" in fields:
        hands = [list(hand) for hand in fields["hands"]]
        starting = iter(draw for draw in hidden if draw.at == START)
        for seat, hand in enumerate(hands):
            hands[seat] = [next(starting).card if card == FACE_DOWN else card for card in hand]
        config = start_with_cards(config, hands, game.epoch_decks[0])
    drawn = {draw.at: draw for draw in hidden if draw.at != START}
    fresh = type(game)(config, settle=False)
    for index, (seat, action) in enumerate(game.log):
        entry: Action = action
        if index in drawn:
            entry = Draw(drawn[index].seat, drawn[index].card)
        elif index in secret_offers:
            offers = offers_from(tuple(fresh.hands[seat]), secret=True)
            entry = offers[rng.randrange(len(offers))]
        fresh._apply(seat, entry)
        fresh._record(seat, entry)
    game._restore(fresh)
    game._checkpoints = fresh._checkpoints
