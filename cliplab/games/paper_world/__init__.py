"""Paper World (seeds/004): rules, content, bots, board picture; `GAME` declares it to the kit."""

from cliplab.kit import Declaration

from .rules import SPEC, PaperWorld

GAME = Declaration(
    name="paper_world",
    bots={
        "random": "cliplab.bots:RandomBot",
        "heuristic": "cliplab.games.paper_world.bots:PaperWorldBot",
        "search": "cliplab.games.paper_world.bots:search_bot",
    },
    default_bot="heuristic",
    picture="cliplab.games.paper_world.picture:PaperWorldPicture",
    drawing="cliplab.games.paper_world.board:describe",
    breakdown="cliplab.games.paper_world.score:breakdown",
    live_scores="cliplab.games.paper_world.score:live_scores",
    metrics="cliplab.games.paper_world.score:metrics",
    position="cliplab.games.paper_world.rules:position",
    teach="paper_world",
)

__all__ = ["GAME", "SPEC", "PaperWorld"]
