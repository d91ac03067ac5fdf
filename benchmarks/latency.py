"""Benchmarks against the emulator on loopback: latency distributions and parse throughput.

Run through scripts/bench (it picks the Python 3.14 environment). Prints a table and, with
--json FILE, writes the figures machine-readably. The human table lives in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import AsyncIterator, Callable
import contextlib
from pathlib import Path
import time
from typing import Any

from benchmarks.stats import machine, summarize, write_json
from custom_components.linn.lpec import LinnDevice
from custom_components.linn.lpec.codec import Event as LpecEvent, parse_device_line
from custom_components.linn.lpec.model import DeviceState
from custom_components.linn.lpec.reducers import apply_event
from custom_components.linn.lpec.services import Service
from linn_emulator import LinnEmulator
from linn_emulator.wire import event_line

DIDL = (
    '<DIDL-Lite xmlns="urn:schemas-upnp-org:metadata-1-0/DIDL-Lite/" '
    'xmlns:dc="http://purl.org/dc/elements/1.1/" '
    'xmlns:upnp="urn:schemas-upnp-org:metadata-1-0/upnp/">'
    '<item id="885" parentID="0" restricted="1"><dc:title>Jóga &amp; "Hunter"</dc:title>'
    "<upnp:artist>Björk</upnp:artist><upnp:album>Homogenic</upnp:album>"
    "<upnp:albumArtURI>http://192.0.2.10/art/homogenic.jpg</upnp:albumArtURI>"
    '<res duration="0:05:05.000" bitsPerSample="24" sampleFrequency="96000" '
    'protocolInfo="http-get:*:audio/x-flac:*">http://192.0.2.10/t/885.flac</res>'
    "<upnp:class>object.item.audioItem.musicTrack</upnp:class></item></DIDL-Lite>"
)


def bench_parse(seconds: float) -> dict[str, dict[str, float]]:
    """Lines parsed per second for small, large (DIDL) and source-list events."""
    sources = "".join(
        f"<Source><SystemName>S{i}</SystemName><Type>Analog</Type><Name>Input {i}</Name>"
        "<Visible>true</Visible></Source>"
        for i in range(12)
    )
    lines = {
        "volume_event": event_line(7, 42, {"Volume": "41"}),
        "info_event_didl": event_line(
            5, 3, {"Metadata": DIDL, "Uri": "http://192.0.2.10/t/885.flac", "Duration": "305"}
        ),
        "sourcexml_event": event_line(3, 1, {"SourceXml": f"<SourceList>{sources}</SourceList>"}),
    }
    results: dict[str, dict[str, float]] = {}
    # Parsing the line, then applying it to the state (DIDL-Lite / SourceXml parsed here):
    # what one event costs the event loop.
    for name, line in lines.items():
        count = 0
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            for _ in range(200):
                parse_device_line(line)
            count += 200
        elapsed = time.perf_counter() - start
        results[name] = {
            "bytes": len(line.encode()),
            "lines_per_s": count / elapsed,
            "mb_per_s": count * len(line.encode()) / elapsed / 1e6,
        }
    services = {
        "volume_event": Service.VOLUME,
        "info_event_didl": Service.INFO,
        "sourcexml_event": Service.PRODUCT,
    }
    for name, line in lines.items():
        message = parse_device_line(line)
        assert isinstance(message, LpecEvent)
        count = 0
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            for _ in range(100):
                apply_event(DeviceState(), services[name], message.variables)
            count += 100
        elapsed = time.perf_counter() - start
        results[name]["apply_us"] = elapsed / count * 1e6
        results[name]["parse_and_apply_us"] = (
            1e6 / results[name]["lines_per_s"] + elapsed / count * 1e6
        )
    return results


async def _wait(predicate: Callable[[], bool], timeout: float = 2.0) -> None:
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0)


def _new_volume(i: int, current: int | None) -> int:
    """The i-th sample's volume: 10 to 59 in turn, never the one the player has."""
    target = 10 + i % 50
    return target + 1 if current == target else target


@contextlib.asynccontextmanager
async def _connected() -> AsyncIterator[tuple[LinnEmulator, LinnDevice]]:
    """An emulator (volume limit 100) and a client connected to it, with no keepalives."""
    async with LinnEmulator(port=0, volume_limit=100) as emu:
        device = LinnDevice("127.0.0.1", emu.port, keepalive_interval=3600)
        await device.connect()
        try:
            yield emu, device
        finally:
            await device.close()


async def bench_event_latency(count: int) -> dict[str, float]:
    """Front-panel change on the emulator -> listener callback in the client."""
    samples: list[float] = []
    arrived: list[float] = []

    def on_change(changed: frozenset[Service]) -> None:
        if Service.VOLUME in changed:
            arrived.append(time.perf_counter())

    async with _connected() as (emu, device):
        remove = device.add_listener(on_change)
        for i in range(count):
            target = _new_volume(i, device.state.volume.volume)
            arrived.clear()
            start = time.perf_counter()
            emu.panel.set_volume(target)
            await _wait(lambda: bool(arrived))
            samples.append(arrived[0] - start)
        remove()
    return summarize(samples)


async def bench_action_round_trip(count: int) -> dict[str, float]:
    """A command's ACTION -> RESPONSE as the caller sees it (set_volume awaited)."""
    samples: list[float] = []
    async with _connected() as (_emu, device):
        for i in range(count):
            start = time.perf_counter()
            await device.set_volume(10 + i % 50)
            samples.append(time.perf_counter() - start)
    return summarize(samples)


async def bench_home_assistant(count: int) -> dict[str, dict[str, float]]:
    """A real Home Assistant core (as phacc builds it) with the integration set up.

    Measures emulator state change -> HA state written, and a media_player service
    call -> the emulator has applied it.
    """
    from homeassistant.const import EVENT_STATE_CHANGED  # noqa: PLC0415
    from homeassistant.core import Event, EventStateChangedData, callback  # noqa: PLC0415

    from benchmarks.hass import home_assistant  # noqa: PLC0415
    from testing.ha.streamers import async_setup_linn  # noqa: PLC0415

    entity_id = "media_player.living_room"
    to_ha: list[float] = []
    to_device: list[float] = []
    async with (
        LinnEmulator(port=0, volume_limit=100, tick_interval=3600) as emu,
        home_assistant() as hass,
    ):
        entry = await async_setup_linn(hass, emu.udn, emu.port)

        written: list[tuple[float, Any]] = []

        @callback
        def on_state(event: Event[EventStateChangedData]) -> None:
            new = event.data["new_state"]
            if event.data["entity_id"] == entity_id and new is not None:
                written.append((time.perf_counter(), new.attributes.get("volume_level")))

        unsub = hass.bus.async_listen(EVENT_STATE_CHANGED, on_state)
        for i in range(count):
            target = _new_volume(i, emu.state.volume)
            written.clear()
            start = time.perf_counter()
            emu.panel.set_volume(target)
            await _wait(lambda t=target: any(v == t / 100 for _, v in written))  # type: ignore[misc]
            to_ha.append(next(ts for ts, v in written if v == target / 100) - start)
        unsub()

        applied: list[float] = []
        emu.device.add_listener(lambda: applied.append(time.perf_counter()))
        for i in range(count):
            target = _new_volume(i, emu.state.volume)
            applied.clear()
            start = time.perf_counter()
            await hass.services.async_call(
                "media_player",
                "volume_set",
                {"entity_id": entity_id, "volume_level": target / 100},
                blocking=False,
            )
            await _wait(lambda t=target: emu.state.volume == t)  # type: ignore[misc]
            to_device.append(applied[0] - start)
            await hass.async_block_till_done()  # the RESPONSE too, before the next call
        await hass.config_entries.async_unload(entry.entry_id)
        await hass.async_block_till_done()
    return {
        "ha_device_change_to_state": summarize(to_ha),
        "ha_service_call_to_device": summarize(to_device),
    }


def print_table(results: dict[str, Any]) -> None:
    """Human-readable summary."""
    print(f"machine: {results['machine']}")
    print(f"{'latency':<34} {'n':>5} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for name, dist in results["latency"].items():
        print(
            f"{name:<34} {dist['n']:>5} {dist['p50_ms']:>8.3f} {dist['p90_ms']:>8.3f} "
            f"{dist['p99_ms']:>8.3f} {dist['max_ms']:>8.3f}"
        )
    print(f"{'parse':<34} {'bytes':>7} {'lines/s':>12} {'MB/s':>8} {'parse+apply us':>15}")
    for name, row in results["parse"].items():
        print(
            f"{name:<34} {row['bytes']:>7} {row['lines_per_s']:>12,.0f} {row['mb_per_s']:>8.1f}"
            f" {row['parse_and_apply_us']:>15.1f}"
        )


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Run every benchmark once."""
    latency = {
        "lpec_event_to_callback": await bench_event_latency(args.count),
        "lpec_action_round_trip": await bench_action_round_trip(args.count),
    }
    if not args.no_ha:
        latency |= await bench_home_assistant(args.ha_count)
    return {"machine": machine(), "latency": latency, "parse": bench_parse(args.parse_seconds)}


def main(argv: list[str]) -> None:
    """The default benchmark (`scripts/bench [--count N] ...`)."""
    parser = argparse.ArgumentParser(prog="scripts/bench", description=__doc__)
    parser.add_argument("--count", type=int, default=1000, help="samples per latency benchmark")
    parser.add_argument("--parse-seconds", type=float, default=1.0, help="time per parse case")
    parser.add_argument("--ha-count", type=int, default=200, help="samples per HA benchmark")
    parser.add_argument("--no-ha", action="store_true", help="skip the Home Assistant benchmarks")
    parser.add_argument(
        "--json", type=Path, help="write the results to this file (relative to the repository)"
    )
    args = parser.parse_args(argv)
    results = asyncio.run(run(args))
    print_table(results)
    if args.json:
        write_json(args.json, results)
