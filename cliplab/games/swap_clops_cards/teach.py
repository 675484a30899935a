"""Helpers for the Swap Clops card game's teaching notebook (notebooks/teach/swap_clops_cards.ipynb).

`show` draws a game (or a player's view of it) sized to the screen. `offer_exercise` asks which cards an
offering player should put on the table so that the active player would take them but could not feed
their best set with them; it is answered with buttons, judged by the engine, and keeps its solution
behind "Show me".
"""

from __future__ import annotations

from collections.abc import Sequence

from IPython.display import display

from cliplab.engine import IllegalAction
from cliplab.ui.lesson import ChoiceExercise, Verdict, picture, refusal, tried

from .board import describe
from .bots import set_worth
from .content import deck
from .rules import SwapClopsCards, offered_cards


def show(game: SwapClopsCards) -> None:
    """The table as a picture sized to the screen."""
    display(picture(describe(game)))


def best_set(game: SwapClopsCards) -> int:
    """The active player's set (0-based) its chart pays most for now, progress to the next step counted."""
    seat, cards = game.active, deck()
    worths = [set_worth(held, lock, cards) for held, lock in zip(game.sets[seat], game.locks[seat], strict=True)]
    return max(range(len(worths)), key=lambda slot: worths[slot])


def offer_words(chosen: Sequence[str]) -> str:
    """The offer action of some cards, as the engine reads it."""
    return f"offer {' and '.join(sorted(chosen))} face down" if chosen else "offer nothing face down"


def offer_exercise(game: SwapClopsCards, offerer: int, explanation: str = "") -> ChoiceExercise:
    """Which cards should `offerer` offer so that the active player would take each one into a set other than
    their best, the best set could take none, and the offer earns as much as such an offer can?"""
    active, best, values = game.active, best_set(game), deck().cards

    def wanted(card: str) -> bool:
        return any(game.fits(active, slot, (card,)) for slot in range(3) if slot != best)

    def feeds(card: str) -> bool:
        return game.fits(active, best, (card,))

    def earned(cards: Sequence[str]) -> int:
        return sum(values[card].offer for card in cards)

    offers = [offered_cards(action) for action in game.legal_actions(offerer)]
    safe = [cards for cards in offers if all(wanted(card) and not feeds(card) for card in cards)]
    most = max(earned(cards) for cards in safe)

    def judge(chosen: tuple[str, ...]) -> Verdict:
        if len(chosen) > 2:  # no action is written that way, and the engine's parse error lists every form
            return Verdict(False, f"An offer holds at most two cards, and you chose {len(chosen)}.")
        offer = offer_words(chosen)
        try:
            tried(game, offerer, [offer])
        except IllegalAction as refused:
            return Verdict(False, f"{offer}: {refusal(refused)}")
        for card in chosen:
            if feeds(card):
                return Verdict(False, f"{card} would feed the best set {best + 1}: player {active} could add it there.")
            if not wanted(card):
                return Verdict(False, f"{card} fits none of player {active}'s other sets: nobody takes it.")
        if earned(chosen) < most:
            return Verdict(False, f"{offer} feeds nothing of set {best + 1} and earns {earned(chosen)} if taken, "
                                  f"but an offer like it could earn {most}.")  # fmt: skip
        return Verdict(True, f"Right: {offer} earns {most} if taken, the most, and feeds nothing of set {best + 1}.")

    right = [offer_words(cards) for cards in safe if earned(cards) == most]
    solution = f"{' or '.join(right)} (each earns {most} if taken). {explanation}".strip()
    hand = list(dict.fromkeys(game.hands[offerer]))
    return ChoiceExercise(hand, judge, solution, many=True)
