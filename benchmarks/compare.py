"""scripts/bench --compare: our LPEC push integration against core `openhome` (UPnP, polling).

One Home Assistant core, built in this process as pytest-homeassistant-custom-component builds
it (as scripts/bench's other HA figures are), with config entries of both integrations for the
same emulated streamers. The streamers run in a separate process (benchmarks/devices.py), so
this process's CPU time is Home Assistant's. Each integration is measured with the other's
entries unloaded, so the CPU, memory and wire figures belong to one integration.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from pathlib import Path
import sys
import time
from typing import Any

from benchmarks.sides import DeviceProcess, Side, add_profile_arguments, measure_loaded
from benchmarks.stats import record, results_head, summarize


async def measure_side(
    hass: Any, side: Side, devices: DeviceProcess, count: int, args: argparse.Namespace
) -> dict[str, Any]:
    """Every figure for one integration at one size."""
    result = await measure_loaded(hass, side, devices, count, args)
    result["memory_bytes_per_device"] = result.pop("memory_bytes") / count
    result["service_call_to_device"] = await _call_latency(hass, side, devices, count, args)
    await side.unload()
    return result


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


async def run(args: argparse.Namespace) -> dict[str, Any]:
    from homeassistant.const import CONF_HOST  # noqa: PLC0415
    from homeassistant.setup import async_setup_component  # noqa: PLC0415
    from pytest_homeassistant_custom_component.common import MockConfigEntry  # noqa: PLC0415

    from benchmarks.hass import async_setup_http, home_assistant  # noqa: PLC0415
    from testing.ha.streamers import linn_entry  # noqa: PLC0415

    sizes = sorted(args.sizes)
    devices = await DeviceProcess.start(max(sizes))
    results = results_head(
        args,
        how="HA in-process (phacc core); devices in a separate process; one integration "
        "loaded at a time",
    )
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


def _draw(results: dict[str, Any], path: Path) -> None:
    from benchmarks.compare_plot import draw  # noqa: PLC0415

    draw(results, path)


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
    record(asyncio.run(run(args)), args, print_table, _draw)
    print(f"cpus: {os.cpu_count()}", file=sys.stderr)
