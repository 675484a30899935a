"""`cliplab simulate`: the command-line face of `cliplab.sim.simulate` (cliplab/cli.py adds the subcommand)."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from cliplab.engine import CliplabError

from .play import EXECUTORS, SimulationError, make_setup


class _Help(argparse.HelpFormatter):
    """Help that lists each registered game's bots from its declaration, worked out only when help is shown
    (it imports every game, which a run of one game does not)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = super()._get_help_string(action)
        if action.dest != "bots" or text is None:
            return text
        from cliplab.engine import games
        from cliplab.kit import declaration

        listed = [f"{name}: {', '.join(declaration(name).bots)}" for name in games()]
        return f"{text}. Bots of each game: {'; '.join(listed)}"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = _Help
    parser.add_argument("game", help="a registered game, e.g. click_crack")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule option (repeatable), e.g. --option round_limit=20",
    )
    parser.add_argument("--variant", help="a named variant of the game")
    parser.add_argument("--players", type=int, help="number of seats (default: one per bot, or the game's default)")
    parser.add_argument(
        "--bots",
        default="random",
        help="one bot for every seat or one per seat, comma-separated: a bot of the game, default (the "
        "game's default bot) or package.module:factory (default: random)",
    )
    parser.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--executor",
        choices=EXECUTORS,
        help="where games run: inline (this process), processes (local pool) or dask "
        "(default: dask with --scheduler, processes with --workers > 1, else inline)",
    )
    parser.add_argument("--scheduler", help="address of a Dask scheduler, e.g. tcp://10.0.0.5:8786")
    parser.add_argument("--chunk-size", type=int, help="games per chunk (the unit that is saved and resumed)")
    parser.add_argument(
        "--out",
        help="results file, .parquet or .csv: saved chunk by chunk; rerunning the same command resumes it",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def parse_options(items: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in items:
        name, equals, value = item.partition("=")
        if not equals or not name.strip():
            raise SimulationError(f"--option takes NAME=VALUE, not {item!r}")
        options[name.strip()] = value.strip()
    return options


def run(args: argparse.Namespace) -> int:
    # pandas and the executors are imported only when a simulation really runs (not for `cliplab serve`).
    from .metrics import format_table, summary
    from .run import simulate

    try:
        options = parse_options(args.option)
        setup = make_setup(args.game, args.bots, args.players, args.variant, options)
        executor = args.executor or ("dask" if args.scheduler else None)
        print(f"{setup.describe()}; {args.games} games from seed {args.seed}", flush=True)
        start = time.perf_counter()
        table = simulate(
            args.game,
            list(setup.bots),
            args.games,
            args.seed,
            players=setup.players,
            variant=args.variant,
            options=options,
            workers=args.workers,
            executor=executor,  # type: ignore[arg-type]  # argparse checked it is one of EXECUTORS
            scheduler=args.scheduler,
            out=args.out,
            chunk_size=args.chunk_size,
            progress=not args.no_progress,
        )
    except KeyboardInterrupt:
        if args.out:
            print(f"\ninterrupted: finished chunks are saved; run the same command again to resume {args.out}")
        return 130
    except (CliplabError, SimulationError) as err:
        print(f"cliplab simulate: {err}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - start
    print(f"{len(table)} games in {seconds:.1f} s" + (f"; results in {args.out}" if args.out else ""))
    if len(table):
        print()
        print(format_table(summary(table)))
    return 0


__all__ = ["add_arguments", "parse_options", "run"]
