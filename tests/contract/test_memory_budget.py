"""A game's memory has a budget: its position, its log and its undo checkpoints together stay under
STATE_BUDGET even in the longest game its spec allows (docs/classroom.md gives the budget to teachers).

A game keeps every action in its log and a snapshot every CHECKPOINT_EVERY entries, so it grows with its
length. The test plays a seeded random game of every registered game to its end, measures the state's
size at the start and at the end (every object reachable from it, each counted once), and extends that
growth per log entry to the spec's `max_length`.
"""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest

from cliplab.engine import State, games, spec

STATE_BUDGET = 8_000_000  # bytes per game at its longest: 30 pages of a class hold at most 240 MB of games


def reachable_size(root: object) -> int:
    """Bytes of `root` and of everything reachable from it, each object counted once."""
    seen: set[int] = set()
    waiting: list[Any] = [root]
    total = 0
    while waiting:
        item = waiting.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        if isinstance(item, dict):
            waiting.extend(item.keys())
            waiting.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            waiting.extend(item)
        elif hasattr(item, "__dict__"):
            waiting.append(vars(item))
        else:
            waiting.extend(getattr(item, slot) for slot in getattr(item, "__slots__", ()) if hasattr(item, slot))
    return total


def random_game(name: str, seed: int) -> tuple[State, State]:
    """A seeded random game of `name`: its copy at the start, and the game played to its end."""
    game = spec(name)
    state = game.new(game.default_players, seed)
    start = state.clone()
    rng = random.Random(seed)
    while not state.is_over():
        for seat in state.to_move():
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    return start, state


def test_reachable_size_counts_shared_objects_once() -> None:
    part = list(range(1000))
    # A second reference to the same list adds only the outer list's extra slot.
    extra_slot = sys.getsizeof([part, part]) - sys.getsizeof([part])
    assert reachable_size([part, part]) - reachable_size([part]) == extra_slot


@pytest.mark.parametrize("name", games())
def test_a_game_with_its_log_and_undo_checkpoints_stays_within_its_memory_budget(name: str) -> None:
    start, end = random_game(name, seed=11)
    at_start, at_end = reachable_size(start), reachable_size(end)
    per_entry = (at_end - at_start) / len(end.log)
    longest = spec(name).max_length(end.players, dict(end.config.options))
    at_longest = at_start + per_entry * longest
    assert at_longest < STATE_BUDGET, (
        f"{name}: {at_end:,} bytes after {len(end.log)} entries, {per_entry:,.0f} per entry: "
        f"{at_longest:,.0f} at the longest game ({longest} entries)"
    )
