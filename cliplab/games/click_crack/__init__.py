"""Click & Crack (seeds/002): rules, bots, board picture; `GAME` declares it to the kit."""

from cliplab.kit import Declaration

from .rules import ROUND_LIMIT, SPEC, BreakOff, ClickCrack, Pass, Perform, Place, PushAside, SetTiles

GAME = Declaration(
    name="click_crack",
    bots={
        "random": "cliplab.bots:RandomBot",
        "heuristic": "cliplab.games.click_crack.bots:ClickCrackBot",
        "search": "cliplab.games.click_crack.bots:search_bot",
    },
    default_bot="heuristic",
    picture="cliplab.games.click_crack.picture:ClickCrackPicture",
    drawing="cliplab.games.click_crack.board:describe",
    breakdown="cliplab.games.click_crack.score:breakdown",
    live_scores="cliplab.games.click_crack.score:live_scores",
    metrics="cliplab.games.click_crack.score:metrics",
    timeouts=frozenset({ROUND_LIMIT}),
    position="cliplab.games.click_crack.rules:position",
    teach="click_crack",
)

__all__ = ["GAME", "SPEC", "BreakOff", "ClickCrack", "Pass", "Perform", "Place", "PushAside", "SetTiles"]
