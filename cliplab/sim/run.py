"""`simulate`: many seeded games of one setup, on this process, local processes or a Dask cluster.

Games are handed out in chunks of consecutive indices; every finished chunk is saved at once (see
`cliplab.sim.store`) and counted on a tqdm progress bar. Each game's seeds come from its index alone (see
`cliplab.sim.play`), so the table is the same whatever the executor, the number of workers, the chunk size
or the order in which chunks finish, and an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any, Literal

import pandas as pd
from tqdm.auto import tqdm

from .bots import BotSpec
from .play import EXECUTORS, Columns, Setup, SimulationError, make_setup, merge, play_chunk
from .store import Store, tidy, to_frame

if TYPE_CHECKING:
    from distributed import Client

Executor = Literal["inline", "processes", "dask"]
MAX_CHUNK = 250  # games per chunk at most, by default: what an interruption can cost
Results = Iterator[tuple[int, int, Columns]]


def chunks(indices: Sequence[int], size: int) -> list[tuple[int, int]]:
    """Runs of consecutive indices, at most `size` long, as (start, stop) pairs."""
    found: list[tuple[int, int]] = []
    for index in indices:
        if found and found[-1][1] == index and index - found[-1][0] < size:
            found[-1] = (found[-1][0], index + 1)
        else:
            found.append((index, index + 1))
    return found


def default_chunks(indices: Sequence[int], workers: int) -> list[tuple[int, int]]:
    """Chunks that keep every worker busy to the end: each takes 1/(2 x workers) of the games still to
    hand out (at most MAX_CHUNK), so they shrink as the run goes on and the last ones, which decide when
    the run ends, are small (about 1/64 of a worker's share, at least one game). Workers take chunks in
    this order, so a worker that drew long games simply takes fewer of the small ones."""
    parts = max(1, workers)
    least = max(1, len(indices) // (64 * parts))
    found: list[tuple[int, int]] = []
    first = 0
    while first < len(indices):
        size = min(MAX_CHUNK, max(least, math.ceil((len(indices) - first) / (2 * parts))))
        start, stop = chunks(indices[first : first + size], size)[0]  # up to a gap in the indices
        found.append((start, stop))
        first += stop - start
    return found


def _process_context() -> multiprocessing.context.BaseContext:
    # Not "fork": forking a process that runs threads (Jupyter, tqdm, Dask) can deadlock the child.
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        # Workers are forked from a server that has the game code loaded already (used if it starts now).
        context.set_forkserver_preload(["cliplab.sim.play"])
        return context
    return multiprocessing.get_context("spawn")


# Local worker pools are kept between runs (starting one costs a second or more), by number of workers.
_POOLS: dict[int, ProcessPoolExecutor] = {}


def shutdown_pools() -> None:
    """Stop the local worker processes kept for later runs (they also stop when Python exits)."""
    while _POOLS:
        _POOLS.popitem()[1].shutdown(wait=True)


def _stop_pool(workers: int, pool: ProcessPoolExecutor) -> None:
    """Stop a pool at once, abandoning its queued and running chunks."""
    if _POOLS.get(workers) is pool:
        del _POOLS[workers]
    running = list(getattr(pool, "_processes", None) or {})
    pool.shutdown(wait=False, cancel_futures=True)
    for pid in running:
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)


Pending = dict[Future[Columns], tuple[int, int]]


def _submit_all(
    workers: int, setup: Setup, seed: int, work: list[tuple[int, int]]
) -> tuple[ProcessPoolExecutor, Pending]:
    for attempt in range(2):
        pool = _POOLS.get(workers)
        if pool is None:
            # Workers ignore Ctrl-C (SIGINT): the process that runs the pool hears it and stops them with
            # SIGTERM; otherwise each idle worker of a kept pool prints a KeyboardInterrupt traceback.
            pool = _POOLS[workers] = ProcessPoolExecutor(
                max_workers=workers,
                mp_context=_process_context(),
                initializer=signal.signal,
                initargs=(signal.SIGINT, signal.SIG_IGN),
            )
        try:
            return pool, {pool.submit(play_chunk, setup, seed, start, stop): (start, stop) for start, stop in work}
        except BrokenProcessPool:
            _stop_pool(workers, pool)  # a worker of the kept pool died since the last run: start afresh
            if attempt:
                raise
    raise AssertionError("unreachable")


@contextmanager
def _stop_signals_noted() -> Iterator[list[int]]:
    """The stop signals (Ctrl-C, and SIGTERM where a handler is set) heard while the block runs.

    A handler raises KeyboardInterrupt wherever the main thread is, and some library code drops it:
    pyarrow probes a column's attributes while a chunk is saved and discards what the probe raises. So
    each Python handler is wrapped to note its signal, and the run checks the note after every chunk.
    """
    heard: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield heard  # handlers can be set only from the main thread, and only it runs them
        return
    wrapped: dict[signal.Signals, Callable[[int, Any], Any]] = {}
    for number in (signal.SIGINT, signal.SIGTERM):
        handler = signal.getsignal(number)
        if callable(handler):

            def noting(signum: int, frame: Any, handler: Callable[[int, Any], Any] = handler) -> Any:
                heard.append(signum)
                return handler(signum, frame)

            signal.signal(number, noting)
            wrapped[number] = handler
    try:
        yield heard
    finally:
        for number, handler in wrapped.items():
            signal.signal(number, handler)


@contextmanager
def _inline(setup: Setup, seed: int, work: list[tuple[int, int]]) -> Iterator[Results]:
    yield ((start, stop, play_chunk(setup, seed, start, stop)) for start, stop in work)


@contextmanager
def _processes(setup: Setup, seed: int, work: list[tuple[int, int]], workers: int) -> Iterator[Results]:
    pool, futures = _submit_all(workers, setup, seed, work)
    finished = False
    try:
        yield ((*futures[future], future.result()) for future in as_completed(futures))
        finished = True
    finally:
        if not finished:
            # Stopped early (an error, Ctrl-C or a callback): don't wait for chunks nobody will save.
            _stop_pool(workers, pool)


@contextmanager
def _dask(
    setup: Setup, seed: int, work: list[tuple[int, int]], workers: int, client: Client | None, scheduler: str | None
) -> Iterator[Results]:
    from distributed import Client, LocalCluster
    from distributed import as_completed as dask_completed

    cluster = None
    own = None
    if client is None:
        if scheduler:
            client = own = Client(scheduler)
        else:
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
            client = own = Client(cluster)
    futures = []
    try:
        futures = [client.submit(play_chunk, setup, seed, start, stop, pure=False) for start, stop in work]
        where = {future.key: pair for future, pair in zip(futures, work, strict=True)}
        yield ((*where[future.key], future.result()) for future in dask_completed(futures))
    finally:
        if futures:
            client.cancel(futures)
        if own is not None:
            own.close()
        if cluster is not None:
            cluster.close()


def simulate(
    game: str,
    bots: str | Sequence[BotSpec] = "random",
    games: int = 100,
    seed: int = 0,
    *,
    players: int | None = None,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    workers: int = 1,
    executor: Executor | None = None,
    client: Client | None = None,
    scheduler: str | None = None,
    out: str | os.PathLike[str] | None = None,
    chunk_size: int | None = None,
    progress: bool = True,
    on_chunk: Callable[[int, int], None] | None = None,
) -> pd.DataFrame:
    """Play `games` seeded games of `game` with a bot per seat; one row per game (see docs/metrics.md).

    bots      one bot name for every seat, "a,b,c", or a list with one name or factory (seed -> bot) per
              seat; names are listed by `cliplab.sim.bot_names(game)`.
    players   number of seats (default: the number of bots given, or the game's default for one bot).
    variant, options   a named variant and explicit options (options win over the variant's).
    seed      the run's seed: game i always gets the same seeds, whatever the split of the work.
    executor  "inline" (this process), "processes" (a local process pool of `workers`) or "dask"
              (`client`, else a new Client on `scheduler`, else a LocalCluster of `workers` processes).
              Default: "dask" when a client or scheduler is given, "processes" when workers > 1, else inline.
    out       a .parquet or .csv file: chunks are saved as they finish, and a rerun with the same arguments
              resumes (only missing games are played; the file keeps any extra games it already had).
    on_chunk  called as on_chunk(games done, games) after each chunk has been saved.
    progress  show a tqdm progress bar.
    Factories given as objects must be importable by worker processes (defined in a module, not a notebook).
    """
    setup = make_setup(game, bots, players, variant, options)
    if type(games) is not int or games < 0:
        raise SimulationError(f"the number of games is a whole number >= 0, not {games!r}")
    if type(seed) is not int or seed < 0:
        raise SimulationError(f"the seed is a whole number >= 0, not {seed!r}")
    if workers < 1:
        raise SimulationError(f"workers must be at least 1, not {workers}")
    if executor is None:
        executor = "dask" if client is not None or scheduler else "processes" if workers > 1 else "inline"
    if executor not in EXECUTORS:
        raise SimulationError(f"executor is one of {', '.join(EXECUTORS)}, not {executor!r}")

    store = Store(out) if out is not None else None
    saved = store.load(setup.columns(seed)) if store is not None else None
    frames = [saved] if saved is not None else []
    have = set(saved["game_index"]) if saved is not None else set()
    todo = [index for index in range(games) if index not in have]
    parallel = workers if executor != "inline" else 1
    work = chunks(todo, chunk_size) if chunk_size else default_chunks(todo, parallel)
    done = games - len(todo)
    played: list[tuple[int, Columns]] = []

    if work:
        opened = (
            _inline(setup, seed, work)
            if executor == "inline"
            else _processes(setup, seed, work, workers)
            if executor == "processes"
            else _dask(setup, seed, work, workers, client, scheduler)
        )
        bar = tqdm(total=games, initial=done, unit="game", desc=setup.game, disable=not progress, file=sys.stderr)
        try:
            with _stop_signals_noted() as heard, opened as results:
                for start, stop, part in results:
                    # Kept as the worker sent it: the table is built once, at the end.
                    if store is not None:
                        store.save_part(to_frame(part), start, stop)
                    played.append((start, part))
                    done += stop - start
                    bar.update(stop - start)
                    if on_chunk is not None:
                        on_chunk(done, games)
                    if heard:
                        raise KeyboardInterrupt  # its handler ran, but what it raised was dropped
        finally:
            bar.close()
    if played:
        played.sort(key=lambda pair: pair[0])
        frames.append(pd.DataFrame(merge(part for _, part in played)))  # tidied once, with the saved rows

    table = tidy(pd.concat(frames, ignore_index=True)) if frames else to_frame([])
    if store is not None and (work or store.parts.is_dir() or not store.path.exists()):
        store.finish(table)
    return table[table["game_index"] < games].reset_index(drop=True) if len(table) else table


__all__ = ["EXECUTORS", "Executor", "chunks", "default_chunks", "shutdown_pools", "simulate"]
