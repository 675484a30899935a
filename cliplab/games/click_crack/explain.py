"""Words for Click & Crack: why an action is refused, and a text drawing of the floe."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cliplab.engine import Action

from .rules import EDGES, POINTS, BreakOff, Pass, Perform, Place, PushAside, SetTiles

if TYPE_CHECKING:
    from .rules import ClickCrack

_PHASE_WORDS = {
    "place": "penguins are being placed",
    "program": "everyone is secretly setting their tiles",
    "perform": "tiles are being carried out",
    "push": "the active player must choose the side a penguin is pushed to",
    "break": "the active player must choose which half of the floe breaks off",
    "over": "the game is over",
}


def _wrong_phase(state: ClickCrack, rule: str) -> tuple[str, str]:
    return rule, f"not now: {_PHASE_WORDS.get(state.phase, state.phase)}"


def why_illegal(state: ClickCrack, player: int, action: Action) -> tuple[str, str]:
    """The rule and reason for refusing an action that is not in the legal list."""
    if isinstance(action, Place):
        if state.phase != "place":
            return _wrong_phase(state, "placement")
        if not (0 <= action.row < POINTS and 0 <= action.col < POINTS):
            return "placement", f"penguins stand on intersections, rows and columns 0-{POINTS - 1}"
        return "placement", "a penguin already stands on that intersection"
    if isinstance(action, SetTiles):
        return _wrong_phase(state, "secret tiles")
    if isinstance(action, PushAside):
        if state.phase != "push":
            return _wrong_phase(state, "push")
        return "push", "the pushed penguin would leave the floe on that side too"
    if isinstance(action, BreakOff):
        if state.phase != "break":
            return _wrong_phase(state, "breaking off")
        return "breaking off", "that tile is in neither half: name a tile of the half that should break off"
    if isinstance(action, Pass):
        if state.phase != "perform":
            return _wrong_phase(state, "must act")
        example = state.legal_actions(player)[0]
        return "must act", f"you may pass only when nothing is possible, and you can '{example}'"
    if isinstance(action, Perform):
        return _why_perform_illegal(state, player, action)
    return "actions", f"{type(action).__name__} is not a Click & Crack action"


def _why_perform_illegal(state: ClickCrack, player: int, action: Perform) -> tuple[str, str]:
    if state.phase != "perform":
        return _wrong_phase(state, action.kind)
    if not 0 <= action.penguin < len(state.pos):
        return action.kind, f"there is no penguin {action.penguin} (penguins are 0-{len(state.pos) - 1})"
    if action.penguin // 2 != player:
        return action.kind, f"penguin {action.penguin} belongs to player {action.penguin // 2}"
    at = state.pos[action.penguin]
    if at is None:
        return action.kind, f"penguin {action.penguin} has left the game"
    tile = (action.kind, action.direction)
    if tile not in state.unused_tiles(player):
        if tile in state.tiles[player]:
            return "action tiles", f"you have already carried out your {action.kind} {action.direction} tile"
        chosen = " and ".join(f"{k} {d}" for k, d in state.tiles[player])
        return "action tiles", f"your tiles this round are {chosen}"
    if action.kind == "break":
        edge = EDGES.get((at, action.direction))
        if edge is None or not (edge[1][0] in state.main and edge[1][1] in state.main):
            return "break", f"there are not two floe tiles to crack between, {action.direction} of {at}"
        return "break", f"the floe is already cracked {action.direction} of {at}"
    if not state.can_step(at, action.direction):
        return "walk", f"penguin {action.penguin} would walk off the floe"
    return "push", "a pushed penguin would leave the floe and can go to neither side"


def render(state: ClickCrack) -> str:
    """The floe as text: '+' intersections, digits penguins, '~' and ':' cracks, 'x' broken-off tiles."""
    owner_at = {at: str(p) for p, at in enumerate(state.pos) if at is not None}
    lines = []
    for r in range(POINTS):
        row = []
        for c in range(POINTS):
            row.append(owner_at.get((r, c), "+"))
            if c < POINTS - 1:
                crack = ((r - 1, c), (r, c)) in state.cracks
                row.append("~~~" if crack else "---")
        lines.append("".join(row))
        if r < POINTS - 1:
            row = []
            for c in range(POINTS):
                crack = ((r, c - 1), (r, c)) in state.cracks
                row.append(":" if crack else "|")
                if c < POINTS - 1:
                    row.append("   " if (r, c) in state.main else " x ")
            lines.append("".join(row))
    scores = ", ".join(f"player {s}: {v}" for s, v in enumerate(state.scores))
    lines.append(f"round {state.round}, start player {state.start}; scores {scores}")
    return "\n".join(lines)
