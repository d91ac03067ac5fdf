"""scripts/bench --scale: how this integration's cost grows with the number of streamers.

One Home Assistant core in this process (as for --compare), the emulated streamers in a
separate process (benchmarks/devices.py), so this process's CPU time is Home
Assistant's. For each size N (default 1, 10, 50) our entries for the first N streamers are
loaded, then: traced memory of setting them up, CPU per minute idle and with RATE front-panel
changes per second on every streamer, device change -> HA state latency, and our code's CPU
per event without the wake-up against a bare state write (benchmarks/hot_path.py). A PNG draws
each figure against N with the line a linear growth from N=1 would follow.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
import sys
from typing import Any

from benchmarks.hot_path import hot_path
from benchmarks.sides import DeviceProcess, Side, add_profile_arguments, measure_loaded
from benchmarks.stats import record, results_head, save_figure


async def measure(
    hass: Any, side: Side, devices: DeviceProcess, count: int, args: argparse.Namespace
) -> dict[str, Any]:
    """Every figure at one size."""
    result = await measure_loaded(hass, side, devices, count, args)
    result["hot_path"] = await hot_path(hass, side.entries[0], side.entity_ids[0])
    await side.unload()
    return result


async def run(args: argparse.Namespace) -> dict[str, Any]:
    from homeassistant.setup import async_setup_component  # noqa: PLC0415

    from benchmarks.hass import async_setup_http, home_assistant  # noqa: PLC0415
    from testing.ha.streamers import linn_entry  # noqa: PLC0415

    sizes = sorted(args.sizes)
    devices = await DeviceProcess.start(max(sizes))
    results = results_head(args, rate_per_device=args.rate, window_s=args.window)
    try:
        async with home_assistant() as hass:
            await async_setup_component(hass, "homeassistant", {})
            await async_setup_http(hass)
            entries = []
            for device in devices.devices:
                entry = linn_entry(device["udn"], device["lpec_port"])
                entry.add_to_hass(hass)
                entries.append(entry)
            side = Side(hass, "linn", entries)
            # Imports and platform setup happen once: keep them out of the memory figure.
            await side.load(1)
            await side.unload()
            for count in sizes:
                print(f"measuring {count} streamer(s)", file=sys.stderr, flush=True)
                results["sizes"][str(count)] = await measure(hass, side, devices, count, args)
    finally:
        await devices.stop()
    return results


def rows(results: dict[str, Any]) -> list[dict[str, float]]:
    """Per size: the figures, and each against linear growth from the smallest size."""
    out = []
    sizes = results["sizes"]
    first_n = min(int(n) for n in sizes)
    first = sizes[str(first_n)]
    for n, r in sizes.items():
        count = int(n)
        row = {
            "devices": count,
            "memory_kib": r["memory_bytes"] / 1024,
            "cpu_idle_s_per_min": r["idle"]["cpu_s_per_minute"],
            "cpu_load_s_per_min": r["load"]["cpu_s_per_minute"],
            "p50_ms": r["device_change_to_state"]["p50_ms"],
            "p99_ms": r["device_change_to_state"]["p99_ms"],
            "n": r["device_change_to_state"]["n"],
            "cpu_ms_per_event": r["load"]["cpu_ms_per_event"],
            "floor_ms": r["ha_floor"]["cpu_ms_per_write"],
            "vs_floor": r["load"]["cpu_vs_ha_floor"],
            "push_floor_ms": r["ha_floor"]["push"]["cpu_ms_per_event"],
            "vs_push_floor": r["load"]["cpu_vs_push_floor"],
            "hot_us": r["hot_path"]["cpu_us_per_event"],
            "hot_floor_us": r["hot_path"]["floor_cpu_us_per_write"],
            "hot_vs_floor": r["hot_path"]["vs_floor"],
            "load_start": r["loadavg_start"][0],
            "load_end": r["loadavg_end"][0],
        }
        scale = count / first_n
        row["memory_vs_linear"] = row["memory_kib"] / (first["memory_bytes"] / 1024 * scale)
        row["cpu_load_vs_linear"] = row["cpu_load_s_per_min"] / (
            first["load"]["cpu_s_per_minute"] * scale
        )
        out.append(row)
    return out


def print_table(results: dict[str, Any]) -> None:
    print(f"machine: {results['machine']}  load: {results['load_note']}")
    print(
        f"{'N':>3} {'KiB':>8} {'x lin':>6} {'cpu idle':>9} {'cpu load':>9} {'x lin':>6} "
        f"{'p50 ms':>8} {'p99 ms':>8} {'n':>4} {'ms/event':>9} {'floor ms':>9} {'x floor':>8} "
        f"{'push ms':>8} {'x push':>7} {'code us':>8} {'write us':>8} {'x write':>7} {'load':>10}"
    )
    for row in rows(results):
        print(
            f"{row['devices']:>3} {row['memory_kib']:>8.0f} {row['memory_vs_linear']:>6.2f} "
            f"{row['cpu_idle_s_per_min']:>9.3f} {row['cpu_load_s_per_min']:>9.3f} "
            f"{row['cpu_load_vs_linear']:>6.2f} {row['p50_ms']:>8.2f} {row['p99_ms']:>8.2f} "
            f"{row['n']:>4.0f} {row['cpu_ms_per_event']:>9.3f} {row['floor_ms']:>9.3f} "
            f"{row['vs_floor']:>8.2f} {row['push_floor_ms']:>8.3f} {row['vs_push_floor']:>7.2f} "
            f"{row['hot_us']:>8.1f} {row['hot_floor_us']:>8.1f} {row['hot_vs_floor']:>7.2f} "
            f"{row['load_start']:>4.1f}->{row['load_end']:<4.1f}"
        )
    for n, r in results["sizes"].items():
        if "load_profile" in r:
            print(f"--- profile, {n} streamer(s), by own time ---")
            print(r["load_profile"]["tottime"])


def draw(results: dict[str, Any], path: Path) -> None:
    """Four panels against N, each with the linear growth from the smallest N."""
    import matplotlib as mpl  # noqa: PLC0415

    mpl.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    table = rows(results)
    ns = [r["devices"] for r in table]
    panels = [
        ("memory_kib", "traced memory of the entries, KiB"),
        ("cpu_idle_s_per_min", "HA CPU s / min, idle"),
        ("cpu_load_s_per_min", f"HA CPU s / min, {results['rate_per_device']:g} changes/s each"),
        ("p99_ms", "device change -> HA state p99, ms"),
    ]
    fig, axes = plt.subplots(1, 4, figsize=(16, 4.2))
    for axis, (key, title) in zip(axes, panels, strict=True):
        values = [r[key] for r in table]
        axis.plot(ns, values, "o-", color="#2b7bb9", label="measured")
        if key != "p99_ms":
            axis.plot(ns, [values[0] * n / ns[0] for n in ns], "--", color="grey", label="linear")
        axis.set_xlabel("streamers in one HA")
        axis.set_title(title, fontsize=9)
        axis.legend(fontsize=7)
    fig.suptitle(f"linn at scale; {results['load_note']}", fontsize=8)
    save_figure(fig, path)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="scripts/bench --scale", description=__doc__)
    parser.add_argument("--scale", action="store_true")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 10, 50])
    parser.add_argument("--changes", type=int, default=200, help="device changes per size")
    parser.add_argument("--window", type=float, default=60.0, help="idle and load windows, s")
    parser.add_argument("--rate", type=float, default=5.0, help="changes/s per streamer")
    parser.add_argument("--note", default="", help="machine load conditions, for the record")
    add_profile_arguments(parser)
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--png", type=Path, help="draw the curve here")
    args = parser.parse_args(argv)
    args.poll_changes = args.changes  # _state_latency's name for core openhome's count
    record(asyncio.run(run(args)), args, print_table, draw)
