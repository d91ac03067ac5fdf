"""What every benchmark reports alongside its figures: the machine and latency distributions."""

from __future__ import annotations

import argparse
from collections.abc import Callable
import json
import os
from pathlib import Path
import platform
import statistics
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def percentile(samples: list[float], pct: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(samples)
    rank = max(0, min(len(ordered) - 1, round(pct / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


def summarize(
    samples_s: list[float], percentiles: tuple[int, ...] = (50, 90, 99)
) -> dict[str, float]:
    """Distribution of latencies, in milliseconds."""
    ms = [s * 1000 for s in samples_s]
    return {
        "n": len(ms),
        "min_ms": min(ms),
        **{f"p{pct}_ms": percentile(ms, pct) for pct in percentiles},
        "max_ms": max(ms),
        "mean_ms": statistics.fmean(ms),
    }


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "loadavg": os.getloadavg(),
    }


def results_head(args: argparse.Namespace, **figures: Any) -> dict[str, Any]:
    """A benchmark's results before the sizes are measured: the machine, its load, `figures`."""
    return {"machine": machine(), "load_note": args.note, **figures, "sizes": {}}


def record(
    results: dict[str, Any],
    args: argparse.Namespace,
    print_table: Callable[[dict[str, Any]], None],
    draw: Callable[[dict[str, Any], Path], None],
) -> None:
    """Print a benchmark's results, and write them (`--json`) and draw them (`--png`)."""
    print_table(results)
    if args.json:
        write_json(args.json, results)
    if args.png:
        draw(results, args.png)


def write_json(path: Path, results: dict[str, Any]) -> None:
    """A benchmark's results as indented JSON (its folder made if missing)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")


def save_figure(fig: Figure, path: Path) -> None:
    """A benchmark's plot, laid out, as a PNG (its folder made if missing); then closed."""
    import matplotlib.pyplot as plt  # noqa: PLC0415 - only a plot needs matplotlib

    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
