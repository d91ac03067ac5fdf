"""Helpers shared by the LPEC client tests."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
import socket
import struct
from typing import Any

# Small values so faults are detected and repaired in well under a second.
FAST: dict[str, Any] = {
    "connect_timeout": 1.0,
    "action_timeout": 1.0,
    "keepalive_interval": 10.0,
    "keepalive_timeout": 0.3,
    "reconnect_min": 0.02,
    "reconnect_max": 0.2,
}


type Serve = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Coroutine[Any, Any, None]]


@asynccontextmanager
async def serving(serve: Serve) -> AsyncIterator[int]:
    """A loopback server that runs `serve` for each connection; yields its port."""
    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        server.close()
        await server.wait_closed()


def assert_no_lpec_tasks() -> None:
    """After close(), none of the library's tasks (all named lpec-*) may be left."""
    left = [t for t in asyncio.all_tasks() if t.get_name().startswith("lpec-") and not t.done()]
    assert not left, left


PEER_UDN = "4c494e4e-0050-c221-71e5-df000003013f"
GREETING = f"ALIVE Ds {PEER_UDN}\r\nALIVE MediaRenderer {PEER_UDN}-mr\r\n".encode()


class ScriptedPeer:
    """A TCP peer playing a script, for device answers the emulator cannot produce.

    On connect it writes `greeting`; then `hangup` ("close": FIN, "reset": RST) ends the
    connection at once, else each received line (stripped) goes to `answer`, whose
    return value (raw text, line endings included) is written back when not None.
    A late answer goes through `deferred`, on the connection that carried the line.
    """

    def __init__(
        self,
        answer: Callable[[str], str | None] = lambda _line: None,
        *,
        greeting: bytes = GREETING,
        hangup: str | None = None,
    ) -> None:
        self.answer = answer
        self.greeting = greeting
        self.hangup = hangup
        self.received: list[str] = []
        self.connections = 0
        self.ended = asyncio.Event()
        """Set when a client closed its end (EOF or reset)."""
        self._server: asyncio.Server | None = None
        self._writers: list[asyncio.StreamWriter] = []
        self._answering: asyncio.StreamWriter | None = None

    async def __aenter__(self) -> ScriptedPeer:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        for writer in self._writers:
            writer.transport.abort()
        await self._server.wait_closed()

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.sockets[0].getsockname()[1])

    def write_all(self, text: str) -> None:
        """Write to every open connection."""
        for writer in self._writers:
            _write_if_open(writer, text)

    def deferred(self, text: str) -> Callable[[], None]:
        """From `answer`: a function that writes `text`, when called, on this line's connection.

        For a reply that comes late. A device answers on the connection that carried the
        command; `write_all` would also reach a newer connection, where the old reply can
        pass for the reply to the command in flight there.
        """
        writer = self._answering
        assert writer is not None, "deferred() is for use inside answer()"
        return lambda: _write_if_open(writer, text)

    def reset_all(self) -> None:
        """Abort every connection with a TCP RST."""
        for writer in self._writers:
            reset(writer)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.append(writer)
        self.connections += 1
        writer.write(self.greeting)
        if self.hangup == "close":
            await writer.drain()
            writer.close()
            return
        if self.hangup == "reset":
            await writer.drain()
            reset(writer)
            return
        try:
            while line := await reader.readline():
                text = line.decode().strip()
                self.received.append(text)
                self._answering = writer
                try:
                    reply = self.answer(text)
                finally:
                    self._answering = None
                if reply is not None:
                    writer.write(reply.encode())
        except ConnectionError:
            pass
        self.ended.set()


def _write_if_open(writer: asyncio.StreamWriter, text: str) -> None:
    if not writer.is_closing():
        writer.write(text.encode())


def reset(writer: asyncio.StreamWriter) -> None:
    """Close with RST (SO_LINGER 0) instead of FIN."""
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()
