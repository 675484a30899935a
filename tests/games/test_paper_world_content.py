"""Paper World content files: each mistake in deck.toml or objectives.toml is a ContentError naming the
file, the entry and the problem; the shipped files load."""

from __future__ import annotations

from pathlib import Path

import pytest

from cliplab.engine import ContentError
from cliplab.games.paper_world.content import DATA, read_deck, read_objectives

DECK = (DATA / "deck.toml").read_text()
OBJECTIVES = (DATA / "objectives.toml").read_text()


def deck_with(tmp_path: Path, old: str, new: str) -> Path:
    assert old in DECK
    path = tmp_path / "deck.toml"
    path.write_text(DECK.replace(old, new, 1))
    return path


def objectives_with(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "objectives.toml"
    path.write_text(text)
    return path


def test_the_shipped_files_load() -> None:
    assert len(read_deck().cards) == 92 + 4
    assert 18 <= len(read_objectives()) <= 22


@pytest.mark.parametrize(
    ("old", "new", "entry", "problem"),
    [
        (
            'colours = ["yellow", "blue", "green", "black"]',
            'colours = ["yellow", "blue", "green"]',
            "colours",
            "four different colour names",
        ),
        ("5 = 6", "5 = 2", "stars.5", "rarer than value"),
        ("5 = 6", "5 = -1", "stars.5", "whole numbers"),
        (
            "counts = { 1 = 4, 2 = 3, 3 = 3, 4 = 2, 5 = 1 }",
            "counts = { 1 = 4, 2 = 3, 3 = 3, 4 = 2, 5 = 2 }",
            "base",
            "the published set holds",
        ),
        (
            "counts = { 1 = 4, 2 = 3, 3 = 3, 4 = 2, 5 = 1 }",
            "counts = { 1 = 4, 6 = 3 }",
            "base",
            "'6' is not a card value",
        ),
        ("scissors = [2, 3, 4]", "scissors = [2, 3, 5]", "base", "values 1-4 only"),
        ("scissors = [2, 3, 4]", "scissors = [2, 3]", "base", "3 scissors per colour"),
        ("scissors = [2, 3, 4]", "scissors = [2, 2, 2, 2]", "base", "4 scissors on value 2 but only 3"),
        ("scissors = [1]", 'scissors = ["one"]', "added[0]", "values 1-4 only"),
        ("2 = [2, 1]", "2 = [1, 2]", "tokens.2", "highest first"),
        ("2 = [2, 1]", "", "tokens", "score tokens for 2, 3 and 4 players"),
    ],
)
def test_a_deck_mistake_names_its_entry(tmp_path: Path, old: str, new: str, entry: str, problem: str) -> None:
    with pytest.raises(ContentError) as err:
        read_deck(deck_with(tmp_path, old, new))
    assert err.value.file == "deck.toml"
    assert err.value.entry == entry
    assert problem in err.value.problem


def test_a_deck_without_its_added_sets_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    path.write_text(DECK[: DECK.index("\n[[added]]\n")] + DECK[DECK.index("\n[tokens]") :])
    with pytest.raises(ContentError) as err:
        read_deck(path)
    assert err.value.entry == "added" and "two [[added]] tables" in err.value.problem


def test_a_deck_file_that_is_not_toml_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    path.write_text("colours = [")
    with pytest.raises(ContentError) as err:
        read_deck(path, "deck.toml")
    assert err.value.file == "deck.toml"


ONE = """
[[objective]]
name = "first"
kind = "count"
rule = "stacks"
target = 7

[[objective]]
name = "second"
kind = "count"
rule = "values"
target = 5
"""


@pytest.mark.parametrize(
    ("body", "entry", "problem"),
    [
        ('name = "third"\nkind = "shape"\nshape = ["XY"]\nrule = "one_colour"', "objective[2] (third)", "only X and ."),
        (
            'name = "third"\nkind = "shape"\nshape = ["XXXX"]\nrule = "one_colour"',
            "objective[2] (third)",
            "fits in the 3 x 3",
        ),
        (
            'name = "third"\nkind = "shape"\nshape = ["X.."]\nrule = "one_colour"',
            "objective[2] (third)",
            "at least two stacks",
        ),
        (
            'name = "third"\nkind = "shape"\nshape = ["XX"]\nrule = "rainbow"',
            "objective[2] (third)",
            "a shape's rule is one of",
        ),
        (
            'name = "third"\nkind = "shape"\nshape = ["XXX"]\nrule = "sum"\ntarget = 16',
            "objective[2] (third)",
            "can sum to 3-15 only",
        ),
        (
            'name = "third"\nkind = "shape"\nshape = ["XX"]\nrule = "value"\ntarget = 6',
            "objective[2] (third)",
            "card value 1-5",
        ),
        (
            'name = "third"\nkind = "shape"\nshape = ["XXX", "XX."]\nrule = "all_colours"',
            "objective[2] (third)",
            "no more stacks than there are colours",
        ),
        ('name = "third"\nkind = "count"\nrule = "stacks"\ntarget = 10', "objective[2] (third)", "from 1 to 9"),
        ('name = "third"\nkind = "pattern"\nrule = "stacks"', "objective[2] (third)", "shape or count"),
        ('name = "first"\nkind = "count"\nrule = "stacks"\ntarget = 3', "objective[2]", "used twice"),
        ('kind = "count"\nrule = "stacks"\ntarget = 3', "objective[2]", "needs a name"),
    ],
)
def test_an_objective_mistake_names_its_entry(tmp_path: Path, body: str, entry: str, problem: str) -> None:
    with pytest.raises(ContentError) as err:
        read_objectives(objectives_with(tmp_path, ONE + "\n[[objective]]\n" + body + "\n"))
    assert err.value.file == "objectives.toml"
    assert err.value.entry == entry
    assert problem in err.value.problem


def test_fewer_than_three_objectives_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ContentError) as err:
        read_objectives(objectives_with(tmp_path, ONE))
    assert "at least three" in err.value.problem
