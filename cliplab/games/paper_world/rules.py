"""Paper World: take paper from the centre by colour or by value, lay it in rising stacks in a 3 x 3
landscape, claim objectives, and score the stars showing.

Rules from seeds/004 with RULINGS.md (which stands over the seed). The rule names in refusals follow the
rulebook: take, hand limit, place, rising stacks, skip, landscape, scissors, objectives, end, pass.

A turn is a few decisions in a row, so that no action lists every combination:
- "take colour yellow" / "take value 3" (then, above 9 cards, "discard card N face down" until 9 are left), or
- "place card N at R C" once per card (all of one colour or all of one value), each possibly followed by
  "discard card N face down" to pay for the skip and by "move the scissors" / "leave the scissors", then "end the
  turn".
Landscape cells are (row, column) counted from the first stack, which always lies at (0, 0): the first
stack may go anywhere, so where it lies only matters relative to the others.

Hidden: hands and discard piles are seen by their owners only (counts are public); the cards under each
centre pile's top are seen by nobody. The deal is logged card by card, a card's entry hidden while the
card lies buried; discards are secret decisions.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from cliplab.engine import (
    CHANCE,
    Action,
    ActionCodec,
    ChanceNode,
    GameSpec,
    Hidden,
    Outcome,
    PositionError,
    State,
    UniformChoice,
    register,
)
from cliplab.engine.position import check_fields, integer, items

from .content import SIDE, Card, Cell, Top, deck, objectives

PILES = 5
HAND_LIMIT = 9
OBJECTIVES_IN_PLAY = 3
END_PILES = 2  # the end comes when this many centre piles or fewer are left
SCISSORS_BONUS = 2
BURIED = -1  # a view's stand-in for a card it may not see
BY = ("colour", "value")

# How the game ends (Outcome.termination).
CENTRE_EMPTIED = "the centre was down to two piles or fewer and everyone had one more turn"


CARDS = deck().cards
# Each card's colour and value by number: the legal-action lists read them thousands of times a game.
COLOUR = tuple(c.colour for c in CARDS)
VALUE = tuple(c.value for c in CARDS)
COLOUR_ORDER = {colour: k for k, colour in enumerate(deck().colours)}
# A card's colour and value in one number: a card rises by one on a top whose kind is one less.
KIND = tuple(8 * COLOUR_ORDER[c.colour] + c.value for c in CARDS)


def card(number: int) -> Card:
    return CARDS[number]


@cache
def deck_of(players: int) -> tuple[int, ...]:
    """The numbers of a game's landscape cards (start cards aside), worked out once per player count."""
    return deck().deck(players)


# ----- actions -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DrawObjective(Action):
    TEMPLATE: ClassVar[str] = "objective {objective} is in play"
    CHANCE: ClassVar[bool] = True
    objective: int


@dataclass(frozen=True, slots=True)
class DealCard(Action):
    """One card of the shuffled deck onto the next centre pile (piles are dealt in turn)."""

    TEMPLATE: ClassVar[str] = "deal card {card} onto pile {pile}"
    CHANCE: ClassVar[bool] = True
    card: int
    pile: int


@dataclass(frozen=True, slots=True)
class DealStart(Action):
    TEMPLATE: ClassVar[str] = "deal starting card {card} to player {seat}"
    CHANCE: ClassVar[bool] = True
    card: int
    seat: int


@dataclass(frozen=True, slots=True)
class TakeColour(Action):
    TEMPLATE: ClassVar[str] = "take colour {colour}"
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"colour": deck().colours}
    colour: str


@dataclass(frozen=True, slots=True)
class TakeValue(Action):
    TEMPLATE: ClassVar[str] = "take value {value}"
    value: int


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """A card from hand to one's own face-down discard pile: over the hand limit, or to pay for a skip."""

    TEMPLATE: ClassVar[str] = "discard card {card} face down"
    SECRET: ClassVar[bool] = True
    card: int


@dataclass(frozen=True, slots=True)
class PlaceCard(Action):
    TEMPLATE: ClassVar[str] = "place card {card} at {row} {col}"
    card: int
    row: int
    col: int


@dataclass(frozen=True, slots=True)
class Scissors(Action):
    TEMPLATE: ClassVar[str] = "{choice} the scissors"
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"choice": ("move", "leave")}
    choice: str


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    TEMPLATE: ClassVar[str] = "end the turn"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    TEMPLATE: ClassVar[str] = "pass"


# Every action a player can be offered, made once: actions are immutable, so the lists share them.
WINDOW = range(1 - SIDE, SIDE)  # a landscape's cells, counted from its first stack, lie in this square
PLACES = tuple({(r, c): PlaceCard(number, r, c) for r in WINDOW for c in WINDOW} for number in range(len(CARDS)))
DISCARDS = tuple(Discard(number) for number in range(len(CARDS)))
TAKE_COLOUR = {colour: TakeColour(colour) for colour in deck().colours}
TAKE_VALUE = {value: TakeValue(value) for value in sorted(set(VALUE))}
DEALS = tuple(tuple(DealCard(number, pile) for pile in range(PILES)) for number in range(len(CARDS)))
# A card on a pile top offers the take of its colour and of its value: one bit each, takes in offering order.
TAKE_ORDER = (*TAKE_COLOUR.values(), *TAKE_VALUE.values())
SHOWS = tuple(1 << TAKE_ORDER.index(TAKE_COLOUR[c.colour]) | 1 << TAKE_ORDER.index(TAKE_VALUE[c.value]) for c in CARDS)
SCISSORS_CHOICES = (Scissors("move"), Scissors("leave"))
END_TURN = EndTurn()
PASS = Pass()


@dataclass(frozen=True, slots=True)
class NextCard(ChanceNode):
    """The next card of the deal onto `pile`: each card not dealt yet equally likely. (UniformChoice over
    the same cards draws the same; this one makes no action for a card it does not draw.)"""

    cards: tuple[int, ...]
    pile: int

    def draw(self, rng: random.Random) -> Action:
        return DEALS[self.cards[rng.randrange(len(self.cards))]][self.pile]

    def allows(self, event: Action) -> bool:
        return isinstance(event, DealCard) and event.pile == self.pile and event.card in self.cards


# ----- the state -----------------------------------------------------------------------------------


class PaperWorld(State):
    """A game of Paper World for 2-4 players; each seat's data sits in lists indexed by seat."""

    CODEC: ClassVar[ActionCodec] = ActionCodec(
        DrawObjective, DealCard, DealStart, TakeColour, TakeValue, Discard, PlaceCard, Scissors, EndTurn, Pass
    )
    # A game is about 150 log entries, a hundred of them the deal: a snapshot every 64 keeps copying rare (in
    # play and when a view is determinized) and a rewind short.
    CHECKPOINT_EVERY: ClassVar[int] = 64

    def _setup(self) -> None:
        n = self.players
        self.deck_size = len(deck_of(n))
        self.to_deal = deck_of(n)  # the landscape cards not dealt yet, in card order
        self.objectives: list[int] = []
        self.tokens: list[list[int]] = []  # per objective in play: tokens left, highest first
        self.claims: list[list[int]] = [[0] * OBJECTIVES_IN_PLAY for _ in range(n)]  # token taken, 0: none
        self.piles: list[list[int]] = [[] for _ in range(PILES)]  # bottom to top
        self.seen: list[list[int]] = [[] for _ in range(PILES)]  # each pile's cards that have been on top
        self.dealt = 0
        self.hands: list[list[int]] = [[] for _ in range(n)]  # sorted
        self.discards: list[list[int]] = [[] for _ in range(n)]  # sorted
        self.lands: list[dict[Cell, list[int]]] = [{} for _ in range(n)]  # cell -> stack, bottom to top
        self.scissors: tuple[int, int, int] | None = None  # (owner, row, col) of the stack under the token
        self.turn = 0
        self.turns = 0  # turns finished
        self.phase = "deal"  # deal, turn, placing, pay, scissors, trim, over
        self.placed: list[int] = []  # cards placed this turn
        self.last_at: Cell = (0, 0)  # where the last card this turn went
        self.skipped = False  # this turn's skip is used
        self.scissors_due = False  # a scissors card was just placed: the token may move onto it
        self.final_turns = -1  # turns left after the end was triggered; -1: not yet
        self.built = False
        start = self.config.start_fields()
        if start is not None:
            _begin_at(self, start)

    # ----- chance ---------------------------------------------------------------------------------

    def _chance(self) -> ChanceNode | None:
        if self.phase != "deal":
            return None
        if len(self.objectives) < OBJECTIVES_IN_PLAY:
            return UniformChoice(
                tuple(DrawObjective(o.number) for o in objectives() if o.number not in self.objectives)
            )
        if self.dealt < self.deck_size:
            return NextCard(self.to_deal, self.dealt % PILES)
        seat = next(s for s in range(self.players) if not self.hands[s])
        given = {c for hand in self.hands for c in hand}
        return UniformChoice(tuple(DealStart(c, seat) for c in deck().start_cards() if c not in given))

    # ----- asking ---------------------------------------------------------------------------------

    def to_move(self) -> tuple[int, ...]:
        if self.phase in ("deal", "over"):
            return ()
        return (self.turn,)

    def piles_left(self) -> int:
        return sum(1 for pile in self.piles if pile)

    def tops(self) -> list[int | None]:
        return [pile[-1] if pile else None for pile in self.piles]

    def holds_scissors(self, seat: int) -> bool:
        return self.scissors is not None and self.scissors[0] == seat

    def landscape(self, seat: int) -> dict[Cell, Top]:
        """The colour and value each of a seat's stacks shows."""
        return {at: (COLOUR[stack[-1]], VALUE[stack[-1]]) for at, stack in self.lands[seat].items()}

    def stars_showing(self, seat: int) -> int:
        stars = deck().stars
        return sum(stars[card(stack[-1]).value] for stack in self.lands[seat].values())

    def score(self, seat: int) -> int:
        return (
            self.stars_showing(seat)
            + sum(self.claims[seat])
            + (SCISSORS_BONUS if self.holds_scissors(seat) else 0)
            - len(self.hands[seat])
            - len(self.discards[seat])
        )

    def takes(self) -> list[Action]:
        """The takes possible now: each colour and each value showing on a pile top."""
        showing = 0
        for pile in self.piles:
            if pile and pile[-1] != BURIED:
                showing |= SHOWS[pile[-1]]
        return list(_takes_showing(showing))

    def taken_by(self, action: TakeColour | TakeValue) -> list[int]:
        """The piles whose top cards a take picks up."""
        shown, wanted = (COLOUR, action.colour) if isinstance(action, TakeColour) else (VALUE, action.value)
        return [k for k, pile in enumerate(self.piles) if pile and pile[-1] != BURIED and shown[pile[-1]] == wanted]

    def open_cells(self, seat: int) -> list[Cell]:
        """Empty cells where a new stack may start: next to a stack, the landscape staying within 3 x 3."""
        return list(_open_cells(frozenset(self.lands[seat])))

    def same_kind(self, number: int) -> bool:
        """Whether a card goes with this turn's placements: all of one colour, or all of one value."""
        colour, value = COLOUR[number], VALUE[number]
        return all(COLOUR[c] == colour for c in self.placed) or all(VALUE[c] == value for c in self.placed)

    def can_skip(self, seat: int) -> bool:
        """This turn's skip is free to use: with the scissors, or with another card in hand to discard."""
        return not self.skipped and (self.holds_scissors(seat) or len(self.hands[seat]) >= 2)

    def placements(self, seat: int) -> list[PlaceCard]:
        """Each card in hand (in hand order) onto each stack it may rise on, then onto each open cell."""
        hand = self.hands[seat]  # its cards are all different: only a view's stand-ins repeat
        if not hand or hand[0] == BURIED:
            return []
        holds = self.holds_scissors(seat)
        skip = self.can_skip(seat)
        blocked = self.scissors[1:] if holds else None  # type: ignore[index]
        land = self.lands[seat]
        onto: dict[int, list[Cell]] = {}  # a card's kind -> the stacks it may go on, in landscape order
        for at, stack in land.items():
            if at != blocked:
                for kind in (KIND[stack[-1]] + 1, KIND[stack[-1]] + 2) if skip else (KIND[stack[-1]] + 1,):
                    if kind in onto:
                        onto[kind].append(at)
                    else:
                        onto[kind] = [at]
        starts = 2 if skip else 1  # the highest value that may start a stack
        # A card placed after others this turn shares their one colour or their one value.
        placed = self.placed
        colour_now = COLOUR[placed[0]] if placed and all(COLOUR[c] == COLOUR[placed[0]] for c in placed) else None
        value_now = VALUE[placed[0]] if placed and all(VALUE[c] == VALUE[placed[0]] for c in placed) else None
        found: list[PlaceCard] = []
        open_cells: tuple[Cell, ...] = ()  # worked out for the first card that may start a stack
        for number in hand:
            if placed and COLOUR[number] != colour_now and VALUE[number] != value_now:
                continue
            places = PLACES[number]
            for at in onto.get(KIND[number], ()):
                found.append(places[at])
            if VALUE[number] <= starts:
                open_cells = open_cells or _open_cells(frozenset(land))
                for at in open_cells:
                    found.append(places[at])
        return found

    def _legal(self, player: int) -> list[Action]:
        phase = self.phase
        if phase == "turn":
            found: list[Action] = [*self.takes(), *self.placements(player)]
            return found or [PASS]
        if phase == "placing":
            return [*self.placements(player), END_TURN]
        if phase == "scissors":
            return list(SCISSORS_CHOICES)
        return [DISCARDS[c] for c in self.hands[player] if c != BURIED]  # trim, pay

    def _is_legal(self, player: int, action: Action) -> bool:
        # The commonest actions are checked alone, without listing every legal one.
        kind, phase = type(action), self.phase
        if kind is PlaceCard and (phase == "turn" or phase == "placing"):
            return self._may_place(player, action)  # type: ignore[arg-type]
        if (kind is TakeColour or kind is TakeValue) and phase == "turn":
            return action in self.takes()
        return super()._is_legal(player, action)

    def _may_place(self, player: int, action: PlaceCard) -> bool:
        """Whether `action` is one of `placements(player)`, worked out for its card and cell alone."""
        number, at = action.card, (action.row, action.col)
        if type(number) is not int or type(at[0]) is not int or type(at[1]) is not int:
            return action in self.placements(player)  # odd values are compared as the list compares them
        hand = self.hands[player]
        if not hand or hand[0] == BURIED or number not in hand or not self.same_kind(number):
            return False
        skip = self.can_skip(player)
        land = self.lands[player]
        if at in land:
            if self.holds_scissors(player) and at == self.scissors[1:]:  # type: ignore[index]
                return False
            rise = KIND[number] - KIND[land[at][-1]]
            return rise == 1 or (skip and rise == 2)
        return VALUE[number] <= (2 if skip else 1) and at in _open_cells(frozenset(land))

    def _why_illegal(self, player: int, action: Action) -> tuple[str, str]:
        from .explain import why_illegal

        return why_illegal(self, player, action)

    # ----- moving -------------------------------------------------------------------------------------

    def _apply(self, player: int, action: Action) -> None:
        if player == CHANCE:
            self._deal(action)
        elif isinstance(action, TakeColour | TakeValue):
            self._take(player, action)
        elif isinstance(action, PlaceCard):
            self._place(player, action)
        elif isinstance(action, Discard):
            self.hands[player].remove(action.card)
            self.discards[player] = sorted([*self.discards[player], action.card])
            if self.phase == "trim":
                if len(self.hands[player]) <= HAND_LIMIT:
                    self._end_turn(player)
            else:  # the skip is paid; the token may move after
                self.phase = "scissors" if self.scissors_due else "placing"
        elif isinstance(action, Scissors):
            if action.choice == "move":
                self.scissors = (player, *self.last_at)
            self.scissors_due = False
            self.phase = "placing"
        else:  # EndTurn, Pass
            self._end_turn(player)

    def _deal(self, action: Action) -> None:
        if isinstance(action, DrawObjective):
            self.objectives.append(action.objective)
            self.tokens.append(list(deck().tokens[self.players]))
        elif isinstance(action, DealCard):
            self.piles[action.pile].append(action.card)
            at = self.to_deal.index(action.card)
            self.to_deal = self.to_deal[:at] + self.to_deal[at + 1 :]
            self.dealt += 1
            if self.dealt == self.deck_size:
                self.seen = [[pile[-1]] if pile else [] for pile in self.piles]
        elif isinstance(action, DealStart):
            self.hands[action.seat] = [action.card]
            if all(self.hands):
                self.phase = "turn"

    def _take(self, player: int, action: TakeColour | TakeValue) -> None:
        hand = self.hands[player]
        for pile in self.taken_by(action):
            hand.append(self.piles[pile].pop())
            if self.piles[pile]:
                self.seen[pile].append(self.piles[pile][-1])
        hand.sort()
        self._reveal()  # new pile tops turned up for everyone
        if len(hand) > HAND_LIMIT:
            self.phase = "trim"
        else:
            self._end_turn(player)

    def _place(self, player: int, action: PlaceCard) -> None:
        at = (action.row, action.col)
        stack = self.lands[player].setdefault(at, [])
        rise = VALUE[action.card] - (VALUE[stack[-1]] if stack else 0)
        stack.append(action.card)
        self.hands[player].remove(action.card)
        self.placed.append(action.card)
        self.last_at = at
        if card(action.card).start:
            self._reveal()  # the starting card was dealt face down
        if card(action.card).scissors:
            self.scissors_due = True
        if rise == 2:
            self.skipped = True
        # A skip costs a discard unless the player held the scissors when making it.
        if rise == 2 and not self.holds_scissors(player):
            self.phase = "pay"
        else:
            self.phase = "scissors" if self.scissors_due else "placing"

    def _end_turn(self, player: int) -> None:
        # A dealt game's landscapes start empty, so one unchanged since the player's last turn meets nothing
        # new (a built position's may start meeting an objective: it is checked every turn).
        if self.placed or self.built:
            self._claim(player)
        self._next_turn(player)

    def _claim(self, player: int) -> None:
        tops = self.landscape(player)
        for index, number in enumerate(self.objectives):
            if self.claims[player][index] or not self.tokens[index]:
                continue
            if objectives()[number].met(tops, deck().stars):
                self.claims[player][index] = self.tokens[index].pop(0)

    def _next_turn(self, player: int) -> None:
        self.turns += 1
        if self.final_turns > 0:
            self.final_turns -= 1
        elif self.final_turns < 0 and self.piles_left() <= END_PILES:
            self.final_turns = self.players
        self.placed = []
        self.skipped = False
        self.last_at = (0, 0)
        if self.final_turns == 0:
            self.phase = "over"
            self._reveal()  # hands and discard piles are counted openly
            return
        self.turn = (player + 1) % self.players
        self.phase = "turn"

    # ----- the end ----------------------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        if self.phase != "over":
            return None
        seats = range(self.players)
        return Outcome.ranked(
            [self.score(s) for s in seats],
            CENTRE_EMPTIED,
            f"after {self.turns} turns",
            tiebreaks=[[-len(self.discards[s]) for s in seats]],
            tiebreak_names=("fewer discarded cards",),
        )

    # ----- what each seat sees -------------------------------------------------------------------------

    def _deal_index(self, number: int) -> int:
        """The log index of the k-th card dealt (objectives come first)."""
        return OBJECTIVES_IN_PLAY + number

    def _buried(self) -> list[int]:
        """Log indices of the deal entries of cards still lying under a pile's top."""
        if self.built:
            return []
        found = []
        for k in range(self.dealt):
            pile, height = k % PILES, k // PILES
            if height < len(self.piles[pile]) - 1:
                found.append(self._deal_index(k))
        return found

    def _hidden_entries(self, seat: int | None) -> Iterable[int]:
        hidden = self._buried()
        if self.phase == "over":  # hands and discard piles are counted openly at the end
            return hidden
        if not self.built and self.phase != "deal":
            # Which starting card a player was dealt is theirs to know: once placed, everyone sees a 1 of its
            # colour, but the deal itself stays in their own record (so the table always hands the screen
            # over before a person looks at their hand).
            hidden += [self._deal_index(self.deck_size + other) for other in range(self.players) if other != seat]
        hidden += [i for i, (who, action) in enumerate(self.log) if isinstance(action, Discard) and who != seat]
        return sorted(hidden)

    def _redact(self, seat: int | None) -> None:
        self.piles = [[BURIED] * (len(pile) - 1) + pile[-1:] for pile in self.piles]
        for other in range(self.players):
            if other != seat and self.phase != "over":  # hands and discard piles are counted openly at the end
                self.hands[other] = [BURIED] * len(self.hands[other])
                self.discards[other] = [BURIED] * len(self.discards[other])
        start = self.config.start_fields()
        if start is not None:
            start["piles"] = [
                [BURIED if height < len(now) - 1 else c for height, c in enumerate(pile)]
                for pile, now in zip(start["piles"], self.piles, strict=True)
            ]
            for key in ("hands", "discards") if self.phase != "over" else ():
                start[key] = [row if s == seat else [BURIED] * len(row) for s, row in enumerate(start[key])]
            self.config = self.config.starting_at(start)

    def _sample_hidden(self, rng: random.Random) -> None:
        log = self.log
        played: dict[int, set[int]] = {s: set() for s in range(self.players)}  # cards each seat let go of
        for who, action in log:
            if isinstance(action, PlaceCard | Discard):
                played[who].add(action.card)
        start = self.config.start_fields()
        if start is not None:
            self.config = self.config.starting_at(_sample_start(self, start, played, rng))
        else:
            shown = {a.card for _, a in log if isinstance(a, DealCard | DealStart)}
            unseen = [c for c in deck_of(self.players) if c not in shown]
            spare = [c for c in deck().start_cards() if c not in shown]
            rng.shuffle(unseen)
            rng.shuffle(spare)
            for k in range(self.dealt):
                index = self._deal_index(k)
                if isinstance(log[index][1], Hidden):
                    log[index] = (CHANCE, DealCard(unseen.pop(), k % PILES))
            # A starting card someone has since placed was theirs; the others are any of the unseen ones.
            let_go = {seat: [c for c in played[seat] if card(c).start] for seat in range(self.players)}
            spare = [c for c in spare if all(c not in cards for cards in let_go.values())]
            for seat in range(self.players):
                index = self._deal_index(self.deck_size + seat)
                if index < len(log) and isinstance(log[index][1], Hidden):
                    known = let_go[seat]
                    log[index] = (CHANCE, DealStart(known[0] if known else spare.pop(), seat))
        fresh = type(self)(self.config, settle=False)
        for index, (who, action) in enumerate(log):
            if isinstance(action, Hidden):
                # A face-down discard: any card then in hand that the player does not play later.
                options = [c for c in fresh.hands[who] if c not in played[who]]
                action = Discard(options[rng.randrange(len(options))])
                log[index] = (who, action)
            if isinstance(action, PlaceCard | Discard):
                played[who].discard(action.card)
            fresh._apply(who, action)
            fresh._record(who, action)
        self._restore(fresh)
        self._checkpoints = fresh._checkpoints

    def __str__(self) -> str:
        from .explain import render

        return render(self)

    def _repr_svg_(self) -> str:
        # Drawing is imported only when a picture is asked for: the rules know no screen.
        from cliplab.ui.svg import render

        from .board import describe

        return render(describe(self))


def _sample_start(
    game: PaperWorld, start: dict[str, Any], played: Mapping[int, set[int]], rng: random.Random
) -> dict[str, Any]:
    """A built start position's hidden cards filled in: other hands hold the cards they place or discard
    later that were never on a pile top; the rest come from every card not seen anywhere."""
    seen = {c for pile in game.seen for c in pile}
    shown = set(seen)
    for key in ("piles", "hands", "discards"):
        shown |= {c for row in start[key] for c in row if c != BURIED}
    for seat_land in start["landscapes"]:
        shown |= {c for _, _, stack in seat_land for c in stack}
    for pile in game.piles:
        shown |= {c for c in pile if c != BURIED}
    shown |= {c for row in (*game.hands, *game.discards) for c in row if c != BURIED}
    shown |= {c for land in game.lands for stack in land.values() for c in stack}
    required = {
        s: sorted(
            played[s]
            - seen
            - {c for _, _, st in start["landscapes"][s] for c in st}
            - {c for c in start["hands"][s] if c != BURIED}
        )
        for s in played
    }
    needed = {c for cards in required.values() for c in cards}
    cards = (*deck().deck(game.players), *deck().start_cards())
    pool = [c for c in cards if c not in shown and c not in needed]
    rng.shuffle(pool)
    hands = []
    for s, hand in enumerate(start["hands"]):
        fill = list(required[s])
        hands.append(sorted(c if c != BURIED else (fill.pop() if fill else pool.pop()) for c in hand))
    start["hands"] = hands
    start["discards"] = [sorted(c if c != BURIED else pool.pop() for c in row) for row in start["discards"]]
    start["piles"] = [[c if c != BURIED else pool.pop() for c in pile] for pile in start["piles"]]
    return start


@cache
def _takes_showing(showing: int) -> tuple[Action, ...]:
    """The takes the pile tops offer, from the bits of SHOWS they set together."""
    return tuple(take for bit, take in enumerate(TAKE_ORDER) if showing >> bit & 1)


@cache
def _open_cells(land: frozenset[Cell]) -> tuple[Cell, ...]:
    """Empty cells next to a landscape's stacks where a new stack keeps it within SIDE x SIDE, in order.
    (Landscapes take few shapes, so each is worked out once.)"""
    if not land:
        return ((0, 0),)
    rows, cols = [r for r, _ in land], [c for _, c in land]
    low_row, high_row = max(rows) - SIDE + 1, min(rows) + SIDE - 1
    low_col, high_col = max(cols) - SIDE + 1, min(cols) + SIDE - 1
    found = set()
    for r, c in land:
        for at in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if at not in land and low_row <= at[0] <= high_row and low_col <= at[1] <= high_col:
                found.add(at)
    return tuple(sorted(found))


# ----- start positions ---------------------------------------------------------------------------------

POSITION_FIELDS = (
    "piles",
    "hands",
    "discards",
    "landscapes",
    "objectives",
    "claims",
    "scissors",
    "turn",
    "final_turns",
)


def _card_number(value: Any, where: str, players: int) -> int:
    if value == BURIED:
        return BURIED
    number = integer(value, where, 0, len(deck().cards) - 1)
    if card(number).players > players:
        raise PositionError(where, f"card {number} ({card(number)}) is not in the deck of a {players}-player game")
    return number


def _stack_problem(stack: list[int]) -> str | None:
    cards = [card(c) for c in stack]
    if not cards:
        return "a stack holds at least one card"
    if len({c.colour for c in cards}) > 1:
        return "a stack is all of one colour"
    values = [0] + [c.value for c in cards]
    if any(b - a not in (1, 2) for a, b in itertools.pairwise(values)):
        return "a stack rises by 1 from 1 (by 2 where a skip was used)"
    return None


def _begin_at(game: PaperWorld, start: dict[str, Any]) -> None:
    """Set a built position's fields, each checked (PositionError names the field and the problem)."""
    n = game.players
    check_fields(start, POSITION_FIELDS)
    for name in POSITION_FIELDS:
        if name not in start:  # a save's start is only what its file says
            raise PositionError(name, "is missing: a start position gives every one of its fields")
    piles = [
        [_card_number(c, f"piles[{p}][{h}]", n) for h, c in enumerate(items(pile, f"piles[{p}]"))]
        for p, pile in enumerate(items(start["piles"], "piles", PILES))
    ]
    hands = [
        sorted(_card_number(c, f"hands[{s}][{k}]", n) for k, c in enumerate(items(hand, f"hands[{s}]")))
        for s, hand in enumerate(items(start["hands"], "hands", n))
    ]
    discards = [
        sorted(_card_number(c, f"discards[{s}][{k}]", n) for k, c in enumerate(items(row, f"discards[{s}]")))
        for s, row in enumerate(items(start["discards"], "discards", n))
    ]
    for s, hand in enumerate(hands):
        if len(hand) > HAND_LIMIT:
            raise PositionError(f"hands[{s}]", f"holds {len(hand)} cards; the hand limit is {HAND_LIMIT}")
    lands: list[dict[Cell, list[int]]] = []
    for s, seat_land in enumerate(items(start["landscapes"], "landscapes", n)):
        land: dict[Cell, list[int]] = {}
        for k, entry in enumerate(items(seat_land, f"landscapes[{s}]")):
            where = f"landscapes[{s}][{k}]"
            row, col, stack = items(entry, where, 3)
            at = (integer(row, f"{where}[0]", 1 - SIDE, SIDE - 1), integer(col, f"{where}[1]", 1 - SIDE, SIDE - 1))
            cards = [_card_number(c, f"{where}[2][{h}]", n) for h, c in enumerate(items(stack, f"{where}[2]"))]
            if at in land:
                raise PositionError(where, f"a second stack at {at}")
            problem = _stack_problem(cards) if BURIED not in cards else "a landscape shows every card"
            if problem:
                raise PositionError(where, problem)
            land[at] = cards
        if land and not _connected_within(set(land)):
            raise PositionError(f"landscapes[{s}]", "stacks start at (0, 0), touch side by side and fit in 3 x 3")
        lands.append(land)
    every = [c for row in (*piles, *hands, *discards) for c in row if c != BURIED]
    every += [c for land in lands for stack in land.values() for c in stack]
    if len(every) != len(set(every)):
        twice = next(c for c in every if every.count(c) > 1)
        raise PositionError("start", f"card {twice} ({card(twice)}) lies in two places")
    chosen = [
        integer(o, f"objectives[{k}]", 0, len(objectives()) - 1)
        for k, o in enumerate(items(start["objectives"], "objectives", OBJECTIVES_IN_PLAY))
    ]
    if len(set(chosen)) != len(chosen):
        raise PositionError("objectives", "three different objectives")
    row = deck().tokens[n]
    claims = [
        [integer(t, f"claims[{s}][{k}]", 0) for k, t in enumerate(items(c, f"claims[{s}]", OBJECTIVES_IN_PLAY))]
        for s, c in enumerate(items(start["claims"], "claims", n))
    ]
    tokens = []
    for k in range(OBJECTIVES_IN_PLAY):
        taken = sorted((claims[s][k] for s in range(n) if claims[s][k]), reverse=True)
        if list(row[: len(taken)]) != taken:
            raise PositionError(f"claims[..][{k}]", f"tokens are taken highest first from {list(row)}, not {taken}")
        tokens.append(list(row[len(taken) :]))
    scissors = start["scissors"]
    if scissors is not None:
        owner, r, c = items(scissors, "scissors", 3)
        owner = integer(owner, "scissors[0]", 0, n - 1)
        stack = lands[owner].get((r, c))
        if not stack or not card(stack[-1]).scissors:
            raise PositionError("scissors", "the token lies on a top card with the scissors logo")
        scissors = (owner, r, c)
    game.piles, game.hands, game.discards, game.lands = piles, hands, discards, lands
    game.seen = [pile[-1:] for pile in piles]
    game.objectives, game.tokens, game.claims, game.scissors = chosen, tokens, claims, scissors
    game.turn = integer(start["turn"], "turn", 0, n - 1)
    game.final_turns = integer(start["final_turns"], "final_turns", -1, n)
    game.dealt = game.deck_size
    game.to_deal = ()
    game.built = True
    game.phase = "turn"


def _connected_within(cells: set[Cell]) -> bool:
    rows, cols = [r for r, _ in cells], [c for _, c in cells]
    if (0, 0) not in cells or max(rows) - min(rows) >= SIDE or max(cols) - min(cols) >= SIDE:
        return False
    reached, todo = {(0, 0)}, [(0, 0)]
    while todo:
        r, c = todo.pop()
        for at in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if at in cells and at not in reached:
                reached.add(at)
                todo.append(at)
    return reached == cells


def default_fields(players: int, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A plain start to build on, around the `given` fields: each player a starting 1 (unless hands are
    given) and every card not placed elsewhere dealt round the piles in card order (unless piles are)."""
    given = dict(given or {})
    fields: dict[str, Any] = {
        "hands": [[deck().start_cards()[s]] for s in range(players)],
        "discards": [[] for _ in range(players)],
        "landscapes": [[] for _ in range(players)],
        "objectives": [0, 1, 2],
        "claims": [[0] * OBJECTIVES_IN_PLAY for _ in range(players)],
        "scissors": None,
        "turn": 0,
        "final_turns": -1,
    }
    fields.update(given)
    if "piles" not in given:
        used = set()
        for key in ("hands", "discards"):
            used |= {c for row in fields[key] if isinstance(row, list | tuple) for c in row}
        for seat_land in fields["landscapes"]:
            for entry in seat_land if isinstance(seat_land, list | tuple) else ():
                if isinstance(entry, list | tuple) and len(entry) == 3 and isinstance(entry[2], list | tuple):
                    used |= set(entry[2])
        piles: list[list[int]] = [[] for _ in range(PILES)]
        for k, number in enumerate(c for c in deck_of(players) if c not in used):
            piles[k % PILES].append(number)
        fields["piles"] = piles
    return fields


def position(players: int = 3, seed: int = 0, **fields: Any) -> PaperWorld:
    """A game of Paper World beginning at the position the named fields describe.

    Fields (any left out take `default_fields`: the cards not given elsewhere fill the piles):
    piles (five lists of card numbers, bottom to top), hands, discards, landscapes (per seat,
    [row, col, stack] with the first stack at (0, 0)), objectives (three numbers), claims (per seat, the
    token taken for each objective, 0: none), scissors ([owner, row, col] or None), turn, final_turns (-1
    until the end is triggered). With no fields: the ordinary dealt start.

    >>> game = position(2, seed=1, hands=[[92, 1, 13], [93]])
    >>> [str(card(c)) for c in game.hands[0]]
    ['yellow 1', 'blue 1', 'yellow 1']
    >>> [a for a in game.legal_actions() if isinstance(a, PlaceCard)]
    [PlaceCard(card=1, row=0, col=0), PlaceCard(card=13, row=0, col=0), PlaceCard(card=92, row=0, col=0)]
    >>> position(2, piles=[[0], [0], [], [], []])
    Traceback (most recent call last):
    ...
    cliplab.engine.errors.PositionError: start: card 0 (yellow 1) lies in two places
    """
    config = SPEC.config(players, seed)
    if fields:
        config = config.starting_at(default_fields(players, fields))
    return PaperWorld(config)


def _longest(players: int, options: Mapping[str, Any]) -> int:
    cards = len(deck_of(players)) + players
    # deal, then each take removes a card from the centre, each card is placed or discarded at most once
    # (a placement brings at most a payment, a scissors decision and an end of turn), passes end the game.
    return OBJECTIVES_IN_PLAY + cards + cards + 5 * cards + players


SPEC: GameSpec = register(
    GameSpec(
        name="paper_world",
        title="Paper World",
        summary="Take paper from five centre piles by colour or value and build rising stacks in a 3x3 landscape.",
        min_players=2,
        max_players=4,
        default_players=3,
        options=(),
        state_class=PaperWorld,
        max_length=_longest,
        hidden_information=True,
        chance=True,
    )
)
