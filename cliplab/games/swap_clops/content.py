"""Swap Clops content: the 90 clop tiles, read from ``data/tiles.toml`` and checked on load.

The file's comment block explains its format. Everything is checked: a mistake raises ``ContentError``
naming the file, the tile and the problem, so a designer can change a tile without touching code. The
spread the rules expect (RULINGS.md) is checked too: 6 tiles of every shape-and-face pair, the likes on
equally many tiles, 15 walls whose sides are as even as 15 allows.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from os import PathLike
from pathlib import Path
from typing import Any

from cliplab.engine.content import read_toml
from cliplab.engine.errors import ContentError

SHAPES = ("circle", "square", "triangle")
FACES = ("angry", "worried", "serious", "bleeeh", "happy")
LIKES = ("sunshine", "apples", "moon", "stars", "books")
SIDES = ("N", "E", "S", "W")
TILE_COUNT = 90
PER_PAIR = 6  # tiles of every shape-and-face pair
WALLS = 15

DATA_FILE = Path(__file__).parent / "data" / "tiles.toml"
_TILE_KEYS = ("number", "shape", "face", "like")
_OPTIONAL_KEYS = ("wall",)


@dataclass(frozen=True, slots=True)
class Tile:
    """One clop tile: its number (1-90), shape, face, like and the side carrying its wall ("" for none)."""

    number: int
    shape: str
    face: str
    like: str
    wall: str = ""

    def __str__(self) -> str:
        walled = f", wall {self.wall}" if self.wall else ""
        return f"tile {self.number} ({self.face} {self.shape}, likes {self.like}{walled})"


@dataclass(frozen=True, slots=True)
class TileSet:
    """The tiles (index k holds tile number k + 1) and the words the file gives for faces and likes."""

    tiles: tuple[Tile, ...]
    face_colours: dict[str, str]
    like_pictures: dict[str, str]

    def tile(self, number: int) -> Tile:
        return self.tiles[number - 1]


def _entry(raw: Any, index: int, file: str) -> Tile:
    name = f"tile at position {index + 1}"
    if not isinstance(raw, dict):
        raise ContentError(file, name, "each tile is a table of keys (number, shape, face, like, wall)")
    if type(raw.get("number")) is int:
        name = f"tile {raw['number']}"
    for key in _TILE_KEYS:
        if key not in raw:
            raise ContentError(file, name, f"the key {key!r} is missing")
    for key in raw:
        if key not in _TILE_KEYS + _OPTIONAL_KEYS:
            raise ContentError(file, name, f"unknown key {key!r} (a tile has {', '.join(_TILE_KEYS + _OPTIONAL_KEYS)})")
    number = raw["number"]
    if type(number) is not int or not 1 <= number <= TILE_COUNT:
        raise ContentError(file, name, f"number is a whole number from 1 to {TILE_COUNT}, not {number!r}")
    for key, allowed in (("shape", SHAPES), ("face", FACES), ("like", LIKES)):
        if raw[key] not in allowed:
            raise ContentError(file, name, f"{key} is one of {', '.join(allowed)}, not {raw[key]!r}")
    wall = raw.get("wall", "")
    if wall not in ("", *SIDES):
        raise ContentError(file, name, f"wall is one of {', '.join(SIDES)} (or left out), not {wall!r}")
    return Tile(number, raw["shape"], raw["face"], raw["like"], wall)


def _words(document: dict[str, Any], table: str, names: tuple[str, ...], file: str) -> dict[str, str]:
    found = document.get(table)
    if not isinstance(found, dict):
        raise ContentError(file, table, f"the table [{table}] is missing (one entry for each of {', '.join(names)})")
    if set(found) != set(names) or not all(isinstance(word, str) and word for word in found.values()):
        raise ContentError(file, table, f"[{table}] gives a word to each of {', '.join(names)} and nothing else")
    return {name: found[name] for name in names}


def _check_spread(tiles: list[Tile], file: str) -> None:
    """The spread of RULINGS.md: shape-and-face pairs, likes and walls' sides."""
    pairs = Counter((tile.shape, tile.face) for tile in tiles)
    for shape in SHAPES:
        for face in FACES:
            if pairs[shape, face] != PER_PAIR:
                have = pairs[shape, face]
                raise ContentError(file, f"{face} {shape}s", f"there are {have} of them; every pair has {PER_PAIR}")
    likes = Counter(tile.like for tile in tiles)
    for like in LIKES:
        if likes[like] != TILE_COUNT // len(LIKES):
            raise ContentError(file, f"like {like}", f"{likes[like]} tiles like it; every like is on {TILE_COUNT // 5}")
    walled = [tile for tile in tiles if tile.wall]
    if len(walled) != WALLS:
        raise ContentError(file, "walls", f"{len(walled)} tiles have a wall; the set has {WALLS}")
    sides = Counter(tile.wall for tile in walled)
    counts = [sides[side] for side in SIDES]
    if max(counts) - min(counts) > 1:
        spread = ", ".join(f"{side} {sides[side]}" for side in SIDES)
        raise ContentError(file, "walls", f"the walls' sides are spread unevenly ({spread}); they differ by at most 1")


def load_tiles(path: str | PathLike[str] = DATA_FILE, file: str | None = None) -> TileSet:
    """The tiles in `path`, checked (ContentError names the file, the tile and the problem)."""
    file = Path(path).name if file is None else file
    document = read_toml(path, file)
    if document.get("shapes") != list(SHAPES):
        raise ContentError(file, "shapes", f"the shapes are {', '.join(SHAPES)}, in that order")
    faces = _words(document, "faces", FACES, file)
    likes = _words(document, "likes", LIKES, file)
    raw_tiles = document.get("tiles")
    if not isinstance(raw_tiles, list):
        raise ContentError(file, "tiles", "the array `tiles` is missing")
    tiles = [_entry(raw, index, file) for index, raw in enumerate(raw_tiles)]
    if len(tiles) != TILE_COUNT:
        raise ContentError(file, "tiles", f"there are {len(tiles)} tiles; the set has {TILE_COUNT}")
    seen: set[int] = set()
    for tile in tiles:
        if tile.number in seen:
            raise ContentError(file, f"tile {tile.number}", "this number is used twice")
        seen.add(tile.number)
    _check_spread(tiles, file)
    return TileSet(tuple(sorted(tiles, key=lambda tile: tile.number)), faces, likes)


@cache
def tile_set() -> TileSet:
    """The game's tiles (read once)."""
    return load_tiles()


def tile(number: int) -> Tile:
    return tile_set().tile(number)
