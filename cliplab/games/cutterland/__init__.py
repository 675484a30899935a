"""Cutterland (seeds/001): cut cards into pieces, draft them into kingdoms, hunt; `GAME` declares it to the kit."""

from cliplab.kit import Declaration

from .rules import SPEC, Bridge, Cut, Cutterland, Deal, Feed, Join, Keep, Take, Tower, Wall

GAME = Declaration(
    name="cutterland",
    bots={
        "random": "cliplab.bots:RandomBot",
        "heuristic": "cliplab.games.cutterland.bots:HeuristicBot",
        "search": "cliplab.games.cutterland.bots:SearchBot",
    },
    default_bot="heuristic",
    picture="cliplab.games.cutterland.picture:CutterlandPicture",
    drawing="cliplab.games.cutterland.board:describe",
    breakdown="cliplab.games.cutterland.score:breakdown",
    live_scores="cliplab.games.cutterland.score:live_scores",
    metrics="cliplab.games.cutterland.score:metrics",
    position="cliplab.games.cutterland.rules:position",
    teach="cutterland",
)

__all__ = ["GAME", "SPEC", "Bridge", "Cut", "Cutterland", "Deal", "Feed", "Join", "Keep", "Take", "Tower", "Wall"]
