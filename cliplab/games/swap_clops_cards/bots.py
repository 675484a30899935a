"""Swap Clops card game bots: a heuristic one (sets whose chart pays, scored at the right size, offers that
earn without feeding the active player, acceptance weighed against the offerer's gain) and a search bot
(tree search over determinized samples, never the real hands or deck, with the heuristic in its playouts).

The heuristic values a set by what its chart would pay now and how far it has come towards the next step:
`set_worth`. Every decision compares those worths before and after; nothing applies an action to the view
(the deck's next card is hidden from it), so the heuristic decides from its own seat's view alone. Ties
are broken by a generator seeded from the bot's seed and public facts (the log's length), never from
anything hidden.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from cliplab.bots import MCTSBot
from cliplab.engine import Action, State

from .content import Deck, Trait
from .rules import (
    DECK,
    SLOTS,
    AcceptOffer,
    EndTurn,
    Lock,
    OfferNothing,
    OfferOne,
    OfferTwo,
    PlaceOne,
    PlaceTwo,
    Score,
    StopAccepting,
    SwapClopsCards,
    TakeDeckCard,
    fits,
    offered_cards,
    run_outs_to_end,
    set_points,
    shared_traits,
)

PROGRESS = 0.6  # what being all the way to a chart's next step is worth, in points, before it is reached
LONE = 0.15  # a lone card: the start of a set whose trait is still open
OFFER_WEIGHT = 0.6  # how much another seat's gain counts against one's own (it is one rival of several)
ACCEPT_LIKELY = 0.9  # how likely the active player is to take a card that helps one of its sets
FEED_WEIGHT = 0.8  # how much the active player's gain from one's offer counts against it


def _game(view: State) -> SwapClopsCards:
    if not isinstance(view, SwapClopsCards):
        raise TypeError(f"a Swap Clops card bot plays the Swap Clops card game, not {type(view).__name__}")
    return view


def _lock_of(cards: Sequence[str], lock: str, deck: Deck) -> str:
    """The set's trait kind: its lock, or for two or more cards sharing both, the better paying one."""
    if lock or len(cards) < 2:
        return lock
    shared = shared_traits(cards)
    if len(shared) == 1:
        return shared[0]
    return max(shared, key=lambda kind: deck.traits[deck.cards[cards[0]].trait(kind)].points(len(cards) + 2))


def set_worth(cards: Sequence[str], lock: str, deck: Deck) -> float:
    """What a set is worth to its owner now: its chart's points, plus part of a point for the way it has
    come towards the next step (a lone card is worth a little: a set begun)."""
    if not cards:
        return 0.0
    kind = _lock_of(cards, lock, deck)
    if not kind:
        return LONE
    return _chart_worth(deck.traits[deck.cards[cards[0]].trait(kind)], len(cards))


@cache
def _chart_worth(trait: Trait, size: int) -> float:
    """The worth of a set of `size` cards of this trait; it depends on the chart alone, and the search's
    playouts ask for the same few thousand times a move, so each is worked out once."""
    points = trait.points(size)
    if points >= len(trait.chart):
        return float(points)
    before = trait.chart[points - 1] if points else 0
    after = trait.chart[points]
    return points + PROGRESS * (size - before) / (after - before)


def gain(game: SwapClopsCards, seat: int, slot: int, adding: Sequence[str]) -> float:
    """How much a set's worth rises when `adding` joins it (None-like -inf when it does not fit)."""
    cards, lock = game.sets[seat][slot], game.locks[seat][slot]
    if not fits(cards, lock, adding):
        return float("-inf")
    deck = game.content
    return set_worth([*cards, *adding], lock, deck) - set_worth(cards, lock, deck)


def best_gain(game: SwapClopsCards, seat: int, card: str) -> float:
    """The most one card adds to any of the seat's sets (an empty slot takes it as a lone card)."""
    return max(gain(game, seat, slot, (card,)) for slot in range(SLOTS))


def cash_loss(game: SwapClopsCards, seat: int, slot: int) -> float:
    """What scoring a set now gives up: its worth beyond the points it scores."""
    cards, lock = game.sets[seat][slot], game.locks[seat][slot]
    return set_worth(cards, lock, game.content) - set_points(cards, lock, game.content)


def _closing(game: SwapClopsCards) -> bool:
    """Whether the game ends this turn, or the last deck is nearly through."""
    last = game.run_outs == run_outs_to_end(game.players) - 1
    return game.final or (last and len(game.deck) <= 2 * game.players)


class HeuristicBot:
    """Rules of thumb, one per kind of decision (see the module docstring)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: State, player: int) -> Action:
        game = _game(view)
        actions = game.legal_actions(player)
        if len(actions) == 1:
            return actions[0]
        values = [self.value(game, player, action) for action in actions]
        best = max(values)
        top = [action for action, value in zip(actions, values, strict=True) if value >= best - 1e-9]
        if len(top) == 1:
            return top[0]
        rng = random.Random(f"{self.seed}/{player}/{len(game.log)}")
        return top[rng.randrange(len(top))]

    def value(self, game: SwapClopsCards, seat: int, action: Action) -> float:
        """How good `action` looks for `seat`: gains to its own sets and points, less what it gives others."""
        if isinstance(action, PlaceOne | PlaceTwo):
            return gain(game, seat, action.slot - 1, offered_cards(action)) + 0.01 * len(offered_cards(action))
        if isinstance(action, Lock):
            cards = game.sets[seat][action.slot - 1]
            trait = game.content.traits[game.content.cards[cards[0]].trait(action.trait)]
            return trait.points(len(cards) + 3) - 0.01 * trait.chart[0]
        if isinstance(action, Score):
            return self._score_value(game, seat, action.slot - 1)
        if isinstance(action, EndTurn | StopAccepting):
            return 0.0
        if isinstance(action, TakeDeckCard | AcceptOffer):
            giver = DECK if isinstance(action, TakeDeckCard) else action.giver
            cost = 0.0 if giver == DECK else OFFER_WEIGHT * game.content.cards[action.card].offer
            return gain(game, seat, action.slot - 1, (action.card,)) - cost
        if isinstance(action, OfferNothing | OfferOne | OfferTwo):
            return sum(self._offer_value(game, seat, card) for card in offered_cards(action))
        return 0.0

    def _score_value(self, game: SwapClopsCards, seat: int, slot: int) -> float:
        cards, lock = game.sets[seat][slot], game.locks[seat][slot]
        points = set_points(cards, lock, game.content)
        if game.phase in ("place", "accept"):
            # Forced to make room: give up the set that loses least; in step 3 only for a card worth it.
            loss = cash_loss(game, seat, slot)
            if game.phase == "place":
                return -loss
            wanted = max((best_gain_if_empty(game, card) for card, _ in game.roomless()), default=0.0)
            return wanted - loss - 0.2
        if points == 0:
            return -1.0
        if _closing(game):
            return float(points)
        # Cash a set when its next step is far off, or it is at the top of its chart.
        kind = _lock_of(cards, lock, game.content)
        trait = game.content.traits[game.content.cards[cards[0]].trait(kind)]
        if points >= len(trait.chart) or trait.chart[points] - len(cards) >= 3:
            return float(points)
        free = sum(1 for held in game.sets[seat] if not held)
        return 0.5 if free == 0 and cash_loss(game, seat, slot) < 0.3 else -0.5

    def _offer_value(self, game: SwapClopsCards, seat: int, card: str) -> float:
        active = game.active
        feeds = best_gain(game, active, card)
        likely = ACCEPT_LIKELY if feeds > LONE else 0.25
        earned = likely * game.content.cards[card].offer
        keep = max(0.0, best_gain(game, seat, card))
        return earned - FEED_WEIGHT * max(0.0, feeds) * likely - keep


def best_gain_if_empty(game: SwapClopsCards, card: str) -> float:
    """What a card is worth alone in a new set (a room just made)."""
    return set_worth([card], "", game.content)


def evaluate(state: State) -> list[float]:
    """Each seat's chance-like value in [0, 1] from scores and set worths, for the search's cut-off playouts."""
    game = _game(state)
    totals = [
        game.score_of(seat)
        + sum(
            set_worth(cards, lock, game.content) for cards, lock in zip(game.sets[seat], game.locks[seat], strict=True)
        )
        for seat in range(game.players)
    ]
    best = max(totals)
    return [1.0 if total >= best else max(0.0, 1.0 - (best - total) / 6.0) for total in totals]


def _heuristic_policy(state: State, seat: int, rng: random.Random) -> Action:
    return HeuristicBot(rng.randrange(1 << 30)).choose(state, seat)


class SearchBot(MCTSBot):
    """Tree search over determinized samples (other hands and the deck drawn anew in each), the heuristic
    playing out a few steps, then the position's worths taken as the value."""

    def __init__(self, seed: int = 0, iterations: int = 24) -> None:
        super().__init__(
            seed,
            iterations=iterations,
            rollout_policy=_heuristic_policy,
            evaluate=evaluate,
            rollout_depth=12,
            root_prior=_prior,
            root_width=6,
        )


def _prior(view: State, seat: int, actions: Sequence[Action]) -> list[float]:
    game = _game(view)
    judge = HeuristicBot()
    return [judge.value(game, seat, action) for action in actions]
