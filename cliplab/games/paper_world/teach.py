"""Helpers for the Paper World teaching notebook (notebooks/teach/paper_world.ipynb).

Cards
    `CardNames` turns short codes into card numbers of the 2-player deck: a colour letter (y yellow, b blue,
    g green, k black), a value, then `s` for a card with the scissors logo; each code gives an unused card.
Pictures
    `show` draws a game sized to the screen; `hand` lists a hand in words.
Live boards
    `Table` is the dashboard's picture to play by clicks and buttons; heuristic bots take the other seats.
Exercises
    `take_exercise` asks for the take that brings most cards within the hand limit (answered with buttons);
    `objective_exercise` asks for a placement that meets an objective (answered by clicking a card in the
    hand, then a spot of the landscape). The engine judges both; their solutions wait behind "Show me".
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w
from IPython.display import display

from cliplab.engine import IllegalAction, State
from cliplab.ui import Intent, Scene
from cliplab.ui.lesson import BoardExercise, ChoiceExercise, Verdict, fit, live, picture, refusal, tried
from cliplab.ui.widget import Grid

from .bots import PaperWorldBot
from .content import deck, objectives
from .picture import PaperWorldPicture
from .rules import HAND_LIMIT, EndTurn, PaperWorld, PlaceCard, TakeColour, TakeValue, card

COLOURS = {"y": "yellow", "b": "blue", "g": "green", "k": "black"}


class CardNames:
    """Card numbers by code ('y3', 'k2s'), each an unused card of the 2-player deck until `clear`."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def clear(self) -> None:
        """Every card is free again (for a new position)."""
        self.used.clear()

    def __call__(self, code: str) -> int:
        colour, value, marked = COLOURS[code[0]], int(code[1]), code.endswith("s")
        for paper in deck().cards:
            if (paper.colour, paper.value, paper.scissors, paper.start, paper.players) == (
                colour, value, marked, False, 2,
            ) and paper.number not in self.used:  # fmt: skip
                self.used.add(paper.number)
                return paper.number
        raise LookupError(f"no unused card {code!r} is left in the 2-player deck")

    def many(self, *codes: str) -> list[int]:
        return [self(code) for code in codes]


def show(game: PaperWorld, status: str | None = None) -> None:
    """The table as a picture sized to the screen (with its own status line, if given)."""
    scene = PaperWorldPicture(_Seats(0)).scene(game, 0, acting=False)
    display(picture(scene if status is None else Scene(scene.boards, title=scene.title, status=status)))


def hand(game: PaperWorld, seat: int = 0) -> str:
    return ", ".join(str(card(number)) for number in game.hands[seat]) or "empty"


class _Seats:
    """Names the seats for the picture's words: "You" for the person's seat."""

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def who(self, seat: int) -> str:
        return "You" if seat == self.seat else f"Player {seat}"


class Table(_Seats):
    """A live board: you play `seat` by clicks and buttons, heuristic bots the other seats."""

    def __init__(self, game: PaperWorld, seat: int = 0) -> None:
        super().__init__(seat)
        self.game = game
        self.bots = {s: PaperWorldBot(s) for s in range(game.players) if s != seat}
        self.picture = PaperWorldPicture(self)
        self.grid = Grid()
        self.grid.on("cell", self.clicked)
        self.line, self.buttons = w.HTML(), w.HBox()
        self.box = w.VBox([self.line, self.buttons, self.grid.widget])
        self.news = self.bots_play()
        self.refresh()

    def do(self, action: Any) -> None:
        try:
            self.game.apply(action, self.seat)
            self.news = self.bots_play()
        except IllegalAction as refused:
            self.news = refused.reason
        self.picture.reset()
        self.refresh()

    def refresh(self) -> None:
        acting = not self.game.is_over() and self.game.current_player() == self.seat
        view = self.game.view(self.seat)
        self.grid.show(fit(self.picture.scene(view, self.seat, acting)))
        status, widgets = self.picture.controls(view, self.seat) if acting else (str(self.game.outcome()), [])
        self.line.value = status + (f"<br><i>{self.news}</i>" if self.news else "")
        self.buttons.children = widgets

    def clicked(self, intent: Intent) -> None:
        action = self.picture.click(self.game.view(self.seat), self.seat, intent)
        if action is None:
            self.refresh()
        else:
            self.do(action)

    def bots_play(self) -> str:
        said = []
        while not self.game.is_over() and self.game.current_player() != self.seat:
            seat = self.game.current_player()
            action = self.bots[seat].choose(self.game.view(seat), seat)
            self.game.apply(action, seat)
            said.append(f"player {seat}: {self.picture.entry_words(self.game, len(self.game.log) - 1)}")
        return "; ".join(said[-6:])

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return live(self.box)._repr_mimebundle_(**kwargs)


def take_exercise(game: PaperWorld) -> ChoiceExercise:
    """Which take brings the most cards without going over the hand limit? A button for every colour and
    value; the engine says what each take brings, and refuses one that nothing on top matches."""
    seat = game.current_player()
    held = len(game.hands[seat])
    brought = {str(take): len(game.taken_by(take)) for take in game.takes() if isinstance(take, TakeColour | TakeValue)}
    within = {text: count for text, count in brought.items() if held + count <= HAND_LIMIT}
    most = max(within.values())
    offered = [f"take colour {colour}" for colour in COLOURS.values()] + [f"take value {v}" for v in range(1, 6)]

    def judge(chosen: tuple[str, ...]) -> Verdict:
        (text,) = chosen
        try:
            tried(game, seat, [text])
        except IllegalAction as refused:
            return Verdict(False, f"{text}: {refusal(refused)}")
        brings = brought[str(game.parse(text))]
        if text not in within:
            return Verdict(
                False, f"{text} brings {brings} cards: {held + brings} in hand, over the limit of {HAND_LIMIT}."
            )
        if brings < most:
            return Verdict(False, f"{text} brings {brings} and keeps to {HAND_LIMIT}, but another take brings more.")
        return Verdict(True, f"Right: {text} brings {brings} cards, the most that keeps to {HAND_LIMIT}.")

    right = [text for text, count in within.items() if count == most]
    counts = "; ".join(f"{text}: {count}" for text, count in within.items())
    solution = f"{' or '.join(right)}. The takes that keep to {HAND_LIMIT}, and what they bring: {counts}."
    return ChoiceExercise(offered, judge, solution)


def objective_exercise(game: PaperWorld, objective: int) -> BoardExercise:
    """Place one card so that the turn ends meeting `objective` (a number of one in play): click a card in
    the hand, then a spot of your landscape. The engine plays the placement, ends the turn and says whether
    its token was taken."""
    seat = game.current_player()
    slot = game.objectives.index(objective)
    goal = next(o.name for o in objectives() if o.number == objective)
    pictures = PaperWorldPicture(_Seats(seat))

    def draw(position: State) -> Scene:
        acting = not position.is_over() and position.current_player() == seat
        return pictures.scene(position, seat, acting)

    def to_action(position: State, intent: Intent) -> Any:
        return pictures.click(position, seat, intent)

    def judge(trial: State) -> Verdict | None:
        try:
            ended = tried(trial, seat, [EndTurn()])
        except IllegalAction:
            return None  # the turn asks for more first (a card to pay for a skip)
        assert isinstance(ended, PaperWorld)
        token = ended.claims[seat][slot]
        if token:
            return Verdict(True, f"Right: the turn ends with the token {token} for {goal}.")
        return Verdict(False, f"No token: the tops make no {goal}.")

    def meets(action: PlaceCard) -> bool:
        verdict = judge(tried(game, seat, [action]))
        return verdict is not None and verdict.right

    right = [action for action in game.legal_actions(seat) if isinstance(action, PlaceCard) and meets(action)]
    named = "; ".join(f"{card(a.card)} at {a.row},{a.col}" for a in right)
    solution = [str(action) for action in right[:1]]
    explanation = f"The engine tried every placement of one card: these meet it: {named}."
    return BoardExercise(game, seat, draw, to_action, judge, solution, explanation)
