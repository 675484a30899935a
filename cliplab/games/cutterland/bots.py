"""Cutterland bots: a heuristic one and a search bot for the game's heart, the cut and the pick.

Both value a kingdom by its score as the hunt would go now (`predicted_hunt`), held tokens counting 1
each, so a piece is worth what it adds to its taker's kingdom at its best join. Nothing is hidden once the
cards are dealt, so the bots read the view as it stands.

- Heuristic: joins a piece where it adds most (the joins touching most land of their own terrain are
  tried in full); takes the piece that adds most; cuts so that the piece left for it, after every other
  player has taken the piece that looks best on its own, is as good as it can be for its kingdom; places
  a token only where it gains more than the point it keeps; feeds each dragon the prey that leaves the
  best score.
- Search: for the cut and the pick, plays the rest of the round out with every other player taking the
  piece that adds most to *its own* kingdom, and chooses what leaves it the best margin over the others
  (its gain less the best other gain of the round). The cuts tried are the heuristic's best few.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

from cliplab.engine import Action, State
from cliplab.grid import neighbours4

from .content import MONSTERS, NOTHING, TOKENS, card
from .rules import (
    KEEP,
    STEP,
    Bridge,
    Cell,
    Cut,
    Cutterland,
    Feed,
    Join,
    Kingdom,
    Take,
    Tower,
    Wall,
    cut_actions,
    joined_cells,
    joins,
    pair,
    partitions,
    predicted_hunt,
    score_lines,
)

Piece = tuple[tuple[Cell, str], ...]
JOINS_TRIED = 6  # the joins with most same-terrain contact that are scored in full
CUTS_SEARCHED = 6  # the heuristic's best cuts that the search bot plays out


def _game(view: State) -> Cutterland:
    if not isinstance(view, Cutterland):
        raise TypeError(f"a Cutterland bot plays Cutterland, not {type(view).__name__}")
    return view


def worth(kingdom: Kingdom, kept: int = 0) -> int:
    """A kingdom's score if the hunt went now, dragons eating as `predicted_hunt` says."""
    caught, eaten = predicted_hunt(kingdom)
    return sum(score_lines(kingdom, caught, (prey for _, prey in eaten), kept))


def _contact(kingdom: dict[Cell, str], placed: list[tuple[Cell, str]]) -> int:
    """Edges the placed piece shares with land of the same terrain (twice) or any land (once)."""
    total = 0
    for cell, code in placed:
        for near in neighbours4(cell):
            other = kingdom.get(near)
            if other is not None:
                total += 2 if other[0] == code[0] else 1
    return total


def best_join(kingdom: dict[Cell, str], piece: Piece) -> tuple[int, Join]:
    """What `piece` adds to `kingdom` at its best join (of those with most contact), and that join."""
    base = worth(Kingdom(kingdom))
    ranked: list[tuple[int, int, Join, list[tuple[Cell, str]]]] = []
    for join in joins(kingdom, piece):
        placed = [
            (cell, code[0] + (code[1] if code[1] in MONSTERS else NOTHING)) for cell, code in joined_cells(piece, join)
        ]
        ranked.append((-_contact(kingdom, placed), len(ranked), join, placed))
    ranked.sort(key=lambda entry: entry[:2])
    best: tuple[int, Join] | None = None
    for _, _, join, placed in ranked[:JOINS_TRIED]:
        grown = dict(kingdom)
        grown.update(placed)
        gain = worth(Kingdom(grown)) - base
        if best is None or gain > best[0]:
            best = (gain, join)
    assert best is not None
    return best


def with_token(kingdom: Kingdom, action: Action) -> Kingdom:
    """The kingdom with one more tower, wall or bridge (the action's)."""
    if isinstance(action, Tower):
        return replace(kingdom, towers=kingdom.towers | {(action.row, action.col)})
    assert isinstance(action, Wall | Bridge)
    reach = 1 if isinstance(action, Wall) else 2
    dr, dc = STEP[action.side]
    ends = pair((action.row, action.col), (action.row + reach * dr, action.col + reach * dc))
    if isinstance(action, Wall):
        return replace(kingdom, walls=kingdom.walls | {ends})
    return replace(kingdom, bridges=kingdom.bridges | {ends})


def tokens_on(piece: Piece) -> int:
    return sum(code[1] in TOKENS for _, code in piece)


def piece_gain(kingdom: dict[Cell, str], piece: Piece) -> int:
    """What taking `piece` is worth to the owner of `kingdom`: its best join's gain and its tokens."""
    return best_join(kingdom, piece)[0] + tokens_on(piece)


@lru_cache(maxsize=65536)
def alone_value(card_number: int, mask: int) -> int:
    """A piece's worth as a kingdom of its own, tokens included: what it looks like to anyone."""
    printed = card(card_number)
    piece = [((i // 4, i % 4), printed.code(i // 4, i % 4)) for i in range(12) if mask >> i & 1]
    cells = {cell: code[0] + (code[1] if code[1] in MONSTERS else NOTHING) for cell, code in piece}
    return worth(Kingdom(cells)) + sum(code[1] in TOKENS for _, code in piece)


def _masks(labels: Sequence[int], pieces: int) -> list[int]:
    masks = [0] * pieces
    for i, label in enumerate(labels):
        masks[label - 1] |= 1 << i
    return masks


def _piece_of(card_number: int, mask: int) -> Piece:
    printed = card(card_number)
    return tuple(((i // 4, i % 4), printed.code(i // 4, i % 4)) for i in range(12) if mask >> i & 1)


def ranked_cuts(game: Cutterland, seat: int) -> list[tuple[int, Cut, int]]:
    """(worth of the piece the cutter is left with, the cut, that piece's mask) for every legal cut, best
    first: the others are assumed to take the pieces that look best alone, so the cutter keeps the worst."""
    pieces = game.pieces_per_card
    found = []
    for number in sorted(game.hands[seat]):
        for labels, action in zip(partitions(pieces), cut_actions(number, pieces), strict=True):
            masks = _masks(labels, pieces)
            left = min(masks, key=lambda mask: (alone_value(number, mask), mask))
            found.append((alone_value(number, left), action, left))
    found.sort(key=lambda entry: -entry[0])
    return found


def _tie_breaker(seed: int, game: Cutterland, seat: int) -> random.Random:
    return random.Random(hash((seed, seat, len(game.log))))


class HeuristicBot:
    """Greedy on the kingdom's score: see the module's docstring."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: State, player: int) -> Action:
        game = _game(view)
        phase = game.phase
        if phase == "cut":
            return self.cut(game, player)
        if phase == "take":
            return self.take(game, player)
        if phase == "join":
            return best_join(game.kingdoms[player], game.holding)[1]
        if phase == "tokens":
            return self.place(game, player)
        return self.feed(game, player)

    def cut(self, game: Cutterland, seat: int) -> Action:
        ranked = ranked_cuts(game, seat)
        top = ranked[0][0]
        best = [(action, mask) for value, action, mask in ranked if value == top][:CUTS_SEARCHED]
        # Among the cuts that leave an equally good piece by itself, the one that fits the kingdom best.
        kingdom = game.kingdoms[seat]
        scored = [(piece_gain(kingdom, _piece_of(action.card, mask)), k) for k, (action, mask) in enumerate(best)]
        return best[max(scored)[1]][0]

    def take(self, game: Cutterland, seat: int) -> Action:
        kingdom = game.kingdoms[seat]
        values = [(piece_gain(kingdom, tuple(game.piece_on_table(piece))), -piece) for piece in game.pieces_left]
        return Take(-max(values)[1])

    def place(self, game: Cutterland, seat: int) -> Action:
        kept = game.kept(seat)
        kingdom = game.kingdom(seat)
        best: Action = KEEP
        best_value = worth(kingdom, kept)
        for action in game.token_placements(seat):
            value = worth(with_token(kingdom, action), kept - 1)
            if value > best_value:
                best_value, best = value, action
        return best

    def feed(self, game: Cutterland, seat: int) -> Action:
        kingdom = game.kingdom(seat)
        eaten = game.eaten(seat)
        options = game.legal_actions(seat)
        rng = _tie_breaker(self.seed, game, seat)

        def value(feed: Action) -> int:
            assert isinstance(feed, Feed)
            gone = eaten | {(feed.prey_row, feed.prey_col)}
            return sum(score_lines(kingdom, game.caught[seat], gone, 0))

        top = max(value(option) for option in options)
        best = [option for option in options if value(option) == top]
        return best[rng.randrange(len(best))]


class SearchBot(HeuristicBot):
    """The heuristic, with the cut and the pick chosen by playing the round's other picks out."""

    def __init__(self, seed: int = 0, width: int = CUTS_SEARCHED) -> None:
        super().__init__(seed)
        self.width = width

    def cut(self, game: Cutterland, seat: int) -> Action:
        ranked = ranked_cuts(game, seat)[: self.width]
        values = []
        for k, (_, action, _) in enumerate(ranked):
            masks = _masks(action.labels() or (), game.pieces_per_card)
            pieces = {p + 1: _piece_of(action.card, mask) for p, mask in enumerate(masks)}
            values.append((self._margin(game, seat, pieces, game.pick_order_of(seat)), -k))
        return ranked[-max(values)[1]][1]

    def take(self, game: Cutterland, seat: int) -> Action:
        pieces = {piece: tuple(game.piece_on_table(piece)) for piece in game.pieces_left}
        order = game.pick_order[game.picks_made :]
        values = []
        for piece in sorted(pieces):
            rest = {p: cells for p, cells in pieces.items() if p != piece}
            gain = piece_gain(game.kingdoms[seat], pieces[piece])
            values.append((self._margin(game, seat, rest, order[1:], gain), -piece))
        return Take(-max(values)[1])

    def _margin(
        self, game: Cutterland, seat: int, pieces: dict[int, Piece], order: Sequence[int], start: int = 0
    ) -> int:
        """`seat`'s gain this round less the best other gain, with pickers in `order` each taking the
        piece that adds most to their own kingdom (`start`: what `seat` has gained already)."""
        left = dict(pieces)
        gains = dict.fromkeys(set(order) | {seat}, 0)
        gains[seat] = start
        for picker in order:
            kingdom = game.kingdoms[picker]
            value, piece = max((piece_gain(kingdom, cells), -p) for p, cells in left.items())
            gains[picker] += value
            del left[-piece]
        others = [gain for who, gain in gains.items() if who != seat]
        return gains[seat] - (max(others) if others else 0)
