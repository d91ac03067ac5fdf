"""The --compare plot: state latency side by side (log scale) and the idle cost per device."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib as mpl

mpl.use("Agg")
import matplotlib.pyplot as plt

from benchmarks.stats import save_figure

COLOURS = {"linn": "#2b7bb9", "openhome": "#d95f02"}
LABELS = {"linn": "linn (LPEC push)", "openhome": "core openhome (UPnP poll)"}


def draw(results: dict[str, Any], path: Path) -> None:
    """Three panels: p50/p99/max latency, idle requests/min/device, idle CPU s/min."""
    sizes = list(results["sizes"])
    fig, (lat, req, cpu) = plt.subplots(1, 3, figsize=(14, 4.5))
    width = 0.38
    for offset, name in ((-width / 2, "linn"), (width / 2, "openhome")):
        xs = [i + offset for i in range(len(sizes))]
        rows = [results["sizes"][n][name] for n in sizes]
        p50 = [r["device_change_to_state"]["p50_ms"] for r in rows]
        p99 = [r["device_change_to_state"]["p99_ms"] for r in rows]
        top = [r["device_change_to_state"]["max_ms"] for r in rows]
        lat.bar(xs, p99, width, color=COLOURS[name], alpha=0.45, label=f"{LABELS[name]} p99")
        lat.scatter(xs, p50, color=COLOURS[name], marker="o", zorder=3, label="p50")
        lat.scatter(xs, top, color=COLOURS[name], marker="^", zorder=3, label="max")
        idle = [r["idle"] for r in rows]
        req.bar(
            xs,
            [
                i["lpec_requests_per_minute_per_device"] + i["upnp_requests_per_minute_per_device"]
                for i in idle
            ],
            width,
            color=COLOURS[name],
            label=LABELS[name],
        )
        cpu.bar(
            xs,
            [i["cpu_s_per_minute"] for i in idle],
            width,
            color=COLOURS[name],
            label=LABELS[name],
        )
    for axis in (lat, req, cpu):
        axis.set_xticks(range(len(sizes)), [f"{n} device(s)" for n in sizes])
    lat.set_yscale("log")
    lat.set_ylabel("ms (log)")
    lat.set_title("device change -> HA state")
    lat.legend(fontsize=7)
    req.set_title("idle requests / min / device")
    req.legend(fontsize=7)
    cpu.set_title("HA CPU s / min, idle")
    cpu.legend(fontsize=7)
    fig.suptitle(f"linn vs core openhome, one HA; {results['load_note']}", fontsize=9)
    save_figure(fig, path)
