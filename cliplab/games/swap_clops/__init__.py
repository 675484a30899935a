"""Swap Clops, the tile game (seeds/003, second part): rules, content, bots, picture; `GAME` declares it."""

from cliplab.kit import Declaration

from .rules import ROUND_LIMIT, SPEC, Draw, Pass, Swap, SwapClops

GAME = Declaration(
    name="swap_clops",
    bots={
        "random": "cliplab.bots:RandomBot",
        "heuristic": "cliplab.games.swap_clops.bots:GreedyBot",
        "search": "cliplab.games.swap_clops.bots:SearchBot",
    },
    default_bot="heuristic",
    picture="cliplab.games.swap_clops.picture:SwapClopsPicture",
    drawing="cliplab.games.swap_clops.board:describe",
    breakdown="cliplab.games.swap_clops.score:breakdown",
    live_scores="cliplab.games.swap_clops.score:live_scores",
    metrics="cliplab.games.swap_clops.score:metrics",
    timeouts=frozenset({ROUND_LIMIT}),
    position="cliplab.games.swap_clops.rules:position",
    teach="swap_clops",
)

__all__ = ["GAME", "SPEC", "Draw", "Pass", "Swap", "SwapClops"]
