"""Swap Clops card game: collect sets of one shape or one colour, offered cards from the deck and from
the other players, sets scored by the chart of their trait. Rules from seeds/003 (first part) with
RULINGS.md; the rule names in refusals follow the turn's steps (step 1 placing, locking a set's trait,
making room, step 2 offers, step 3 accepting, step 4 drawing, scoring, the end).

Hidden information: every hand is seen by its owner only, and the deck is face down for everyone. There
is no deck order in the state: each card taken from the deck is a chance event drawn from the seed out of
what the deck holds then, so a view (which holds no seed) cannot know what comes next. A view shows the
other hands and the deck as face-down markers ("?"), keeps the public facts (which seat drew when, what
each reshuffle put into the deck) and shows other seats' draws as hidden log entries. Offers chosen at
once (option `offers=simultaneous`) stay secret until every offer is in. `determinize` fills every hidden
card back in consistently with everything the viewer has seen (`_sample_hidden`).
"""

from __future__ import annotations

import bisect
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import compress
from typing import Any, ClassVar

from cliplab.engine import (
    Action,
    ActionCodec,
    ChanceNode,
    GameConfig,
    GameSpec,
    Option,
    OptionValue,
    Outcome,
    PositionError,
    State,
    register,
)
from cliplab.engine.position import check_fields, integer, items, word

from .content import CARD_NAMES, DECKS, KINDS, NAME_TRAITS, Card, Deck, deck

HAND_SIZE = 5
SLOTS = 3
MOST_PLACED = 2  # cards placed in step 1, and cards accepted in step 3
MOST_OFFERED = 2
FACE_DOWN = "?"
OFFER_MODES = ("simultaneous", "in_turn")

# Ways the game ends (Outcome.termination).
DECK_THROUGH = "the deck ran out as often as the player count asks"
NOTHING_LEFT = "the deck and the discard pile ran out together"


def run_outs_to_end(players: int) -> int:
    """Run-outs of the deck that end the game: once with 2 players, twice with 3, three times with 4."""
    return players - 1


# ----- actions -------------------------------------------------------------------------------------


def _sorted_pair(action: Any, first: str, second: str) -> None:
    """Two cards named in either order are the same action: keep them sorted (names only: a mistyped field,
    in an action built in Python, is left for the engine to refuse by name)."""
    a, b = getattr(action, first), getattr(action, second)
    if type(a) is str and type(b) is str and b < a:
        object.__setattr__(action, first, b)
        object.__setattr__(action, second, a)


CARD_CHOICES = {"card": CARD_NAMES, "other": CARD_NAMES}


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """The deck's top card taken into a player's hand (seen by that player only)."""

    TEMPLATE: ClassVar[str] = "player {seat} draws {card}"
    CHANCE: ClassVar[bool] = True
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"card": CARD_NAMES}
    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class Reveal(Action):
    """Step 2: the deck's top card turned face up and offered to the active player."""

    TEMPLATE: ClassVar[str] = "the deck shows {card}"
    CHANCE: ClassVar[bool] = True
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"card": CARD_NAMES}
    card: str


@dataclass(frozen=True, slots=True)
class PlaceOne(Action):
    TEMPLATE: ClassVar[str] = "place {card} in set {slot}"
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"card": CARD_NAMES}
    card: str
    slot: int


@dataclass(frozen=True, slots=True)
class PlaceTwo(Action):
    TEMPLATE: ClassVar[str] = "place {card} and {other} in set {slot}"
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = CARD_CHOICES
    card: str
    other: str
    slot: int

    def __post_init__(self) -> None:
        _sorted_pair(self, "card", "other")


@dataclass(frozen=True, slots=True)
class Lock(Action):
    """The owner's declaration of a set's trait when its cards share both shape and colour."""

    TEMPLATE: ClassVar[str] = "set {slot} keeps its {trait}"
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"trait": KINDS}
    slot: int
    trait: str


@dataclass(frozen=True, slots=True)
class Score(Action):
    """Score a set by its trait's chart and discard it: at the end of one's turn, or when forced to make room."""

    TEMPLATE: ClassVar[str] = "score set {slot}"
    slot: int


@dataclass(frozen=True, slots=True)
class OfferNothing(Action):
    TEMPLATE: ClassVar[str] = "offer nothing"


@dataclass(frozen=True, slots=True)
class OfferOne(Action):
    TEMPLATE: ClassVar[str] = "offer {card}"
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"card": CARD_NAMES}
    card: str


@dataclass(frozen=True, slots=True)
class OfferTwo(Action):
    TEMPLATE: ClassVar[str] = "offer {card} and {other}"
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = CARD_CHOICES
    card: str
    other: str

    def __post_init__(self) -> None:
        _sorted_pair(self, "card", "other")


# Offers chosen by every opponent at once are secret until all are in (option offers=simultaneous).
@dataclass(frozen=True, slots=True)
class SecretOfferNothing(OfferNothing):
    TEMPLATE: ClassVar[str] = "offer nothing face down"
    SECRET: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class SecretOfferOne(OfferOne):
    TEMPLATE: ClassVar[str] = "offer {card} face down"
    SECRET: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class SecretOfferTwo(OfferTwo):
    TEMPLATE: ClassVar[str] = "offer {card} and {other} face down"
    SECRET: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class TakeDeckCard(Action):
    TEMPLATE: ClassVar[str] = "take the deck's {card} into set {slot}"
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"card": CARD_NAMES}
    card: str
    slot: int


@dataclass(frozen=True, slots=True)
class AcceptOffer(Action):
    TEMPLATE: ClassVar[str] = "accept {card} from player {giver} into set {slot}"
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"card": CARD_NAMES}
    card: str
    giver: int
    slot: int


@dataclass(frozen=True, slots=True)
class StopAccepting(Action):
    TEMPLATE: ClassVar[str] = "accept no more"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    TEMPLATE: ClassVar[str] = "end the turn"


OfferAction = OfferNothing | OfferOne | OfferTwo
PlaceAction = PlaceOne | PlaceTwo
AcceptAction = TakeDeckCard | AcceptOffer
DECK = -1  # the giver of the deck's card on the table


def offered_cards(action: Action) -> tuple[str, ...]:
    """The cards an offer or a placement names."""
    if isinstance(action, OfferTwo | PlaceTwo):
        return (action.card, action.other)
    if isinstance(action, OfferOne | PlaceOne):
        return (action.card,)
    return ()


@cache
def made(kind: type[Action], *fields: Any) -> Action:
    """The action of this kind with these fields. Actions are immutable and the same few hundred come up
    in every game, so each is made once and shared (making a frozen dataclass costs more than finding it)."""
    return kind(*fields)


SCORES = tuple(made(Score, slot + 1) for slot in range(SLOTS))  # by slot
END_TURN = made(EndTurn)
STOP_ACCEPTING = made(StopAccepting)


def acceptance(card: str, giver: int, slot: int) -> Action:
    """Step 3's taking of a card on the table (`giver` DECK for the deck's card) into a slot (from 0)."""
    if giver == DECK:
        return made(TakeDeckCard, card, slot + 1)
    return made(AcceptOffer, card, giver, slot + 1)


def offer_action(cards: Sequence[str], secret: bool) -> Action:
    """The offer of these 0-2 cards, face down (secret) or open."""
    if len(cards) == 2:
        return made(SecretOfferTwo if secret else OfferTwo, cards[0], cards[1])
    if len(cards) == 1:
        return made(SecretOfferOne if secret else OfferOne, cards[0])
    return made(SecretOfferNothing if secret else OfferNothing)


@cache
def choices_from(hand: tuple[str, ...], most: int) -> tuple[tuple[str, ...], ...]:
    """The different ways to pick 1..most cards from a hand (cards of one name are alike). Hands repeat and
    there are 15,504 sorted hands of up to five cards of fifteen kinds, so each is kept."""
    kinds = sorted(set(hand))
    picks: list[tuple[str, ...]] = [(card,) for card in kinds]
    if most >= 2:
        picks += [(a, b) for i, a in enumerate(kinds) for b in kinds[i:] if a != b or hand.count(a) >= 2]
    return tuple(picks)


@cache
def opponents_clockwise(players: int, active: int) -> tuple[int, ...]:
    """The other seats in clockwise order from the active player's left (asked on every decision of step 2)."""
    return (*range(active + 1, players), *range(active))


@cache
def offers_from(hand: tuple[str, ...], secret: bool) -> tuple[Action, ...]:
    """Every offer a hand can make (nothing, one card, two), face down or open."""
    return tuple(offer_action(cards, secret) for cards in [(), *choices_from(hand, MOST_OFFERED)])


# ----- sets -------------------------------------------------------------------------------------------


# For each kind of trait and each card, the cards that share that trait with it: a card's name fixes its
# shape and colour whatever the deck, so the fitting checks of steps 1 and 3 are lookups in these sets.
SHARING: dict[str, dict[str, frozenset[str]]] = {
    kind: {
        name: frozenset(other for other in CARD_NAMES if NAME_TRAITS[other][kind] == NAME_TRAITS[name][kind])
        for name in CARD_NAMES
    }
    for kind in KINDS
}
AKIN = {name: SHARING["shape"][name] | SHARING["colour"][name] for name in CARD_NAMES}  # a lone card takes these
EVERY_CARD = frozenset(CARD_NAMES)  # an empty slot takes any card


def shared_traits(cards: Iterable[str]) -> tuple[str, ...]:
    """The kinds of trait ("shape", "colour") that all these cards share."""
    cards = tuple(cards)
    if not cards:
        return KINDS
    return tuple(kind for kind in KINDS if SHARING[kind][cards[0]].issuperset(cards))


def fits(cards: Sequence[str], lock: str, adding: Sequence[str]) -> bool:
    """Whether `adding` may join a set holding `cards` locked to `lock` ("" while it has fewer than two):
    all its cards must then share the set's trait (the first two fix it; a lone card takes any card that
    shares a shape or a colour with it)."""
    if lock:
        return SHARING[lock][cards[0]].issuperset(adding)
    together = (*cards, *adding)
    first = together[0]
    return SHARING["shape"][first].issuperset(together) or SHARING["colour"][first].issuperset(together)


def fitting_cards(cards: Sequence[str], lock: str) -> frozenset[str]:
    """The cards that may join a set holding `cards` locked to `lock`, one card at a time."""
    if lock:
        return SHARING[lock][cards[0]]
    if not cards:
        return EVERY_CARD
    if len(cards) == 1:
        return AKIN[cards[0]]
    return frozenset(name for name in CARD_NAMES if fits(cards, lock, (name,)))  # its owner has yet to declare


def set_trait(cards: Sequence[str], lock: str, table: Mapping[str, Card]) -> str:
    """The trait a set scores by ("" for an empty or lone-card set)."""
    return table[cards[0]].trait(lock) if lock and cards else ""


def set_points(cards: Sequence[str], lock: str, cards_deck: Deck) -> int:
    trait = set_trait(cards, lock, cards_deck.cards)
    return cards_deck.traits[trait].points(len(cards)) if trait else 0


# ----- the state ----------------------------------------------------------------------------------------


@dataclass(slots=True)  # made for every card taken from the deck: not frozen, which makes it cheaper to build
class DeckCard(ChanceNode):
    """The deck's next card: each card it holds equally likely, drawn into `seat`'s hand or, for DECK,
    turned up (step 2). The same odds as a uniform choice over the deck's cards, without listing them."""

    cards: tuple[str, ...]
    seat: int

    def draw(self, rng: random.Random) -> Action:
        card = self.cards[rng.randrange(len(self.cards))]
        return made(Reveal, card) if self.seat == DECK else made(Draw, self.seat, card)

    def allows(self, event: Action) -> bool:
        if self.seat == DECK:
            return isinstance(event, Reveal) and event.card in self.cards
        return isinstance(event, Draw) and event.seat == self.seat and event.card in self.cards


class SwapClopsCards(State):
    """A game of the Swap Clops card game; seats take turns clockwise from seat 0."""

    # A snapshot copies every hand, set and pile: taken less often than the engine's default, it costs
    # simulations and the replays of determinized samples less. A 3-player game is about 230 log entries;
    # an undo replays at most 127 of them, about 0.3 ms.
    CHECKPOINT_EVERY: ClassVar[int] = 128
    CODEC: ClassVar[ActionCodec] = ActionCodec(
        Draw,
        Reveal,
        PlaceOne,
        PlaceTwo,
        Lock,
        Score,
        SecretOfferNothing,
        SecretOfferOne,
        SecretOfferTwo,
        OfferNothing,
        OfferOne,
        OfferTwo,
        TakeDeckCard,
        AcceptOffer,
        StopAccepting,
        EndTurn,
    )

    def _setup(self) -> None:
        n = self.players
        self.deck_name: str = self.option("deck")  # which deck file (the content is read through it)
        # Whether offers are chosen all at once, face down: asked on every decision of step 2.
        self.offers_face_down: bool = self.option("offers") == "simultaneous"
        self.phase = "deal"
        self.active = 0
        self.turn = 0
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.sets: list[list[list[str]]] = [[[] for _ in range(SLOTS)] for _ in range(n)]
        self.locks: list[list[str]] = [[""] * SLOTS for _ in range(n)]
        self.deck: list[str] = list(self.content.copies)
        self.discard: list[str] = []
        self.deck_card = ""  # the deck's card on the table (step 2), "" when none
        self.offers: list[list[str]] = [[] for _ in range(n)]  # offered cards on the table, by giver
        self.chosen: dict[int, list[str]] = {}  # offers chosen this turn and not yet on the table, by seat
        self.secret_at: dict[int, int] = {}  # log index of each offer still secret, by seat
        self.accepted = 0
        self.room_slot = -1  # the slot scored to make room, which the next card must go into
        self.locking = -1  # the slot whose owner must declare its trait now
        self.resume = ""  # the phase a declaration returns to
        self.points = [0] * n  # from scored sets
        self.earned = [0] * n  # from accepted offers
        self.scored: list[list[tuple[str, int, int]]] = [[] for _ in range(n)]  # (trait, cards, points)
        self.draws_at: list[list[int]] = [[] for _ in range(n)]  # log index of every Draw, by drawer
        self.run_outs = 0
        self.final = False
        self.ended = ""
        # Each deck's contents, and the log length when it began (the first, then each reshuffle): public.
        self.epoch_starts: list[int] = [0]
        self.epoch_decks: list[tuple[str, ...]] = [tuple(sorted(self.deck))]  # never changed: shared by copies
        start = self.config.start_fields()
        if start is not None:
            _begin_at(self, start)

    @property
    def content(self) -> Deck:
        return deck(self.deck_name)

    # ----- who moves ---------------------------------------------------------------------------------

    def offering_seats(self) -> list[int]:
        """Opponents in clockwise order from the active player's left who still have an offer to make."""
        chosen, hands = self.chosen, self.hands
        return [seat for seat in opponents_clockwise(self.players, self.active) if seat not in chosen and hands[seat]]

    def to_move(self) -> tuple[int, ...]:
        phase = self.phase
        if phase in ("place", "lock", "accept", "score"):
            return (self.active,)
        if phase == "offer":
            waiting = self.offering_seats()
            return tuple(sorted(waiting)) if self.offers_face_down else tuple(waiting[:1])
        return ()

    def _chance(self) -> ChanceNode | None:
        if self.phase in ("deal", "draw") and self.deck:
            return DeckCard(tuple(self.deck), self._drawer())
        if self.phase == "reveal" and self.deck:
            return DeckCard(tuple(self.deck), DECK)
        return None

    def _drawer(self) -> int:
        if self.phase == "deal":
            return min(range(self.players), key=lambda seat: (len(self.hands[seat]), seat))
        return self.active

    # ----- legality ----------------------------------------------------------------------------------

    def fits(self, seat: int, slot: int, adding: Sequence[str]) -> bool:
        return fits(self.sets[seat][slot], self.locks[seat][slot], adding)

    def fitting(self, seat: int, slot: int) -> frozenset[str]:
        """The cards that may join one of the seat's sets, one at a time."""
        return fitting_cards(self.sets[seat][slot], self.locks[seat][slot])

    def has_room(self, seat: int, card: str) -> bool:
        """Whether a card fits one of the seat's sets (an empty slot takes any card)."""
        return any(card in self.fitting(seat, slot) for slot in range(SLOTS))

    def fittings(self, seat: int) -> list[frozenset[str]]:
        """The cards that may join each of the seat's sets, one at a time."""
        return list(map(fitting_cards, self.sets[seat], self.locks[seat]))

    def must_make_room(self, fittings: list[frozenset[str]] | None = None) -> bool:
        """Step 1 when no card in hand fits any set: a set must be scored first (all slots are in use).
        `fittings`: the active seat's, when already worked out."""
        hand = self.hands[self.active]
        taking = self.fittings(self.active) if fittings is None else fittings
        return self.room_slot < 0 and all(cards.isdisjoint(hand) for cards in taking)

    def table_cards(self) -> list[tuple[str, int]]:
        """The cards on offer to the active player, as (card, giver); the giver of the deck's card is DECK."""
        found = [(self.deck_card, DECK)] if self.deck_card else []
        for giver, cards in enumerate(self.offers):
            for card in cards:
                if (card, giver) not in found:  # two alike cards from one giver are one choice
                    found.append((card, giver))
        return found

    def roomless(self) -> list[tuple[str, int]]:
        """Cards on the table that fit none of the active player's sets (apart from the slot just scored to
        make room for them)."""
        seat, freed = self.active, self.room_slot
        taking = [self.fitting(seat, slot) for slot in range(SLOTS) if slot != freed]
        return [(card, giver) for card, giver in self.table_cards() if not any(card in cards for cards in taking)]

    def _legal(self, player: int) -> list[Action]:
        phase = self.phase
        if phase in ("place", "offer") and FACE_DOWN in self.hands[player]:
            return []  # another seat's view: what this hand allows is hidden from it
        if phase == "place":
            return self._place_actions(player)
        if phase == "lock":
            return [made(Lock, self.locking + 1, trait) for trait in KINDS]
        if phase == "offer":
            return list(offers_from(tuple(self.hands[player]), self.offers_face_down))
        if phase == "accept":
            return self._accept_actions(player)
        if phase == "score":
            return [*compress(SCORES, self.sets[player]), END_TURN]  # a set holding cards may be scored
        return []

    def _place_actions(self, seat: int) -> list[Action]:
        fittings = self.fittings(seat)
        if self.must_make_room(fittings):
            return list(SCORES)
        slots = [self.room_slot] if self.room_slot >= 0 else range(SLOTS)
        sets, locks = self.sets[seat], self.locks[seat]
        taking = [(slot, fittings[slot]) for slot in slots]
        actions: list[Action] = []
        for cards in choices_from(tuple(self.hands[seat]), MOST_PLACED):
            if len(cards) == 1:
                card = cards[0]
                for slot, fitting in taking:
                    if card in fitting:
                        actions.append(made(PlaceOne, card, slot + 1))
                continue
            first, second = cards
            for slot, fitting in taking:
                # A pair fits only where each card fits alone; into a set with a trait that is enough,
                # otherwise the pair is checked whole.
                if first in fitting and second in fitting and (locks[slot] or fits(sets[slot], "", cards)):
                    actions.append(made(PlaceTwo, first, second, slot + 1))
        return actions

    def _accept_actions(self, seat: int) -> list[Action]:
        freed = self.room_slot
        taking = [(slot, cards) for slot, cards in enumerate(self.fittings(seat)) if slot != freed]
        actions: list[Action] = []
        needs_room = False
        for card, giver in self.table_cards():
            fitted = False
            for slot, cards in taking:
                if card in cards:
                    fitted = True
                    if freed < 0:
                        actions.append(acceptance(card, giver, slot))
            if not fitted:
                needs_room = True
                if freed >= 0:  # the room just made is for a card that fits nowhere else
                    actions.append(acceptance(card, giver, freed))
        if freed < 0:
            if needs_room:
                actions += SCORES
            actions.append(STOP_ACCEPTING)
        return actions

    # ----- applying ----------------------------------------------------------------------------------

    def _apply(self, player: int, action: Action) -> None:
        self._STEPS[type(action)](self, player, action)
        self._advance()

    def _draw_card(self, player: int, action: Draw) -> None:
        self.draws_at[action.seat].append(len(self.log))
        self._take_from_deck(action.card)
        bisect.insort(self.hands[action.seat], action.card)

    def _turn_up(self, player: int, action: Reveal) -> None:
        self._take_from_deck(action.card)
        self.deck_card = action.card
        self._open_offers()

    def _place(self, player: int, action: PlaceAction) -> None:
        cards = offered_cards(action)
        for card in cards:
            self.hands[player].remove(card)
        self.room_slot = -1
        self._add_to_set(player, action.slot - 1, cards, "reveal")

    def _declare(self, player: int, action: Lock) -> None:
        self.locks[player][action.slot - 1] = action.trait
        self.locking = -1
        self.phase = self.resume

    def _score_set(self, player: int, action: Score) -> None:
        self._score(player, action.slot - 1)
        if self.phase in ("place", "accept"):
            self.room_slot = action.slot - 1

    def _offer(self, player: int, action: OfferAction) -> None:
        self.chosen[player] = list(offered_cards(action))
        if action.SECRET:
            self.secret_at[player] = len(self.log)
        if not self.offering_seats():
            self._close_offers()

    def _stop_accepting(self, player: int, action: StopAccepting) -> None:
        self._finish_accepting()

    def _end(self, player: int, action: EndTurn) -> None:
        self._end_turn()

    def _take_from_deck(self, card: str) -> None:
        """A card leaves the deck; taking its last card is a run-out, and the discard pile becomes the deck."""
        self.deck.remove(card)
        if self.deck:
            return
        self.run_outs += 1
        if self.run_outs >= run_outs_to_end(self.players) or not self.discard:
            self.final = True
        if self.discard:
            self.deck, self.discard = sorted(self.discard), []
            self.epoch_starts.append(len(self.log) + 1)
            self.epoch_decks.append(tuple(self.deck))

    def _add_to_set(self, seat: int, slot: int, cards: Sequence[str], phase: str) -> None:
        held = self.sets[seat][slot]
        held.extend(cards)
        if len(held) >= 2 and not self.locks[seat][slot]:
            shared = shared_traits(held)
            if len(shared) == 1:
                self.locks[seat][slot] = shared[0]
            else:
                self.locking, self.resume, self.phase = slot, phase, "lock"
                return
        self.phase = phase

    def _score(self, seat: int, slot: int) -> None:
        cards, lock = self.sets[seat][slot], self.locks[seat][slot]
        points = set_points(cards, lock, self.content)
        self.points[seat] += points
        self.scored[seat].append((set_trait(cards, lock, self.content.cards), len(cards), points))
        self.discard = sorted(self.discard + cards)
        self.sets[seat][slot] = []
        self.locks[seat][slot] = ""

    def _open_offers(self) -> None:
        self.phase = "offer"
        self.chosen = {}
        if not self.offering_seats():
            self._close_offers()

    def _close_offers(self) -> None:
        """Every offer is in: they go on the table together (secret ones are revealed to everyone)."""
        if self.secret_at:
            self._reveal()
        self.secret_at = {}
        for seat, cards in self.chosen.items():
            for card in cards:
                self.hands[seat].remove(card)
            self.offers[seat] = sorted(cards)
        self.chosen = {}
        self.accepted = 0
        self.phase = "accept"

    def _accept(self, seat: int, action: TakeDeckCard | AcceptOffer) -> None:
        if isinstance(action, TakeDeckCard):
            self.deck_card = ""
        else:
            self.offers[action.giver].remove(action.card)
            self.earned[action.giver] += self.content.cards[action.card].offer
        self.accepted += 1
        self.room_slot = -1
        self._add_to_set(seat, action.slot - 1, (action.card,), "accept")

    def _finish_accepting(self) -> None:
        """The cards left on the table are discarded; step 4 follows."""
        self.discard = sorted(self.discard + self._left_on_table())
        self.deck_card = ""
        self.offers = [[] for _ in range(self.players)]
        self.phase = "draw"

    def _left_on_table(self) -> list[str]:
        left = [self.deck_card] if self.deck_card else []
        for cards in self.offers:
            left += cards
        return left

    def _advance(self) -> None:
        """Carry the turn on through every step that needs no decision."""
        while True:
            phase = self.phase
            if phase == "deal":
                if self.deck and any(len(hand) < HAND_SIZE for hand in self.hands):
                    return
                self._start_turn(self.active)
            elif phase == "place":
                if self.hands[self.active]:
                    return
                self.phase = "reveal"
            elif phase == "reveal":
                if self.deck:
                    return
                self._open_offers()
            elif phase == "accept":
                if self.accepted < MOST_PLACED and (self.deck_card or any(self.offers)):
                    return
                self._finish_accepting()
            elif phase == "draw":
                if self.deck and len(self.hands[self.active]) < HAND_SIZE:
                    return
                self.phase = "score"
            elif phase == "score":
                if any(self.sets[self.active]):
                    return
                self._end_turn()
            else:  # lock, offer (decisions), over
                return

    def _start_turn(self, seat: int) -> None:
        self.active = seat
        self.turn += 1
        self.accepted = 0
        self.phase = "place"

    def _end_turn(self) -> None:
        if self.final:
            self.ended = DECK_THROUGH if self.run_outs >= run_outs_to_end(self.players) else NOTHING_LEFT
            self.phase = "over"
            return
        self._start_turn((self.active + 1) % self.players)

    # What each kind of action does, looked up by its type (the step it belongs to follows in _advance).
    _STEPS: ClassVar[dict[type[Action], Callable[[Any, int, Any], None]]] = {
        Draw: _draw_card,
        Reveal: _turn_up,
        PlaceOne: _place,
        PlaceTwo: _place,
        Lock: _declare,
        Score: _score_set,
        OfferNothing: _offer,
        OfferOne: _offer,
        OfferTwo: _offer,
        SecretOfferNothing: _offer,
        SecretOfferOne: _offer,
        SecretOfferTwo: _offer,
        TakeDeckCard: _accept,
        AcceptOffer: _accept,
        StopAccepting: _stop_accepting,
        EndTurn: _end,
    }

    # ----- the end -----------------------------------------------------------------------------------

    def score_of(self, seat: int) -> int:
        """Points from scored sets and accepted offers (sets still lying out score nothing)."""
        return self.points[seat] + self.earned[seat]

    def outcome(self) -> Outcome | None:
        if not self.ended:
            return None
        scores = [self.score_of(seat) for seat in range(self.players)]
        return Outcome.ranked(scores, self.ended, f"after {self.turn} turns, {self.run_outs} run-outs of the deck")

    # ----- what each seat sees ------------------------------------------------------------------------

    def _hidden_entries(self, seat: int | None) -> Iterable[int]:
        hidden = [index for drawer, found in enumerate(self.draws_at) if drawer != seat for index in found]
        hidden += [index for offerer, index in self.secret_at.items() if offerer != seat]
        return hidden

    def _redact(self, seat: int | None) -> None:
        self.hands = [hand if owner == seat else [FACE_DOWN] * len(hand) for owner, hand in enumerate(self.hands)]
        self.deck = [FACE_DOWN] * len(self.deck)
        # Offers are secret until all are in: whether a seat has chosen shows, not what.
        secret = self.secret_at
        self.chosen = {
            owner: [FACE_DOWN] if owner in secret and owner != seat else cards for owner, cards in self.chosen.items()
        }
        if self.config.start:
            self.config = _start_face_down(self.config, seat)

    def _sample_hidden(self, rng: random.Random) -> None:
        from .sampling import sample_hidden

        sample_hidden(self, rng)

    def _why_illegal(self, player: int, action: Action) -> tuple[str, str]:
        from .explain import why_illegal

        return why_illegal(self, player, action)

    def __str__(self) -> str:
        from .explain import render

        return render(self)

    def _repr_svg_(self) -> str:
        # Drawing is imported only when a picture is asked for: the rules know no screen.
        from cliplab.ui.svg import render

        from .board import describe

        return render(describe(self))


# ----- start positions -------------------------------------------------------------------------------

POSITION_FIELDS = ("hands", "sets", "locks", "deck", "discard", "points", "earned", "active", "run_outs")


def position(
    players: int = 3,
    seed: int = 0,
    *,
    hands: Sequence[Sequence[str]] | None = None,
    sets: Sequence[Sequence[Sequence[str]]] | None = None,
    locks: Sequence[Sequence[str]] | None = None,
    deck: Sequence[str] | None = None,
    discard: Sequence[str] = (),
    points: Sequence[int] | None = None,
    earned: Sequence[int] | None = None,
    active: int = 0,
    run_outs: int = 0,
    **options: Any,
) -> SwapClopsCards:
    """A game of the Swap Clops card game beginning at the start of a turn described by these fields.

    hands     each seat's hand (card names such as "yellow_circle", at most 5 each)
    sets      each seat's three sets, each a list of cards (empty: a free slot); every set of two or more
              cards must share a shape or a colour
    locks     each set's trait, "shape" or "colour" ("" for sets of fewer than two cards); needed only for
              sets whose cards share both (else it is worked out)
    deck      what the face-down deck holds (its order is never fixed: each draw comes from the seed)
    discard   the discard pile
    points    each seat's points from scored sets; earned: each seat's points from accepted offers
    active    the seat whose turn begins; run_outs: how often the deck has run out so far

    Left out, hands are dealt from the deck as in a new game (and the rest is the starting deck). No kind
    of card may appear more often than the deck file holds it.

    Player 0 holds two red circles and a set of three yellows, with a red square on the discard pile:

    >>> game = position(2, hands=[["red_circle", "red_circle", "blue_square"], ["white_triangle"]],
    ...                 sets=[[["yellow_circle", "yellow_square", "yellow_triangle"], [], []], [[], [], []]],
    ...                 deck=["green_circle"] * 4, discard=["red_square"])
    >>> game.phase, game.to_move(), game.locks[0]
    ('place', (0,), ['colour', '', ''])
    >>> legal = {str(action) for action in game.legal_actions()}
    >>> "place red_circle in set 1" in legal, "place red_circle in set 2" in legal
    (False, True)
    """
    fields: dict[str, Any] = {"active": active, "run_outs": run_outs, "discard": list(discard)}
    if hands is not None:
        fields["hands"] = [list(hand) for hand in hands]
    if sets is not None:
        fields["sets"] = [[list(cards) for cards in seat_sets] for seat_sets in sets]
    if locks is not None:
        fields["locks"] = [list(seat_locks) for seat_locks in locks]
    if deck is not None:
        fields["deck"] = sorted(deck)
    if points is not None:
        fields["points"] = list(points)
    if earned is not None:
        fields["earned"] = list(earned)
    return SwapClopsCards(SPEC.config(players, seed, **options).starting_at(fields))


def position_of(game: SwapClopsCards) -> dict[str, Any]:
    """The fields of `position` that describe a game at the start of a turn (before step 1)."""
    if game.phase != "place" or game.room_slot >= 0:
        raise PositionError("phase", f"a position is read at the start of a turn, not in {game.phase}")
    return {
        "hands": [list(hand) for hand in game.hands],
        "sets": [[list(cards) for cards in seat_sets] for seat_sets in game.sets],
        "locks": [list(seat_locks) for seat_locks in game.locks],
        "deck": sorted(game.deck),
        "discard": list(game.discard),
        "points": list(game.points),
        "earned": list(game.earned),
        "active": game.active,
        "run_outs": game.run_outs,
    }


def _cards(value: Any, where: str, most: int | None = None) -> list[str]:
    found = [word(card, f"{where}[{i}]", CARD_NAMES) for i, card in enumerate(items(value, where))]
    if most is not None and len(found) > most:
        raise PositionError(where, f"holds at most {most} cards, not {len(found)}")
    return found


def _begin_at(game: SwapClopsCards, fields: dict[str, Any]) -> None:
    """Check a start position's fields and set the game up there (called by _setup)."""
    check_fields(fields, POSITION_FIELDS)
    n = game.players
    table = game.content.cards
    game.active = integer(fields.get("active", 0), "active", 0, n - 1)
    game.run_outs = integer(fields.get("run_outs", 0), "run_outs", 0, run_outs_to_end(n) - 1)
    if "sets" in fields:
        game.sets = [
            [
                _cards(cards, f"sets[{seat}][{slot}]")
                for slot, cards in enumerate(items(seat_sets, f"sets[{seat}]", SLOTS))
            ]
            for seat, seat_sets in enumerate(items(fields["sets"], "sets", n))
        ]
    given_locks = fields.get("locks", [[""] * SLOTS] * n)
    for seat, seat_locks in enumerate(items(given_locks, "locks", n)):
        for slot, lock in enumerate(items(seat_locks, f"locks[{seat}]", SLOTS)):
            where = f"locks[{seat}][{slot}]"
            cards = game.sets[seat][slot]
            lock = word(lock, where, ("", *KINDS))
            shared = shared_traits(cards)
            if len(cards) < 2:
                if lock:
                    raise PositionError(where, "a set of fewer than two cards has no trait yet")
                continue
            if not shared:
                raise PositionError(f"sets[{seat}][{slot}]", "these cards share neither a shape nor a colour")
            if lock and lock not in shared:
                raise PositionError(where, f"the set's cards do not share a {lock}")
            if not lock and len(shared) > 1:
                raise PositionError(where, "the cards share both shape and colour: say which the set keeps")
            game.locks[seat][slot] = lock or shared[0]
    game.discard = sorted(_cards(fields.get("discard", []), "discard"))
    game.points = [integer(v, f"points[{i}]") for i, v in enumerate(items(fields.get("points", [0] * n), "points", n))]
    game.earned = [integer(v, f"earned[{i}]") for i, v in enumerate(items(fields.get("earned", [0] * n), "earned", n))]
    placed = Counter(game.discard) + Counter(card for seat_sets in game.sets for cards in seat_sets for card in cards)
    if "hands" in fields:
        game.hands = [
            sorted(_cards(hand, f"hands[{seat}]", HAND_SIZE))
            for seat, hand in enumerate(items(fields["hands"], "hands", n))
        ]
        placed += Counter(card for hand in game.hands for card in hand)
    if "deck" in fields:
        game.deck = sorted(_cards(fields["deck"], "deck"))
    else:
        game.deck = sorted((Counter(game.content.copies) - placed).elements())
    everything = placed + Counter(game.deck)
    for card, count in sorted(everything.items()):
        if count > table[card].count:
            raise PositionError(card, f"the position holds {count} of {card}, the deck file only {table[card].count}")
    if not game.deck and not game.discard:
        raise PositionError("deck", "the deck and the discard pile are both empty: the game has ended")
    if not game.deck:
        game.deck, game.discard = game.discard, []
    game.epoch_decks = [tuple(sorted(game.deck + [card for hand in game.hands for card in hand]))]
    if "hands" in fields:
        game._start_turn(game.active)
        game._advance()  # an empty hand skips step 1 at once


def _start_face_down(config: GameConfig, seat: int | None) -> GameConfig:
    """A view's start position: other seats' hands and the deck as face-down markers."""
    fields = config.start_fields() or {}
    if "hands" in fields:
        fields["hands"] = [
            hand if owner == seat else [FACE_DOWN] * len(hand) for owner, hand in enumerate(fields["hands"])
        ]
    if "deck" in fields:
        fields["deck"] = [FACE_DOWN] * len(fields["deck"])
    return config.starting_at(fields)


def start_with_cards(config: GameConfig, hands: list[list[str]], cards: Sequence[str]) -> GameConfig:
    """A start position with these hands, the deck holding the rest of `cards` (what the first deck and the
    hands hold together): how a sample fills in a view's face-down start."""
    fields = config.start_fields() or {}
    fields["hands"] = hands
    if "deck" in fields:
        fields["deck"] = sorted((Counter(cards) - Counter(card for hand in hands for card in hand)).elements())
    return config.starting_at(fields)


def _max_length(players: int, options: Mapping[str, OptionValue]) -> int:
    """A deal, then per turn at most: 2 + 1 step-1 decisions with a lock, a reveal, the offers, two accepts
    each with a score and a lock plus a stop, five draws, three scores and the end. Every turn takes a card
    from a deck of at most the whole deck, which runs out at most `players - 1` times."""
    cards = len(deck(str(options["deck"])).copies)
    per_turn = 3 + 1 + (players - 1) + 3 * MOST_PLACED + 1 + HAND_SIZE + SLOTS + 1
    turns = cards * run_outs_to_end(players) + 1
    return HAND_SIZE * players + turns * per_turn


SPEC = register(
    GameSpec(
        name="swap_clops_cards",
        title="Swap Clops: the card game",
        summary="Collect sets of one shape or one colour from cards offered by the deck and by the other players.",
        min_players=2,
        max_players=4,
        default_players=3,
        options=(
            Option(
                "offers",
                str,
                "simultaneous",
                "how the other players offer cards in step 2: all at once in secret, or one by one clockwise, openly",
                choices=OFFER_MODES,
            ),
            Option(
                "deck",
                str,
                "deck",
                "which deck file: the tuned deck, or the first draft it was tuned from",
                choices=DECKS,
            ),
        ),
        state_class=SwapClopsCards,
        max_length=_max_length,
        variants={"open_offers": {"offers": "in_turn"}, "draft_deck": {"deck": "draft"}},
        simultaneous=True,
        hidden_information=True,
        chance=True,
    )
)

__all__ = [
    "SPEC",
    "AcceptOffer",
    "Draw",
    "EndTurn",
    "Lock",
    "OfferNothing",
    "OfferOne",
    "OfferTwo",
    "PlaceOne",
    "PlaceTwo",
    "Reveal",
    "Score",
    "SecretOfferNothing",
    "SecretOfferOne",
    "SecretOfferTwo",
    "StopAccepting",
    "SwapClopsCards",
    "TakeDeckCard",
    "position",
    "position_of",
]
