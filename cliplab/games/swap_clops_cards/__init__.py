"""Swap Clops, the card game (seeds/003, first part): rules, content, bots, picture; `GAME` declares it."""

from cliplab.kit import Declaration

from .rules import SPEC, SwapClopsCards

GAME = Declaration(
    name="swap_clops_cards",
    bots={
        "random": "cliplab.bots:RandomBot",
        "heuristic": "cliplab.games.swap_clops_cards.bots:HeuristicBot",
        "search": "cliplab.games.swap_clops_cards.bots:SearchBot",
    },
    default_bot="heuristic",
    picture="cliplab.games.swap_clops_cards.picture:SwapClopsCardsPicture",
    drawing="cliplab.games.swap_clops_cards.board:describe",
    breakdown="cliplab.games.swap_clops_cards.score:breakdown",
    live_scores="cliplab.games.swap_clops_cards.score:live_scores",
    metrics="cliplab.games.swap_clops_cards.score:metrics",
    position="cliplab.games.swap_clops_cards.rules:position",
    teach="swap_clops_cards",
)

__all__ = ["GAME", "SPEC", "SwapClopsCards"]
