"""ClipCut Parks positions for scenario and bot tests.

A game is started through the API on the standard sheet (every seat cuts sheet 0), so setup and the first
roll are real. `arrange` (the teaching helpers' own, built on the rules' position builder) then gives a game
that begins at one seat's position: the lengths the die asks for, the cuts and holes left by earlier rounds,
sections that came free and wait to be built, sections lying on cards, the seat's cards and tokens. The
engine carries every seat on from there, as it would after a roll; the game saves, loads and undoes back to
that position like any other.

`use_content` swaps in a test sheet and test cards (through pytest's monkeypatch), so a scenario can show
the very cards it needs as pictures; card slots it leaves out hold plain blank fillers.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from cliplab.engine import IllegalAction
from cliplab.games.clipcut_parks import ClipCutParks, rules
from cliplab.games.clipcut_parks.content import SPACE_CODES, ParkCard, sheet_from_text
from cliplab.games.clipcut_parks.teach import arrange, new

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


def position(
    players: int = 1, seed: int = 0, options: Mapping[str, object] | None = None, **seat0: Any
) -> ClipCutParks:
    """A new game with seat 0 arranged (see `arrange`); other seats keep their dealt round 1."""
    return arrange(new(players, seed, **(options or {})), 0, **seat0)


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
