"""The lesson toolkit of the teaching notebooks: pictures that fit the screen, live boards, and exercises.

Pictures
    `picture(scene)` is a static SVG no taller than `SCREEN_HEIGHT` pixels (a notebook at 1280x720 shows it
    whole); it shows on GitHub too, without a kernel. `still` takes a picture-only board out of a scene, to
    set beside others. `live(widget)` puts a widget on screen with a plain sentence standing in for it
    where no kernel runs.
Exercises
    An exercise is answered on screen, never by typing Python: `BoardExercise` by clicks on a live board
    (each click becomes an action of the game, tried on a copy), `ChoiceExercise` by picking among buttons.
    The engine judges every try (`Verdict`); a refused try shows the engine's rule and reason in the
    feedback line. The solution waits behind a "Show me" button.
Checks that ask the engine
    `attempt` carries out an action and prints the engine's answer. `refusal` words an IllegalAction,
    `tried` plays actions on a copy, `why_not` gathers the engine's reasons for refusing some actions,
    `judge_allowed` compares a chosen set of actions with the legal ones, `lines_of_play` lists every way a
    seat can take its turn, `best_line` finds the one that gains most and `judge_best` compares an answer
    with it.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import ipywidgets as w
from IPython.display import SVG

from cliplab.engine import Action, IllegalAction, State

from .intents import Intent
from .scene import Board, Scene
from .svg import render
from .widget import Grid

# The tallest static picture, in pixels: at 1280x720 JupyterLab leaves about 600 under its toolbars, and a
# picture this tall keeps a line of its cell's text in sight above or below it.
SCREEN_HEIGHT = 540
LIVE_STAND_IN = "A live board: run the notebook to click on it."
EXERCISE_STAND_IN = "An exercise: run the notebook to answer it on its board, then press Show me for the solution."
_VIEW_BOX = re.compile(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"')
# How render sizes a scene: the width of its container, up to the scene's own size.
_FLUID_SIZE = re.compile(r'width="100%" style="max-width:[\d.]+px"')


def _natural_size(svg: str) -> tuple[float, float]:
    """Width and height of a rendered scene in pixels at zoom 1 (its viewBox)."""
    found = _VIEW_BOX.search(svg)
    assert found is not None, "render always writes a viewBox"
    return float(found.group(1)), float(found.group(2))


def fit(scene: Scene, max_height: float = SCREEN_HEIGHT) -> Scene:
    """The scene with its zoom lowered, if need be, so that it is drawn at most `max_height` pixels tall."""
    natural_height = _natural_size(render(scene))[1]
    return replace(scene, zoom=min(scene.zoom, max_height / natural_height))


def picture(scene: Scene, max_height: float = SCREEN_HEIGHT) -> SVG:
    """A static picture of the scene that fits the screen: at most `max_height` pixels tall.

    The picture states its size in pixels: a page that shows an SVG output as an image (Voila, JupyterLab
    for an untrusted notebook) ignores the style of the SVG inside and would stretch it to the page's width.
    """
    fitted = fit(scene, max_height)
    svg = render(fitted)
    width, height = (round(side * fitted.zoom) for side in _natural_size(svg))
    sized = f'width="{width}" height="{height}" style="max-width:100%;height:auto"'
    return SVG(_FLUID_SIZE.sub(sized, svg, count=1))


def still(scene: Scene, label: str, name: str) -> Board:
    """The first board of a scene as a picture-only board (no click targets), to set beside others."""
    return replace(scene.boards[0], id=name, label=label, clickable=())


def attempt(game: State, action: Action | str, seat: int | None = None) -> None:
    """Carry out an action on the game and print that it was done, or the engine's rule and reason for refusing
    it (the game is then unchanged)."""
    try:
        game.apply(action, seat)
        print(f"done:    {action}")
    except IllegalAction as refused:
        print(f"refused: {action}  ({refused.rule}: {refused.reason})")


class _StandIn:
    """Shows a widget; where no kernel runs (GitHub, a stored notebook) a fixed sentence stands in for it."""

    def __init__(self, widget: Any, words: str) -> None:
        self.widget, self.words = widget, words

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = self.widget._repr_mimebundle_(**kwargs)
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        return {**data, "text/plain": self.words}, metadata


def live(widget: Any, words: str = LIVE_STAND_IN) -> _StandIn:
    """`widget` on screen, with `words` in place of its changing plain-text form (stored notebooks stay steady)."""
    return _StandIn(widget, words)


# ----------------------------------------------------------------------------- checks that ask the engine


@dataclass(frozen=True, slots=True)
class Verdict:
    """The engine's judgement of a try: right or not, and why, in a sentence for the feedback line."""

    right: bool
    text: str


def refusal(refused: IllegalAction) -> str:
    """The engine's refusal as a learner reads it: the rule, then the reason."""
    return f"Refused ({refused.rule}): {refused.reason}."


def tried(game: State, seat: int | None, actions: Iterable[Action | str]) -> State:
    """A copy of `game` after `actions` by `seat`; the first refused action raises its IllegalAction."""
    trial = game.clone()
    for action in actions:
        trial.apply(action, seat)
    return trial


def judge_allowed(game: State, seat: int, chosen: Iterable[str]) -> Verdict:
    """Whether `chosen` (action texts) is exactly what the engine allows `seat` now; the engine's reason
    for the first chosen action it refuses, or how many allowed ones are missing."""
    chosen = set(chosen)
    legal = {str(action) for action in game.legal_actions(seat)}
    for text in sorted(chosen - legal):
        try:
            tried(game, seat, [text])
        except IllegalAction as refused:
            return Verdict(False, f"Not allowed: {text}. {refusal(refused)}")
        return Verdict(False, f"{text} is possible, but not as a choice right now.")
    missing = len(legal - chosen)
    if missing:
        return Verdict(False, f"Everything you chose is allowed, but {missing} more action(s) are allowed too.")
    return Verdict(True, f"Right: the engine allows exactly these {len(legal)}.")


def why_not(game: State, seat: int, texts: Iterable[str]) -> str:
    """The engine's reason for each of `texts` it refuses `seat` now, as one sentence ("" if it allows all)."""
    reasons = []
    for text in texts:
        try:
            tried(game, seat, [text])
        except IllegalAction as refused:
            reasons.append(f"{text} ({refused.reason})")
    return "; ".join(reasons)


def lines_of_play(
    game: State, seat: int, unfinished: Callable[[State], bool] = lambda _: False
) -> list[tuple[tuple[str, ...], State]]:
    """Every way `seat` can take its turn now: the actions, and the position after them. While
    `unfinished(position)` holds, the same seat still has a choice to make (a side, a half) and it goes on."""
    lines: list[tuple[tuple[str, ...], State]] = []
    for action in game.legal_actions(seat):
        after = tried(game, seat, [action])
        if unfinished(after):
            lines += [((str(action), *more), end) for more, end in lines_of_play(after, seat, unfinished)]
        else:
            lines.append(((str(action),), after))
    return lines


def best_line(
    game: State, seat: int, gain: Callable[[State, State], float], unfinished: Callable[[State], bool] = lambda _: False
) -> tuple[str, ...]:
    """The first line of play (in the engine's order) that gains the most."""
    return max(lines_of_play(game, seat, unfinished), key=lambda line: gain(game, line[1]))[0]


def judge_best(
    game: State,
    seat: int,
    trial: State,
    gain: Callable[[State, State], float],
    unfinished: Callable[[State], bool] = lambda _: False,
    unit: str = "points",
) -> Verdict | None:
    """Whether the position `trial`, reached from `game` by `seat`, gains as much as the best line of play
    (`gain(before, after)`); None while the turn is unfinished."""
    if unfinished(trial):
        return None
    best = max(gain(game, end) for _, end in lines_of_play(game, seat, unfinished))
    got = gain(game, trial)
    if got < best:
        return Verdict(False, f"Allowed, but it gains {got:+g} {unit}. The best move gains {best:+g}.")
    ending = f" It ends the game: {trial.outcome()}." if trial.is_over() else ""
    return Verdict(True, f"Right: it gains {got:+g} {unit}, the most possible.{ending}")


# ----------------------------------------------------------------------------- exercises


class Exercise:
    """An answer area, a feedback line with the engine's verdict, and a "Show me" button for the solution.

    Subclasses build the answer area and call `judge` with each verdict; `solution` is the text revealed by
    "Show me", and `on_show` (if given) is called then too, to show the solution on the answer area.
    `buttons` stand beside "Show me".
    """

    def __init__(
        self,
        answer_area: w.Widget,
        solution: str,
        on_show: Callable[[], None] | None = None,
        buttons: Sequence[w.Button] = (),
    ) -> None:
        self.tries: list[Verdict] = []
        self.feedback = w.HTML("")
        self.feedback.add_class("cl-lesson-feedback")
        self.solution = w.HTML(f"<b>Solution.</b> {html.escape(solution)}")
        self.solution.add_class("cl-lesson-solution")
        self.solution.layout.display = "none"
        self.show_me = w.Button(description="Show me", tooltip="Reveal the solution", icon="eye")
        self.show_me.add_class("cl-lesson-show-me")
        self.show_me.on_click(lambda _button: self.reveal())
        self._on_show = on_show
        self.widget = w.VBox([answer_area, self.feedback, w.HBox([self.show_me, *buttons]), self.solution])
        self.widget.add_class("cl-lesson")

    @property
    def solved(self) -> bool:
        return any(verdict.right for verdict in self.tries)

    def judge(self, verdict: Verdict) -> None:
        """Show a verdict in the feedback line (a mark and a colour, so colour is never alone)."""
        self.tries.append(verdict)
        mark, colour = ("✔", "#009E73") if verdict.right else ("✘", "#D55E00")
        self.feedback.value = (
            f"<div class='cl-lesson-{'right' if verdict.right else 'wrong'}' style='color:{colour};font-size:15px'>"
            f"{mark} {html.escape(verdict.text)}</div>"
        )

    def hint(self, text: str) -> None:
        """A neutral line in the feedback place: what to do next, not a verdict."""
        self.feedback.value = f"<div class='cl-lesson-hint' style='font-size:15px'>{html.escape(text)}</div>"

    def reveal(self) -> None:
        self.solution.layout.display = None
        if self._on_show is not None:
            self._on_show()
            self.hint("The solution is on the board; its words are below.")

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return live(self.widget, EXERCISE_STAND_IN)._repr_mimebundle_(**kwargs)


class BoardExercise(Exercise):
    """An exercise answered by clicks on a live board of `game`, played by `seat`.

    `to_action(position, intent)` turns a click into an action (the game's picture mapping), or None for a
    click that only picks something for the next one. The action is tried on a copy, and a refusal shows
    the engine's reason on the board and in the feedback line. After each accepted action,
    `judge(position)` gives a Verdict, or None while the answer needs more clicks. A wrong but allowed
    answer puts the board back at the start for another try. `draw(position)` is the Scene shown (sized to
    the screen); "Show me" plays `solution` (actions) on a copy and draws where it leads.
    """

    def __init__(
        self,
        game: State,
        seat: int,
        draw: Callable[[State], Scene],
        to_action: Callable[[State, Intent], Action | str | None],
        judge: Callable[[State], Verdict | None],
        solution: Sequence[str],
        explanation: str = "",
    ) -> None:
        self.start, self.seat, self.draw = game.clone(), seat, draw
        self.to_action, self.judge_position, self.answer = to_action, judge, tuple(solution)
        self.trial = game.clone()
        self.said: list[str] = []  # the actions of the try in progress
        self.grid = Grid(fit(draw(self.trial)))
        self.grid.on("any", self.click)
        words = " then ".join(self.answer) + (f". {explanation}" if explanation else ".")
        again = w.Button(description="Start again", tooltip="Put the board back at the start", icon="undo")
        again.add_class("cl-lesson-again")
        again.on_click(lambda _button: self.start_again())
        super().__init__(self.grid.widget, words, self._show_solution, [again])

    def click(self, intent: Intent) -> None:
        try:
            chosen = self.to_action(self.trial, intent)
            if chosen is None:  # a click that only picks something (the first of two): show it picked
                self._redraw()
                return
            action = self.trial.apply(chosen, self.seat)
        except IllegalAction as refused:
            self.judge(Verdict(False, refusal(refused)))
            raise  # the board shows the reason next to the click as well
        self.said.append(str(action))
        verdict = self.judge_position(self.trial)
        if verdict is None:
            self._redraw()
            self.hint(f"So far: {' then '.join(self.said)}. Your answer needs another click.")
            return
        tried_words = " then ".join(self.said)
        self.said = []
        if verdict.right:
            self._redraw()
            self.judge(replace(verdict, text=f"{tried_words}. {verdict.text}"))
            return
        self.trial = self.start.clone()
        self._redraw()
        self.judge(replace(verdict, text=f"{tried_words}. {verdict.text} The board is back at the start: try again."))

    def start_again(self) -> None:
        """The board back at the start, for a try from scratch (after a half-made answer, or the solution)."""
        self.trial, self.said = self.start.clone(), []
        self._redraw()
        self.hint("The board is back at the start.")

    def _redraw(self) -> None:
        self.grid.show(fit(self.draw(self.trial)))

    def _show_solution(self) -> None:
        self.trial, self.said = tried(self.start, self.seat, self.answer), []
        self._redraw()


class ChoiceExercise(Exercise):
    """An exercise answered by buttons: one click picks the answer, or with `many`, the chosen buttons are
    checked together by a "Check" button. `judge(chosen)` gets the chosen options, in the order given."""

    def __init__(
        self, options: Sequence[str], judge: Callable[[tuple[str, ...]], Verdict], solution: str, many: bool = False
    ) -> None:
        self.options, self.judge_choice = tuple(options), judge
        layout = w.Layout(width="auto", min_height="34px")
        if many:
            self.toggles = [w.ToggleButton(description=option, layout=layout) for option in self.options]
            check = w.Button(description="Check", button_style="primary", layout=w.Layout(min_height="34px"))
            check.add_class("cl-lesson-check")
            check.on_click(lambda _button: self.choose(self.chosen()))
            area: w.Widget = w.VBox([w.HBox(self.toggles, layout=w.Layout(flex_flow="row wrap")), check])
        else:
            self.toggles = []
            buttons = [w.Button(description=option, layout=layout) for option in self.options]
            for button, option in zip(buttons, self.options, strict=True):
                button.on_click(lambda _button, option=option: self.choose((option,)))
            area = w.HBox(buttons, layout=w.Layout(flex_flow="row wrap"))
        area.add_class("cl-lesson-choices")
        super().__init__(area, solution)

    def chosen(self) -> tuple[str, ...]:
        return tuple(option for option, toggle in zip(self.options, self.toggles, strict=True) if toggle.value)

    def choose(self, chosen: tuple[str, ...]) -> None:
        self.judge(self.judge_choice(chosen))
