"""Cover art for the demo: a tiny HTTP server of generated PNGs, and URI rewriting.

The catalog's artwork URIs name hosts of a real home network (a Kazoo server, TuneIn's
CDN) that do not exist here. For `scripts/develop` the emulator can instead point every
artwork URI at this server, which draws a distinct pattern per URI, so Home Assistant's
media player card shows covers without any network beyond loopback. Items without artwork
of their own (inputs, Songcast) get a generated cover too, so every track has one.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import struct
import zlib

SIZE = 240
PATH_PREFIX = "/artwork/"


def _chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def cover_png(name: str, size: int = SIZE) -> bytes:
    """A square RGB PNG: two colours and a stripe angle chosen by the name's hash."""
    digest = hashlib.sha256(name.encode()).digest()
    ink, paper = digest[0:3], bytes(255 - (c // 3) for c in digest[3:6])
    period = 16 + digest[6] % 32
    slope = 1 + digest[7] % 3
    rows = bytearray()
    for y in range(size):
        rows.append(0)  # filter: none
        for x in range(size):
            rows += ink if ((x + slope * y) // period) % 2 else paper
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(bytes(rows), 6))
        + _chunk(b"IEND", b"")
    )


_base_url: str | None = None


def serve_covers_from(base_url: str | None) -> None:
    """From now on, artwork URIs in this process point at `base_url` (None: as they are).

    Process-wide on purpose: it is a demo switch of the command line, and covers appear
    wherever DIDL-Lite or pin JSON is written, including tracks a pin loads later.
    """
    global _base_url  # noqa: PLW0603
    _base_url = base_url


def local_uri(uri: str) -> str:
    """The artwork URI to publish: rewritten to the cover server when one is set."""
    if not uri or _base_url is None:
        return uri
    return f"{_base_url}{PATH_PREFIX}{hashlib.sha256(uri.encode()).hexdigest()[:16]}.png"


def generated_cover_uri(subject: str) -> str:
    """With a cover server, a cover for an item that has no artwork of its own; else ""."""
    if _base_url is None or not subject:
        return ""
    return f"{_base_url}{PATH_PREFIX}{hashlib.sha256(subject.encode()).hexdigest()[:16]}.png"


def _is_cover(path: str) -> bool:
    name = path.removeprefix(PATH_PREFIX)
    return name != path and name.endswith(".png") and "/" not in name


class ArtworkServer:
    """HTTP/1.0 GET of /artwork/<name>.png on loopback; anything else is 404."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.host = host
        self._port = port
        self._server: asyncio.Server | None = None
        self._cache: dict[str, bytes] = {}

    @property
    def port(self) -> int:
        """The bound port (the real one when started with port 0)."""
        if self._server is None:
            return self._port
        return int(self._server.sockets[0].getsockname()[1])

    @property
    def base_url(self) -> str:
        """What to pass to serve_covers_from()."""
        return f"http://{self.host}:{self.port}"

    async def start(self) -> None:
        """Listen."""
        self._server = await asyncio.start_server(self._serve, self.host, self._port)

    async def stop(self) -> None:
        """Stop listening and close open connections."""
        if self._server is not None:
            self._server.close()
            self._server.close_clients()
            await self._server.wait_closed()
            self._server = None

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            async with asyncio.timeout(5):
                request = await reader.readline()
                while (await reader.readline()) not in (b"\r\n", b"\n", b""):
                    pass
            parts = request.decode("latin-1").split()
            path = parts[1] if len(parts) >= 2 and parts[0] in ("GET", "HEAD") else ""
            if _is_cover(path):
                body = self._cache.get(path) or cover_png(path)
                self._cache[path] = body
                head = (
                    "HTTP/1.0 200 OK\r\nContent-Type: image/png\r\n"
                    f"Content-Length: {len(body)}\r\nCache-Control: max-age=86400\r\n\r\n"
                )
                writer.write(head.encode() + (body if parts[0] == "GET" else b""))
            else:
                writer.write(b"HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n")
            await writer.drain()
        except TimeoutError, ConnectionError, UnicodeDecodeError:
            pass
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()
