"""Words for Swap Clops: why an action is refused, and the board as text."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cliplab.engine import Action

from .content import tile
from .rules import EMPTY, FACE_LETTERS, SHAPE_LETTERS, SIZE, Draw, Pass, Swap, space_of

if TYPE_CHECKING:
    from .rules import SwapClops

_FACE_LETTER = {face: letter for letter, face in FACE_LETTERS.items()}
_SHAPE_LETTER = {shape: letter for letter, shape in SHAPE_LETTERS.items()}


def code(number: int) -> str:
    """A tile as the sketch writes it: shape letter, face letter, wall side in lower case ("cA", "tHn")."""
    if not number:
        return EMPTY
    found = tile(number)
    return _SHAPE_LETTER[found.shape] + _FACE_LETTER[found.face] + found.wall.lower()


def why_illegal(state: SwapClops, player: int, action: Action) -> tuple[str, str]:
    """The rule and reason for refusing an action that is not in the legal list."""
    if isinstance(action, Pass):
        example = state.legal_actions(player)[0]
        return "pass", f"you may pass only when no swap is possible, and you can '{example}'"
    if isinstance(action, Swap):
        return "swap", _why_swap_illegal(state, action)
    if isinstance(action, Draw):
        return "chance", "tiles come from the supply by chance; nobody chooses them"
    return "actions", f"{type(action).__name__} is not a Swap Clops action"


def _why_swap_illegal(state: SwapClops, action: Swap) -> str:
    ends = ((action.row_a, action.col_a), (action.row_b, action.col_b))
    for row, col in ends:
        if not (0 <= row < SIZE and 0 <= col < SIZE):
            return f"space {row},{col} is off the board (rows and columns are 0-{SIZE - 1})"
    if ends[0] == ends[1]:
        return "a swap needs two different spaces; both ends are " + "{},{}".format(*ends[0])
    tiles = [state.board[space_of(row, col)] for row, col in ends]
    for (row, col), number in zip(ends, tiles, strict=True):
        if not number:
            return f"space {row},{col} is empty: there is no clop there to swap"
    first, second = (tile(number) for number in tiles)
    return (
        f"only clops of the same shape swap: {ends[0][0]},{ends[0][1]} is a {first.shape} "
        f"and {ends[1][0]},{ends[1][1]} is a {second.shape}"
    )


def render(state: SwapClops) -> str:
    """The board in sketch codes, then the supply's size, the collected tiles and whose turn it is."""
    lines = [" ".join(f"{code(state.tile_at(r, c)):<3}" for c in range(SIZE)).rstrip() for r in range(SIZE)]
    lines.append(f"supply: {len(state.supply)} tiles; round {state.round}" + (", the last" if state.triggered else ""))
    for seat, tiles in enumerate(state.collected):
        lines.append(f"player {seat}: {len(tiles)} collected")
    if state.phase == "over":
        lines.append(f"over: {state.ended}")
    else:
        lines.append(f"to move: player {state.seat}")
    return "\n".join(lines)
