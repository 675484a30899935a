"""Click & Crack (seeds/002): rules, bots, board picture; `GAME` declares it to the kit."""

from cliplab.kit import Declaration

from .rules import SPEC, BreakOff, ClickCrack, Pass, Perform, Place, PushAside, SetTiles

GAME = Declaration(
    name="click_crack",
    bots={
        "random": "cliplab.bots:RandomBot",
        "heuristic": "cliplab.games.click_crack.bots:ClickCrackBot",
        "search": "cliplab.games.click_crack.bots:search_bot",
    },
    default_bot="heuristic",
    teach="click_crack",
)

__all__ = ["GAME", "SPEC", "BreakOff", "ClickCrack", "Pass", "Perform", "Place", "PushAside", "SetTiles"]
