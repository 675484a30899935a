"""Cutterland's deck file: the shipped deck is sound, and every kind of mistake in a deck file is named
with the file, the card and the problem."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from cliplab.engine import ContentError
from cliplab.games.cutterland.content import CARD_COLS, CARD_ROWS, HOMES, MONSTERS, TOKENS, deck, load_deck

GOOD = '''
[[card]]
number = 1
cells = """
S. S. Sw S.
SG SG S. SG
Mt M. MD SG
"""
'''


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "deck.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_deck_has_at_least_sixty_cards_of_three_by_four_cells() -> None:
    cards = deck()
    assert len(cards) >= 60
    for found in cards.values():
        assert len(found.cells) == CARD_ROWS and all(len(row) == CARD_COLS for row in found.cells)


def test_every_monster_of_the_deck_lives_on_its_terrain() -> None:
    for found in deck().values():
        for row in found.cells:
            for code in row:
                terrain, thing = code[0], code[1]
                if thing in MONSTERS:
                    assert terrain in HOMES[thing], (found.number, terrain, thing)


def test_the_deck_shows_every_terrain_monster_and_token() -> None:
    shown = Counter(code[1] for found in deck().values() for row in found.cells for code in row)
    for thing in [*MONSTERS, *TOKENS]:
        assert shown[thing] >= 10, thing
    terrains = Counter(code[0] for found in deck().values() for row in found.cells for code in row)
    assert set(terrains) == {"M", "S", "W"}


def test_a_good_file_loads(tmp_path: Path) -> None:
    cards = load_deck(write(tmp_path, GOOD), smallest=1)
    assert cards[1].code(2, 2) == "MD"


@pytest.mark.parametrize(
    ("text", "entry", "words"),
    [
        (GOOD.replace("MD", "WD"), "card 1, cell 2,2", "a dragon does not live on water"),
        (GOOD.replace("MD", "MX"), "card 1, cell 2,2", "'X' is not a monster"),
        (GOOD.replace("MD", "QD"), "card 1, cell 2,2", "'Q' is not a terrain"),
        (GOOD.replace("MD", "MDD"), "card 1, cell 2,2", "not a two-letter cell code"),
        (GOOD.replace("Mt M. MD SG", "Mt M. MD"), "card 1", "row 2 has 3 cells"),
        (GOOD.replace("Mt M. MD SG\n", ""), "card 1", "3 rows of cells, this one 2"),
        (GOOD.replace("number = 1", "number = 0"), "card #1 in the file", "number is a whole number"),
        (GOOD.replace("number = 1", 'number = 1\ncolour = "red"'), "card 1", "unknown key 'colour'"),
        (GOOD.replace('cells = """', 'painted = """'), "card 1", "the key 'cells' is missing"),
        (GOOD + GOOD, "card 1", "used by an earlier card"),
        ("title = 'x'\n" + GOOD, "", "unknown table 'title'"),
        ("", "", "holds no [[card]] tables"),
    ],
)
def test_a_mistake_in_a_deck_file_names_the_file_the_card_and_the_problem(
    tmp_path: Path, text: str, entry: str, words: str
) -> None:
    with pytest.raises(ContentError) as err:
        load_deck(write(tmp_path, text), smallest=1)
    assert err.value.file == "deck.toml"
    assert err.value.entry == entry
    assert words in str(err.value)


def test_a_deck_too_small_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ContentError) as err:
        load_deck(write(tmp_path, GOOD))
    assert "at least 60 cards, this one 1" in str(err.value)


def test_a_file_that_is_not_toml_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ContentError) as err:
        load_deck(write(tmp_path, "[[card]\nnumber = "), smallest=1)
    assert err.value.file == "deck.toml"
