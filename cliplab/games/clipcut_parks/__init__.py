"""ClipCut Parks (seeds/000): content as data, rules for every mode, bots; `GAME` declares it to the kit."""

from cliplab.kit import Declaration

from .rules import ROUND_LIMIT, SPEC, ClipCutParks, Crumple, Cut, Deal, Keep, Place, Roll, Score, TearSheet

GAME = Declaration(
    name="clipcut_parks",
    bots={
        "random": "cliplab.bots:RandomBot",
        "heuristic": "cliplab.games.clipcut_parks.bots:PlanningBot",
    },
    default_bot="heuristic",
    picture="cliplab.games.clipcut_parks.picture:ClipCutPicture",
    drawing="cliplab.games.clipcut_parks.board:describe",
    breakdown="cliplab.games.clipcut_parks.score:breakdown",
    live_scores="cliplab.games.clipcut_parks.score:live_scores",
    metrics="cliplab.games.clipcut_parks.score:metrics",
    timeouts=frozenset({ROUND_LIMIT}),
    position="cliplab.games.clipcut_parks.rules:position",
    teach="clipcut_parks",
)

__all__ = [
    "GAME",
    "SPEC",
    "ClipCutParks",
    "Crumple",
    "Cut",
    "Deal",
    "Keep",
    "Place",
    "Roll",
    "Score",
    "TearSheet",
]
