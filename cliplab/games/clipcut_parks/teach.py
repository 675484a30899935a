"""Helpers for the ClipCut Parks teaching notebook (notebooks/teach/clipcut_parks.ipynb).

Positions
    `new` starts a game on the standard sheet. `arrange` builds, with the rules' position builder, a game at
    a position left by earlier rounds in one seat: the cut lengths the die still asks for, earlier cuts,
    squares gone, freed sections waiting to be built, sections lying on cards (`laid`), the cards and the
    tokens; the engine's scenario tests build their positions with it too. The game begins there: it saves
    and loads, and undo goes back to that position.
Tries
    `attempt` carries out an action on a game and prints what happened, or the rule and the reason the
    engine gave for refusing it (the game is then unchanged). `verdict` does the same on a copy, silently.
Exercises
    `check_cut_frees` and `check_completes` judge an answer with the engine and print its reason for a
    wrong one; `cuts_freeing` and `ways_to_complete` find every right answer by trying the legal actions.
Pictures
    `picture` draws a player's table, optionally with a tried action marked on it; `sheet_picture`,
    `cards_picture`, `legend_picture`, `die_picture` and `tokens_picture` draw the components.
    `LiveTable` is a Grid to play a position by clicking (bots take the other seats).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Any

from IPython.display import SVG
from ipywidgets import ToggleButton, VBox

from cliplab.engine import IllegalAction, PositionError, new_game
from cliplab.ui import Board, Cell, Intent, Mark, Scene, lesson
from cliplab.ui.widget import Grid

from .board import (
    COLOUR_LOOK,
    ICON_GLYPHS,
    Clicks,
    card_board,
    describe,
    requirement_cell,
    square_cell,
    square_words,
)
from .content import COLOURS, DIE_FACES, SHEET_COLS, SHEET_ROWS, Sheet
from .rules import (
    ClipCutParks,
    Crumple,
    Cut,
    Keep,
    Place,
    Roll,
    Score,
    card_name,
    card_of,
    face_asking,
    laying,
    position,
    position_of,
    sheet_of,
)

CardRef = tuple[str, int]
Square = tuple[int, int]
Action = str | Cut | Keep | Place | Crumple | Score

__all__ = [
    "LiveTable",
    "Verdict",
    "arrange",
    "attempt",
    "cards_picture",
    "check_completes",
    "check_cut_frees",
    "completion_exercise",
    "cut_exercise",
    "cuts_freeing",
    "die_picture",
    "judge_completion",
    "judge_cut",
    "legend_picture",
    "new",
    "picture",
    "sheet_picture",
    "sheets_side_by_side",
    "tokens_picture",
    "verdict",
    "ways_to_complete",
]


# ----- positions --------------------------------------------------------------------------------------


def new(players: int = 1, seed: int = 0, **options: Any) -> ClipCutParks:
    """A game on the standard sheet (every seat cuts sheet 0), dealt and rolled: round 1's cut step."""
    game = new_game("clipcut_parks", players=players, seed=seed, sheets="standard", **options)
    assert isinstance(game, ClipCutParks)
    return game


def arrange(
    game: ClipCutParks,
    seat: int = 0,
    *,
    die: Sequence[int] = (),
    earlier: Iterable[str] = (),
    gone: Iterable[Square] = (),
    laid: Iterable[tuple[CardRef, Iterable[Square], Iterable[Square]]] = (),
    sections: Iterable[Iterable[Square]] = (),
    face_up: Sequence[CardRef] | None = None,
    pile: Sequence[CardRef] | None = None,
    completed: Sequence[CardRef] | None = None,
    crumpled: int = 0,
    tokens: Mapping[str, int] | None = None,
) -> ClipCutParks:
    """A new game at `game`'s position, with `seat`'s part as earlier rounds would have left it.

    Built by the rules' position builder (`rules.position`), so it saves, loads, and undoes back to here.

    die        cut lengths still to make this round (the die shows a face asking for them; other seats keep
               what that face asks of them)
    earlier    cuts of earlier rounds, as action text ("cut 2 from 0,3 going S"); they free nothing
    gone       squares no longer in the sheet (sections freed earlier)
    laid       (card, sheet squares, card spaces): sections lying on cards since earlier rounds, each meeting
               the card's requirements without tokens
    sections   squares of sections freed this round, waiting to be built
    face_up, pile, completed   the seat's cards; cards named here leave every other seat's hands, every pile
               and the solo discards
    crumpled   sections crumpled in earlier rounds
    tokens     tokens held (the ones not named keep their count)
    """
    if game.config.seed is None:
        raise PositionError("game", "a view hides the game's seed: arrange the game itself")
    fields = position_of(game)
    mine = fields["seats"][seat]
    named = [*(face_up or ()), *(pile or ()), *(completed or ())]
    for each in fields["seats"]:
        for name in ("face_up", "pile", "completed"):
            each[name] = [ref for ref in each[name] if ref not in named]
    fields["discarded"] = [ref for ref in fields["discarded"] if ref not in named]
    for name, cards in (("face_up", face_up), ("pile", pile), ("completed", completed)):
        if cards is not None:
            mine[name] = list(cards)
    mine["gone"] = [*mine["gone"], *gone]
    mine["cuts"] = [*mine["cuts"], *earlier]
    flips = game.option("allow_flip")
    for index, (ref, squares, spaces) in enumerate(laid):
        placed = laying(game.sheet_number[seat], ref, list(squares), list(spaces), flips)
        if placed is None:
            words = f"squares {sorted(squares)} cannot cover spaces {sorted(spaces)} of {card_name(ref)}"
            raise PositionError(f"laid[{index}]", words + " meeting its requirements")
        mine["sections"].append(list(squares))
        mine["laid"].append(str(replace(placed, section=len(mine["sections"]))))
    for squares in sections:
        mine["sections"].append(list(squares))
        mine["waiting"].append(len(mine["sections"]))
    for _ in range(crumpled):
        mine["sections"].append([])  # a crumpled section's squares are not needed
        mine["crumpled"].append(len(mine["sections"]))
    mine["tokens"].update(tokens or {})
    if die:
        fields["die"] = face_asking(die)
        if not fields["die"]:
            raise PositionError("die", f"no face of the die asks for the cuts {list(die)}")
        for each in fields["seats"]:
            each["to_cut"] = _still_asked(Roll(fields["die"]).lengths, each["to_cut"])
    mine["to_cut"] = list(die)
    options: dict[str, Any] = dict(game.config.options)
    return position(game.players, game.config.seed, **fields, **options)


def _still_asked(asked: Sequence[int], lengths: Sequence[int]) -> list[int]:
    """The lengths of a seat's cuts still to make that the new face asks for too."""
    left, kept = list(lengths), []
    for length in asked:
        if length in left:
            left.remove(length)
            kept.append(length)
    return kept


# ----- tries ------------------------------------------------------------------------------------------


@dataclass
class Verdict:
    """What the engine made of an action: done (with the game after it) or refused (with rule and reason)."""

    action: str
    ok: bool
    rule: str = ""
    reason: str = ""
    after: ClipCutParks | None = None

    def __str__(self) -> str:
        if self.ok:
            return f"done:    {self.action}"
        return f"refused: {self.action}\n         {self.rule} rule: {self.reason}"


def _text(action: Action) -> str:
    return action if isinstance(action, str) else str(action)


def _apply(game: ClipCutParks, action: Action, seat: int) -> Verdict:
    try:
        done = game.apply(action, seat)
    except IllegalAction as refused:
        return Verdict(_text(action), False, refused.rule, refused.reason)
    return Verdict(str(done), True, after=game)


def verdict(game: ClipCutParks, action: Action, seat: int = 0) -> Verdict:
    """Try an action on a copy of the game; the game itself is left alone."""
    trial = game.clone()
    assert isinstance(trial, ClipCutParks)
    return _apply(trial, action, seat)


def news(before: ClipCutParks, after: ClipCutParks, seat: int = 0) -> list[str]:
    """What changed for `seat` between two positions, in words: sections freed, cards completed, tokens."""
    lines = []
    for number in sorted(set(after.sections[seat]) - set(before.sections[seat])):
        squares = after.sections[seat][number]
        lines.append(f"section {number} came free: {_section_words(after, seat, squares)}")
    for number in sorted(set(after.crumpled[seat]) - set(before.crumpled[seat])):
        lines.append(f"section {number} was crumpled")
    for ref in after.completed[seat][len(before.completed[seat]) :]:
        lines.append(f"{card_name(ref)} ({card_of(ref).name}) is complete: bonus {_bonus_words(card_of(ref).bonus)}")
    for token, count in after.tokens[seat].items():
        change = count - before.tokens[seat][token]
        if change:
            lines.append(f"{token} tokens {'+' if change > 0 else ''}{change} (now {count})")
    if after.is_over():
        lines.append(f"the game is over: {after.ended}")
    elif after.round != before.round:
        lines.append(f"the round is over; round {after.round} rolls {'-'.join(map(str, after.to_cut[seat]))}")
    elif after.stage[seat] == "keep" and before.stage[seat] != "keep":
        sizes = " and ".join(str(len(piece)) for piece in after.tied[seat])
        lines.append(f"the largest parts tie ({sizes} squares): choose the one that stays the sheet")
    elif after.stage[seat] == "bonus" and before.stage[seat] != "bonus":
        lines.append("now make the bonus cut, 1 or 2 long")
    return lines


def _bonus_words(bonus: str) -> str:
    return "a 1 or 2 cut at once" if bonus == "cut" else f"a {bonus} token"


def _section_words(game: ClipCutParks, seat: int, squares: Sequence[Square]) -> str:
    sheet = sheet_of(max(game.sheet_number[seat], 0))
    names = ", ".join(f"{r},{c} {sheet.square((r, c)).code}" for r, c in squares)
    return f"{len(squares)} square{'s' if len(squares) != 1 else ''} ({names})"


def attempt(game: ClipCutParks, action: Action, seat: int = 0) -> None:
    """Carry out an action on the game and print the outcome: what it did, or why the engine refused it."""
    before = game.clone()
    assert isinstance(before, ClipCutParks)
    result = _apply(game, action, seat)
    print(result)
    if result.ok:
        for line in news(before, game, seat):
            print(f"         {line}")


# ----- exercises ----------------------------------------------------------------------------------------


def _freed(before: ClipCutParks, after: ClipCutParks, seat: int) -> list[int]:
    return [len(after.sections[seat][n]) for n in sorted(set(after.sections[seat]) - set(before.sections[seat]))]


def judge_cut(game: ClipCutParks, answer: Action, size: int, seat: int = 0) -> tuple[bool, str]:
    """Whether `answer` is a legal cut now that frees a section of exactly `size` squares, and why (in words)."""
    result = verdict(game, answer, seat)
    if not result.ok:
        return False, f"Not allowed: {result.action}\n  the engine says ({result.rule}): {result.reason}"
    assert result.after is not None
    if not isinstance(game.parse(result.action), Cut):
        return False, f"The engine allows {result.action}, but it is not a cut."
    sizes = _freed(game, result.after, seat)
    if size in sizes:
        return True, f"Right! {result.action} frees a section of {size} squares."
    freed = " and ".join(f"{n} square{'s' if n != 1 else ''}" for n in sizes) if sizes else "nothing"
    return False, f"The engine allows {result.action}, but it frees {freed}, not a section of {size}."


def check_cut_frees(game: ClipCutParks, answer: Action, size: int, seat: int = 0) -> None:
    """Print whether `answer` is a legal cut that frees exactly `size` squares, or the engine's reason it is not."""
    print(judge_cut(game, answer, size, seat)[1])


def cuts_freeing(game: ClipCutParks, size: int, seat: int = 0) -> list[str]:
    """Every legal cut now that frees a section of exactly `size` squares (the engine tries each one)."""
    right = []
    for action in game.legal_actions(seat):
        if not isinstance(action, Cut):
            continue
        result = verdict(game, action, seat)
        assert result.after is not None
        if size in _freed(game, result.after, seat):
            right.append(str(action))
    return right


def judge_completion(
    game: ClipCutParks, answer: Action | Sequence[Action], cards: Sequence[CardRef], seat: int = 0
) -> tuple[bool, str]:
    """Whether the actions of `answer`, in order, complete every one of `cards`, and why (in words)."""
    steps = [answer] if isinstance(answer, str | Cut | Keep | Place | Crumple | Score) else list(answer)
    trial = game.clone()
    assert isinstance(trial, ClipCutParks)
    for step in steps:
        result = _apply(trial, step, seat)
        if not result.ok:
            return False, f"Not allowed: {result.action}\n  the engine says ({result.rule}): {result.reason}"
    missing = [ref for ref in cards if ref not in trial.completed[seat]]
    if missing:
        names = " and ".join(f"{card_name(ref)} ({card_of(ref).name})" for ref in missing)
        left = sum(len(trial.free_spaces(seat, ref)) for ref in missing if ref in trial.face_up[seat])
        return False, f"The engine allows every step, but {names} is not complete ({left} space(s) still free)."
    names = " and ".join(f"{card_name(ref)} ({card_of(ref).name})" for ref in cards)
    return True, f"Right! {names} {'is' if len(cards) == 1 else 'are'} complete."


def check_completes(
    game: ClipCutParks, answer: Action | Sequence[Action], cards: Sequence[CardRef], seat: int = 0
) -> None:
    """Print whether the actions of `answer` complete every one of `cards`, or the engine's reason they do not."""
    print(judge_completion(game, answer, cards, seat)[1])


def ways_to_complete(game: ClipCutParks, cards: Sequence[CardRef], seat: int = 0, depth: int = 4) -> list[list[str]]:
    """Every sequence of at most `depth` actions of `seat`, within this round, that completes all `cards`.

    A search over the legal actions: a line stops when the cards are complete, when the round ends, or
    when a cut frees nothing while no section waits (the round can then bring nothing more).
    """
    found: list[list[str]] = []

    def search(state: ClipCutParks, line: list[str]) -> None:
        if all(ref in state.completed[seat] for ref in cards):
            found.append(line)
            return
        if len(line) == depth or seat not in state.to_move() or state.round != game.round:
            return
        for action in state.legal_actions(seat):
            after = state.clone()
            assert isinstance(after, ClipCutParks)
            after.apply(action, seat)
            barren = isinstance(action, Cut) and not _freed(state, after, seat) and not after.pending[seat]
            if barren and (state.stage[seat] == "bonus" or not after.to_cut[seat]):
                continue  # a cut that frees nothing and leaves nothing to cut ends this line
            search(after, [*line, str(action)])

    search(game, [])
    return found


# ----- pictures ----------------------------------------------------------------------------------------


def _marks_for(game: ClipCutParks, seat: int, action: Action, style: str) -> dict[str, tuple[Mark, ...]]:
    """Marks showing where a (tried) cut runs, or where a (tried) placement would put its squares."""
    parsed = game.parse(action) if isinstance(action, str) else action
    if isinstance(parsed, Cut):
        points = [p for p in parsed.points if 0 <= p[0] <= SHEET_ROWS and 0 <= p[1] <= SHEET_COLS]
        return {"sheet": tuple(Mark("segment", p, q, style) for p, q in pairwise(points))}  # type: ignore[arg-type]
    if isinstance(parsed, Place) and parsed.section in game.sections[seat]:
        card = card_of((parsed.kind, parsed.card))
        spaces = [space for _, space in game.mapping_of(seat, parsed)]
        inside = [s for s in spaces if 0 <= s[0] < card.rows and 0 <= s[1] < card.cols]
        return {f"{parsed.kind}-{parsed.card}": tuple(Mark("cell", s, style=style) for s in inside)}  # type: ignore[arg-type]
    if isinstance(parsed, Keep):
        return {"sheet": (Mark("cell", (parsed.row, parsed.col), style=style),)}  # type: ignore[arg-type]
    return {}


def picture(
    game: ClipCutParks,
    seat: int = 0,
    *,
    tried: Action | Sequence[Action] | None = None,
    style: str = "ghost",
    marks: Mapping[str, Sequence[Mark]] | None = None,
    boards: Sequence[str] | str | None = None,
    status: str | None = None,
    zoom: float = 1.3,
) -> SVG:
    """A player's table as a static picture (it shows on GitHub too).

    tried   an action, or a list of them, to mark: a cut as a line on the sheet, a placement as boxes on the
            card spaces its squares would cover (style "ghost" blue, "target" dashed green, "last" purple)
    boards  only these boards ("sheet", "park-7", ...), in that order; "cards" for all the cards
    """
    extra: dict[str, tuple[Mark, ...]] = {key: tuple(value) for key, value in (marks or {}).items()}
    actions: list[Action] = []
    if isinstance(tried, str | Cut | Keep | Place | Crumple | Score):
        actions.append(tried)
    elif tried is not None:
        actions.extend(tried)
    for action in actions:
        for key, value in _marks_for(game, seat, action, style).items():
            extra[key] = extra.get(key, ()) + value
    scene = describe(game, seat, marks=extra, zoom=zoom)
    if boards == "cards":
        scene = replace(scene, boards=tuple(board for board in scene.boards if board.id != "sheet"))
    elif boards is not None:
        by_id = {board.id: board for board in scene.boards}
        scene = replace(scene, boards=tuple(by_id[key] for key in boards))
    if status is not None:
        scene = replace(scene, status=status)
    return lesson.picture(scene)


def sheets_side_by_side(*games: tuple[str, ClipCutParks], seat: int = 0, status: str = "", zoom: float = 1.1) -> SVG:
    """The sheets of several games (each with a label) in one picture, e.g. the outcomes of a choice."""
    boards = []
    for k, (label, game) in enumerate(games):
        sheet = describe(game, seat).boards[0]
        boards.append(replace(sheet, id=f"sheet{k}", label=label, clickable=(), marks=()))
    return lesson.picture(Scene(tuple(boards), status=status, zoom=zoom, wrap=22))


def _sheet_board(sheet: Sheet, label: str, board_id: str) -> Board:
    cells = tuple(
        square_cell((r, c), sheet.square((r, c)), square_words(sheet.square((r, c))))
        for r in range(SHEET_ROWS)
        for c in range(SHEET_COLS)
    )
    return Board(board_id, label, SHEET_ROWS, SHEET_COLS, cells)


def sheet_picture(*numbers: int, status: str = "", zoom: float = 1.1) -> SVG:
    """Park sheets side by side: 0 is the standard sheet, 1-100 the pad's sheets."""
    boards = tuple(
        _sheet_board(sheet_of(n), "The standard sheet" if n == 0 else f"Pad sheet {n}", f"sheet{n}") for n in numbers
    )
    return lesson.picture(Scene(boards, status=status, zoom=zoom, wrap=22))


_BLANK: ClipCutParks | None = None


def _blank_game() -> ClipCutParks:
    global _BLANK
    if _BLANK is None:
        _BLANK = new(1, 0)
    return _BLANK


def cards_picture(*refs: CardRef, status: str = "", zoom: float = 1.2, wrap: int = 26) -> SVG:
    """Park cards (("park", n) or ("grand", n)) as printed: each empty space shows what it asks for."""
    game = _blank_game()
    boards = []
    for ref in refs:
        board = card_board(game, 0, ref)
        boards.append(replace(board, label=f"{board.label} ({_bonus_short(card_of(ref).bonus)})"))
    return lesson.picture(Scene(tuple(boards), status=status, zoom=zoom, wrap=wrap))


def _bonus_short(bonus: str) -> str:
    return "bonus: 1 or 2 cut" if bonus == "cut" else f"bonus: {bonus} token"


def legend_picture(zoom: float = 1.6) -> SVG:
    """What a sheet square can be, and what an empty card space can ask for, in the data files' code order."""
    squares = [square_cell((0, k), _square(colour, ""), COLOUR_LOOK[colour][2]) for k, colour in enumerate(COLOURS)]
    squares += [
        square_cell((0, len(COLOURS) + k), _square("water", icon), f"a water square with a {icon} icon")
        for k, icon in enumerate(ICON_GLYPHS)
    ]
    spaces = [requirement_cell((0, k), wanted) for k, wanted in enumerate((*COLOURS, *ICON_GLYPHS, "blank"))]
    boards = (
        Board("legend-squares", "Sheet squares: T W G P, w r", 1, len(squares), tuple(squares)),
        Board("legend-spaces", "Card spaces: T W G P, w r, _", 1, len(spaces), tuple(spaces)),
    )
    return lesson.picture(Scene(boards, zoom=zoom, wrap=40, board_gap=1.0))


def _square(colour: str, icon: str) -> Any:
    from .content import Square as SheetSquare

    return SheetSquare(colour, icon)


def die_picture(zoom: float = 1.2) -> SVG:
    """The six die faces, each as the cuts it asks for (the number in a box is a cut's length)."""
    boards = []
    for face, lengths in enumerate(DIE_FACES, start=1):
        cells = tuple(
            Cell((0, k), fill="paper", glyph="", text=str(n), label=f"a {n} cut") for k, n in enumerate(lengths)
        )
        boards.append(Board(f"face{face}", f"face {face}", 1, len(lengths), cells))
    return lesson.picture(Scene(tuple(boards), zoom=zoom, wrap=40, board_gap=1.0))


TOKEN_LOOK = {
    "wildlife": ("paper", "paw", "waives one wildlife requirement"),
    "recycling": ("paper", "recycling", "waives one recycling requirement"),
    "gardener": ("yellow", "sun", "waives one colour requirement"),
}


def tokens_picture(zoom: float = 1.2) -> SVG:
    """The three kinds of token (the wildlife and recycling tokens are the two sides of one token)."""
    boards = tuple(
        Board(f"tok-{name}", f"{name} token", 1, 1, (Cell((0, 0), fill=fill, glyph=glyph, label=f"{name}: {does}"),))
        for name, (fill, glyph, does) in TOKEN_LOOK.items()
    )
    return lesson.picture(Scene(boards, zoom=zoom, wrap=40, board_gap=1.4))


# ----- a live table --------------------------------------------------------------------------------------


class LiveTable:
    """A position to play by clicking: you are `seat`, bots (name -> factory from bots.BOTS) the others.

    A click or a drop means what it means on the dashboard (`board.Clicks`): cutting, click a ringed
    point to start a cut, then a ringed point to end it; a tie of largest parts, click a square of the
    part that stays; building, drag a section onto a card (R turns it; where sections may be turned over,
    the switch above the board mirrors the tray). A section that fits nowhere is crumpled for you, and
    with several cards complete the token bonuses are taken first. Every refusal shows the engine's reason
    on the board.
    """

    def __init__(self, game: ClipCutParks, seat: int = 0, bots: Mapping[int, Any] | None = None) -> None:
        self.game = game
        self.seat = seat
        self.clicks = Clicks()
        if bots is None:
            from .bots import PlanningBot

            bots = {other: PlanningBot(other) for other in range(game.players) if other != seat}
        self.bots = dict(bots)
        self.grid = Grid()
        self.grid.on("any", self.click)
        self.flip = ToggleButton(value=False, description="Sections turned over")
        self.flip.observe(lambda change: self.turn_over(change["new"]), names="value")
        said = self._carry_on()
        self.draw(said)

    @property
    def start(self) -> tuple[int, int] | None:
        """The chosen start of a cut, if any."""
        return self.clicks.start

    def turn_over(self, flipped: bool) -> None:
        """Show the tray's sections turned over (or back); drops then place them so."""
        self.clicks.flipped = bool(flipped)
        self.draw()

    # what the reader sees
    def draw(self, said: Sequence[str] = ()) -> None:
        game, seat = self.game, self.seat
        scene = self.clicks.scene(game, seat, acting=seat in game.to_move())
        if game.is_over():
            outcome = game.outcome()
            scene = replace(scene, status=f"Game over: {outcome}")
        self.grid.show(lesson.fit(scene))
        if said:
            self.grid.say("; ".join(said[-6:]))

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        shown = VBox([self.flip, self.grid.widget]) if self.game.option("allow_flip") else self.grid.widget
        bundle = shown._repr_mimebundle_(**kwargs)
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        return {**data, "text/plain": "A live board: run the notebook to click on it."}, metadata

    # what a click means
    def click(self, intent: Intent) -> None:
        game, seat = self.game, self.seat
        if game.is_over():
            raise IllegalAction("game over", intent.kind, f"the game is over: {game.outcome()}")
        if seat not in game.to_move():
            raise IllegalAction("round", intent.kind, "nothing to do for you now")
        action = self.clicks.action(game, seat, intent)
        if action is None:
            self.draw()
            return
        before = game.clone()
        assert isinstance(before, ClipCutParks)
        done = game.apply(action, seat)
        self.clicks.start = None
        said = [f"you: {done}", *news(before, game, seat), *self._carry_on()]
        self.draw(said)

    def _carry_on(self) -> list[str]:
        """Steps that need no thought (a forced crumple, the order of token bonuses) and the bots' moves."""
        game, said = self.game, []
        for _ in range(10_000):
            if game.is_over():
                break
            movers = game.to_move()
            bots = [s for s in movers if s != self.seat and s in self.bots]
            if bots:
                for s in bots:
                    action = game.apply(self.bots[s].choose(game.view(s), s), s)
                    said.append(f"player {s}: {action}")
                continue
            if self.seat not in movers:
                break
            stage = game.stage[self.seat]
            legal = game.legal_actions(self.seat)
            forced: Action | None = None
            if stage == "build":
                for section in game.pending[self.seat]:
                    if not game.fits(self.seat, section):
                        forced = Crumple(section)
                        break
            elif stage == "check":
                scores = [a for a in legal if isinstance(a, Score)]
                scores.sort(key=lambda a: (card_of((a.kind, a.card)).bonus == "cut", a.card))
                forced = scores[0] if scores else None
            if forced is None:
                break
            game.apply(forced, self.seat)
            said.append(f"you: {forced} (nothing else was possible)" if stage == "build" else f"you: {forced}")
        return said


# ----- exercises on a live board -------------------------------------------------------------------------


def _board_exercise(
    game: ClipCutParks, judge: Any, solution: Sequence[str], explanation: str, seat: int = 0
) -> lesson.BoardExercise:
    """An exercise answered on `seat`'s table by clicks and drops, as on the dashboard (`board.Clicks`)."""
    clicks = Clicks()

    def draw(state: Any) -> Scene:
        return clicks.scene(state, seat, acting=seat in state.to_move())

    def to_action(state: Any, intent: Intent) -> Any:
        if seat not in state.to_move():
            raise IllegalAction("round", intent.kind, "this answer is finished: press Start again to try another")
        return clicks.action(state, seat, intent)

    return lesson.BoardExercise(game, seat, draw, to_action, judge, solution, explanation)


def cut_exercise(game: ClipCutParks, size: int, explanation: str = "", seat: int = 0) -> lesson.BoardExercise:
    """Make a legal cut that frees a section of exactly `size` squares: click its start, then its end."""

    def judge(trial: Any) -> lesson.Verdict:
        sizes = _freed(game, trial, seat)
        if size in sizes:
            return lesson.Verdict(True, f"Right: it frees a section of {size} squares.")
        freed = " and ".join(f"{n} square{'s' if n != 1 else ''}" for n in sizes) if sizes else "nothing"
        return lesson.Verdict(False, f"The engine allows it, but it frees {freed}, not a section of {size}.")

    right = cuts_freeing(game, size, seat)
    found = f"The engine tried every legal cut and finds {len(right)} right answer(s): {', '.join(right)}."
    return _board_exercise(game, judge, right[:1], f"{found} {explanation}".strip(), seat)


def completion_exercise(
    game: ClipCutParks, cards: Sequence[CardRef], explanation: str = "", seat: int = 0, depth: int = 4
) -> lesson.BoardExercise:
    """Complete every one of `cards` this round, in at most `depth` actions: cut by clicking a start and an
    end, build by dragging a section from the tray onto a card (R turns it)."""
    names = " and ".join(f"{card_name(ref)} ({card_of(ref).name})" for ref in cards)

    def judge(trial: Any) -> lesson.Verdict | None:
        if all(ref in trial.completed[seat] for ref in cards):
            return lesson.Verdict(True, f"Right: {names} {'is' if len(cards) == 1 else 'are'} complete.")
        steps = len(trial.log) - len(game.log)
        if seat in trial.to_move() and trial.round == game.round and steps < depth:
            return None
        return lesson.Verdict(False, f"The engine allows every step, but {names} is not complete this round.")

    ways = ways_to_complete(game, cards, seat, depth)
    found = f"The engine searched every line of play this round and finds {len(ways)} way(s)."
    return _board_exercise(game, judge, ways[0] if ways else [], f"{found} {explanation}".strip(), seat)
