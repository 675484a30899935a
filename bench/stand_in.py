"""Stand-ins for a class's browsers: clients that ask `cliplab serve` for what a real page's first visit asks,
without drawing anything.

bench/serve_load.py records what one real Chromium page asks for (a `Recording`: the dashboard's HTML, every
file it then fetched from the server until the dashboard was on screen, its kernel websocket and the messages
it sent there, and the request it sent as it closed). A `StandIn` replays that recording with its own kernel
id in place of the real page's:

1. GET the dashboard page (Voila hands it a kernel of the warm pool; its id is in the page's config), which
   also sets the `_xsrf` cookie;
2. GET every other file the page fetched, in the page's order, over at most 6 connections kept alive (as
   Chromium does for one host), each read to its end;
3. on the kernel's websocket (Jupyter's v1 binary protocol): kernel_info_request, and once answered the
   widget manager's request for every widget's state (a comm to `jupyter.widget.control` and its
   `request_states`), read until the kernel's `update_states` reply; then the comm is closed, as the page does.

It is ready then: it holds everything the real page needs to draw the dashboard. It keeps its websocket open
(an open tab) until closed; closing sends what the page sends as its tab closes (a POST to Voila's shutdown
of its kernel, with the `_xsrf` cookie's value as form data) and closes the websocket.

What a stand-in does not do: run the scripts or draw the page (in a class, each person's machine does that),
and it asks for the next file as soon as a connection is free, where a page asks for some only after running
the scripts that name them. So it is a little harder on the server than a page, never easier.

Run as a script it is bench/serve_load.py's worker: `python bench/stand_in.py RECORDING_JSON COUNT`.
It says "loaded" on stdout, opens COUNT stand-ins at once when it reads "go" on stdin, writes one JSON line
for each as it is ready or has failed, and closes them all when it reads "close" (a last JSON line says how
that went). One process, one asyncio event loop: its CPU time is what the stand-ins cost the machine.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import time
import uuid
import zlib
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from jupyter_server.services.kernels.connection.base import deserialize_msg_from_ws_v1, serialize_msg_to_ws_v1
from tornado.httpclient import HTTPRequest
from tornado.websocket import WebSocketClientConnection, websocket_connect

KERNEL_PROTOCOL = "v1.kernel.websocket.jupyter.org"
CONNECTIONS_PER_HOST = 6  # Chromium's limit for one host over HTTP/1.1
ACCEPT_ENCODING = "gzip, deflate, br, zstd"  # what Chromium accepts
WIDGET_CONTROL = "jupyter.widget.control"
# What a stand-in sends on its kernel's websocket until it is ready, as "channel msg_type [target or method]".
# bench/serve_load.py checks that the real page sent the same first; if Voila's front end changes, it says so.
SENDS = [
    "shell kernel_info_request",
    f"shell comm_open {WIDGET_CONTROL}",
    "shell comm_msg request_states",
    "shell comm_close",
]
CONFIG = re.compile(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', re.S)
# What closing a tab runs first: Voila's beforeunload handler, which sends the kernel's shutdown as a beacon.
# Run in the live page, its beacon is always reported; from a page being closed, Playwright can miss it.
LEAVE_SCRIPT = "window.dispatchEvent(new Event('beforeunload'))"
KERNEL_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def describe(payload: bytes) -> str:
    """A message the page sent on its kernel websocket (v1 protocol), as in SENDS."""
    channel, parts = deserialize_msg_from_ws_v1(payload)
    header, content = json.loads(parts[0]), json.loads(parts[3])
    detail = content.get("target_name") or (content.get("data") or {}).get("method") or ""
    return " ".join(filter(None, [channel, header["msg_type"], detail]))


@dataclass
class Recording:
    """What one real page asked the server for, relative to the server's base URL; its kernel id stands for
    each stand-in's own."""

    base: str  # the server's URL
    kernel: str = ""
    document: str = ""  # the dashboard page
    files: list[str] = field(default_factory=list)  # every other GET until the page was ready, in order
    channels: str = ""  # the kernel websocket
    sent: list[str] = field(default_factory=list)  # what the page sent on it (described as in SENDS)
    on_close: str = ""  # the POST the page sent as it closed
    ready: bool = False  # the page is ready: later GETs are not needed to draw it

    def watch(self, page: Any) -> None:
        """Note what a Playwright page (sync or async API) asks the server for from now on. Its requests are
        heard from its browser context, which also reports the one sent as the page closes."""
        page.context.on("request", lambda request: self.request(request.method, request.url))

        def websocket(socket: Any) -> None:
            self.websocket(socket.url)
            socket.on("framesent", self.frame_sent)

        page.on("websocket", websocket)

    def request(self, method: str, url: str) -> None:
        """A request the page made (only the server's are kept; the first is the dashboard page)."""
        if not url.startswith(self.base):
            return
        path = url.removeprefix(self.base)
        if method == "POST":
            self.on_close = path
        elif not self.document:
            self.document = path
        elif not self.ready:
            self.files.append(path)

    def websocket(self, url: str) -> None:
        path = re.sub(r"^ws", "http", url).removeprefix(self.base)
        found = KERNEL_ID.search(path)
        if path.startswith("api/kernels/") and found:
            self.channels, self.kernel = path, found.group(0)

    def frame_sent(self, payload: bytes | str) -> None:
        if self.channels and isinstance(payload, bytes):
            self.sent.append(describe(payload))

    def problems(self) -> list[str]:
        """Why stand-ins replaying this recording would not ask what the page asked (none: they would)."""
        found = []
        if not (self.document and self.files and self.channels and self.kernel):
            found.append(f"the page's requests were not all seen: {self.document=}, {len(self.files)} files, "
                         f"{self.channels=}")  # fmt: skip
        if self.sent[: len(SENDS)] != SENDS:
            found.append(f"the page sent {self.sent[: len(SENDS)]} on its kernel websocket, the stand-ins send {SENDS}")
        if not re.fullmatch(r"voila/api/shutdown/" + re.escape(self.kernel), self.on_close):
            found.append(f"the page's request as it closed was {self.on_close!r}, not Voila's kernel shutdown")
        return found


@dataclass
class Answer:
    status: int
    headers: dict[str, str]  # names in lower case; a repeated header keeps its last value
    body: bytes  # as sent (not decompressed)

    def text(self) -> str:
        encoding = self.headers.get("content-encoding", "identity")
        if encoding not in ("identity", "gzip", "deflate"):
            raise RuntimeError(f"cannot read a page sent as {encoding}")
        body = self.body if encoding == "identity" else zlib.decompress(self.body, wbits=zlib.MAX_WBITS | 32)
        return body.decode()


class Client:
    """HTTP/1.1 to one server as a browser tab asks it: at most CONNECTIONS_PER_HOST connections, kept alive,
    requests waiting in order for a free one, the server's cookies sent back.

    A few lines over asyncio's streams rather than an HTTP library, whose own work per request was as much
    as the server's (httpx: 3 ms a request): the stand-ins share the server's cores.
    """

    def __init__(self, base: str) -> None:
        where = urlsplit(base)
        self.host, self.port, self.prefix = where.hostname or "127.0.0.1", where.port or 80, where.path
        self.cookies: dict[str, str] = {}
        self.idle: asyncio.Queue[tuple[asyncio.StreamReader, asyncio.StreamWriter] | None] = asyncio.Queue()
        for _ in range(CONNECTIONS_PER_HOST):
            self.idle.put_nowait(None)  # a connection not opened yet
        self.opened: list[asyncio.StreamWriter] = []

    def cookie(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    async def request(self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None) -> Answer:
        connection = await self.idle.get()
        try:
            if connection is None:
                connection = await asyncio.open_connection(self.host, self.port)
                self.opened.append(connection[1])
            answer, keep = await self._exchange(connection, method, path, body, headers or {})
        except BaseException:
            self.idle.put_nowait(None)
            raise
        self.idle.put_nowait(connection if keep else None)
        return answer

    async def _exchange(
        self,
        connection: tuple[asyncio.StreamReader, asyncio.StreamWriter],
        method: str,
        path: str,
        body: bytes,
        headers: dict[str, str],
    ) -> tuple[Answer, bool]:
        reader, writer = connection
        lines = [
            f"{method} {self.prefix}{path} HTTP/1.1",
            f"Host: {self.host}:{self.port}",
            f"Accept-Encoding: {ACCEPT_ENCODING}",
            *([f"Cookie: {self.cookie()}"] if self.cookies else []),
            # The page's scripts send the cookie's value with their requests, as Jupyter's front end does.
            *([f"X-XSRFToken: {self.cookies['_xsrf']}"] if "_xsrf" in self.cookies else []),
            *(f"{name}: {value}" for name, value in headers.items()),
            *([f"Content-Length: {len(body)}"] if body else []),
        ]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(head[0].split()[1])
        answer = Answer(status, {}, b"")
        for line in filter(None, head[1:]):
            name, _, value = line.partition(":")
            answer.headers[name.strip().lower()] = value.strip()
            if name.strip().lower() == "set-cookie":
                key, _, rest = value.strip().partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        if answer.headers.get("transfer-encoding") == "chunked":
            chunks = []
            while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
                chunks.append((await reader.readexactly(size + 2))[:-2])
            await reader.readuntil(b"\r\n")  # no trailers
            answer.body = b"".join(chunks)
        elif status not in (204, 304):
            answer.body = await reader.readexactly(int(answer.headers.get("content-length", "0")))
        return answer, answer.headers.get("connection", "").lower() != "close"

    def close(self) -> None:
        for writer in self.opened:
            writer.close()


@dataclass
class Arrival:
    """How a stand-in's first visit went."""

    name: str
    ready_ms: float | None = None  # from the first request until the widget state was in
    page_ms: float | None = None  # ... until the dashboard page was in
    files_ms: float | None = None  # ... until every file was in
    kernel: str | None = None
    files: int = 0  # responses read (the dashboard page and every file)
    bytes: int = 0  # their bodies as sent (compressed, where the server compressed them)
    states: int = 0  # widgets in the kernel's update_states reply
    state_bytes: int = 0  # the size of that reply as received
    models: list[str] = field(default_factory=list)  # the widgets' model names, each once
    errors: list[str] = field(default_factory=list)


class StandIn:
    def __init__(self, recording: Recording, name: str, timeout: float = 300.0) -> None:
        self.base, self.recording, self.timeout = recording.base, recording, timeout
        self.arrival = Arrival(name)
        self.session = str(uuid.uuid4())
        self.started = 0.0  # time.perf_counter() at the first request
        self.client = Client(recording.base)
        self.states: dict[str, Any] = {}  # the widgets' states from the kernel, by model id
        self.socket: WebSocketClientConnection | None = None
        self.draining: asyncio.Task[None] | None = None

    async def open(self) -> Arrival:
        """The first visit, until the stand-in holds all the page needs; errors are noted, not raised."""
        self.started = time.perf_counter()
        try:
            await asyncio.wait_for(self._visit(), self.timeout)
            self.arrival.ready_ms = self._since_start()
        except Exception as err:
            self.arrival.errors.append(f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}")
        return self.arrival

    async def _visit(self) -> None:
        page = await self._get(self.recording.document)
        found = CONFIG.search(page.text())
        if not found:
            raise RuntimeError("the dashboard page carries no jupyter-config-data")
        kernel = json.loads(found.group(1))["kernelId"]
        self.arrival.kernel, self.arrival.page_ms = kernel, self._since_start()
        await asyncio.gather(*(self._get(path.replace(self.recording.kernel, kernel)) for path in self.recording.files))
        self.arrival.files_ms = self._since_start()
        await self._widget_state(kernel)

    def _since_start(self) -> float:
        return (time.perf_counter() - self.started) * 1000

    async def _get(self, path: str) -> Answer:
        answer = await self.client.request("GET", path)
        if answer.status != 200:
            raise RuntimeError(f"GET {path[:80]} answered {answer.status}")
        self.arrival.files += 1
        self.arrival.bytes += len(answer.body)
        return answer

    def _message(self, msg_type: str, content: dict[str, Any], metadata: dict[str, Any] | None = None) -> bytes:
        header = {
            "msg_id": str(uuid.uuid4()),
            "msg_type": msg_type,
            "session": self.session,
            "username": "",
            "date": datetime.now(UTC).isoformat(),
            "version": "5.2",
        }
        message = {"header": header, "parent_header": {}, "metadata": metadata or {}, "content": content}
        return bytes(serialize_msg_to_ws_v1(message, "shell", pack=lambda part: json.dumps(part).encode()))

    async def _send(self, msg_type: str, content: dict[str, Any], metadata: dict[str, Any] | None = None) -> str:
        payload = self._message(msg_type, content, metadata)
        assert self.socket is not None
        await self.socket.write_message(payload, binary=True)
        return str(json.loads(deserialize_msg_from_ws_v1(payload)[1][0])["msg_id"])

    async def _reply(self, parent: str, channel: str, msg_type: str) -> tuple[dict[str, Any], int]:
        """The next message on `channel` of `msg_type` answering `parent`: its content and size."""
        assert self.socket is not None
        while True:
            payload = await self.socket.read_message()
            if payload is None:
                raise RuntimeError(f"the kernel websocket closed while waiting for {msg_type}")
            if isinstance(payload, str):
                continue
            got, parts = deserialize_msg_from_ws_v1(payload)
            header, parent_header = json.loads(parts[0]), json.loads(parts[1])
            if got == channel and header["msg_type"] == msg_type and parent_header.get("msg_id") == parent:
                return json.loads(parts[3]), len(payload)

    async def _widget_state(self, kernel: str) -> None:
        channels = self.recording.channels.replace(self.recording.kernel, kernel)
        channels = re.sub(r"session_id=[^&]*", f"session_id={self.session}", channels)
        request = HTTPRequest(
            re.sub(r"^http", "ws", self.base) + channels,
            headers={"Cookie": self.client.cookie()},
        )
        self.socket = await websocket_connect(request, subprotocols=[KERNEL_PROTOCOL])
        asked = await self._send("kernel_info_request", {})
        await self._reply(asked, "shell", "kernel_info_reply")
        comm = str(uuid.uuid4())
        opening = {"comm_id": comm, "target_name": WIDGET_CONTROL, "data": {}}
        await self._send("comm_open", opening, {"version": "1.0.0"})
        asked = await self._send("comm_msg", {"comm_id": comm, "data": {"method": "request_states"}})
        while True:
            content, size = await self._reply(asked, "iopub", "comm_msg")
            if content["data"].get("method") == "update_states":
                break
        self.states = states = content["data"]["states"]
        self.arrival.states, self.arrival.state_bytes = len(states), size
        self.arrival.models = sorted({state["model_name"] for state in states.values()})
        await self._send("comm_close", {"comm_id": comm, "data": {}})
        self.draining = asyncio.ensure_future(self._drain())

    async def _drain(self) -> None:
        """Read what the kernel still sends while the 'tab' is open, as the page does."""
        assert self.socket is not None
        while await self.socket.read_message() is not None:
            pass

    async def close(self) -> list[str]:
        """As the tab closes: the page's request for its kernel's end, then its websocket closes."""
        errors = []
        try:
            if self.arrival.kernel:
                # As navigator.sendBeacon sends the page's FormData: the _xsrf cookie's value, multipart.
                path = self.recording.on_close.replace(self.recording.kernel, self.arrival.kernel)
                boundary = uuid.uuid4().hex
                form = (
                    f'--{boundary}\r\nContent-Disposition: form-data; name="_xsrf"\r\n\r\n'
                    f"{self.client.cookies.get('_xsrf', '')}\r\n--{boundary}--\r\n"
                )
                kind = f"multipart/form-data; boundary={boundary}"
                answer = await self.client.request("POST", path, form.encode(), {"Content-Type": kind})
                if answer.status >= 400:
                    errors.append(f"POST {path} answered {answer.status}")
        except Exception as err:
            errors.append(f"closing: {type(err).__name__}: {err}")
        if self.socket is not None:
            self.socket.close()
        if self.draining is not None:
            await asyncio.gather(self.draining, return_exceptions=True)
        self.client.close()
        return errors


async def _worker(recording: Recording, count: int) -> None:
    loop = asyncio.get_running_loop()
    lines = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(lines), sys.stdin)

    def say(record: dict[str, Any]) -> None:
        print(json.dumps(record), flush=True)

    print("loaded", flush=True)
    if (await lines.readline()).strip() != b"go":
        return
    stand_ins = [StandIn(recording, f"stand-in {k + 1}") for k in range(count)]

    async def arrive(stand_in: StandIn) -> None:
        say(asdict(await stand_in.open()))

    await asyncio.gather(*(arrive(stand_in) for stand_in in stand_ins))
    await lines.readline()  # "close" (or the end of stdin: the bench is gone)
    errors = await asyncio.gather(*(stand_in.close() for stand_in in stand_ins))
    say({"closed": {s.arrival.name: e for s, e in zip(stand_ins, errors, strict=True) if e}})


if __name__ == "__main__":
    recorded, how_many = sys.argv[1:]
    with open(recorded) as file:
        asyncio.run(_worker(Recording(**json.load(file)), int(how_many)))
