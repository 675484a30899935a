"""`cliplab simulate` and `cliplab compare`: the command-line faces of `cliplab.sim` (cliplab/cli.py adds
the subcommands).

    cliplab simulate clipcut_parks --players 1 --bots heuristic --games 500
    cliplab compare clipcut_parks --players 1 --a "//heuristic" --b "/allow_flip=yes/heuristic" --games 500

A side of a comparison is written "variant/options/bots": a named variant (empty or "default": the
rules as they are), options "name=value,name=value", and one bot for every seat or one per seat; parts
left out at the end, or left empty, take their defaults ("snake" alone is the snake variant played by
--bots).
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cliplab.engine import CliplabError

from .play import EXECUTORS, Setup, SimulationError, make_setup

if TYPE_CHECKING:
    import pandas as pd

    from cliplab.engine.game import Option

# The epilog that _Help replaces by the registry's games (worked out only when help is shown).
_REGISTRY = "\0registry"


def registry_text() -> str:
    """Every registered game with its players, bots, variants and options, as --help lists them."""
    from cliplab.engine import games, spec
    from cliplab.kit import declaration

    lines = ["games (from the registry):"]
    for name in games():
        game = spec(name)
        kit = declaration(name)
        seats = f"{game.min_players}-{game.max_players}" if game.max_players > game.min_players else game.min_players
        lines.append(f"  {name} ({game.title}, {seats} players, default {game.default_players})")
        bots = [f"{bot} (default)" if bot == kit.default_bot else bot for bot in kit.bot_names()]
        lines.append(f"    bots: {', '.join(bots)}")
        lines.append(f"    variants: {', '.join(game.variants) or '(none)'}")
        for option in game.options:
            lines.append(f"    option {option_text(option)}: {option.help}")
    return "\n".join(lines)


def option_text(option: Option) -> str:
    """How an option is written and what it takes, e.g. "allow_flip=yes|no (default no)"."""
    if option.choices:
        values = "|".join(str(choice) for choice in option.choices)
    elif option.kind is bool:
        values = "yes|no"
    elif option.minimum is not None or option.maximum is not None:
        low = "" if option.minimum is None else option.minimum
        high = "" if option.maximum is None else option.maximum
        values = f"{low}..{high}"
    else:
        values = option.kind.__name__
    default = ("yes" if option.default else "no") if option.kind is bool else option.default
    return f"{option.name}={values} (default {default})"


class _Help(argparse.HelpFormatter):
    """Help whose epilog lists the registry's games, imported only when help is shown (a run of one game
    imports only that game)."""

    def _format_text(self, text: str) -> str:
        if text == _REGISTRY:
            return registry_text() + "\n\n"
        return super()._format_text(text)


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = _Help
    parser.epilog = _REGISTRY
    parser.add_argument("game", help="a registered game, e.g. click_crack (all of them are listed below)")
    parser.add_argument("--players", type=int, help="number of seats (default: one per bot, or the game's default)")
    parser.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--executor",
        choices=EXECUTORS,
        help="where games run: inline (this process), processes (local pool) or dask "
        "(default: dask with --scheduler, processes with --workers > 1, else inline)",
    )
    parser.add_argument(
        "--scheduler", help="address of a Dask scheduler, e.g. tcp://10.0.0.5:8786 (its workers need cliplab)"
    )
    parser.add_argument("--chunk-size", type=int, help="games per chunk (the unit that is saved and resumed)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


_BOTS_HELP = (
    "one bot for every seat or one per seat, comma-separated: a bot of the game (listed below), default (the "
    "game's default bot) or package.module:factory"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of `cliplab simulate`."""
    _add_common(parser)
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule option (repeatable), e.g. --option round_limit=20",
    )
    parser.add_argument("--variant", help="a named variant of the game")
    parser.add_argument("--bots", default="random", help=_BOTS_HELP + " (default: random)")
    parser.add_argument(
        "--out",
        help="results file, .parquet or .csv: saved chunk by chunk; rerunning the same command resumes it",
    )


def add_compare_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of `cliplab compare`."""
    _add_common(parser)
    side = 'setup %s as "variant/options/bots", e.g. "snake", "/round_limit=20/heuristic" or "//random,heuristic"'
    parser.add_argument("--a", required=True, metavar="SETUP", help=side % "a")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--b", metavar="SETUP", help=side % "b" + "; the same seeds as a")
    which.add_argument(
        "--sweep",
        metavar="NAME=V1,V2,...",
        help="instead of --b: play setup a with the option NAME at each value (same seeds each time) and print "
        "each metric against the value, marked * where it differs significantly from the first value",
    )
    parser.add_argument("--bots", default="random", help=_BOTS_HELP + " (for a side that names none; default random)")
    parser.add_argument(
        "--out",
        metavar="FILE",
        help="save both runs' tables: FILE.parquet (or .csv) gives FILE-a.parquet and FILE-b.parquet (a sweep: "
        "FILE-NAME=V.parquet), saved chunk by chunk; rerunning the same command resumes them",
    )
    parser.add_argument(
        "--plot",
        metavar="FILE.png",
        help="also draw the result: the score distributions and every difference with its interval (as on the "
        "comparison page), or for a sweep the metrics against the value",
    )


def parse_options(items: Sequence[str], flag: str = "--option") -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in items:
        name, equals, value = item.partition("=")
        if not equals or not name.strip():
            raise SimulationError(f"{flag} takes NAME=VALUE, not {item!r}")
        options[name.strip()] = value.strip()
    return options


def parse_side(text: str, flag: str, bots: str = "random") -> tuple[str | None, dict[str, Any], str]:
    """(variant, options, bots) of a side written "variant/options/bots" (see the module docstring)."""
    parts = text.split("/")
    if len(parts) > 3:
        raise SimulationError(f'{flag} is written "variant/options/bots", with at most two "/", not {text!r}')
    variant, options, chosen = [*(part.strip() for part in parts), "", ""][:3]
    items = [item for item in options.replace(";", ",").split(",") if item.strip()]
    return (
        None if variant in ("", "default") else variant,
        parse_options(items, f"{flag} (its options)"),
        chosen or bots,
    )


def side_files(out: str, sides: Sequence[str] = ("a", "b")) -> list[str]:
    """The result files of `cliplab compare --out FILE`: FILE with -a, -b (or -NAME=V) before its suffix."""
    path = Path(out)
    return [str(path.with_name(f"{path.stem}-{side}{path.suffix}")) for side in sides]


def parse_sweep(text: str) -> tuple[str, list[str]]:
    """(option name, its values) of `--sweep NAME=V1,V2,...`."""
    name, equals, values = text.partition("=")
    listed = [value.strip() for value in values.split(",") if value.strip()]
    if not equals or not name.strip() or len(listed) < 2:
        raise SimulationError(f"--sweep takes NAME=V1,V2,... with at least two values, not {text!r}")
    return name.strip(), listed


def _simulate(args: argparse.Namespace, setup: Setup, out: str | None) -> pd.DataFrame:
    from .run import simulate

    # A plain `kill` (SIGTERM) stops a run as Ctrl-C does: the worker processes are stopped with it and
    # the finished chunks stay saved.
    previous = signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        return simulate(
            setup.game,
            list(setup.bots),
            args.games,
            args.seed,
            players=setup.players,
            variant=setup.variant,
            options=setup.options,
            workers=args.workers,
            executor=args.executor or ("dask" if args.scheduler else None),
            scheduler=args.scheduler,
            out=out,
            chunk_size=args.chunk_size,
            progress=not args.no_progress,
        )
    finally:
        signal.signal(signal.SIGTERM, previous)


def _distribution(label: str, table: pd.DataFrame) -> str:
    from .metrics import format_distribution

    return f"final score, {label} ({len(table)} games):\n{format_distribution(table)}"


def run(args: argparse.Namespace) -> int:
    """`cliplab simulate`: one setup, its summary (and, solo, its score's distribution)."""
    # pandas and the executors are imported only when a simulation really runs (not for `cliplab serve`).
    from .metrics import format_table, summary

    try:
        options = parse_options(args.option)
        setup = make_setup(args.game, args.bots, args.players, args.variant, options)
        print(f"{setup.describe()}; {args.games} games from seed {args.seed}", flush=True)
        start = time.perf_counter()
        table = _simulate(args, setup, args.out)
    except KeyboardInterrupt:
        return _interrupted([args.out] if args.out else [])
    except (CliplabError, SimulationError) as err:
        print(f"cliplab simulate: {err}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - start
    print(f"{len(table)} games in {seconds:.1f} s" + (f"; results in {args.out}" if args.out else ""))
    if len(table):
        print()
        print(format_table(summary(table)))
        if setup.players == 1:
            print()
            print(_distribution("solo", table))
    return 0


def verdict(comparison: pd.DataFrame) -> list[str]:
    """What a designer reads first: which metrics differ significantly, and what the others would need."""
    from .metrics import count_text, number_text

    def signed(value: float) -> str:
        return ("+" if value > 0 else "") + number_text(value)

    significant = comparison[comparison["significant"]]
    lines = [f"{len(significant)} of {len(comparison)} metrics differ significantly (b - a, 95% interval):"]
    lines += [
        f"  {name}: {signed(row['difference'])} ({signed(row['low'])} to {signed(row['high'])})"
        for name, row in significant.iterrows()
    ]
    closer = comparison[~comparison["significant"] & (comparison["games_needed"] < float("inf"))]
    if len(closer):
        lines.append("not significant; the closest, with the games per side a true difference of that size needs:")
        lines += [
            f"  {name}: {signed(row['difference'])} ({signed(row['low'])} to {signed(row['high'])}), "
            f"about {count_text(row['games_needed'])} games"
            for name, row in closer.sort_values("games_needed").head(3).iterrows()
        ]
    if len(comparison) >= 20:
        lines.append(
            f"With {len(comparison)} metrics about {len(comparison) / 20:.0f} may look significant by chance: "
            "judge by the metric that answers your question."
        )
    return lines


def compare_run(args: argparse.Namespace) -> int:
    """`cliplab compare`: both setups (or every value of a sweep) on the same seeds, then each metric's
    difference with its interval and the verdict."""
    outs: list[str | None] = []
    option = ""
    try:
        variant, options, bots = parse_side(args.a, "--a", args.bots)
        if args.sweep:
            option, values = parse_sweep(args.sweep)
            labels = [f"{option}={value}" for value in values]
            sides = [(variant, {**options, option: value}, bots) for value in values]
        else:
            labels = ["a", "b"]
            sides = [(variant, options, bots), parse_side(args.b, "--b", args.bots)]
        setups = [make_setup(args.game, chosen, args.players, rules, given) for rules, given, chosen in sides]
        seats = {setup.players for setup in setups}
        if len(seats) > 1:
            raise SimulationError(
                f"setup a has {setups[0].players} seats and setup b {setups[1].players}: compare the same number of "
                "players (give --players, or as many bots on each side)"
            )
        if args.games < 2:
            raise SimulationError("a comparison needs at least 2 games per side")
        if args.plot and not args.plot.endswith(".png"):
            raise SimulationError(f"--plot writes a .png file, not {args.plot!r}")
        outs = list(side_files(args.out, labels)) if args.out else [None] * len(labels)
        for label, setup in zip(labels, setups, strict=True):
            print(f"{label}: {setup.describe()}", flush=True)
        print(f"{args.games} games per side from seed {args.seed}: game i has the same seeds on every side", flush=True)
        start = time.perf_counter()
        tables = [_simulate(args, setup, out) for setup, out in zip(setups, outs, strict=True)]
    except KeyboardInterrupt:
        return _interrupted([out for out in outs if out])
    except (CliplabError, SimulationError) as err:
        print(f"cliplab compare: {err}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - start
    saved = f"; results in {', '.join(out for out in outs if out)}" if args.out else ""
    print(f"{' + '.join(str(len(table)) for table in tables)} games in {seconds:.1f} s{saved}")
    results = dict(zip(labels, tables, strict=True))
    picture = _sweep(option, results) if args.sweep else _pair(results)
    if setups[0].players == 1:
        for label, table in results.items():
            print()
            print(_distribution(label, table))
    if args.plot:
        Path(args.plot).write_bytes(picture())
        print(f"\nplot in {args.plot}")
    return 0


def _pair(results: dict[str, pd.DataFrame]) -> Callable[[], bytes]:
    """Print the comparison of a and b and its verdict; returns what draws its picture."""
    from .metrics import compare, format_table
    from .plots import comparison_png

    comparison = compare(results["a"], results["b"])
    print()
    print(format_table(comparison))
    print()
    print("\n".join(verdict(comparison)))
    return lambda: comparison_png(results, comparison)


def _sweep(option: str, results: dict[str, pd.DataFrame]) -> Callable[[], bytes]:
    """Print each metric at every value of the swept option, * where it differs significantly from the first
    value, and which metrics those are; returns what draws the metrics against the value."""
    from .metrics import compare, number_text, summary
    from .plots import sweep_png

    first, *others = results
    summaries = {label: summary(table) for label, table in results.items()}
    against = {label: compare(results[first], results[label]) for label in others}
    header = ["metric", *results]
    rows = []
    for name in summaries[first].index:
        cells = [str(name)]
        for label in results:
            value = summaries[label]["value"].get(name, float("nan"))
            mark = (
                "*"
                if label in against and name in against[label].index and against[label].loc[name, "significant"]
                else ""
            )
            cells.append(number_text(value) + mark)
        rows.append(cells)
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    print()
    for row in [header, ["-" * width for width in widths], *rows]:
        print(
            "  ".join(
                cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            )
        )
    print(f"\n* differs significantly from {first} (95% interval of the difference excludes 0)")
    changed = [
        name
        for name in summaries[first].index
        if any(name in c.index and c.loc[name, "significant"] for c in against.values())
    ]
    print(
        f"{len(changed)} metrics change significantly somewhere in the sweep"
        + (": " + ", ".join(changed) if changed else "")
    )
    shown = (
        changed
        + [
            name
            for name in summaries[first].index
            if name not in changed and summaries[first].loc[name, "group"] == "scores"
        ]
    )[:9]
    values = {label.split("=", 1)[1]: table for label, table in results.items()}
    return lambda: sweep_png(option, values, shown)


def _interrupted(outs: list[str]) -> int:
    if outs:
        print(f"\ninterrupted: finished chunks are saved; run the same command again to resume {' and '.join(outs)}")
    return 130


__all__ = [
    "add_arguments",
    "add_compare_arguments",
    "compare_run",
    "option_text",
    "parse_options",
    "parse_side",
    "parse_sweep",
    "registry_text",
    "run",
    "side_files",
    "verdict",
]
