"""The `cliplab` command: `cliplab serve` (the playtest dashboards), `cliplab simulate` (batch runs) and
`cliplab compare` (two setups of a game on the same seeds, each metric's difference with its interval)."""

from __future__ import annotations

import argparse
import errno
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import webbrowser
from collections.abc import Sequence
from pathlib import Path

DEFAULT_PORT = 8866
INTERRUPTED = 130  # the exit code of a command stopped by Ctrl-C or kill
# A kernel no page is connected to is ended this long after its last activity: a page fetched and never
# opened, or closed without asking for its kernel's end, leaves nothing behind. (A closing page asks.)
DEFAULT_CULL_AFTER = 120
# Kernels talk to the server over Unix sockets where there are any. Over TCP each kernel binds five ports
# picked free a moment before; when a class opens its pages, one of them may meanwhile be taken (by the
# browsers' own connections, say), and that kernel dies starting, five times over, and its page shows
# "Kernel does not exist" after a minute and a half.
KERNEL_TRANSPORT = ["--KernelManager.transport=ipc"] if os.name == "posix" else []
LOOPBACK = ("127.0.0.1", "localhost", "::1")
_PACKAGE = Path(__file__).resolve().parent


def dashboards_folder() -> Path:
    """Where the dashboards are: the checkout's notebooks/dashboards, else the copy inside the wheel."""
    for folder in (
        Path.cwd() / "notebooks" / "dashboards",
        _PACKAGE.parent / "notebooks" / "dashboards",
        _PACKAGE / "_dashboards",
    ):
        if (folder / "index.ipynb").exists():
            return folder
    raise SystemExit("cliplab serve: no dashboards found (looked for notebooks/dashboards/index.ipynb)")


def teach_folder(dashboards: Path) -> Path:
    """The teaching notebooks that come with these dashboards: notebooks/teach beside them, or the wheel's copy."""
    return dashboards.parent / ("_teach" if dashboards.name == "_dashboards" else "teach")


def parse_pool(sizes: Sequence[str]) -> tuple[int, dict[str, int]]:
    """`--pool` values: `N` warm kernels for every dashboard, `NAME=N` for one (named without .ipynb).

    Returns the size for every dashboard (1 unless given) and the sizes of the named ones.
    """
    every, named = 1, {}
    for size in sizes:
        name, _, count = size.rpartition("=")
        if not count.isdigit() or not (name == "" or name.isidentifier()):
            raise SystemExit(f"cliplab serve: --pool {size!r} is neither N nor DASHBOARD=N (a whole number of kernels)")
        if name:
            named[name] = int(count)
        else:
            every = int(count)
    return every, named


def _check_port(ip: str, port: int) -> None:
    with socket.socket() as probe:
        # As the server itself does: connections of a server that just stopped (TIME-WAIT) do not count.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((ip, port))
        except OSError as err:
            reason = "is taken by another program" if err.errno == errno.EADDRINUSE else f"cannot be used ({err})"
            raise SystemExit(f"cliplab serve: port {port} on {ip} {reason}; choose another with --port") from None


def _check_exposure(ip: str, token: str | None) -> None:
    if ip not in LOOPBACK and token is None:
        raise SystemExit(
            f"cliplab serve: --ip {ip} lets other machines in, and without a token anyone who can reach this one "
            "could run the dashboards' kernels. Add --token (a random one is made and printed with the address) "
            "and give the class the printed address."
        )


def voila_command(
    folder: Path,
    ip: str,
    port: int,
    token: str | None,
    cull_after: int = DEFAULT_CULL_AFTER,
    pool: tuple[int, dict[str, int]] = (1, {}),
) -> list[str]:
    """Voila over the dashboards with safe defaults: no sources, no tracebacks, kernels warmed ahead.

    Its root leads to the gallery, the teaching notebooks are at /teach/<game> (cliplab.ui.voila_server),
    and its own banner, which names the root, is left out so that the one address printed is the gallery's.
    `pool` is what parse_pool returns: how many warm kernels each dashboard keeps ready.
    """
    every, named = pool
    return [
        sys.executable,
        "-m",
        "cliplab.ui.voila_server",
        str(folder),
        "--no-browser",
        f"--port={port}",
        f"--Voila.ip={ip}",
        "--Voila.port_retries=0",
        "--strip_sources=True",
        "--show_tracebacks=False",
        "--preheat_kernel=True",
        f"--pool_size={every}",
        *(f"--GalleryVoila.pool_sizes={name}.ipynb={size}" for name, size in named.items()),
        f"--GalleryVoila.teach_dir={teach_folder(folder)}",
        # Voila drops a cell's output after 4 s by default; under a class's load kernels answer later.
        "--VoilaExecutor.iopub_timeout=60",
        "--Voila.log_level=WARN",
        f"--MappingKernelManager.cull_idle_timeout={cull_after}",
        f"--MappingKernelManager.cull_interval={max(1, cull_after // 4)}",
        *KERNEL_TRANSPORT,
        f"--token={token or ''}",
    ]


def _listening(process: subprocess.Popen[bytes], ip: str, port: int) -> bool:
    """Wait until the server accepts connections (True) or has ended (False)."""
    host = "127.0.0.1" if ip in ("0.0.0.0", "") else ip
    while process.poll() is None:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.2)
    return False


def serve(args: argparse.Namespace) -> int:
    folder = dashboards_folder()
    pool = parse_pool(args.pool)
    unknown = sorted(set(pool[1]) - {book.stem for book in folder.glob("*.ipynb")})
    if unknown:
        raise SystemExit(f"cliplab serve: --pool names no dashboard called {', '.join(unknown)}")
    _check_exposure(args.ip, args.token)
    _check_port(args.ip, args.port)
    token = None
    if args.token is not None:
        token = args.token or secrets.token_urlsafe(16)
    # The server root leads to the gallery, so this short address is the one a class types.
    url = f"http://{args.ip}:{args.port}/" + (f"?token={token}" if token else "")
    process = subprocess.Popen(voila_command(folder, args.ip, args.port, token, args.cull_after, pool))
    # A plain `kill` (SIGTERM) of this command stops Voila the same way as Ctrl-C. SIGINT is named too:
    # a shell that starts a command in the background (`&`) hands it down ignored.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        # The address is printed once it answers, so whoever opens it at once finds the gallery.
        if _listening(process, args.ip, args.port):
            print(f"cliplab: the playtest gallery is at {url}\n(Ctrl-C stops the server and its kernels)", flush=True)
            if args.open:
                webbrowser.open(url)
        return process.wait()
    except KeyboardInterrupt:
        # SIGTERM makes Voila shut its kernels down and exit without asking for confirmation.
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        return 0


def simulate(args: argparse.Namespace) -> int:
    from cliplab.sim.command import run

    return run(args)


def compare(args: argparse.Namespace) -> int:
    from cliplab.sim.command import compare_run

    return compare_run(args)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cliplab", description="A lab for paper-and-grid board games.")
    commands = parser.add_subparsers(dest="command", required=True)
    serving = commands.add_parser("serve", help="serve the playtest dashboards with Voila")
    serving.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port to listen on (default {DEFAULT_PORT})")
    serving.add_argument(
        "--ip", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)"
    )
    serving.add_argument(
        "--token",
        nargs="?",
        const="",
        default=None,
        help="require this token in every request (a random one if none is given)",
    )
    serving.add_argument(
        "--cull-after",
        type=int,
        default=DEFAULT_CULL_AFTER,
        metavar="SECONDS",
        help="end a kernel no page is connected to (a page never opened, or closed without saying so) this long "
        f"after its last activity (default {DEFAULT_CULL_AFTER})",
    )
    serving.add_argument(
        "--pool",
        action="append",
        default=[],
        metavar="N or DASHBOARD=N",
        help="warm kernels kept ready: N for every dashboard (default 1), or DASHBOARD=N for one, e.g. "
        "click_crack=30 before a class opens it together (repeat for several); see docs/classroom.md",
    )
    serving.add_argument("--open", action="store_true", help="open the gallery in a web browser")
    serving.set_defaults(run=serve)
    simulating = commands.add_parser(
        "simulate",
        help="play many seeded games with bots; print design metrics with 95%% intervals and save the results",
    )
    from cliplab.sim.command import add_arguments, add_compare_arguments

    add_arguments(simulating)
    simulating.set_defaults(run=simulate)
    comparing = commands.add_parser(
        "compare",
        help="play two setups of a game on the same seeds; print each metric's difference with its 95%% interval, "
        "whether it is significant and the games per side needed",
    )
    add_compare_arguments(comparing)
    comparing.set_defaults(run=compare)
    args = parser.parse_args(argv)
    result: int = args.run(args)
    if result == INTERRUPTED and args.command in ("simulate", "compare") and argv is None:
        # Stopped by Ctrl-C or kill from the command line: the finished chunks are saved, but the abandoned
        # worker pool's feeder thread can stay blocked on a pipe its stopped workers no longer read, and
        # Python would wait for that thread at exit for ever. Nothing is left to clean up: leave now.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(result)
    return result


if __name__ == "__main__":
    raise SystemExit(main())
