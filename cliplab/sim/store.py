"""Result tables in memory and on disk (Parquet or CSV, by the file's extension).

While a run goes on, each finished chunk of games is written at once to its own part file in a folder
beside the output, `<out>.parts/part-<first>-<end>.<ext>`, written under a temporary name and renamed, so
a part is either complete or absent whatever stops the run. At the end the parts and any earlier output
are merged into `<out>` (again by rename) and the folder is removed. A rerun with the same arguments reads
what is there, plays only the games that are missing and gives the same table as an uninterrupted run.

List columns (winners, branching, score traces) are Parquet lists, or JSON text in CSV files.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from .play import Columns, SimulationError, columns

CONFIG_COLUMNS = ("game", "variant", "options", "players", "bots", "run_seed")
STRING_COLUMNS = ("game", "variant", "options", "bots", "termination")
LIST_PREFIXES = ("winners", "branching", "score_trace_")
FORMATS = (".parquet", ".csv")


def is_list_column(name: str) -> bool:
    return name.startswith(LIST_PREFIXES)


def _plain(value: Any) -> list[Any]:
    """A list cell as a Python list (Parquet gives numpy arrays, CSV gives JSON text)."""
    if type(value) is list:
        return value
    if isinstance(value, str):
        return list(json.loads(value))
    if hasattr(value, "tolist"):
        return list(value.tolist())
    return list(value)


def tidy(frame: pd.DataFrame) -> pd.DataFrame:
    """One canonical form of a result table, whether it was just played or read back from a file:
    rows by game index, list cells as Python lists, strings as strings, `rounds` as a nullable integer."""
    frame = frame.sort_values("game_index", kind="stable").reset_index(drop=True) if len(frame) else frame.copy()
    for column in frame.columns:
        if is_list_column(column):
            frame[column] = pd.Series([_plain(cell) for cell in frame[column]], index=frame.index, dtype=object)
        elif column in STRING_COLUMNS:
            frame[column] = frame[column].astype(object).fillna("").astype(str)
        elif column == "rounds":
            frame[column] = pd.to_numeric(frame[column]).astype("Int64")
        elif column == "timeout":
            frame[column] = frame[column].astype(bool)
    return frame


def to_frame(records: Iterable[Mapping[str, Any]] | Columns) -> pd.DataFrame:
    """A result table from result rows or from result columns (what `play_chunk` gives)."""
    return tidy(pd.DataFrame(records if isinstance(records, dict) else columns(records)))


def write(frame: pd.DataFrame, path: Path) -> None:
    """Write a table by the path's extension, atomically (a temporary file renamed into place)."""
    temporary = path.with_name(f".{path.name}.tmp")
    if path.suffix == ".parquet":
        frame.to_parquet(temporary, index=False)
    else:
        encoded = frame.copy()
        for column in encoded.columns:
            if is_list_column(column):
                encoded[column] = [json.dumps(cell, separators=(",", ":")) for cell in encoded[column]]
        encoded.to_csv(temporary, index=False)
    os.replace(temporary, path)


def read(path: str | os.PathLike[str]) -> pd.DataFrame:
    """A result table written by `simulate` (Parquet or CSV), in the same form `simulate` returns."""
    path = Path(path)
    frame = pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)
    return tidy(frame)


class Store:
    """The output file of a run and the folder of parts beside it."""

    def __init__(self, out: str | os.PathLike[str]) -> None:
        self.path = Path(out)
        if self.path.suffix not in FORMATS:
            raise SimulationError(f"{self.path}: results are written as .parquet or .csv, not {self.path.suffix!r}")
        self.parts = self.path.with_name(self.path.name + ".parts")

    def load(self, expected: Mapping[str, Any]) -> pd.DataFrame | None:
        """The games saved so far (output file and parts), checked to come from a run like this one."""
        frames = [read(self.path)] if self.path.exists() else []
        if self.parts.is_dir():
            frames += [read(part) for part in sorted(self.parts.glob(f"part-*{self.path.suffix}"))]
        frames = [frame for frame in frames if len(frame)]
        if not frames:
            return None
        saved = tidy(pd.concat(frames, ignore_index=True)).drop_duplicates("game_index", ignore_index=True)
        for column, value in expected.items():
            found = set(saved[column]) if column in saved else {"(missing)"}
            if found != {value}:
                shown = ", ".join(sorted(map(str, found)))
                raise SimulationError(
                    f"{self.path} holds games of another run ({column} {shown}, this run has {value}); "
                    "choose another output file or remove it"
                )
        return saved

    def save_part(self, frame: pd.DataFrame, start: int, stop: int) -> None:
        self.parts.mkdir(parents=True, exist_ok=True)
        write(frame, self.parts / f"part-{start:09d}-{stop:09d}{self.path.suffix}")

    def finish(self, frame: pd.DataFrame) -> None:
        """Write everything to the output file, then drop the parts."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write(frame, self.path)
        if self.parts.is_dir():
            shutil.rmtree(self.parts)


__all__ = ["CONFIG_COLUMNS", "Store", "read", "tidy", "to_frame", "write"]
