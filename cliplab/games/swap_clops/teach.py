"""Helpers for the Swap Clops teaching notebook (notebooks/teach/swap_clops.ipynb).

Positions
    `sketch` starts a game whose board begins with sketched rows (`layout`'s notation, e.g. "cA cA sWe");
    the rest of the board holds clops that join nothing.
Pictures
    `still` is one picture-only board of a game (with marks), `spaces` marks spaces, and `show` draws games or
    boards side by side, sized to the screen.
Live boards
    `Table` is a board to play by clicking (bots take the other seats): the first click picks a clop, the
    second swaps, as on the dashboard (both ask `SwapClopsPicture`). `flood_fill_board` marks the group of
    the clicked clop.
Exercises
    `biggest_swap_exercise` asks for the swap that collects most; `safe_swap_exercise` for a swap that
    collects four or more without opening a hole next to clops kept for later. Both are answered by two
    clicks on the board, judged by the engine, and keep their solution behind "Show me".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from IPython.display import display

from cliplab.bots import RandomBot
from cliplab.bots.random_bot import Bot
from cliplab.engine import IllegalAction, State
from cliplab.ui import Board, Intent, Mark, Scene
from cliplab.ui.lesson import BoardExercise, Verdict, best_line, fit, judge_best, live, picture
from cliplab.ui.lesson import still as lesson_still
from cliplab.ui.widget import Grid

from .board import describe
from .bots import GreedyBot
from .picture import SwapClopsPicture
from .rules import Pass, Swap, SwapClops, group_at, layout, place_of, position, quiet_fill, space_of

Place = tuple[int, int]


def sketch(*rows: str, players: int = 2, seed: int = 1, **fields: Any) -> SwapClops:
    """A game whose board starts with `rows`; the rest holds clops that join nothing, the supply the rest."""
    board, supply = quiet_fill(layout([*rows, *[""] * (8 - len(rows))]))
    return position(players, seed, board=board, supply=fields.pop("supply", supply), **fields)


def still(game: SwapClops, *marks: Mark, label: str = "The clops", name: str = "clops") -> Board:
    """One picture-only board of a game, with marks."""
    return lesson_still(describe(game, marks), label, name)


def spaces(*places: Place) -> tuple[Mark, ...]:
    """Marks on spaces given as (row, column)."""
    return tuple(Mark("cell", at, style="last") for at in places)


def show(*items: SwapClops | Board, status: str = "") -> None:
    """Pictures side by side, sized to the screen: games, or boards made by `still`."""
    boards = tuple(still(item) if isinstance(item, SwapClops) else item for item in items)
    display(picture(Scene(boards, status=status)))


class Table:
    """A live board: you play `seat` by clicks, bots play the other seats (greedy ones unless `bots` says)."""

    def __init__(self, game: SwapClops, seat: int = 0, bots: dict[int, Bot] | None = None) -> None:
        self.game, self.seat = game, seat
        self.bots = bots or {s: GreedyBot(s) for s in range(game.players) if s != seat}
        self.picture = SwapClopsPicture(None)
        self.grid = Grid()
        self.grid.on("cell", self.clicked)
        self.news = self.bots_play()
        self.redraw()

    def redraw(self) -> None:
        acting = not self.game.is_over() and self.game.current_player() == self.seat
        self.grid.show(fit(self.picture.scene(self.game.view(self.seat), self.seat, acting)))
        if self.news:
            self.grid.say(self.news)

    def clicked(self, intent: Intent) -> None:
        if self.game.is_over():
            raise IllegalAction("game over", "click", "the game has ended: " + str(self.game.outcome()))
        swap = self.picture.click(self.game.view(self.seat), self.seat, intent)
        if swap is not None:
            self.game.apply(swap, self.seat)
            taken = len(self.game.last_collected)
            self.news = f"You: {swap}, collecting {taken} clops. " + self.bots_play()
        else:
            self.news = ""
        self.redraw()

    def bots_play(self) -> str:
        """Let the bots (and any forced pass of yours) play until you decide or the game ends."""
        said = []
        while not self.game.is_over():
            seat = self.game.current_player()
            if seat == self.seat and self.game.legal_actions(seat) != [Pass()]:
                break
            bot = self.bots.get(seat) or RandomBot(seat)
            action = bot.choose(self.game.view(seat), seat)
            self.game.apply(action, seat)
            said.append(f"player {seat}: {action} ({len(self.game.last_collected)} collected)")
        if self.game.is_over():
            said.append(str(self.game.outcome()))
        return "; ".join(said)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return live(self.grid)._repr_mimebundle_(**kwargs)


def flood_fill_board(game: SwapClops) -> Any:
    """A live board on which a click marks the group of the clicked clop, as the engine finds it."""
    board = replace(describe(game).boards[0], clickable=("cell",))
    grid = Grid(fit(Scene((board,), status="Click a clop")))

    def fill(intent: Intent) -> None:
        group = group_at(game.board, space_of(*intent.at))
        marked = replace(board, marks=spaces(*(place_of(space) for space in group)))
        grid.show(fit(Scene((marked,), status=f"The group of {intent.at}: {len(group)} clops")))

    grid.on("cell", fill)
    return live(grid)


def _swap_exercise(game: SwapClops, judge: Any, solution: Sequence[str], explanation: str) -> BoardExercise:
    """An exercise answered by two clicks (a clop, then a partner of its shape) as the player to move."""
    seat = game.current_player()
    pictures = SwapClopsPicture(None)

    def draw(position: State) -> Scene:
        acting = not position.is_over() and position.current_player() == seat
        scene = pictures.scene(position, seat, acting)
        # No hover previews: they would count each swap's clops for the learner, which is the exercise.
        return replace(scene, boards=tuple(replace(b, previews=()) for b in scene.boards), status=status(position))

    def status(position: State) -> str:
        if position.current_player() != seat:
            return "Swapped."
        return "Click a clop, then a lit one of its shape" if pictures.picked is None else "Now click a lit clop"

    def to_action(position: State, intent: Intent) -> Any:
        return pictures.click(position, seat, intent)

    return BoardExercise(game, seat, draw, to_action, judge, solution, explanation)


def collected(_before: State, after: State) -> float:
    """How many clops the last swap collected."""
    assert isinstance(after, SwapClops)
    return len(after.last_collected)


def biggest_swap_exercise(game: SwapClops) -> BoardExercise:
    """Which swap collects the most clops now?"""
    seat = game.current_player()
    best = best_line(game, seat, collected)
    counts = sorted((len(game.outcome_of(swap)) for swap in game.swaps()), reverse=True)
    return _swap_exercise(
        game,
        lambda trial: judge_best(game, seat, trial, collected, unit="clops"),
        best,
        f"The engine tried all {len(counts)} swaps; the largest collections are {', '.join(map(str, counts[:5]))}.",
    )


def _too_close(game: SwapClops, holes: Sequence[Place], moved: Sequence[Place], keep: Sequence[Place]) -> str:
    """Why a swap leaving `holes` (and moving the kept clops in `moved`) fails the safe-swap exercise, or ""."""
    if len(holes) < 4:
        return f"That collects {len(holes)} clops, not four or more."
    near = [h for h in holes if any(abs(h[0] - r) + abs(h[1] - c) == 1 for r, c in keep)]
    if moved or near:
        return f"Holes at {sorted(near or moved)} touch the clops you keep, so the refill could complete them."
    return ""


def safe_swap_exercise(game: SwapClops, keep: Sequence[Place]) -> BoardExercise:
    """Collect four or more clops now with a swap that moves none of `keep` and opens no hole next to them."""

    def judge(trial: State) -> Verdict:
        assert isinstance(trial, SwapClops)
        holes = [place_of(space) for space in trial.last_collected]
        moved = [at for at in keep if game.tile_at(*at) != trial.tile_at(*at)]
        why = _too_close(game, holes, moved, keep)
        return Verdict(not why, why or f"Right: {len(holes)} clops collected, and every hole is away from them.")

    def safe(swap: Swap) -> bool:
        ends = [(swap.row_a, swap.col_a), (swap.row_b, swap.col_b)]
        holes = [place_of(space) for space in game.outcome_of(swap)]
        return not _too_close(game, holes, [at for at in ends if at in keep], keep)

    right = [str(swap) for swap in game.swaps() if safe(swap)]
    return _swap_exercise(
        game,
        judge,
        right[:1],
        f"The engine checked all {len(game.swaps())} swaps: {len(right)} are right; this is the first.",
    )
