"""The guard's own overhead per tool call, without the device round trip.

Run as `scripts/bench guard` (see --help). A real Home Assistant core (as
pytest-homeassistant-custom-component builds it) with the integration set up against the
emulator on loopback; every call goes through the Assist API as an agent's does.

- refused: an invalid call, end to end through the Assist API (no device work at all);
- pending: a call the policy holds for approval (no device work), then denied;
- allowed_overhead: an allowed set_volume through the guard, minus the time spent in the
  device command (measured around the handler's execute), so what remains is the guard:
  schema re-check, permissions, limits, policy, breaker, audit record.

Each is measured twice: wall-clock time (what a caller waits), and the CPU time of the event
loop's thread (time.thread_time: what the guard itself computes). On a loaded machine the
first grows whenever the thread waits for a core; the second much less, so it is the figure
to compare runs made under different loads.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable, Callable, Mapping
import os
from pathlib import Path
import time
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er, llm

from benchmarks.hass import async_setup_http, home_assistant
from benchmarks.stats import machine, summarize, write_json
from custom_components.linn.guard import GuardResult, ToolCall
from custom_components.linn.llm import LinnHandler
from custom_components.linn.tools.ha_adapter import DATA_GUARD, async_caller, current_turn
from custom_components.linn.tools.linn_tools import TOOLS_BY_NAME
from linn_emulator import LinnEmulator
from testing.ha.assist_api import assist_with_unlimited_guard
from testing.ha.streamers import async_setup_linn


def distribution(samples_s: list[float]) -> dict[str, float]:
    """Latencies in milliseconds, with p95 (the guard's goal) instead of p90."""
    return summarize(samples_s, (50, 95, 99))


type Sample = tuple[float, float]
"""Seconds of wall-clock time and of the event loop thread's CPU time."""


class Stopwatch:
    """Wall-clock and thread CPU time since it was made."""

    def __init__(self) -> None:
        self.wall = time.perf_counter()
        self.cpu = time.thread_time()

    def elapsed(self) -> Sample:
        """Both times since the start."""
        return time.perf_counter() - self.wall, time.thread_time() - self.cpu


def _add_other_entities(hass: HomeAssistant, count: int) -> None:
    registry = er.async_get(hass)
    for i in range(count):
        registry.async_get_or_create("light", "bench_other", f"light_{i}")


async def _samples(count: int, once: Callable[[int], Awaitable[Sample]]) -> list[Sample]:
    """`count` samples after a warm-up of a tenth as many."""
    warm_up = count // 10
    return [await once(i) for i in range(count + warm_up)][warm_up:]


async def bench_guard(
    count: int, other_entities: int = 0
) -> dict[str, dict[str, dict[str, float]]]:
    """The three distributions, `count` samples each (after a warm-up): wall and CPU time.

    `other_entities` adds that many entities of another integration to the entity registry,
    as a home has them, before measuring.
    """

    class TimedHandler(LinnHandler):
        """The real handler; the time spent in device work is recorded, not changed."""

        device: Sample = (0.0, 0.0)

        async def execute(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
            watch = Stopwatch()
            try:
                return await super().execute(arguments)
            finally:
                TimedHandler.device = watch.elapsed()

    async with (
        LinnEmulator(port=0, tick_interval=3600) as emu,
        home_assistant() as hass,
    ):
        await async_setup_http(hass)
        entry = await async_setup_linn(hass, emu.udn, emu.port)
        _add_other_entities(hass, other_entities)
        admin = await hass.auth.async_create_user("bench", group_ids=["system-admin"])
        api, guard = await assist_with_unlimited_guard(hass, admin.id, platform="bench")
        runtime = hass.data[DATA_GUARD]
        caller = await async_caller(hass, api.llm_context.context)
        player = "Living Room"
        definition = TOOLS_BY_NAME["set_volume"]

        async def refused_once(i: int) -> Sample:
            arguments = {"player": player, "volume": 1000 + i}
            watch = Stopwatch()
            result = await api.async_call_tool(llm.ToolInput("linn__set_volume", arguments))
            elapsed = watch.elapsed()
            assert result.error
            return elapsed

        async def guarded_once(volume: int) -> tuple[Sample, GuardResult]:
            handler = TimedHandler(hass, definition, "conversation", runtime, "bench")
            call = ToolCall(
                "set_volume", {"player": player, "volume": volume}, caller, current_turn("en")
            )
            TimedHandler.device = (0.0, 0.0)
            watch = Stopwatch()
            result = await guard.run(call, handler)
            (wall, cpu), (device_wall, device_cpu) = watch.elapsed(), TimedHandler.device
            return (wall - device_wall, cpu - device_cpu), result

        async def pending_once(_i: int) -> Sample:
            elapsed, result = await guarded_once(70)  # above the soft limit: approval
            assert result.request_id is not None, result.data
            await guard.resolve(
                result.request_id, approver=caller, approve=False, requester=caller, handler=None
            )
            return elapsed

        async def allowed_once(i: int) -> Sample:
            elapsed, result = await guarded_once(10 + i % 30)
            assert not result.error, result.data
            return elapsed

        refused = await _samples(count, refused_once)
        pending = await _samples(count, pending_once)
        overhead = await _samples(count, allowed_once)

        await hass.config_entries.async_unload(entry.entry_id)
        await hass.async_block_till_done()
    named = {
        "guard_refused_via_assist_api": refused,
        "guard_pending": pending,
        "guard_allowed_overhead": overhead,
    }
    return {
        "latency": {name: distribution([s[0] for s in got]) for name, got in named.items()},
        "cpu": {name: distribution([s[1] for s in got]) for name, got in named.items()},
    }


def print_table(results: dict[str, Any]) -> None:
    """Human-readable distributions."""
    print(f"machine: {results['machine']}")
    for section, title in (("latency", "wall-clock"), ("cpu", "loop thread CPU")):
        header = f"{'guard overhead, ' + title:<32} {'n':>5}"
        for name in ("min", "p50", "p95", "p99", "max"):
            header += f" {name + ' ms':>8}"
        print(header)
        for name, dist in results[section].items():
            row = f"{name:<32} {dist['n']:>5}"
            for key in ("min_ms", "p50_ms", "p95_ms", "p99_ms", "max_ms"):
                row += f" {dist[key]:>8.3f}"
            print(row)


def main(argv: list[str] | None = None) -> None:
    """Entry point (`scripts/bench guard ...`)."""
    parser = argparse.ArgumentParser(prog="scripts/bench guard", description=__doc__)
    parser.add_argument("--count", type=int, default=2000, help="samples per distribution")
    parser.add_argument(
        "--other-entities",
        type=int,
        default=0,
        help="entities of another integration in the registry (a home has hundreds)",
    )
    parser.add_argument(
        "--json", type=Path, help="write the results to this file (relative to the repository)"
    )
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    measured = asyncio.run(bench_guard(args.count, args.other_entities))
    # other work on the machine shows in the wall-clock tails: the 1, 5, 15 minute load averages
    load = {"before": list(load_before), "after": list(os.getloadavg())}
    results = {
        "machine": {**machine(), "load_average": load},
        "other_entities": args.other_entities,
        **measured,
    }
    print_table(results)
    if args.json:
        write_json(args.json, results)
