"""Click & Crack drawn as a board description: the floe, its cracks and the penguins."""

from __future__ import annotations

from cliplab.grid import segment_points
from cliplab.ui.scene import Board, Cell, Edge, Kind, Mark, Preview, Scene, Token

from .rules import SIZE, ClickCrack


def describe(
    state: ClickCrack,
    marks: tuple[Mark, ...] = (),
    clickable: tuple[Kind, ...] = ("cell", "segment", "point"),
    previews: tuple[Preview, ...] = (),
) -> Scene:
    """The floe with `marks` on it, taking clicks on the `clickable` kinds of place; `previews` show what a
    click would do while its place is hovered. Points are numbered along the edges, as the game cites them."""
    cells = tuple(
        Cell((r, c), fill="ice", label="ice")
        if (r, c) in state.main
        else Cell((r, c), fill="water", glyph="wave", label="broken off: open water")
        for r in range(SIZE)
        for c in range(SIZE)
    )
    edges = tuple(Edge(*segment_points(crack), style="crack") for crack in sorted(state.cracks))
    tokens = tuple(
        Token(at, owner=penguin // 2, text=str(penguin), label=f"penguin {penguin} of player {penguin // 2}")
        for penguin, at in enumerate(state.pos)
        if at is not None
    )
    floe = Board(
        "floe", "The floe", SIZE, SIZE, cells, edges, tokens, marks, clickable, previews=previews, coordinates="points"
    )
    # Four players' scores in full words would make the picture wider than its place beside the table at 1280x720.
    seat_name = "player {}" if len(state.scores) < 4 else "P{}"
    scores = ", ".join(f"{seat_name.format(seat)}: {points}" for seat, points in enumerate(state.scores))
    status = f"Round {state.round}. Scores: {scores}"
    # Large (60 pixels a tile): the floe is shown to a room as often as to one player, and it still fits a
    # 1280x720 screen with the table beside it.
    return Scene((floe,), title="Click & Crack", status=status, zoom=1.5)
