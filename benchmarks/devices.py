"""The emulated streamers for scripts/bench --compare, in a process of their own.

Home Assistant's CPU time is measured as its process's CPU time, so the devices (and the
load that makes them change) must not run in it. Each device speaks LPEC (through a
counting proxy, so bytes on the wire are known) and UPnP (which counts itself).

Talks JSON lines: the first line on stdout describes the devices; then each command read
from stdin gets one reply line. Timestamps are time.perf_counter(), which on Linux is
CLOCK_MONOTONIC and so comparable across processes on one machine.

  {"cmd": "set", "device": i, "volume": v}   -> {"t": when the front panel set it, "changed"}
  {"cmd": "applied", "device": i}             -> {"t": last volume change, "volume": v}
  {"cmd": "stats"}                            -> per-device request and byte counters
  {"cmd": "load", "rate": r}                  -> r front-panel changes/s per device (0 stops)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import time
from typing import Any

from linn_emulator import LinnEmulator


class CountingProxy:
    """A TCP relay to the emulator's LPEC port that counts bytes and client lines."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self.bytes_in = 0
        self.bytes_out = 0
        self.lines_in = 0
        self._server: asyncio.Server | None = None

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = int(self._server.sockets[0].getsockname()[1])

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter, inbound: bool) -> None:
            try:
                while data := await src.read(65536):
                    if inbound:
                        self.bytes_in += len(data)
                        self.lines_in += data.count(b"\n")
                    else:
                        self.bytes_out += len(data)
                    dst.write(data)
                    await dst.drain()
            except ConnectionError:
                pass
            finally:
                dst.close()

        await asyncio.gather(pump(reader, up_writer, True), pump(up_reader, writer, False))

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server.close_clients()


class Devices:
    """N emulated DSMs, their proxies, the applied-change log and the load generator."""

    def __init__(self, count: int) -> None:
        self.emulators = [
            LinnEmulator(
                port=0,
                upnp_port=0,
                room=f"Room {i + 1}",
                volume_limit=100,
                tick_interval=3600,
                max_sessions=8,
            )
            for i in range(count)
        ]
        self.proxies: list[CountingProxy] = []
        self.applied: list[tuple[float, int]] = [(0.0, -1)] * count
        self._load: asyncio.Task[None] | None = None

    async def start(self) -> list[dict[str, Any]]:
        described = []
        for index, emu in enumerate(self.emulators):
            await emu.start()
            proxy = CountingProxy(emu.port)
            await proxy.start()
            self.proxies.append(proxy)
            self.applied[index] = (time.perf_counter(), emu.state.volume)
            emu.device.add_listener(lambda i=index, e=emu: self._on_change(i, e))  # type: ignore[misc]
            described.append(
                {"udn": emu.udn, "lpec_port": proxy.port, "upnp_location": emu.upnp_location}
            )
        return described

    def _on_change(self, index: int, emu: LinnEmulator) -> None:
        if emu.state.volume != self.applied[index][1]:
            self.applied[index] = (time.perf_counter(), emu.state.volume)

    def stats(self) -> list[dict[str, int]]:
        rows = []
        for emu, proxy in zip(self.emulators, self.proxies, strict=True):
            upnp = emu.upnp
            assert upnp is not None
            rows.append(
                {
                    "lpec_lines_in": proxy.lines_in,
                    "lpec_bytes_in": proxy.bytes_in,
                    "lpec_bytes_out": proxy.bytes_out,
                    "upnp_requests": upnp.requests,
                    "upnp_bytes_in": upnp.bytes_received,
                    "upnp_bytes_out": upnp.bytes_sent,
                }
            )
        return rows

    def set_load(self, rate: float) -> None:
        if self._load is not None:
            self._load.cancel()
            self._load = None
        if rate > 0:
            self._load = asyncio.get_running_loop().create_task(self._generate(rate))

    async def _generate(self, rate: float) -> None:
        period = 1 / rate
        step = 0
        next_at = time.perf_counter()
        while True:
            step += 1
            for emu in self.emulators:
                emu.panel.set_volume(20 + step % 40)
            next_at += period
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))

    async def stop(self) -> None:
        self.set_load(0)
        for proxy in self.proxies:
            await proxy.stop()
        for emu in self.emulators:
            with contextlib.suppress(Exception):
                await emu.stop()


async def serve(count: int) -> None:
    devices = Devices(count)
    print(json.dumps({"devices": await devices.start()}), flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    try:
        while line := await reader.readline():
            command = json.loads(line)
            reply: dict[str, Any] = {}
            match command["cmd"]:
                case "set":
                    emu = devices.emulators[command["device"]]
                    reply["changed"] = emu.state.volume != command["volume"]
                    reply["t"] = time.perf_counter()
                    emu.panel.set_volume(command["volume"])
                case "applied":
                    reply["t"], reply["volume"] = devices.applied[command["device"]]
                case "stats":
                    reply["devices"] = devices.stats()
                case "load":
                    devices.set_load(command["rate"])
            print(json.dumps(reply), flush=True)
    finally:
        await devices.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, required=True)
    asyncio.run(serve(parser.parse_args().count))


if __name__ == "__main__":
    main()
