"""What scripts/bench --compare and --scale share: the streamers and one integration's side.

The emulated streamers run in a separate process (benchmarks/devices.py, through DeviceProcess),
so this process's CPU time is Home Assistant's. A Side is one integration's config entries for
the first N streamers; measure_loaded() loads them and measures memory, CPU idle and under
load, Home Assistant's own floor (ours only) and device change -> state latency.
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

from benchmarks.push_floor import push_floor
from benchmarks.stats import summarize

POLL_TIMEOUT = 30.0

ROOT = Path(__file__).resolve().parent.parent
"""The repository: the working directory of the devices process (python -m benchmarks.devices)."""


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
            "-m",
            "benchmarks.devices",
            "--count",
            str(count),
            cwd=ROOT,
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
        floor = await ha_floor(
            hass,
            side.entity_ids[0],
            count,
            rate=args.rate,
            seconds=args.window,
            idle=result["idle"],
        )
        result["ha_floor"] = floor
        result["load"]["cpu_vs_ha_floor"] = (
            result["load"]["cpu_ms_per_event"] / floor["cpu_ms_per_write"]
        )
        result["load"]["cpu_vs_push_floor"] = (
            result["load"]["cpu_ms_per_event"] / floor["push"]["cpu_ms_per_event"]
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


def floor_entities(ours: Any, count: int) -> list[Any]:
    """Minimal media player entities showing the same attributes as ours (state `ours`)."""
    from homeassistant.components.media_player import MediaPlayerEntity  # noqa: PLC0415

    shown = dict(ours.attributes)
    features = shown.pop("supported_features", 0)

    class Floor(MediaPlayerEntity):
        _attr_should_poll = False

        def __init__(self, number: int) -> None:
            self._attr_name = f"floor {number}"
            self._attr_unique_id = f"bench_floor_{number}"
            self._attr_state = ours.state
            self._attr_supported_features = features
            for key, value in shown.items():
                if key in ("friendly_name", "device_class"):
                    continue
                setattr(self, f"_attr_{key}", value)

        def set_volume(self, level: float) -> None:
            self._attr_volume_level = level

    return [Floor(number) for number in range(count)]


async def ha_floor(
    hass: Any,
    entity_id: str,
    count: int,
    *,
    rate: float,
    seconds: float,
    idle: dict[str, Any],
    writes: int = 2000,
) -> dict[str, Any]:
    """Home Assistant's own floors, with minimal media player entities showing the same
    attributes as ours (`entity_id`'s), on the same core and bus.

    The CPU of one bare async_write_ha_state (the volume changed before each write, as a
    pushed volume event changes ours), and under "push" the CPU of a pushed event
    (benchmarks/push_floor.py) with `count` entities at `rate` lines/s each for `seconds`,
    the `idle` window's CPU subtracted.
    """
    from pytest_homeassistant_custom_component.common import (  # noqa: PLC0415
        MockEntityPlatform,
    )

    ours = hass.states.get(entity_id)
    entities = floor_entities(ours, count)
    entity = entities[0]
    platform = MockEntityPlatform(hass, domain="media_player", platform_name="bench_floor")
    await platform.async_add_entities(entities)
    samples = []
    for step in range(writes):
        entity.set_volume((20 + step % 40) / 100)
        start = time.thread_time()
        entity.async_write_ha_state()
        samples.append(time.thread_time() - start)
        if step % 100 == 0:
            await asyncio.sleep(0)
    pushed = await push_floor(entities, rate, seconds, idle["cpu_s_per_minute"])
    await platform.async_reset()
    samples.sort()
    return {
        "writes": writes,
        "attributes": sorted(ours.attributes),
        "cpu_ms_per_write": sum(samples) / writes * 1000,
        "cpu_ms_p50": samples[writes // 2] * 1000,
        "push": pushed,
    }


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


def add_profile_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--profile", action="store_true", help="also cProfile an extra load window (ours)"
    )
    parser.add_argument("--profile-window", type=float, default=20.0, help="its length, s")
    parser.add_argument("--profile-lines", type=int, default=25, help="its top, in lines")
