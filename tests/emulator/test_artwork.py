"""Generated cover art for demos: URIs rewritten, PNGs served on loopback."""

from __future__ import annotations

import asyncio
import json
import re
import struct
import sys
import zlib

from linn_emulator import LinnEmulator
from linn_emulator.artwork import ArtworkServer, cover_png, local_uri, serve_covers_from
from testing.helpers import closed_port

from .client import Client


async def http_get(port: int, path: str) -> tuple[str, bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.0\r\nHost: x\r\n\r\n".encode())
    await writer.drain()
    async with asyncio.timeout(5):
        raw = await reader.read()
    writer.close()
    await writer.wait_closed()
    head, _, body = raw.partition(b"\r\n\r\n")
    return head.decode().splitlines()[0], body


def test_cover_is_a_valid_png_and_differs_by_name() -> None:
    png = cover_png("a", size=8)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (8, 8)
    idat_length = struct.unpack(">I", png[33:37])[0]
    pixels = zlib.decompress(png[41 : 41 + idat_length])
    assert len(pixels) == 8 * (1 + 8 * 3)
    assert cover_png("a", size=8) == png
    assert cover_png("b", size=8) != png


async def test_uris_point_at_the_server_and_are_served() -> None:
    server = ArtworkServer()
    await server.start()
    serve_covers_from(server.base_url)
    try:
        async with LinnEmulator(port=0) as emu:
            client = await Client.connect(emu.port)
            try:
                _, info = await client.subscribe("Ds/Info")
                pins = await client.action("Ds/Pins", "ReadList", "[1,0]")
            finally:
                await client.close()
        art = re.search(r"albumArtURI>([^<]+)<", info["Metadata"])
        assert art is not None
        assert art.group(1).startswith(f"{server.base_url}/artwork/")
        first, empty = json.loads(pins.values[0])
        assert first["artworkUri"].startswith(f"{server.base_url}/artwork/")
        assert empty["artworkUri"] == ""  # an empty pin stays without art

        status, body = await http_get(server.port, art.group(1).removeprefix(server.base_url))
        assert status == "HTTP/1.0 200 OK"
        assert body.startswith(b"\x89PNG")
        status, _ = await http_get(server.port, "/etc/passwd")
        assert status == "HTTP/1.0 404 Not Found"
        status, _ = await http_get(server.port, "/artwork/../x.png")
        assert status == "HTTP/1.0 404 Not Found"
    finally:
        serve_covers_from(None)
        await server.stop()


def test_without_a_server_uris_are_published_as_they_are() -> None:
    assert local_uri("http://192.168.1.50:9000/a.jpg") == "http://192.168.1.50:9000/a.jpg"


def art_of(metadata: str) -> str:
    art = re.search(r"albumArtURI>([^<]+)<", metadata)
    assert art is not None, metadata
    return art.group(1)


async def test_cli_serves_art_for_every_track_from_the_first() -> None:
    """As scripts/develop runs it: the first track, and an input without art of its own."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *("-m", "linn_emulator", "--port", "0", "--artwork-port", str(closed_port())),
        stdout=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None
    try:
        base = (await asyncio.wait_for(process.stdout.readline(), 10)).decode().split()[1]
        address = (await asyncio.wait_for(process.stdout.readline(), 10)).decode().split()[0]
        port = int(address.rsplit(":", 1)[1])
        artwork_port = int(base.rsplit(":", 1)[1].split("/")[0])
        client = await Client.connect(port)
        try:
            info_id, info = await client.subscribe("Ds/Info")
            first = art_of(info["Metadata"])
            assert first.startswith(base)
            status, body = await http_get(artwork_port, first.split(str(artwork_port), 1)[1])
            assert (status, body[:4]) == ("HTTP/1.0 200 OK", b"\x89PNG")

            # Nothing the device derived before the cover server was set names the real
            # hosts: a volume change is not taken for a new track.
            await client.action("Ds/Volume", "SetVolume", "35")
            assert not [event for event in client.events if event.subscription_id == info_id]

            await client.action("Ds/Product", "SetSourceBySystemName", "Analog 1")
            event = await client.event(info_id, lambda variables: "Metadata" in variables)
            assert art_of(event.variables["Metadata"]).startswith(base)
        finally:
            await client.close()
    finally:
        process.terminate()
        await process.wait()
