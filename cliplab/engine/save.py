"""Save and load games as JSON. A save holds the configuration and the log; loading replays the log checked.

Format (version 1):
    {"format": "cliplab-save", "version": 1, "game": NAME, "players": N, "seed": S,
     "options": {NAME: VALUE, ...}, "log": [[SEAT, "action text"], ...]}
Chance events are logged under seat -1. A game begun from a start position (the rules' position builder)
also has "start": {FIELD: VALUE, ...}, the position's named fields; the log replays from there.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import CliplabError, PositionError, SaveError
from .state import State, replay

FORMAT = "cliplab-save"
VERSION = 1
# Bounds checked before the work they limit. A long game logs a few thousand actions in well under a
# megabyte; seeds and counts fit in 20 digits.
MAX_SAVE_CHARS = 2_000_000
MAX_LOG_ENTRIES = 20_000
MAX_NUMBER_DIGITS = 20


def to_json(state: State) -> str:
    if state.is_view:
        raise SaveError("state", "a view hides part of the game (seed, face-down cards, secrets); it cannot be saved")
    config = state.config
    record = {
        "format": FORMAT,
        "version": VERSION,
        "game": config.game,
        "players": config.players,
        "seed": config.seed,
        "options": dict(config.options),
        "log": [[seat, str(action)] for seat, action in state.log],
    }
    start = config.start_fields()
    if start is not None:
        record["start"] = start
    return json.dumps(record, indent=1)


def save(state: State, path: str | Path) -> None:
    Path(path).write_text(to_json(state), encoding="utf-8")


def _field(record: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in record:
        raise SaveError(key, "missing (the file may be truncated or not a cliplab save)")
    value = record[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise SaveError(key, f"has the wrong type ({type(value).__name__})")
    return value


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise SaveError("file", f"a number of {len(digits)} digits; at most {MAX_NUMBER_DIGITS} are read")
    return int(digits)


def from_json(text: str) -> State:
    """The game a save describes, replayed from its log; SaveError says what is wrong and where."""
    from .registry import spec

    if len(text) > MAX_SAVE_CHARS:
        raise SaveError("file", f"longer than {MAX_SAVE_CHARS:,} characters, more than any save cliplab writes")
    try:
        record = json.loads(text, parse_int=_bounded_int)
    except json.JSONDecodeError as err:
        raise SaveError(f"line {err.lineno}, column {err.colno}", f"not valid JSON ({err.msg})") from None
    except RecursionError:
        raise SaveError("file", "lists or objects nested too deeply for a save") from None
    if not isinstance(record, dict):
        raise SaveError("top level", "a save is a JSON object")
    if record.get("format") != FORMAT:
        raise SaveError("format", f"expected {FORMAT!r}, found {record.get('format')!r}")
    version = _field(record, "version", int)
    if version != VERSION:
        raise SaveError("version", f"this cliplab reads version {VERSION}, the file is version {version}")
    name = _field(record, "game", str)
    players, seed = _field(record, "players", int), _field(record, "seed", int)
    options = _field(record, "options", dict)
    try:
        game = spec(name)
    except CliplabError as err:
        raise SaveError("game", str(err)) from None
    known = [option.name for option in game.options]
    unknown = sorted(str(key) for key in options if key not in known)
    if unknown:
        raise SaveError("options", f"{name} has no option {unknown[0][:64]!r} (its options: {', '.join(known)})")
    try:
        config = game.config(players, seed, **options)
    except CliplabError as err:
        raise SaveError("configuration", str(err)) from None
    entries = _field(record, "log", list)
    if len(entries) > MAX_LOG_ENTRIES:
        raise SaveError("log", f"{len(entries):,} entries; a save holds at most {MAX_LOG_ENTRIES:,}")
    for index, entry in enumerate(entries):
        if not isinstance(entry, list) or len(entry) != 2 or type(entry[0]) is not int or not isinstance(entry[1], str):
            raise SaveError(f"log[{index}]", f"expected [seat, action text], found {entry!r}")
    if "start" in record:
        config = config.starting_at(_field(record, "start", dict))
    try:
        return replay(config, [(seat, action) for seat, action in entries])
    except PositionError as err:
        raise SaveError(f"start.{err.field}", err.problem) from None


def load(path: str | Path) -> State:
    try:
        with open(path, encoding="utf-8") as stream:
            text = stream.read(MAX_SAVE_CHARS + 1)  # one more than allowed, so from_json sees it is too long
    except (OSError, UnicodeDecodeError) as err:
        raise SaveError(str(path), f"cannot be read ({err})") from None
    try:
        return from_json(text)
    except SaveError as err:
        raise SaveError(f"{path}: {err.where}", err.problem) from None
