"""Swap Clops card game content: the deck file is checked on load, and each mistake names the file, the
entry and the problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from cliplab.engine import ContentError
from cliplab.games.swap_clops_cards.content import CARD_NAMES, DATA, DECKS, TRAIT_NAMES, deck, load_deck

TEXT = (DATA / "deck.toml").read_text()


def broken(tmp_path: Path, old: str, new: str, count: int = 1) -> ContentError:
    """Load a copy of the deck file with `old` replaced by `new` (the first `count` times): it must fail."""
    assert old in TEXT, old
    path = tmp_path / "deck.toml"
    path.write_text(TEXT.replace(old, new, count))
    with pytest.raises(ContentError) as err:
        load_deck(path, "deck.toml")
    assert err.value.file == "deck.toml"
    return err.value


def test_content_every_shipped_deck_loads_with_every_trait_and_pair() -> None:
    for name in DECKS:
        cards = deck(name)
        assert set(cards.traits) == set(TRAIT_NAMES) and set(cards.cards) == set(CARD_NAMES)
        assert len(cards.copies) == sum(card.count for card in cards.cards.values())


def test_content_the_seeds_chart_examples_hold() -> None:
    traits = deck().traits
    assert traits["circle"].chart[:2] == (4, 7) and traits["yellow"].chart[:2] == (3, 5)


def test_content_each_traits_count_is_worked_out_from_its_cards() -> None:
    cards = deck()
    for name, trait in cards.traits.items():
        kind = trait.kind
        assert trait.count == sum(card.count for card in cards.cards.values() if card.trait(kind) == name)


def test_content_a_chart_that_does_not_rise_is_refused(tmp_path: Path) -> None:
    err = broken(tmp_path, "chart = [4, 7, 9, 11]", "chart = [4, 7, 7, 11]")
    assert err.entry == "trait 1 (circle)" and "must rise" in err.problem


def test_content_a_chart_of_the_wrong_length_is_refused(tmp_path: Path) -> None:
    err = broken(tmp_path, "chart = [4, 7, 9, 11]", "chart = [4, 7, 9]")
    assert err.entry == "trait 1 (circle)" and "lists 4 numbers" in err.problem


def test_content_a_chart_step_below_two_cards_is_refused(tmp_path: Path) -> None:
    err = broken(tmp_path, "chart = [4, 7, 9, 11]", "chart = [1, 7, 9, 11]")
    assert err.entry == "trait 1 (circle) chart" and "at least 2" in err.problem


def test_content_an_unknown_trait_or_wrong_kind_is_refused(tmp_path: Path) -> None:
    err = broken(tmp_path, 'name = "circle"', 'name = "hexagon"')
    assert err.entry == "trait 1" and "'hexagon' is not a shape or colour" in err.problem
    err = broken(tmp_path, 'name = "circle"\nkind = "shape"', 'name = "circle"\nkind = "colour"')
    assert err.entry == "trait 1 (circle)" and "is a shape" in err.problem


def test_content_a_trait_listed_twice_or_missing_is_refused(tmp_path: Path) -> None:
    err = broken(tmp_path, 'name = "circle"', 'name = "square"')
    assert err.entry == "trait 2 (square)" and "listed twice" in err.problem
    err = broken(tmp_path, '[[trait]]\nname = "white"\nkind = "colour"\nchart = [2, 3, 4, 5]\n', "")
    assert err.entry == "trait white" and "has no [[trait]] entry" in err.problem


def test_content_a_card_with_an_unknown_colour_or_a_negative_count_is_refused(tmp_path: Path) -> None:
    err = broken(tmp_path, 'colour = "yellow"', 'colour = "purple"')
    assert err.entry == "card 1" and "'purple'" in err.problem
    err = broken(tmp_path, "count = 6\n", "count = -1\n")
    assert err.entry == "card 1 count" and "at least 0" in err.problem


def test_content_a_card_listed_twice_is_refused(tmp_path: Path) -> None:
    err = broken(tmp_path, 'shape = "circle"\ncolour = "blue"', 'shape = "circle"\ncolour = "yellow"')
    assert err.entry == "card 2 (yellow_circle)" and "listed twice" in err.problem


def test_content_a_field_missing_or_unknown_is_refused(tmp_path: Path) -> None:
    err = broken(tmp_path, "offer = 1\n", "")
    assert err.entry == "card 1" and "has no offer" in err.problem
    err = broken(tmp_path, "offer = 1\n", "offer = 1\nvalue = 3\n")
    assert err.entry == "card 1" and "'value'" in err.problem


def test_content_a_rarer_trait_may_not_need_more_cards(tmp_path: Path) -> None:
    err = broken(tmp_path, "chart = [2, 3, 4, 5]", "chart = [3, 6, 7, 10]")
    assert err.entry == "trait white" and "rarer than" in err.problem


def test_content_a_chart_needing_more_cards_than_the_deck_has_is_refused(tmp_path: Path) -> None:
    text = TEXT
    path = tmp_path / "deck.toml"
    # No white cards left but two white triangles: white's chart asks for 2 to score at all.
    for line in ('shape = "circle"\ncolour = "white"\ncount = 4', 'shape = "square"\ncolour = "white"\ncount = 2'):
        assert line in text
        text = text.replace(line, line.rsplit("=", 1)[0] + "= 0")
    text = text.replace(
        'shape = "triangle"\ncolour = "white"\ncount = 2', 'shape = "triangle"\ncolour = "white"\ncount = 1'
    )
    path.write_text(text)
    with pytest.raises(ContentError) as err:
        load_deck(path, "deck.toml")
    assert err.value.entry == "trait white" and "needs 2 cards for a point but the deck has 1" in err.value.problem


def test_content_a_file_that_is_not_toml_or_has_other_parts_is_refused(tmp_path: Path) -> None:
    err = broken(tmp_path, '\n[[trait]]\nname = "circle"', '\n[[traits]]\nname = "circle"')
    assert err.entry == "traits" and "is not a part of a deck file" in err.problem
    path = tmp_path / "deck.toml"
    path.write_text("[[trait]\n")
    with pytest.raises(ContentError) as caught:
        load_deck(path, "deck.toml")
    assert caught.value.file == "deck.toml"


def test_content_an_unknown_deck_name_is_refused() -> None:
    with pytest.raises(ContentError) as err:
        deck("tuned")
    assert "there is no deck 'tuned'" in err.value.problem
