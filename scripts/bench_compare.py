"""scripts/bench --compare: our LPEC push integration against core `openhome` (UPnP, polling).

One Home Assistant core, built in this process as pytest-homeassistant-custom-component builds
it (as scripts/bench's other HA figures are), with config entries of both integrations for the
same emulated streamers. The streamers run in a separate process (scripts/bench_devices.py), so
this process's CPU time is Home Assistant's. Each integration is measured with the other's
entries unloaded, so the CPU, memory and wire figures belong to one integration.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable
import cProfile
import io
import json
import os
from pathlib import Path
import pstats
import random
import sys
import time
import tracemalloc
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench import machine, summarize

POLL_TIMEOUT = 30.0
DEVICES_SCRIPT = Path(__file__).resolve().parent / "bench_devices.py"


class DeviceProcess:
    """The emulated streamers' process and its JSON-lines control channel."""

    def __init__(self, process: asyncio.subprocess.Process, devices: list[dict[str, Any]]) -> None:
        self.process = process
        self.devices = devices
        self._lock = asyncio.Lock()

    @classmethod
    async def start(cls, count: int) -> DeviceProcess:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            str(DEVICES_SCRIPT),
            "--count",
            str(count),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        assert process.stdout is not None
        first = json.loads(await process.stdout.readline())
        return cls(process, first["devices"])

    async def ask(self, **command: Any) -> dict[str, Any]:
        async with self._lock:
            assert self.process.stdin is not None
            assert self.process.stdout is not None
            self.process.stdin.write(json.dumps(command).encode() + b"\n")
            await self.process.stdin.drain()
            reply: dict[str, Any] = json.loads(await self.process.stdout.readline())
            return reply

    async def stop(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        await self.process.wait()


def _cpu() -> float:
    return time.process_time()


async def _wait(predicate: Callable[[], bool], timeout: float) -> None:
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.001)


class Side:
    """One integration's entries for the first N devices, and its media player entities."""

    def __init__(self, hass: Any, domain: str, entries: list[Any]) -> None:
        self.hass = hass
        self.domain = domain
        self.entries = entries
        self.entity_ids: list[str] = []

    async def load(self, count: int) -> None:
        from homeassistant.helpers import entity_registry as er  # noqa: PLC0415

        registry = er.async_get(self.hass)
        self.entity_ids = []
        for entry in self.entries[:count]:
            assert await self.hass.config_entries.async_setup(entry.entry_id)
            await self.hass.async_block_till_done()
            players = [
                e.entity_id
                for e in er.async_entries_for_config_entry(registry, entry.entry_id)
                if e.domain == "media_player"
            ]
            self.entity_ids.append(players[0])
        await self.refresh()

    async def refresh(self) -> None:
        """Core openhome learns its features on its first poll; run it now."""
        if self.domain == "openhome":
            await self.hass.services.async_call(
                "homeassistant", "update_entity", {"entity_id": self.entity_ids}, blocking=True
            )

    async def unload(self) -> None:
        for entry in self.entries:
            if entry.state.recoverable and entry.state.value == "loaded":
                await self.hass.config_entries.async_unload(entry.entry_id)
        await self.hass.async_block_till_done()


async def measure_loaded(
    hass: Any, side: Side, devices: DeviceProcess, count: int, args: argparse.Namespace
) -> dict[str, Any]:
    """Loads the side's first `count` devices (left loaded), then measures: traced memory of
    loading them, CPU idle and under load, device change -> HA state latency."""
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    await side.load(count)
    await asyncio.sleep(2)
    memory = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    result: dict[str, Any] = {"devices": count, "memory_bytes": memory}
    result["loadavg_start"] = os.getloadavg()
    result["idle"] = await _window(devices, count, args.window, rate=0)
    result["load"] = await _window(devices, count, args.window, rate=args.rate)
    result["load"]["cpu_ms_per_event"] = (
        (result["load"]["cpu_s_per_minute"] - result["idle"]["cpu_s_per_minute"])
        * 1000
        / (60 * args.rate * count)
    )
    if side.domain == "linn":
        floor = await ha_floor(hass, side.entity_ids[0])
        result["ha_floor"] = floor
        result["load"]["cpu_vs_ha_floor"] = (
            result["load"]["cpu_ms_per_event"] / floor["cpu_ms_per_write"]
        )
    if getattr(args, "profile", False):
        # A window of its own: the profiler's overhead must not reach the figures above.
        profile = cProfile.Profile()
        await _window(devices, count, args.profile_window, rate=args.rate, profile=profile)
        result["load_profile"] = profile_top(profile, args.profile_lines)
    await asyncio.sleep(1)
    result["device_change_to_state"] = await _state_latency(hass, side, devices, count, args)
    result["loadavg_end"] = os.getloadavg()
    return result


def profile_top(profile: cProfile.Profile, lines: int) -> dict[str, str]:
    """The top of a cProfile, by own time and by cumulative time, as pstats prints it."""
    out = {}
    for key in ("tottime", "cumulative"):
        text = io.StringIO()
        pstats.Stats(profile, stream=text).strip_dirs().sort_stats(key).print_stats(lines)
        out[key] = text.getvalue()
    return out


async def ha_floor(hass: Any, entity_id: str, writes: int = 2000) -> dict[str, Any]:
    """Home Assistant's own floor: CPU of one bare async_write_ha_state of a minimal media
    player entity showing the same attributes as ours (its volume changed before each write,
    as a pushed volume event changes ours), on the same core and bus."""
    from homeassistant.components.media_player import MediaPlayerEntity  # noqa: PLC0415
    from pytest_homeassistant_custom_component.common import (  # noqa: PLC0415
        MockEntityPlatform,
    )

    ours = hass.states.get(entity_id)
    shown = dict(ours.attributes)

    class Floor(MediaPlayerEntity):
        _attr_should_poll = False
        _attr_name = "floor"
        _attr_unique_id = "bench_floor"

    entity = Floor()
    entity._attr_state = ours.state
    entity._attr_supported_features = shown.pop("supported_features", 0)
    for key, value in shown.items():
        if key in ("friendly_name", "device_class"):
            continue
        setattr(entity, f"_attr_{key}", value)
    platform = MockEntityPlatform(hass, domain="media_player", platform_name="bench_floor")
    await platform.async_add_entities([entity])
    samples = []
    for step in range(writes):
        entity._attr_volume_level = (20 + step % 40) / 100
        start = time.thread_time()
        entity.async_write_ha_state()
        samples.append(time.thread_time() - start)
        if step % 100 == 0:
            await asyncio.sleep(0)
    await platform.async_reset()
    samples.sort()
    return {
        "writes": writes,
        "attributes": sorted(ours.attributes),
        "cpu_ms_per_write": sum(samples) / writes * 1000,
        "cpu_ms_p50": samples[writes // 2] * 1000,
    }


async def measure_side(
    hass: Any, side: Side, devices: DeviceProcess, count: int, args: argparse.Namespace
) -> dict[str, Any]:
    """Every figure for one integration at one size."""
    result = await measure_loaded(hass, side, devices, count, args)
    result["memory_bytes_per_device"] = result.pop("memory_bytes") / count
    result["service_call_to_device"] = await _call_latency(hass, side, devices, count, args)
    await side.unload()
    return result


async def _state_latency(
    hass: Any, side: Side, devices: DeviceProcess, count: int, args: argparse.Namespace
) -> dict[str, float]:
    """Front-panel change (devices process) -> state_changed with the new volume (here)."""
    from homeassistant.const import EVENT_STATE_CHANGED  # noqa: PLC0415
    from homeassistant.core import callback  # noqa: PLC0415

    seen: dict[str, list[tuple[float, Any]]] = {e: [] for e in side.entity_ids}

    @callback
    def on_state(event: Any) -> None:
        new = event.data["new_state"]
        if event.data["entity_id"] in seen and new is not None:
            seen[event.data["entity_id"]].append(
                (time.perf_counter(), new.attributes.get("volume_level"))
            )

    unsub = hass.bus.async_listen(EVENT_STATE_CHANGED, on_state)
    samples: list[float] = []
    missed = 0
    target = args.changes if side.domain == "linn" else args.poll_changes
    per_device = -(-target // count)

    async def change_loop(index: int) -> None:
        nonlocal missed
        entity = side.entity_ids[index]
        for step in range(per_device):
            if side.domain == "openhome":
                # A change at a random moment of the 10 s poll cycle.
                await asyncio.sleep(random.uniform(0, 10))
            value = 21 + (step + index) % 60
            seen[entity].clear()
            reply = await devices.ask(cmd="set", device=index, volume=value)
            if not reply["changed"]:
                continue  # the device had that volume already: nothing to see
            start = reply["t"]

            def shown(v: int = value, e: str = entity) -> bool:
                return any(level == v / 100 for _t, level in seen[e])

            try:
                await _wait(shown, POLL_TIMEOUT)
            except TimeoutError:
                missed += 1
                continue
            arrived = next(t for t, v in seen[entity] if v == value / 100)
            samples.append(arrived - start)

    try:
        if side.domain == "linn":
            for index in range(count):
                await change_loop(index)
        else:
            await asyncio.gather(*(change_loop(i) for i in range(count)))
    finally:
        unsub()
    return summarize(samples) | {"timeouts": missed}


async def _call_latency(
    hass: Any, side: Side, devices: DeviceProcess, count: int, args: argparse.Namespace
) -> dict[str, float]:
    """media_player.volume_set -> the devices process saw the volume change."""
    applied: list[float] = []
    for step in range(args.calls):
        index = step % count
        value = 22 + step % 60
        start = time.perf_counter()
        await hass.services.async_call(
            "media_player",
            "volume_set",
            {"entity_id": side.entity_ids[index], "volume_level": value / 100},
            blocking=True,
        )
        reply = await devices.ask(cmd="applied", device=index)
        if reply["volume"] == value:
            applied.append(reply["t"] - start)
    return summarize(applied)


async def _window(
    devices: DeviceProcess,
    count: int,
    seconds: float,
    rate: float,
    profile: cProfile.Profile | None = None,
) -> dict[str, Any]:
    """CPU time of this process, requests and bytes per minute per device, over a window."""
    await devices.ask(cmd="load", rate=rate)
    first = (await devices.ask(cmd="stats"))["devices"][:count]
    if profile is not None:
        profile.enable()
    cpu, wall = _cpu(), time.perf_counter()
    await asyncio.sleep(seconds)
    cpu, wall = _cpu() - cpu, time.perf_counter() - wall
    if profile is not None:
        profile.disable()
    last = (await devices.ask(cmd="stats"))["devices"][:count]
    await devices.ask(cmd="load", rate=0)
    per_minute = 60 / wall / count

    def delta(key: str) -> float:
        return float(sum(b[key] - a[key] for a, b in zip(first, last, strict=True)) * per_minute)

    return {
        "seconds": wall,
        "events_per_s_per_device": rate,
        "cpu_s_per_minute": cpu * 60 / wall,
        "cpu_s_per_minute_per_device": cpu * 60 / wall / count,
        "lpec_requests_per_minute_per_device": delta("lpec_lines_in"),
        "upnp_requests_per_minute_per_device": delta("upnp_requests"),
        "bytes_per_minute_per_device": delta("lpec_bytes_in")
        + delta("lpec_bytes_out")
        + delta("upnp_bytes_in")
        + delta("upnp_bytes_out"),
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    from bench_hass import async_setup_http, home_assistant  # noqa: PLC0415
    from homeassistant.const import CONF_HOST  # noqa: PLC0415
    from homeassistant.setup import async_setup_component  # noqa: PLC0415
    from pytest_homeassistant_custom_component.common import MockConfigEntry  # noqa: PLC0415

    from testing.ha.streamers import linn_entry  # noqa: PLC0415

    sizes = sorted(args.sizes)
    devices = await DeviceProcess.start(max(sizes))
    results: dict[str, Any] = {
        "machine": machine(),
        "load_note": args.note,
        "how": "HA in-process (phacc core); devices in a separate process; one integration "
        "loaded at a time",
        "sizes": {},
    }
    try:
        async with home_assistant() as hass:
            await async_setup_component(hass, "homeassistant", {})
            await async_setup_http(hass)
            linn_entries, openhome_entries = [], []
            for device in devices.devices:
                linn = linn_entry(device["udn"], device["lpec_port"])
                openhome = MockConfigEntry(
                    domain="openhome",
                    unique_id=f"uuid:{device['udn']}",
                    data={CONF_HOST: device["upnp_location"]},
                )
                linn.add_to_hass(hass)
                openhome.add_to_hass(hass)
                linn_entries.append(linn)
                openhome_entries.append(openhome)
            sides = {
                "linn": Side(hass, "linn", linn_entries),
                "openhome": Side(hass, "openhome", openhome_entries),
            }
            for side in sides.values():
                # Imports and platform setup happen once: keep them out of per-device memory.
                await side.load(1)
                await side.unload()
            for count in sizes:
                results["sizes"][str(count)] = {}
                for name, side in sides.items():
                    print(f"measuring {name} with {count} device(s)", file=sys.stderr, flush=True)
                    results["sizes"][str(count)][name] = await measure_side(
                        hass, side, devices, count, args
                    )
    finally:
        await devices.stop()
    return results


def print_table(results: dict[str, Any]) -> None:
    print(f"machine: {results['machine']}  load: {results['load_note']}")
    head = (
        f"{'N':>3} {'integration':<9} {'p50 ms':>9} {'p90 ms':>9} {'p99 ms':>9} {'max ms':>9} "
        f"{'call p50':>9} {'call p99':>9} {'req/min':>8} {'B/min':>9} {'cpu idle':>9} "
        f"{'cpu load':>9} {'KiB/dev':>8}"
    )
    print(head)
    for count, sides in results["sizes"].items():
        for name, r in sides.items():
            lat, call, idle = r["device_change_to_state"], r["service_call_to_device"], r["idle"]
            requests = (
                idle["lpec_requests_per_minute_per_device"]
                + idle["upnp_requests_per_minute_per_device"]
            )
            print(
                f"{count:>3} {name:<9} {lat['p50_ms']:>9.2f} {lat['p90_ms']:>9.2f} "
                f"{lat['p99_ms']:>9.2f} {lat['max_ms']:>9.2f} {call['p50_ms']:>9.2f} "
                f"{call['p99_ms']:>9.2f} {requests:>8.1f} "
                f"{idle['bytes_per_minute_per_device']:>9.0f} "
                f"{idle['cpu_s_per_minute']:>9.3f} {r['load']['cpu_s_per_minute']:>9.3f} "
                f"{r['memory_bytes_per_device'] / 1024:>8.0f}"
            )


def add_profile_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--profile", action="store_true", help="also cProfile an extra load window (ours)"
    )
    parser.add_argument("--profile-window", type=float, default=20.0, help="its length, s")
    parser.add_argument("--profile-lines", type=int, default=25, help="its top, in lines")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="scripts/bench --compare", description=__doc__)
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 5, 10])
    parser.add_argument("--changes", type=int, default=200, help="device changes, ours")
    parser.add_argument(
        "--poll-changes", type=int, default=200, help="device changes, core openhome (~10 s each)"
    )
    parser.add_argument("--calls", type=int, default=200, help="service calls per integration")
    parser.add_argument("--window", type=float, default=60.0, help="idle and load windows, s")
    parser.add_argument("--rate", type=float, default=50.0, help="events/s per device under load")
    parser.add_argument("--note", default="", help="machine load conditions, for the record")
    add_profile_arguments(parser)
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--png", type=Path, help="draw the comparison here")
    args = parser.parse_args(argv)
    results = asyncio.run(run(args))
    print_table(results)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    if args.png:
        from bench_plot import draw  # noqa: PLC0415

        draw(results, args.png)
    print(f"cpus: {os.cpu_count()}", file=sys.stderr)
