"""Why an action is refused, in a player's words, and a plain-text picture of a game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cliplab.engine import Action
from cliplab.grid import OPPOSITE

from .rules import BONUS_CUT_LENGTHS, Crumple, Cut, Keep, Place, Score, card_name, card_of, sheet_of, waiver

if TYPE_CHECKING:
    from .rules import ClipCutParks

_STAGE_TASKS = {
    "cut": "make the cuts the die asks for",
    "keep": "choose which of the equal largest parts stays your sheet",
    "bonus": "make your bonus cut (1 or 2 long)",
    "build": "place or crumple the sections that came free",
    "check": "choose which completed card to score first",
    "done": "wait for the other players to finish the round",
}
_STAGE_OF = {Cut: ("cut", "bonus"), Keep: ("keep",), Place: ("build",), Crumple: ("build",), Score: ("check",)}


def _lengths(lengths: list[int]) -> str:
    return ", ".join(str(n) for n in sorted(lengths)) or "none"


def why_illegal(state: ClipCutParks, player: int, action: Action) -> tuple[str, str]:
    stage = state.stage[player]
    wanted = _STAGE_OF.get(type(action))
    if wanted is None:
        return "actions", "that is not one of the actions possible now"
    if stage not in wanted:
        return _stage_rule(stage), f"not now: first {_STAGE_TASKS[stage]}"
    if isinstance(action, Cut):
        return _why_cut(state, player, action)
    if isinstance(action, Keep):
        return "cut", f"square {action.row},{action.col} is not in one of the equal largest parts; keep one of those"
    if isinstance(action, Place):
        return _why_place(state, player, action)
    if isinstance(action, Crumple):
        if action.section not in state.pending[player]:
            return "build", f"section {action.section} is not waiting to be placed"
        fit = state.fits(player, action.section)[0]
        return "build", (
            f"section {action.section} fits on your {card_name((fit.action.kind, fit.action.card))}: a section"
            " that can be placed must be placed"
        )
    assert isinstance(action, Score)
    ref = (action.kind, action.card)
    if ref not in state.face_up[player]:
        return "check", f"{card_name(ref)} is not one of your face-up cards"
    return "check", f"{card_name(ref)} is not complete yet"


def _stage_rule(stage: str) -> str:
    return {"keep": "cut", "bonus": "bonuses", "done": "round"}.get(stage, stage)


def _why_cut(state: ClipCutParks, player: int, cut: Cut) -> tuple[str, str]:
    if state.stage[player] == "bonus":
        if cut.length not in BONUS_CUT_LENGTHS:
            return "bonuses", f"a bonus cut is 1 or 2 long, not {cut.length}"
    elif cut.length not in state.to_cut[player]:
        return "cut", (
            f"the die does not ask for a {cut.length} cut now (cuts still to make: {_lengths(state.to_cut[player])})"
        )
    problem = state.cut_problem(player, cut)
    end = cut.points[-1]
    if problem is not None and not state.is_start(player, cut.points[0]) and state.is_start(player, end):
        # Named from the wrong end: what stops the same line cut from its other end is the real reason.
        problem = state.cut_problem(player, Cut(cut.length, end[0], end[1], OPPOSITE[cut.direction])) or problem
    if problem is not None:
        return problem
    return "cut", "that cut is not possible now"


def _why_place(state: ClipCutParks, player: int, place: Place) -> tuple[str, str]:
    ref = (place.kind, place.card)
    name = card_name(ref)
    if place.section not in state.pending[player]:
        return "build", f"section {place.section} is not waiting to be placed"
    if ref not in state.face_up[player]:
        return "build", f"{name} is not one of your face-up cards"
    if not 0 <= place.orientation < 8:
        return "build", "a turn is 0-3 quarter turns (4-7 the same, flipped)"
    if place.orientation >= 4 and not state.option("allow_flip"):
        return "build", "sections may be turned but not flipped over: the back of the sheet is blank"
    card = card_of(ref)
    sheet = sheet_of(state.sheet_number[player])
    covered = state.covered[player].get(ref, {})
    mapping = state.mapping_of(player, place)
    need: dict[str, list[str]] = {}  # token -> the requirements it would have to waive
    spaces = set()
    for square_at, space in mapping:
        where = f"{space[0]},{space[1]}"
        if space not in card.cells:
            return "build", f"the section would hang off {name} at {where}: it must lie inside the card's spaces"
        if space in covered:
            return "build", f"space {where} of {name} is covered already: sections may not overlap"
        spaces.add(space)
        wanted = card.requirement(space)
        square = sheet.square(square_at)
        token = waiver(wanted, square.colour, square.icon)
        if token == "gardener":
            need.setdefault(token, []).append(f"space {where} asks for {wanted}, the square is {square.colour}")
        elif token is not None:
            # Name the icon the square does carry, so a recycling square is not called bare.
            has = f"a {square.icon} icon" if square.icon else "none"
            need.setdefault(token, []).append(f"space {where} asks for a {wanted} icon, the square has {has}")
    for walkway in card.walkways:
        inside = [space for space in walkway if space in spaces]
        if inside and len(inside) != len(walkway):
            joined = " and ".join(f"{r},{c}" for r, c in walkway)
            return "build", f"the walkway joining spaces {joined} must be covered by one section in one placement"
    held = state.tokens[player]
    for token, misses in need.items():
        if len(misses) > held[token]:
            unit = "token" if held[token] == 1 else "tokens"
            return "build", f"{misses[0]} ({len(misses)} unmet, you hold {held[token]} {token} {unit})"
    return "build", "that placement is not possible now"


def render(state: ClipCutParks) -> str:
    """The game as text: each player's sheet ('.' marks a square that is gone), cards, sections and tokens."""
    from .content import SHEET_COLS, SHEET_ROWS

    lines = [f"ClipCut Parks, round {state.round}" + (f" (game over: {state.ended})" if state.ended else "")]
    for seat in range(state.players):
        sheet = sheet_of(max(state.sheet_number[seat], 0))
        lines.append(f"player {seat}: stage {state.stage[seat]}, cuts to make {_lengths(state.to_cut[seat])}")
        for r in range(SHEET_ROWS):
            row = []
            for c in range(SHEET_COLS):
                square = sheet.square((r, c))
                # The data files' codes (T W G P, then w or r): pavilion and play share a first letter.
                row.append(f"{square.code:<2}" if (r, c) in state.sheet[seat] else ". ")
            lines.append("  " + " ".join(row))
        for ref in state.face_up[seat]:
            card = card_of(ref)
            free = len(state.free_spaces(seat, ref))
            lines.append(
                f"  {card_name(ref)} {card.name!r}: {free} of {len(card.cells)} spaces free, bonus {card.bonus}"
            )
        pending = ", ".join(f"{s} ({len(state.sections[seat][s])} squares)" for s in state.pending[seat])
        lines.append(f"  sections to place: {pending or 'none'}; crumpled {len(state.crumpled[seat])}")
        done = ", ".join(card_name(ref) for ref in state.completed[seat]) or "none"
        tokens = ", ".join(f"{k} {v}" for k, v in state.tokens[seat].items())
        lines.append(f"  completed: {done}; pile {len(state.pile[seat])}; tokens: {tokens}")
    return "\n".join(lines)
