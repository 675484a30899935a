"""Helpers for the Click & Crack teaching notebook (notebooks/teach/click_crack.ipynb).

Pictures
    `still` is one floe of a game as a picture-only board (with marks); `show` draws games or boards side by
    side, sized to the screen; `before_after` draws a position and the position after some actions.
Live boards
    `placement_board` places penguins by clicks; `Table` is a floe to play by clicking: you take one seat,
    bots the others. A click means what it means on
    the dashboard, because both ask the game's picture (`click_action`, `tile_at`, `click_marks`).
Exercises
    `allowed_exercise` asks which actions are allowed now (answered with buttons); `best_move_exercise` asks
    for the move that scores most (answered by clicks on the floe). The engine judges both and works out
    their solutions, which stay behind "Show me". `floe_exercise` is the general form of a question answered
    on the floe; `turn_unfinished` and `points_gained` tell when a turn is complete and what it earned.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from IPython.display import display

from cliplab.bots import RandomBot
from cliplab.bots.random_bot import Bot
from cliplab.engine import IllegalAction, State
from cliplab.grid import cells_at_point
from cliplab.ui import Board, Intent, Mark, Scene
from cliplab.ui.lesson import (
    BoardExercise,
    ChoiceExercise,
    Verdict,
    best_line,
    fit,
    judge_allowed,
    judge_best,
    lines_of_play,
    live,
    picture,
    tried,
    why_not,
)
from cliplab.ui.lesson import (
    still as lesson_still,
)
from cliplab.ui.widget import Grid

from .board import describe
from .picture import click_action, click_marks, tile_at
from .rules import ClickCrack

PHASE_HINTS = {
    "place": "Click a point to place a penguin",
    "program": "Pick tile {picked} of 2",
    "perform": "Your tiles: {tiles}",
    "push": "Click where the pushed penguin goes",
    "break": "Click a tile of the half that goes",
}


def still(game: ClickCrack, *marks: Mark, label: str = "The floe", name: str = "floe") -> Board:
    """A game's floe as a picture-only board (no click targets)."""
    return lesson_still(describe(game, marks), label, name)


def show(*items: ClickCrack | Board, status: str | None = None) -> None:
    """Games (or boards) side by side as one picture sized to the screen; it shows on GitHub too."""
    boards = tuple(item if isinstance(item, Board) else still(item, name=f"b{i}") for i, item in enumerate(items))
    if status is None:
        status = next((describe(item).status for item in items if not isinstance(item, Board)), "")
    display(picture(Scene(boards, status=status, zoom=2.0)))


def before_after(game: ClickCrack, *texts: str) -> ClickCrack:
    """Draws the position and, beside it, the position after the actions; returns the latter."""
    after = tried(game, None, texts)
    assert isinstance(after, ClickCrack)
    show(
        still(game, label="Before", name="before"),
        still(after, label="After", name="after"),
        status=" then ".join(texts),
    )
    return after


class Table:
    """A live floe. You play `seat` by clicking; every other seat is played by a bot (random unless given).

    While tiles are set in secret, click twice: a point next to one of your penguins sets a walk tile that
    way, a line starting at one of them a break tile. Otherwise a click is the action it names."""

    def __init__(self, game: ClickCrack, seat: int = 0, bots: dict[int, Bot] | None = None) -> None:
        self.game, self.seat = game, seat
        self.picked: list[tuple[Intent, tuple[str, str]]] = []
        self.bots = bots or {s: RandomBot(s) for s in range(game.players) if s != seat}
        self.grid = Grid()
        self.grid.on("any", self.click)
        self.draw(self.others())

    def click(self, intent: Intent) -> None:
        game = self.game
        if game.is_over():
            raise IllegalAction("game over", "click", f"the game is over: {game.outcome()}")
        if game.phase == "program":
            said = self.pick(intent)
        else:
            action = game.apply(click_action(game, self.seat, intent), self.seat)
            said = [f"you: {action}"]
        self.draw(said + self.others())

    def pick(self, intent: Intent) -> list[str]:
        self.picked.append((intent, tile_at(self.game, self.seat, intent)))
        if len(self.picked) < 2:
            kind, direction = self.picked[0][1]
            return [f"first tile: {kind} {direction}; now pick the second"]
        (_, (k1, d1)), (_, (k2, d2)) = self.picked
        self.picked = []
        self.game.apply(f"set {k1} {d1} and {k2} {d2}", self.seat)
        shown = [
            f"player {s}: " + " and ".join(f"{k} {d}" for k, d in tiles)
            for s, tiles in enumerate(self.game.tiles)
            if s != self.seat and tiles
        ]
        return [f"you set {k1} {d1} and {k2} {d2}"] + (["revealed: " + ", ".join(shown)] if shown else [])

    def others(self) -> list[str]:
        """Let the bots act (and pass for you when nothing is possible) until you must decide."""
        game, said = self.game, []
        while not game.is_over():
            bots = [s for s in game.to_move() if s != self.seat]
            if bots:
                for s in bots:
                    secret = game.phase == "program"
                    action = game.apply(self.bots[s].choose(game.view(s), s), s)
                    said.append(f"player {s}: " + ("set tiles in secret" if secret else str(action)))
            elif game.phase == "perform" and [str(a) for a in game.legal_actions(self.seat)] == ["pass"]:
                game.apply("pass", self.seat)
                said.append("you: pass (nothing is possible)")
            else:
                break
        return said

    def status(self) -> str:
        game = self.game
        if game.is_over():
            return str(game.outcome())
        # Before the tiles are set, the list of tiles is empty while the list of used flags is not.
        tiles = ", ".join(
            f"{k} {d}" + (" (done)" if used else "")
            for (k, d), used in zip(game.tiles[self.seat], game.used[self.seat], strict=False)
        )
        doing = PHASE_HINTS[game.phase].format(picked=len(self.picked) + 1, tiles=tiles)
        when = f"Round {game.round}" if game.round else "Placement"
        return f"{when}, scores {'-'.join(map(str, game.scores))}. {doing}"

    def draw(self, said: Sequence[str] = ()) -> None:
        picked = tuple(Mark(intent.kind, intent.at, intent.to, "ghost") for intent, _ in self.picked)  # type: ignore[arg-type]
        scene = describe(self.game, click_marks(self.game, self.seat) + picked)
        self.grid.show(fit(replace(scene, status=self.status())))
        if said:
            self.grid.say(("...; " if len(said) > 8 else "") + "; ".join(said[-8:]))

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return live(self.grid)._repr_mimebundle_(**kwargs)


def placement_board(game: ClickCrack) -> Any:
    """A live floe on which every click on a point places the next penguin, and says how many tiles it touches."""
    grid = Grid(fit(describe(game)))

    def place(intent: Intent) -> None:
        seat = game.current_player()
        game.apply(click_action(game, seat, intent))
        grid.show(fit(describe(game)))
        touching = sum(tile in game.main for tile in cells_at_point(intent.at))
        grid.say(f"Player {seat} placed a penguin on {intent.at}: it touches {touching} tile(s)", intent)

    grid.on("point", place)
    return live(grid)


def turn_unfinished(seat: int) -> Callable[[State], bool]:
    """Whether `seat` still has a choice to make in its turn (a side to push, a half to break off)."""
    return lambda game: isinstance(game, ClickCrack) and game.phase in ("push", "break") and seat in game.to_move()


def points_gained(seat: int) -> Callable[[State, State], float]:
    """Points `seat` gained from one position to another."""
    return lambda before, after: after.scores[seat] - before.scores[seat]  # type: ignore[attr-defined]


def floe_exercise(
    game: ClickCrack,
    seat: int,
    judge: Callable[[State], Verdict | None],
    solution: Sequence[str],
    explanation: str = "",
) -> BoardExercise:
    """An exercise answered by clicks on the floe of `game` as `seat` (a click means what it means on the
    dashboard); `judge` gives the engine's verdict on the position reached."""

    def draw(position: State) -> Scene:
        assert isinstance(position, ClickCrack)
        hint = PHASE_HINTS[position.phase] if turn_unfinished(seat)(position) else "Click your answer on the floe"
        scene = describe(position, click_marks(position, seat))
        return replace(scene, status=f"{scene.status}. {hint}")

    def to_action(position: State, intent: Intent) -> Any:
        assert isinstance(position, ClickCrack)
        return click_action(position, seat, intent)

    return BoardExercise(game, seat, draw, to_action, judge, solution, explanation)


def allowed_exercise(game: ClickCrack, seat: int) -> ChoiceExercise:
    """Which actions may `seat` take now? The buttons offer each of its tiles with each of its penguins, and a pass."""
    offered = [
        f"{kind} {direction} with penguin {penguin}"
        for kind, direction in dict.fromkeys(game.tiles[seat])
        for penguin in game.penguins_of(seat)
    ] + ["pass"]
    allowed = sorted(str(action) for action in game.legal_actions(seat))
    refused = why_not(game, seat, offered)
    solution = f"{' and '.join(allowed)}. The engine refuses the others: {refused}."
    return ChoiceExercise(offered, lambda chosen: judge_allowed(game, seat, chosen), solution, many=True)


def best_move_exercise(game: ClickCrack, seat: int, remark: str = "") -> BoardExercise:
    """Which move (with any choice it leads to) gains `seat` the most points now? Answered on the floe."""
    unfinished, gain = turn_unfinished(seat), points_gained(seat)
    scored = "; ".join(
        f"{gain(game, end):+g} for {' then '.join(line)}" for line, end in lines_of_play(game, seat, unfinished)
    )
    return floe_exercise(
        game,
        seat,
        lambda trial: judge_best(game, seat, trial, gain, unfinished),
        best_line(game, seat, gain, unfinished),
        f"Every legal move, scored by the engine: {scored}. {remark}".strip(),
    )
