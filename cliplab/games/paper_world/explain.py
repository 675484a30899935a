"""Paper World in words: why an action is refused (the rule and the reason, as a player would say it), and
the position as text."""

from __future__ import annotations

from cliplab.engine import Action

from .content import SIDE
from .rules import (
    BURIED,
    HAND_LIMIT,
    Discard,
    EndTurn,
    PaperWorld,
    Pass,
    PlaceCard,
    Scissors,
    TakeColour,
    TakeValue,
    card,
)

_WAITING = {
    "trim": ("hand limit", f"you hold more than {HAND_LIMIT} cards: discard down to {HAND_LIMIT} first"),
    "pay": ("skip", "your skip costs a card: discard one from your hand first"),
    "scissors": ("scissors", "you placed a scissors card: say whether the scissors move onto it first"),
}


def why_illegal(game: PaperWorld, player: int, action: Action) -> tuple[str, str]:
    phase = game.phase
    if phase in _WAITING and not isinstance(action, Discard | Scissors):
        return _WAITING[phase]
    if isinstance(action, TakeColour | TakeValue):
        if phase == "placing":
            return "turn", "you are placing this turn: a turn is either a take or a placement"
        what = f"the colour {action.colour}" if isinstance(action, TakeColour) else f"the value {action.value}"
        return "take", f"no card on top of a centre pile shows {what}"
    if isinstance(action, Discard):
        if phase not in ("trim", "pay"):
            return "discard", "you discard only to keep to the hand limit or to pay for a skip"
        return "discard", f"card {action.card} is not in your hand"
    if isinstance(action, Scissors):
        return "scissors", "the scissors may move only onto a scissors card you have just placed"
    if isinstance(action, EndTurn):
        return "turn", "place at least one card first (or take), then end the turn"
    if isinstance(action, Pass):
        return "pass", "you may pass only when you can neither take nor place"
    if isinstance(action, PlaceCard):
        return "place", _why_not_placed(game, player, action)
    return "actions", "that is not one of the actions possible now"


def _why_not_placed(game: PaperWorld, player: int, action: PlaceCard) -> str:
    if action.card not in game.hands[player]:
        return f"card {action.card} is not in your hand"
    new = card(action.card)
    if not game.same_kind(action.card):
        return "the cards you place in one turn are all of one colour or all of one value"
    at = (action.row, action.col)
    land = game.lands[player]
    skip = game.can_skip(player)
    if at in land:
        top = card(land[at][-1])
        if game.holds_scissors(player) and game.scissors is not None and game.scissors[1:] == at:
            return "the scissors lie on that stack: nothing goes on it until they move"
        if top.colour != new.colour:
            return f"that stack is {top.colour}: a stack keeps one colour"
        if new.value == top.value + 2:
            return _no_skip(game, player)
        return f"that stack shows {top.value}: it rises by exactly 1, to {top.value + 1}"
    if at not in game.open_cells(player):
        if not land:
            return "your first stack goes at the centre of your landscape (0, 0)"
        return f"a new stack goes beside one of yours, and the landscape stays within {SIDE} x {SIDE}"
    if new.value == 2 and not skip:
        return _no_skip(game, player)
    return "a new stack starts with a 1 (or a 2 with this turn's skip)"


def _no_skip(game: PaperWorld, player: int) -> str:
    if game.skipped:
        return "you have used this turn's skip already"
    return "a skip costs a discard, and you would have no other card to discard"


def render(game: PaperWorld) -> str:
    """The position as text: the centre, then each player's landscape, hand and tokens."""
    lines = []
    tops = ["-" if top is None else str(card(top)) for top in game.tops()]
    lines.append("centre: " + " | ".join(f"{t} ({len(p)})" for t, p in zip(tops, game.piles, strict=True)))
    for seat in range(game.players):
        hand = game.hands[seat]
        shown = f"{len(hand)} cards" if BURIED in hand else ", ".join(str(card(c)) for c in hand) or "empty"
        stacks = ", ".join(f"{at}: {card(stack[-1])}" for at, stack in sorted(game.lands[seat].items()))
        scissors = " [scissors]" if game.holds_scissors(seat) else ""
        lines.append(
            f"player {seat}{scissors}: hand {shown}; discards {len(game.discards[seat])}; "
            f"landscape {stacks or 'empty'}; tokens {sum(game.claims[seat])}"
        )
    return "\n".join(lines)
