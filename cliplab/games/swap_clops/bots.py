"""Swap Clops bots: a greedy one (the swap that gains most now) and a search bot that looks one reply ahead
on determinized samples (the refill drawn from the supply anew in each sample, never the real order).

Both value a position for a seat as its margin: its score (tiles and like bonuses, as they stand now)
less the best other seat's. Ties between equal swaps are broken by a generator seeded from the bot's seed
and the position, so the same seed and view give the same choice.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cliplab.engine import Action, State

from .rules import LIKE_BONUS, Pass, Swap, SwapClops, collected_by, like_bonus, space_of


def _game(view: State) -> SwapClops:
    if not isinstance(view, SwapClops):
        raise TypeError(f"a Swap Clops bot plays Swap Clops, not {type(view).__name__}")
    return view


def margins(collected: Sequence[Sequence[int]], like_ties: str) -> list[int]:
    """Each seat's score less the best other seat's score."""
    won = like_bonus(collected, like_ties)
    scores = [len(tiles) + LIKE_BONUS * len(likes) for tiles, likes in zip(collected, won, strict=True)]
    return [score - max(other for s, other in enumerate(scores) if s != seat) for seat, score in enumerate(scores)]


def swap_values(game: SwapClops, seat: int) -> list[tuple[int, Swap, list[int]]]:
    """(the margin `seat` would have after the swap, the swap, the spaces it collects) for every swap that
    collects something; the board is changed in place and put back for each."""
    board = game.board
    like_ties = game.option("like_ties")
    found = []
    for swap in game.swaps():
        first, second = space_of(swap.row_a, swap.col_a), space_of(swap.row_b, swap.col_b)
        board[first], board[second] = board[second], board[first]
        taken = collected_by(board, (first, second))
        if taken:
            collected = [list(tiles) for tiles in game.collected]
            collected[seat] += [board[space] for space in taken]
            found.append((margins(collected, like_ties)[seat], swap, taken))
        board[first], board[second] = board[second], board[first]
    return found


def _tie_breaker(seed: int, game: SwapClops, seat: int) -> random.Random:
    return random.Random(hash((seed, seat, len(game.log), tuple(game.board))))


class GreedyBot:
    """The swap that leaves the best margin now (tiles collected, like majorities weighed); a random swap
    when none collects."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: State, player: int) -> Action:
        game = _game(view)
        swaps = game.swaps()
        if not swaps:
            return Pass()
        rng = _tie_breaker(self.seed, game, player)
        values = swap_values(game, player)
        if not values:
            return swaps[rng.randrange(len(swaps))]
        best = max(value for value, _, _ in values)
        top = [swap for value, swap, _ in values if value == best]
        return top[rng.randrange(len(top))]


class SearchBot:
    """Each of the `width` best swaps now (and one that collects nothing) is tried on `samples` determinized
    games: the refill comes from the sample's own draw, then the next seat answers with its greedy best.
    The swap with the best average margin after that answer is chosen."""

    def __init__(self, seed: int = 0, width: int = 5, samples: int = 3) -> None:
        self.seed = seed
        self.width = width
        self.samples = samples

    def choose(self, view: State, player: int) -> Action:
        game = _game(view)
        swaps = game.swaps()
        if not swaps:
            return Pass()
        rng = _tie_breaker(self.seed, game, player)
        values = swap_values(game, player)
        ranked = sorted(values, key=lambda entry: -entry[0])[: self.width]
        candidates = [swap for _, swap, _ in ranked]
        collecting = {swap for _, swap, _ in values}
        quiet = [swap for swap in swaps if swap not in collecting]
        if quiet:
            candidates.append(quiet[rng.randrange(len(quiet))])
        if len(candidates) == 1:
            return candidates[0]
        best_value, best = None, candidates[0]
        for swap in candidates:
            value = self._value(game, player, swap, rng)
            if best_value is None or value > best_value:
                best_value, best = value, swap
        return best

    def _value(self, game: SwapClops, player: int, swap: Swap, rng: random.Random) -> float:
        """The average margin of `player` after `swap`, its refill and the next seat's greedy answer."""
        like_ties = game.option("like_ties")
        total = 0.0
        # A swap that collects nothing refills nothing: one sample tells all.
        samples = self.samples if game.outcome_of(swap) else 1
        for _ in range(samples):
            sample = _game(game.determinize(rng))
            sample.apply_fast(swap, player)
            if sample.is_over():
                total += margins(sample.collected, like_ties)[player]
                continue
            answerer = sample.current_player()
            answers = swap_values(sample, answerer)
            if not answers:
                total += margins(sample.collected, like_ties)[player]
                continue
            answer = max(answers, key=lambda entry: entry[0])[1]
            total += margins(_after(sample, answer, answerer), like_ties)[player]
        return total / samples


def _after(game: SwapClops, swap: Swap, seat: int) -> list[list[int]]:
    """The collected tiles of every seat after `seat` makes `swap` (no refill needed to know them)."""
    board = list(game.board)
    first, second = space_of(swap.row_a, swap.col_a), space_of(swap.row_b, swap.col_b)
    board[first], board[second] = board[second], board[first]
    collected = [list(tiles) for tiles in game.collected]
    collected[seat] += [board[space] for space in collected_by(board, (first, second))]
    return collected
