"""Reading content files (cards, sheets, decks): every game's TOML goes through one bounded reader.

The bounds are checked before the parser does work in proportion to the file: its size first, then the
parser's own limits (nesting depth, digits in a number) turned into ContentError naming the file.
"""

from __future__ import annotations

import tomllib
from os import PathLike
from typing import Any

from .errors import ContentError

# Our largest content file is a few kilobytes; a megabyte leaves room for any deck a designer writes.
MAX_CONTENT_BYTES = 1_000_000


def read_toml(path: str | PathLike[str], file: str | None = None) -> dict[str, Any]:
    """The TOML document in `path`; ContentError names `file` (default: the path) and says what is wrong."""
    file = str(path) if file is None else file
    try:
        with open(path, "rb") as stream:
            raw = stream.read(MAX_CONTENT_BYTES + 1)
    except OSError as exc:
        raise ContentError(file, "", f"cannot read the file ({exc.strerror or exc})") from None
    if len(raw) > MAX_CONTENT_BYTES:
        raise ContentError(file, "", f"the file is larger than {MAX_CONTENT_BYTES:,} bytes, the most content may be")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ContentError(file, "", f"the file is not UTF-8 text (byte {exc.start})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(file, "", f"not valid TOML: {exc}") from None
    except RecursionError:
        raise ContentError(file, "", "not usable TOML: arrays or tables are nested too deeply") from None
    except ValueError as exc:
        # The interpreter's limit on digits in a number (a TOMLDecodeError is caught above).
        raise ContentError(file, "", f"not usable TOML: {exc}") from None
