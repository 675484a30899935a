"""ClipCut Parks positions for scenario and bot tests.

A game is started through the API on the standard sheet (every seat cuts sheet 0), so setup and the first
roll are real. `arrange` then writes one seat's position into the state: the lengths the die asks for, the
cuts and holes left by earlier rounds, sections that came free and wait to be built, the seat's cards and
tokens. `settle` lets the engine carry every seat on from there, as it would after a roll.

`use_content` swaps in a test sheet and test cards (through pytest's monkeypatch), so a scenario can show
the very cards it needs as pictures; card slots it leaves out hold plain blank fillers.

Arranged positions live in the state only: undo, save and replay rebuild a game from its log, which knows
nothing of them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise

import pytest

from cliplab.engine import IllegalAction, new_game
from cliplab.games.clipcut_parks import ClipCutParks, Cut, rules
from cliplab.games.clipcut_parks.content import SPACE_CODES, ParkCard, sheet_from_text
from cliplab.grid import edge_between, parts

Cell = tuple[int, int]
CardRef = tuple[str, int]

# The test sheet: every row one colour, a wildlife icon in column 2 and a recycling icon in column 5.
ROW_COLOURS = ("water", "greenery", "pavilion", "play", "water", "greenery", "pavilion")
WILDLIFE_COL, RECYCLING_COL = 2, 5
TEST_SHEET = """
W  W  Ww W  W  Wr W  W  W
G  G  Gw G  G  Gr G  G  G
T  T  Tw T  T  Tr T  T  T
P  P  Pw P  P  Pr P  P  P
W  W  Ww W  W  Wr W  W  W
G  G  Gw G  G  Gr G  G  G
T  T  Tw T  T  Tr T  T  T
"""

PARK_FILLER = "_ _ _ _"
GRAND_FILLER = """
_ _ _ _
_ _ _ _
"""


def card(spaces: str, bonus: str = "wildlife", walkways: Iterable[str] = (), name: str = "Test Park") -> ParkCard:
    """A card from a picture in the data-file format (kind and number are set by `use_content`).

    Unlike the data files, a test card may have any number of spaces, so a scenario can use a tiny one.
    """
    found: dict[Cell, str] = {}
    for r, line in enumerate(line for line in spaces.strip("\n").splitlines() if line.strip()):
        for c, code in enumerate(line.split()):
            if code != ".":
                found[(r, c)] = SPACE_CODES[code]
    paths = tuple(tuple(sorted(_cell(word) for word in path.split())) for path in walkways)
    return ParkCard("park", 1, name, tuple(sorted(found.items())), paths, bonus)


def _cell(text: str) -> Cell:
    row, col = text.split(",")
    return int(row), int(col)


def _deck(kind: str, size: int, filler: str, chosen: Mapping[int, ParkCard]) -> tuple[ParkCard, ...]:
    deck = []
    for number in range(1, size + 1):
        base = chosen.get(number) or card(filler, bonus="gardener", name=f"Filler {number}")
        deck.append(dataclasses.replace(base, kind=kind, number=number))
    return tuple(deck)


def use_content(
    monkeypatch: pytest.MonkeyPatch,
    park: Mapping[int, ParkCard] | None = None,
    grand: Mapping[int, ParkCard] | None = None,
) -> None:
    """Play this test with the test sheet as sheet 0 and these cards as park / grand park `number`."""
    parks = _deck("park", 30, PARK_FILLER, park or {})
    grands = _deck("grand", 12, GRAND_FILLER, grand or {})
    sheet = sheet_from_text(TEST_SHEET)
    monkeypatch.setattr(rules, "park_cards", lambda: parks)
    monkeypatch.setattr(rules, "grand_park_cards", lambda: grands)
    monkeypatch.setattr(rules, "standard_sheet", lambda: sheet)


def new(players: int = 1, seed: int = 0, **options: object) -> ClipCutParks:
    """A game on the standard sheet, dealt and rolled: every seat is in round 1's cut step."""
    game = new_game("clipcut_parks", players=players, seed=seed, sheets="standard", **options)
    assert isinstance(game, ClipCutParks)
    return game


def cut_lines(text: str) -> tuple[set[tuple[Cell, Cell]], tuple[tuple[int, int], tuple[int, int]]]:
    """The segments a cut (given as action text) runs along, and its two end points."""
    cut = ClipCutParks.CODEC.parse(text)
    assert isinstance(cut, Cut), f"{text!r} is not a cut"
    points = cut.points
    return {edge_between(p, q) for p, q in pairwise(points)}, (points[0], points[-1])


def arrange(
    game: ClipCutParks,
    seat: int = 0,
    *,
    die: Sequence[int] = (),
    earlier: Iterable[str] = (),
    gone: Iterable[Cell] = (),
    sections: Iterable[Iterable[Cell]] = (),
    face_up: Sequence[CardRef] | None = None,
    pile: Sequence[CardRef] | None = None,
    completed: Sequence[CardRef] | None = None,
    crumpled: int | None = None,
    tokens: Mapping[str, int] | None = None,
    stage: str | None = None,
) -> ClipCutParks:
    """Write a position for `seat` into the game.

    die       the cut lengths still to make this round (the seat is then in the cut step)
    earlier   cuts made in earlier rounds, as action text ("cut 2 from 0,3 going S"); they may not free
              a section (name its squares in `gone` instead). No cut counts as made this round.
    gone      squares no longer in the sheet (sections freed in earlier rounds)
    sections  squares of sections that came free this round and wait to be placed (the build step)
    crumpled  how many sections were crumpled in earlier rounds (stand-ins with no squares)
    stage     the seat's step, if not the one the arguments above imply (cut, build, else check)
    """
    game.sheet[seat] = game.sheet[seat] - frozenset(gone)
    for text in earlier:
        segments, ends = cut_lines(text)
        game.cuts[seat] = game.cuts[seat] | segments
        game.cut_ends[seat] = game.cut_ends[seat] | set(ends)
    assert len(parts(game.sheet[seat], game.cuts[seat])) == 1, "earlier cuts may not free a section"
    game.round_cuts[seat] = []
    for squares in sections:
        piece = frozenset(squares)
        assert piece <= game.sheet[seat], f"section squares {sorted(piece)} are not in the sheet"
        number = len(game.sections[seat]) + 1
        game.sections[seat][number] = tuple(sorted(piece))
        game.pending[seat].append(number)
        game.sheet[seat] = game.sheet[seat] - piece
    if crumpled is not None:
        for _ in range(crumpled):
            number = len(game.sections[seat]) + 1
            game.sections[seat][number] = ()  # a stand-in: nothing reads a crumpled section's squares
            game.crumpled[seat].append(number)
    if face_up is not None:
        game.face_up[seat] = list(face_up)
    if pile is not None:
        game.pile[seat] = list(pile)
    if completed is not None:
        game.completed[seat] = list(completed)
    if tokens is not None:
        game.tokens[seat].update(tokens)
    game.to_cut[seat] = list(die)
    game.stage[seat] = stage or ("cut" if die else "build" if game.pending[seat] else "check")
    return game


def cover(game: ClipCutParks, seat: int, ref: CardRef, spaces: Iterable[Cell]) -> int:
    """Cover `spaces` of a card with one section laid in an earlier round; returns the section's number.

    The section's squares stand for sheet squares cut long ago: they are the card spaces' own cells, and
    the sheet is left as it is.
    """
    cells = tuple(sorted(spaces))
    number = len(game.sections[seat]) + 1
    game.sections[seat][number] = cells
    on_card = game.covered[seat].setdefault(ref, {})
    for space in cells:
        assert space not in on_card, f"space {space} of {ref} is covered already"
        on_card[space] = (number, space)
    return number


def settle(game: ClipCutParks) -> ClipCutParks:
    """Carry every seat on through the steps that need no decision, end the round if all are done, and let
    chance act (the next roll): what the engine does after a roll."""
    for seat in range(game.players):
        game._advance(seat)
    game._maybe_end_round()
    game._settle()
    return game


def position(
    players: int = 1, seed: int = 0, options: Mapping[str, object] | None = None, **seat0: object
) -> ClipCutParks:
    """A new game with seat 0 arranged (see `arrange`) and settled; other seats keep their dealt round 1."""
    game = new(players, seed, **(options or {}))
    arrange(game, 0, **seat0)  # type: ignore[arg-type]
    return settle(game)


def play(game: ClipCutParks, *actions: str, seat: int = 0) -> ClipCutParks:
    """Apply actions (as text) for one seat through the checked path."""
    for action in actions:
        game.apply(action, seat)
    return game


def refused(game: ClipCutParks, action: str, seat: int = 0, *, rule: str, words: Iterable[str] = ()) -> str:
    """`action` raises IllegalAction under `rule`, its reason holding each of `words`, and the game is left
    exactly as it was (fingerprint and equality); returns the reason."""
    fingerprint, before = game.fingerprint(), game.clone()
    with pytest.raises(IllegalAction) as caught:
        game.apply(action, seat)
    error = caught.value
    assert error.rule == rule, f"rule {error.rule!r}: {error.reason}"
    for word in words:
        assert word in error.reason, f"{word!r} not in the reason {error.reason!r}"
    assert game.fingerprint() == fingerprint
    assert game == before
    return error.reason


def legal(game: ClipCutParks, seat: int = 0) -> list[str]:
    return [str(action) for action in game.legal_actions(seat)]
