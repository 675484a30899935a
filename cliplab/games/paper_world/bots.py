"""Paper World bots: a heuristic that looks one decision ahead, and a search over determinized samples.

Both decide from their seat's view only. A view cannot be played on, so each decision first draws one
determinized sample of it (seeded by the bot's seed and the log's length, so the same view gives the same
choice): everything the seat can see is exactly as in the game, which is all the heuristic's own
lookahead touches (its hand, its landscape, the pile tops).

The heuristic scores a position for its seat as the score now plus what its hand promises: each card is
worth the stars its placing would add (and the point it costs in hand), most for a card that fits a stack
next or starts one, less for one that would fit after another card of the hand or two steps on, and all
of it shrinking as the end nears, with a cost for a hand that would break the limit. It also takes the
scissors whenever it can (2 points, free skips, and the holder loses them).

The search bot draws several samples, keeps the heuristic's best few actions, and plays each sample out
to the end with the heuristic's cheap rule for every seat, choosing the action with the best average
margin over the best other seat.
"""

from __future__ import annotations

import random

from cliplab.engine import Action, State

from .content import SIDE, deck
from .rules import (
    BURIED,
    END_PILES,
    HAND_LIMIT,
    Discard,
    EndTurn,
    PaperWorld,
    PlaceCard,
    Scissors,
    TakeColour,
    TakeValue,
    card,
)

SAMPLES = 4
CANDIDATES = 3


def time_left(game: PaperWorld) -> float:
    """How much of the game is left to turn cards in hand into stars: 1 early, little in the final round."""
    if game.final_turns >= 0:
        return 0.2
    return 0.6 if game.piles_left() <= END_PILES + 1 else 1.0


def promise(game: PaperWorld, seat: int) -> float:
    """What the cards in a seat's hand are likely worth later, in points: for each card, the stars its
    placing would add over the card it covers, plus the point a card in hand costs, weighed by how near it
    is to fitting (next on a stack, next after another card of the hand, or further) and by the time left."""
    stars = deck().stars
    tops: dict[str, set[int]] = {}
    for stack in game.lands[seat].values():
        top = card(stack[-1])
        tops.setdefault(top.colour, set()).add(top.value)
    held = [card(number) for number in game.hands[seat] if number != BURIED]
    in_hand = {(c.colour, c.value) for c in held}
    room = len(game.lands[seat]) < SIDE * SIDE and bool(game.open_cells(seat))
    worth = 0.0
    for paper in held:
        below = paper.value - 1
        gain = stars[paper.value] - (stars[below] if below else 0) + 1
        rising = tops.get(paper.colour, set())
        if below in rising or (paper.value == 1 and room):
            weight = 0.8
        elif (paper.colour, below) in in_hand:
            weight = 0.6
        elif below - 1 in rising:
            weight = 0.35
        else:
            weight = 0.1
        worth += weight * gain
    return worth * time_left(game)


def value(game: PaperWorld, seat: int) -> float:
    over = max(0, len(game.hands[seat]) - HAND_LIMIT)
    return game.score(seat) + promise(game, seat) - 2.0 * over


def ranked(sample: PaperWorld, seat: int) -> list[tuple[float, int, Action]]:
    """The legal actions, best first by the value of the position each leads to (ties in listed order)."""
    found: list[tuple[float, int, Action]] = []
    for order, action in enumerate(sample.legal_actions(seat)):
        if isinstance(action, Scissors):
            found.append((1.0 if action.choice == "move" else 0.0, -order, action))
            continue
        after = sample.clone()
        assert isinstance(after, PaperWorld)
        after.apply_fast(action, seat)
        gain = value(after, seat)
        if isinstance(action, EndTurn):
            gain -= 0.01  # place what helps before ending
        found.append((gain, -order, action))
    found.sort(key=lambda entry: (entry[0], entry[1]), reverse=True)
    return found


def _sample(view: State, seed: int, salt: int = 0) -> PaperWorld:
    sample = view.determinize(random.Random(f"{seed}/{len(view.log)}/{salt}"))
    assert isinstance(sample, PaperWorld)
    return sample


class PaperWorldBot:
    """The heuristic: the action leading to the best-looking position for its seat, one decision ahead."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: State, player: int) -> Action:
        return ranked(_sample(view, self.seed), player)[0][2]


def quick_choice(game: PaperWorld, seat: int, rng: random.Random) -> Action:
    """A cheap rule for play-outs: place the card gaining the most stars, else take the most cards."""
    actions = game.legal_actions(seat)
    stars = deck().stars
    best, best_gain = actions[0], -99.0
    for action in actions:
        gain: float
        if isinstance(action, PlaceCard):
            stack = game.lands[seat].get((action.row, action.col))
            gain = stars[card(action.card).value] - (stars[card(stack[-1]).value] if stack else 0) + 1
        elif isinstance(action, Discard):
            gain = -stars[card(action.card).value]
        elif isinstance(action, Scissors):
            gain = 2.0 if action.choice == "move" else 0.0
        elif isinstance(action, EndTurn):
            gain = 0.5
        elif isinstance(action, TakeColour | TakeValue):
            gain = len(game.taken_by(action)) * 0.8
        else:  # a pass
            gain = 0.0
        gain += rng.random() * 0.3
        if gain > best_gain:
            best, best_gain = action, gain
    return best


class SearchBot:
    """Determinized play-outs of the heuristic's best few actions; the best average final margin wins."""

    def __init__(self, seed: int = 0, samples: int = SAMPLES, candidates: int = CANDIDATES) -> None:
        self.seed, self.samples, self.candidates = seed, samples, candidates

    def choose(self, view: State, player: int) -> Action:
        first = _sample(view, self.seed)
        options = [action for _, _, action in ranked(first, player)[: self.candidates]]
        if len(options) == 1:
            return options[0]
        totals = [0.0] * len(options)
        rng = random.Random(f"{self.seed}/{len(view.log)}/play-out")
        for k in range(self.samples):
            sample = first if k == 0 else _sample(view, self.seed, k)
            for index, action in enumerate(options):
                game = sample.clone()
                assert isinstance(game, PaperWorld)
                game.apply_fast(action, player)
                while not game.is_over():
                    seat = game.to_move()[0]
                    game.apply_fast(quick_choice(game, seat, rng), seat)
                mine = game.score(player)
                others = max(game.score(s) for s in range(game.players) if s != player)
                totals[index] += mine - others
        return options[max(range(len(options)), key=lambda i: (totals[i], -i))]


def search_bot(seed: int = 0) -> SearchBot:
    return SearchBot(seed)
