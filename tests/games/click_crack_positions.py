"""Click & Crack positions for scenario and bot tests: placement through the API, then the cracks,
broken-off tiles, lost penguins and scores of earlier play written into the state."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from cliplab.engine import new_game
from cliplab.games.click_crack import ClickCrack
from cliplab.games.click_crack.rules import FLOE
from cliplab.grid import segment

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
    """A game whose placement put penguin i on penguins[i]; penguins left out are placed far away,
    or taken off the floe when listed as None."""
    game = new_game("click_crack", players=players, **options)
    assert isinstance(game, ClickCrack)
    spare = iter(p for p in FAR_POINTS if p not in penguins.values())
    for k, seat in enumerate(game.placement_order()):
        penguin = 2 * seat + (k >= players)
        at = penguins.get(penguin) or next(spare)
        game.apply(f"place at {at[0]},{at[1]}", seat)
    for penguin, at in penguins.items():
        if at is None:
            game.pos[penguin] = None
    game.cracks = frozenset(segment(a, b) for a, b in cracks)
    game.main = FLOE - frozenset(gone)
    if scores is not None:
        game.scores = list(scores)
    return game


def set_tiles(game: ClickCrack, settings: Mapping[int, str]) -> None:
    """Every seat to move sets its tiles; seats not named set two harmless-looking walks."""
    for seat in game.to_move():
        game.apply("set " + settings.get(seat, "walk S and walk S"), seat)
