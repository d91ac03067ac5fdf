"""Summary and chart of a task-suite run (scripts/eval): reads the CSV the suite wrote.

Prints, per mode and category, the cases, the pass rate, pass^k (a case counts only when
every one of its k runs passed), mean model calls, mean latency and the estimated cost;
draws cost and latency per category as a PNG.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
import csv
from dataclasses import dataclass, field
from pathlib import Path
import statistics
import sys

import matplotlib as mpl

mpl.use("Agg")
import matplotlib.pyplot as plt


@dataclass
class Group:
    """The runs of one mode and category."""

    runs: int = 0
    passed: int = 0
    cases: dict[str, list[bool]] = field(default_factory=dict)
    model_calls: list[float] = field(default_factory=list)
    latency_ms: list[float] = field(default_factory=list)
    cost_usd: list[float] = field(default_factory=list)
    tokens: list[float] = field(default_factory=list)

    def add(self, row: dict[str, str]) -> None:
        """One CSV row."""
        ok = row["passed"] == "True"
        self.runs += 1
        self.passed += ok
        self.cases.setdefault(row["case"], []).append(ok)
        self.model_calls.append(float(row["model_calls"]))
        self.latency_ms.append(float(row["latency_ms"]))
        self.cost_usd.append(float(row["cost_usd"]))
        self.tokens.append(
            sum(
                float(row[name])
                for name in (
                    "input_tokens",
                    "output_tokens",
                    "cache_read_tokens",
                    "cache_write_tokens",
                )
            )
        )

    @property
    def pass_hat_k(self) -> float:
        """Share of cases whose every run passed."""
        return sum(all(runs) for runs in self.cases.values()) / max(1, len(self.cases))


def load(path: Path) -> dict[str, dict[str, Group]]:
    """mode -> category -> group, plus an "all" category per mode."""
    modes: dict[str, dict[str, Group]] = defaultdict(lambda: defaultdict(Group))
    with path.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            modes[row["mode"]][row["category"]].add(row)
            modes[row["mode"]]["all"].add(row)
    return modes


def table(modes: dict[str, dict[str, Group]]) -> str:
    """The printed summary."""
    lines = [
        f"{'mode':8} {'category':16} {'cases':>5} {'runs':>5} {'passed':>7} {'pass^k':>7} "
        f"{'calls':>6} {'tokens':>7} {'latency ms':>10} {'cost $/run':>10} {'cost $':>9}"
    ]
    for mode, categories in sorted(modes.items()):
        for category in [*sorted(c for c in categories if c != "all"), "all"]:
            g = categories[category]
            lines.append(
                f"{mode:8} {category:16} {len(g.cases):5d} {g.runs:5d} "
                f"{g.passed / g.runs:7.0%} {g.pass_hat_k:7.0%} "
                f"{statistics.fmean(g.model_calls):6.2f} {statistics.fmean(g.tokens):7.0f} "
                f"{statistics.fmean(g.latency_ms):10.0f} {statistics.fmean(g.cost_usd):10.5f} "
                f"{sum(g.cost_usd):9.4f}"
            )
    return "\n".join(lines)


def failures(path: Path) -> list[str]:
    """Each failed run, with why."""
    with path.open(encoding="utf-8") as handle:
        return [
            f"{row['mode']} {row['case']} run {row['run']}: {row['failure']}"
            for row in csv.DictReader(handle)
            if row["passed"] != "True"
        ]


def chart(modes: dict[str, dict[str, Group]], target: Path) -> None:
    """Mean cost and mean latency per case, by category (one bar per mode)."""
    categories = sorted({c for cats in modes.values() for c in cats if c != "all"})
    fig, (cost_ax, latency_ax) = plt.subplots(2, 1, figsize=(11, 7.5), sharex=True)
    width = 0.8 / max(1, len(modes))
    for index, (mode, cats) in enumerate(sorted(modes.items())):
        xs = [i + index * width for i in range(len(categories))]
        costs = [statistics.fmean(cats[c].cost_usd) * 100 if c in cats else 0 for c in categories]
        latencies = [statistics.fmean(cats[c].latency_ms) if c in cats else 0 for c in categories]
        cost_ax.bar(xs, costs, width, label=mode)
        latency_ax.bar(xs, latencies, width, label=mode)
    cost_ax.set_ylabel("estimated cost per case (US cents)")
    cost_ax.set_title("Task suite: cost and latency per case, by category")
    latency_ax.set_ylabel("latency per case (ms, all turns)")
    latency_ax.set_xticks(
        [i + width * (len(modes) - 1) / 2 for i in range(len(categories))],
        categories,
        rotation=30,
        ha="right",
    )
    for ax in (cost_ax, latency_ax):
        ax.grid(axis="y", alpha=0.3)
        ax.legend()
    fig.text(
        0.01,
        0.005,
        "offline: scripted model on the fake Messages API (tokens estimated at 4 characters "
        "each), priced as the model column says; live: the real API's usage",
        fontsize=7,
    )
    fig.tight_layout(rect=(0, 0.02, 1, 1))
    target.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(target, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    """Print the summary; draw the chart when asked."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("csv", type=Path)
    parser.add_argument("--chart", type=Path, help="write the PNG here")
    args = parser.parse_args(argv)
    modes = load(args.csv)
    if not modes:
        print("no results", file=sys.stderr)
        return 1
    print(table(modes))
    for failure in failures(args.csv):
        print("FAILED", failure)
    if args.chart is not None:
        chart(modes, args.chart)
        print(f"chart: {args.chart}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
