"""Swap Clops tiles as data: the shipped file loads, and every kind of mistake in a copy of it is refused
with the file, the tile and the problem named."""

from __future__ import annotations

from pathlib import Path

import pytest

from cliplab.engine import ContentError
from cliplab.games.swap_clops.content import DATA_FILE, load_tiles

ORIGINAL = DATA_FILE.read_text(encoding="utf-8")


def broken(tmp_path: Path, old: str, new: str, count: int = 1) -> Path:
    assert old in ORIGINAL
    path = tmp_path / "tiles.toml"
    path.write_text(ORIGINAL.replace(old, new, count), encoding="utf-8")
    return path


def refused(path: Path, entry: str, words: str) -> None:
    with pytest.raises(ContentError) as err:
        load_tiles(path)
    assert err.value.file == "tiles.toml"
    assert err.value.entry == entry
    assert words in err.value.problem


def test_the_shipped_tiles_load() -> None:
    tiles = load_tiles()
    assert len(tiles.tiles) == 90
    assert tiles.face_colours["angry"] == "red"


def test_an_unknown_face_names_the_tile(tmp_path: Path) -> None:
    path = broken(
        tmp_path, '{ number = 2, shape = "circle", face = "angry"', '{ number = 2, shape = "circle", face = "grumpy"'
    )
    refused(path, "tile 2", "face is one of angry")


def test_a_missing_key_names_the_tile(tmp_path: Path) -> None:
    refused(
        broken(tmp_path, '{ number = 3, shape = "circle", face = "angry", like = "moon" }', "{ number = 3 }"),
        "tile 3",
        "'shape' is missing",
    )


def test_a_bad_wall_side_names_the_tile(tmp_path: Path) -> None:
    path = broken(tmp_path, 'like = "sunshine", wall = "N" }', 'like = "sunshine", wall = "up" }')
    refused(path, "tile 1", "wall is one of N, E, S, W")


def test_a_number_used_twice(tmp_path: Path) -> None:
    refused(broken(tmp_path, "{ number = 3,", "{ number = 2,"), "tile 2", "used twice")


def test_an_uneven_like_spread_names_the_like(tmp_path: Path) -> None:
    path = broken(tmp_path, 'face = "angry", like = "apples" }', 'face = "angry", like = "moon" }')
    refused(path, "like apples", "every like is on 18")


def test_a_pair_with_a_wrong_count(tmp_path: Path) -> None:
    path = broken(
        tmp_path, '{ number = 2, shape = "circle", face = "angry"', '{ number = 2, shape = "square", face = "angry"'
    )
    refused(path, "angry circles", "every pair has 6")


def test_walls_spread_unevenly(tmp_path: Path) -> None:
    path = broken(tmp_path, 'like = "apples", wall = "E" }', 'like = "apples", wall = "N" }')
    refused(path, "walls", "differ by at most 1")


def test_a_wall_too_many(tmp_path: Path) -> None:
    path = broken(
        tmp_path,
        '{ number = 2, shape = "circle", face = "angry", like = "apples" }',
        '{ number = 2, shape = "circle", face = "angry", like = "apples", wall = "W" }',
    )
    refused(path, "walls", "16 tiles have a wall")


def test_a_missing_face_word(tmp_path: Path) -> None:
    refused(broken(tmp_path, 'happy = "yellow"\n', ""), "faces", "gives a word to each of")


def test_not_toml(tmp_path: Path) -> None:
    refused(broken(tmp_path, "tiles = [", "tiles = [[["), "", "not valid TOML")
