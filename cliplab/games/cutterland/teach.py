"""Helpers for the Cutterland teaching notebook (notebooks/teach/cutterland.ipynb).

Sketches and pictures
    `land` sketches a kingdom as rows of cell codes; `show` draws a game or a scene sized to the screen,
    `show_card` a card before it is cut;
    `lines` prints a kingdom's score line by line. `attempt` (from the lesson toolkit) tries an action.
Live boards
    `region_board` lights the region of the kingdom cell you click (the engine's flood fill).
Exercises
    `cut_exercise` offers cuts of a card as buttons, the engine refusing illegal ones and the lesson's test
    (no kraken beside a centaur in one piece) judging the rest; `token_exercise` offers every placement of a
    kingdom's tokens and compares the score each reaches, after the hunt, with the best.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from IPython.display import display

from cliplab.engine import IllegalAction
from cliplab.ui import Intent, Mark, Scene
from cliplab.ui.lesson import ChoiceExercise, Verdict, attempt, fit, live, picture, refusal, tried
from cliplab.ui.widget import Grid

from .board import card_board, describe, kingdom_board, window
from .content import CARD_COLS, CARD_ROWS, card
from .rules import SCORE_LINES, Cutterland

__all__ = ["attempt", "cut_exercise", "land", "lines", "region_board", "show", "show_card", "token_exercise"]

Cell = tuple[int, int]
# Kingdoms are drawn with a margin of empty cells: at this zoom a kingdom of three rows and a line of text
# stay on a 1280x720 screen together.
PICTURE_ZOOM = 1.5


def land(*rows: str) -> list[tuple[int, int, str]]:
    """A kingdom sketched as rows of cell codes separated by spaces; '--' where there is no land."""
    return [(r, c, code) for r, row in enumerate(rows) for c, code in enumerate(row.split()) if code != "--"]


def show(thing: Cutterland | Scene, status: str = "", seat: int | None = None) -> None:
    """A game (only `seat`'s kingdom, if given) or a scene as a picture sized to the screen; it shows on
    GitHub too."""
    scene = thing if isinstance(thing, Scene) else describe(thing, seat)
    display(picture(replace(scene, status=status or scene.status, zoom=PICTURE_ZOOM)))


def show_card(number: int) -> None:
    """A card as printed, before any cut, sized to the screen."""
    show(Scene((card_board(number, f"card-{number}", f"Card {number}"),)), status=f"Card {number}, not cut yet")


def lines(game: Cutterland, seat: int = 0) -> None:
    """Prints `seat`'s score, one scoring line a row, and the total."""
    points = game.score_lines(seat)
    for words, scored in zip(SCORE_LINES, points, strict=True):
        print(f"{words:<48}{scored:>4}")
    print(f"{'total':<48}{sum(points):>4}")


def region_board(game: Cutterland, seat: int = 0) -> Any:
    """A live kingdom: a click on a cell lights the region the engine finds from it."""
    shift = window(game, seat)
    grid = Grid(fit(Scene((kingdom_board(game, seat, (), ("cell",)),), status="Click a cell", zoom=PICTURE_ZOOM)))

    def light(intent: Intent) -> None:
        spot = shift.kingdom_cell(intent.at)
        if spot not in game.kingdoms[seat]:
            raise IllegalAction("regions", "no land", "click a cell of the kingdom")
        region = game.kingdom(seat).region_of(spot)
        marks = [Mark("cell", shift.board_cell(cell), style="preview") for cell in region]
        board = kingdom_board(game, seat, marks, ("cell",))
        grid.show(fit(Scene((board,), status=f"The region of {spot}: {len(region)} cells", zoom=PICTURE_ZOOM)))

    grid.on("cell", light)
    return live(grid)


def kraken_beside_centaur(game: Cutterland) -> tuple[Cell, Cell] | None:
    """A kraken and a centaur (eight-neighbours) in one piece of the card just cut, or None."""
    printed, labels = card(game.cut_card), game.cut_labels
    cells = [(r, c) for r in range(CARD_ROWS) for c in range(CARD_COLS)]
    for kraken in (cell for cell in cells if printed.code(*cell)[1] == "K"):
        for centaur in (cell for cell in cells if printed.code(*cell)[1] == "C"):
            beside = max(abs(kraken[0] - centaur[0]), abs(kraken[1] - centaur[1])) == 1
            if beside and labels[kraken[0] * CARD_COLS + kraken[1]] == labels[centaur[0] * CARD_COLS + centaur[1]]:
                return kraken, centaur
    return None


def cut_exercise(game: Cutterland, cuts: Sequence[str], seat: int = 0) -> ChoiceExercise:
    """Which of `cuts` keeps every kraken apart from the centaurs beside it? The engine refuses illegal cuts."""

    def judge(chosen: tuple[str, ...]) -> Verdict:
        try:
            after = tried(game, seat, chosen)
        except IllegalAction as refused:
            return Verdict(False, refusal(refused))
        assert isinstance(after, Cutterland)
        found = kraken_beside_centaur(after)
        if found:
            (kr, kc), (cr, cc) = found
            return Verdict(False, f"Legal, but the kraken at {kr},{kc} shares a piece with the centaur at {cr},{cc}.")
        return Verdict(True, "Right: a legal cut, and no kraken shares a piece with a centaur beside it.")

    good = [cut for cut in cuts if judge((cut,)).right]
    return ChoiceExercise(cuts, judge, f"{' or '.join(good)}: every other choice is refused or keeps them together.")


def best_finish(game: Cutterland, seat: int = 0) -> int:
    """`seat`'s final score once every dragon eats as well as it can for its owner."""
    if game.phase != "dragons":
        return sum(game.score_lines(seat))
    return max(best_finish(tried(game, None, [action]), seat) for action in game.legal_actions())  # type: ignore[arg-type]


def token_exercise(game: Cutterland, seat: int = 0) -> ChoiceExercise:
    """Where does `seat`'s token earn most? Every placement the engine allows, and keeping it, as buttons."""
    options = [str(action) for action in game.token_placements(seat)] + ["keep the other tokens"]
    scores = {option: best_finish(tried(game, seat, [option]), seat) for option in options}  # type: ignore[arg-type]
    best = max(scores.values())

    def judge(chosen: tuple[str, ...]) -> Verdict:
        got = scores[chosen[0]]
        if got < best:
            return Verdict(False, f"{chosen[0]}: after the hunt you score {got}; the best choice scores {best}.")
        return Verdict(True, f"Right: {chosen[0]} scores {got} after the hunt, the most possible.")

    scored = "; ".join(f"{option}: {points}" for option, points in scores.items())
    return ChoiceExercise(options, judge, f"Every choice, scored by the engine after the hunt: {scored}.")
