"""Why an action is refused, in a player's words, and a plain-text picture of a game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cliplab.engine import Action

from .content import MONSTERS, TERRAINS
from .rules import (
    STEP,
    Bridge,
    Cut,
    Feed,
    Join,
    Keep,
    Take,
    Tower,
    Wall,
    cut_problem,
    joined_cells,
    pair,
)

if TYPE_CHECKING:
    from .rules import Cutterland

_TASKS = {
    "cut": "the active player cuts one of their cards",
    "take": "a piece of the cut card is taken",
    "join": "the piece just taken is joined to its owner's kingdom",
    "tokens": "towers, walls and bridges are placed or kept",
    "dragons": "a dragon chooses what to eat",
    "over": "the game is over",
}
_PHASE_OF = {Cut: "cut", Take: "take", Join: "join", Tower: "tokens", Wall: "tokens", Bridge: "tokens", Keep: "tokens"}
_RULE_OF = {"cut": "cutting", "take": "picking", "join": "joining", "tokens": "tokens", "dragons": "hunt"}


def why_illegal(state: Cutterland, player: int, action: Action) -> tuple[str, str]:
    wanted = _PHASE_OF.get(type(action), "dragons" if isinstance(action, Feed) else None)
    if wanted is None:
        return "actions", "that is not one of the actions possible now"
    if state.phase != wanted:
        return _RULE_OF[wanted], f"not now: now {_TASKS[state.phase]}"
    if isinstance(action, Cut):
        return "cutting", _why_cut(state, player, action)
    if isinstance(action, Take):
        left = ", ".join(str(p) for p in state.pieces_left)
        return "picking", f"piece {action.piece} is not on the table (pieces left: {left})"
    if isinstance(action, Join):
        return "joining", _why_join(state, player, action)
    if isinstance(action, Feed):
        return "hunt", _why_feed(state, player, action)
    return "tokens", _why_token(state, player, action)


def _why_cut(state: Cutterland, player: int, cut: Cut) -> str:
    hand = state.hands[player]
    if cut.card not in hand:
        return f"card {cut.card} is not one of your uncut cards (yours: {', '.join(map(str, hand))})"
    labels = cut.labels()
    if labels is None:
        return "a cut names each of the card's 3 rows as 4 piece numbers from 1 to 9, e.g. 1122 1122 3344"
    return cut_problem(labels, state.pieces_per_card) or "that cut is not possible now"


def _why_join(state: Cutterland, player: int, join: Join) -> str:
    if not 0 <= join.turns <= 3:
        return "a piece is turned 0 to 3 quarter turns; it may not be flipped over"
    kingdom = state.kingdoms[player]
    if not kingdom:
        return "your first piece goes with its top-left corner at 0,0 (only its turn matters in an empty kingdom)"
    cells = [cell for cell, _ in joined_cells(state.holding, join)]
    taken = [cell for cell in cells if cell in kingdom]
    if taken:
        return f"the piece would lie over your kingdom's cell {taken[0][0]},{taken[0][1]}: pieces may not overlap"
    return "the piece must share a cell edge with your kingdom (touching at a corner is not enough)"


def _why_token(state: Cutterland, player: int, action: Action) -> str:
    held = state.tokens[player]
    cells = state.kingdoms[player]
    if isinstance(action, Tower):
        cell = (action.row, action.col)
        if not held["tower"]:
            return "you hold no tower"
        if cell not in cells:
            return f"{cell[0]},{cell[1]} is not a cell of your kingdom"
        if cells[cell][1] not in MONSTERS:
            return "a tower stands on a cell with a monster, to guard it; this cell has none"
        return "a tower stands there already"
    if isinstance(action, Wall | Bridge):
        kind = "wall" if isinstance(action, Wall) else "bridge"
        reach = 1 if kind == "wall" else 2
        dr, dc = STEP[action.side]
        a, b = (action.row, action.col), (action.row + reach * dr, action.col + reach * dc)
        if not held[kind]:
            return f"you hold no {kind}"
        if a not in cells or b not in cells:
            missing = a if a not in cells else b
            where = "stands between" if kind == "wall" else "joins"
            return f"a {kind} {where} two cells of your kingdom; {missing[0]},{missing[1]} is not one"
        if kind == "bridge" and cells[a][0] != cells[b][0]:
            return (
                f"a bridge joins two cells of one terrain; these are {TERRAINS[cells[a][0]]}"
                f" and {TERRAINS[cells[b][0]]}"
            )
        store = state.walls if kind == "wall" else state.bridges
        if pair(a, b) in store[player]:
            return f"a {kind} stands there already"
    return "that is not possible now"


def _why_feed(state: Cutterland, player: int, feed: Feed) -> str:
    dragon = state.hungry[0][1]
    if (feed.row, feed.col) != dragon:
        return f"the dragon at {dragon[0]},{dragon[1]} eats now"
    prey = (feed.prey_row, feed.prey_col)
    kingdom = state.kingdom(player)
    if prey not in kingdom.region_of(dragon):
        return "a dragon eats a monster of its own region"
    thing = kingdom.monster(prey)
    if not thing or prey in state.eaten(player):
        return "there is no monster left on that cell"
    if thing == "D":
        return "a dragon does not eat another dragon"
    return "that monster stands in a tower, safe from dragons"


def render(state: Cutterland) -> str:
    """Each kingdom as rows of cell codes ("  " where there is no cell), with hands and tokens."""
    lines = [f"Cutterland, {state.players} players, phase: {state.phase}"]
    for seat in range(state.players):
        held = ", ".join(f"{k} {v}" for k, v in state.tokens[seat].items() if v) or "none"
        lines.append(f"player {seat}: cards {state.hands[seat]}, tokens: {held}")
        cells = state.kingdoms[seat]
        if cells:
            rows = range(min(r for r, _ in cells), max(r for r, _ in cells) + 1)
            cols = range(min(c for _, c in cells), max(c for _, c in cells) + 1)
            for r in rows:
                lines.append("  " + " ".join(cells.get((r, c), "  ") for c in cols))
    return "\n".join(lines)
