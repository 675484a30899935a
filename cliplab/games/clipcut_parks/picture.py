"""ClipCut Parks at the shared table (cliplab.ui.table_app): a seat's sheet, cards and tray, what a click or
a drop on them means, and the controls the boards cannot take (crumple, score order, turning over).

Cutting is done on the sheet: the points where a cut may start are ringed; click one, and the points
where a cut from it may end are ringed instead; click one of those and the cut is made. Sections that
come free wait in the tray: drag one onto a card, or click it, turn it with R (or the Rotate button)
and click the space where the square you picked it up by should go. With turning over allowed, the
"Sections turned over" switch mirrors the tray, and drops place the sections turned over. The mapping
itself is `board.Clicks`, which the teaching notebook's live board uses too.
"""

from __future__ import annotations

import functools
import html
from typing import Any

import ipywidgets as w

from cliplab.engine import CHANCE, Action, HiddenChance, State
from cliplab.grid import Point
from cliplab.ui import Intent, Scene
from cliplab.ui.table_app import Picture, button, capital

from .board import (
    BONUS_WORDS,
    Clicks,
    card_title,
    die_text,
    section_words,
)
from .rules import ClipCutParks, Crumple, Deal, Keep, Place, Roll, Score, TearSheet, card_of, tokens_spent

STAGE_WORDS = {
    "cut": "cutting",
    "keep": "choosing a part to keep",
    "bonus": "making a bonus cut",
    "build": "building",
    "check": "choosing a card to score",
    "done": "done this round",
}


def is_deal(state: State, index: int) -> bool:
    """Whether log entry `index` deals a card (face up, or face down to a pile: hidden in a view)."""
    return 0 <= index < len(state.log) and isinstance(state.log[index][1], Deal | HiddenChance)


def spending_words(game: ClipCutParks, seat: int, place: Place) -> list[str]:
    """e.g. ["spent 1 gardener token"]: the tokens a placement cost, marked on the spaces they waived."""
    return [f"spent {n} {token} token{'s' if n > 1 else ''}" for token, n in tokens_spent(game, seat, place).items()]


class ClipCutPicture(Picture):
    """Each seat's own sheet, cards and tray."""

    own_boards = True

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.clicks = Clicks()

    @property
    def start(self) -> Point | None:
        return self.clicks.start

    def reset(self) -> None:
        self.clicks.start = None

    def scene(self, view: State, seat: int, acting: bool) -> Scene:
        assert isinstance(view, ClipCutParks)
        return self.clicks.scene(view, seat, acting)

    def click(self, view: State, seat: int, intent: Intent) -> Action | None:
        assert isinstance(view, ClipCutParks)
        return self.clicks.action(view, seat, intent)

    def doing(self, view: State, seat: int) -> str:
        assert isinstance(view, ClipCutParks)
        return f"is {STAGE_WORDS[view.stage[seat]]}"

    def controls(self, view: State, seat: int) -> tuple[str, list[w.Widget]]:
        assert isinstance(view, ClipCutParks)
        game = view
        stage = game.stage[seat]
        who = f"<b>{html.escape(self.app.who(seat))}</b>"
        if stage in ("cut", "bonus"):
            if stage == "bonus":
                task = "make a bonus cut of length 1 or 2"
            else:
                lengths = [str(n) for n in sorted(game.to_cut[seat])]
                task = (
                    f"make a {lengths[0]} cut"
                    if len(lengths) == 1
                    else f"make cuts of {', '.join(lengths[:-1])} and {lengths[-1]}"
                )
            if self.start is None:
                return f"{who}: {task}. Click a ringed point to start a cut.", []
            r, c = self.start
            return (
                f"{who}: {task}. The cut starts at point {r},{c}: click a ringed point to end it "
                "(click the start again to choose another).",
                [button("Choose another start", "cp-cancel", self._cancel_start)],
            )
        if stage == "keep":
            keep = [
                button(
                    f"Keep the part with square {min(part)[0]},{min(part)[1]} ({len(part)} squares)",
                    f"cp-keep-{min(part)[0]}-{min(part)[1]}",
                    functools.partial(self.app.do, Keep(*min(part))),
                )
                for part in game.tied[seat]
            ]
            return (
                f"{who}: the cut left parts of equal largest size. Click a square of the part that stays your "
                "sheet; the others come free.",
                keep,
            )
        if stage == "build":
            return (
                f"{who}: build the sections that came free. Drag one onto a card, or click it, press R to turn "
                "it, and click the space for the square you picked it up by.",
                self._build(game, seat),
            )
        if stage == "check":
            return f"{who}: several cards are complete. Choose which to score first.", [
                button(
                    f"Score {card_title((a.kind, a.card))} first",
                    f"cp-score-{a.kind}-{a.card}",
                    functools.partial(self.app.do, a),
                    "primary",
                )
                for a in game.legal_actions(seat)
                if isinstance(a, Score)
            ]
        return f"{who} is done this round.", []

    def _build(self, game: ClipCutParks, seat: int) -> list[w.Widget]:
        legal = set(game.legal_actions(seat))
        rows: list[w.Widget] = []
        for section in game.pending[seat]:
            fits = len(game.fits(seat, section))
            crumple = button(
                f"Crumple section {section}",
                f"cp-crumple-{section}",
                functools.partial(self.app.do, Crumple(section)),
                "warning" if not fits else "",
                "It fits nowhere: crumple it" if not fits else "A section that fits must be placed",
            )
            crumple.disabled = Crumple(section) not in legal
            where = f"{fits} way{'s' if fits != 1 else ''} to place it" if fits else "fits on no card"
            note = w.HTML(f"Section {section}: {html.escape(section_words(game, seat, section))}; {where}")
            rows.append(w.VBox([note, crumple]))
        if game.option("allow_flip"):
            flip = w.ToggleButton(value=self.clicks.flipped, description="Sections turned over")
            flip.add_class("cp-flip")
            flip.observe(lambda change: self._flip(change["new"]), names="value")
            rows.append(flip)
        return rows

    def _flip(self, value: bool) -> None:
        self.clicks.flipped = bool(value)
        self.app.refresh()

    def _cancel_start(self) -> None:
        self.clicks.start = None
        self.app.refresh()

    def seat_facts(self, view: State, seat: int) -> dict[str, str]:
        assert isinstance(view, ClipCutParks)
        game = view
        stage = "finished" if game.is_over() else STAGE_WORDS.get(game.stage[seat], game.stage[seat])
        target = f"{len(game.completed[seat])}" + ("" if game.solo else f" of {game.dealt[seat]}")
        return {
            "now": stage,
            "cards done": target,
            "crumpled": str(len(game.crumpled[seat])),
            "tokens": ", ".join(f"{n} {t}" for t, n in game.tokens[seat].items() if n) or "none",
        }

    def side(self, view: State, seat: int) -> str:
        assert isinstance(view, ClipCutParks)
        game = view
        items = []
        for ref in game.face_up[seat]:
            card = card_of(ref)
            free = len(game.free_spaces(seat, ref))
            items.append(
                f"<li>{html.escape(card_title(ref))}: {free} of {len(card.cells)} spaces free; "
                f"bonus {html.escape(BONUS_WORDS[card.bonus])}</li>"
            )
        done = ", ".join(html.escape(card_title(ref)) for ref in game.completed[seat]) or "none yet"
        return (
            f"<div class='cp-cards'><b>{html.escape(self.app.who(seat))}: cards</b>"
            f"<ul style='margin:2px 0'>{''.join(items)}</ul>"
            f"<div class='cp-completed'>Completed: {done}</div>"
            f"<div>{len(game.pile[seat])} cards in the pile</div></div>"
        )

    def entry_words(self, state: State, index: int) -> str | None:
        assert isinstance(state, ClipCutParks)
        seat, action = state.log[index]
        if is_deal(state, index):
            if is_deal(state, index + 1):
                return None  # a run of deals is one line, at its end
            dealt = 0
            while is_deal(state, index - dealt):
                dealt += 1
            return f"{dealt} cards dealt"
        if isinstance(action, Roll):
            rounds = sum(isinstance(entry, Roll) for _, entry in state.log[: index + 1])
            return f"Round {rounds}: the die shows {die_text(action.face)}"
        if isinstance(action, TearSheet):
            return capital(str(action))
        if seat == CHANCE:
            return f"Chance: {action}"
        if isinstance(action, Place):
            ref = (action.kind, action.card)
            notes = [card_of(ref).name, *spending_words(state, seat, action)]
            later = any(
                isinstance(entry, Place) and who == seat and (entry.kind, entry.card) == ref
                for who, entry in state.log[index + 1 :]
            )
            if ref in state.completed[seat] and not later:
                notes.append(f"completed it: {BONUS_WORDS[card_of(ref).bonus]}")
            return f"{action} ({'; '.join(notes)})"
        if isinstance(action, Score):
            return f"{action} ({card_of((action.kind, action.card)).name})"
        return str(action)

    def news(self, before: State, after: State, seat: int) -> str:
        assert isinstance(before, ClipCutParks) and isinstance(after, ClipCutParks)
        news = [
            f"{capital(words)} on {card_title((action.kind, action.card))}."
            for who, action in after.log[len(before.log) :]
            if who == seat and isinstance(action, Place)
            for words in spending_words(after, seat, action)
        ]
        news += [
            f"Completed {card_title(ref)}: {BONUS_WORDS[card_of(ref).bonus]}."
            for ref in after.completed[seat][len(before.completed[seat]) :]
        ]
        if after.is_over():
            news.append("The game is over.")
        elif after.round != before.round:
            news.append(f"Round {after.round}: the die shows {die_text(after.face)}.")
        return " ".join(news)

    def tag(self, view: State, seat: int) -> dict[str, Any]:
        assert isinstance(view, ClipCutParks)
        return {
            "stage": "over" if view.is_over() else view.stage[seat],
            "start": "" if self.start is None else f"{self.start[0]},{self.start[1]}",
            "round": view.round,
        }
