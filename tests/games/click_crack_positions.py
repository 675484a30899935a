"""Click & Crack positions for scenario and bot tests, built with the rules' public position builder: a new
round (nobody has set tiles yet) after the penguins were placed, with the cracks, broken-off tiles, lost
penguins and scores of earlier play."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from cliplab.games.click_crack import ClickCrack
from cliplab.games.click_crack.rules import FLOE, position
from cliplab.grid import cells_at_point

Point = tuple[int, int]
FAR_POINTS = [(5, 5), (5, 4), (5, 3), (4, 5), (3, 5), (5, 0), (4, 0), (3, 0)]


def arrange(
    players: int,
    penguins: Mapping[int, Point],
    cracks: Iterable[tuple[Point, Point]] = (),
    gone: Iterable[Point] = (),
    scores: Iterable[int] | None = None,
    **options: object,
) -> ClickCrack:
    """Round 1 of a game with penguin i on penguins[i]; penguins left out stand far away (on the first of
    FAR_POINTS still beside the floe), and those listed as None are off the floe."""
    gone = set(gone)
    spare = iter(
        p for p in FAR_POINTS if p not in penguins.values() and any(t in FLOE - gone for t in cells_at_point(p))
    )
    where = [penguins[p] if p in penguins else next(spare) for p in range(2 * players)]
    return position(players, penguins=where, cracks=cracks, gone=gone, scores=scores, **options)  # type: ignore[arg-type]


def set_tiles(game: ClickCrack, settings: Mapping[int, str]) -> None:
    """Every seat to move sets its tiles; seats not named set two harmless-looking walks."""
    for seat in game.to_move():
        game.apply("set " + settings.get(seat, "walk S and walk S"), seat)
