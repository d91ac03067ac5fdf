"""The `scripts/bench prompt` chart: request bytes per task, what they are made of, and cost."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib as mpl

mpl.use("Agg")
import matplotlib.pyplot as plt

from benchmarks.stats import save_figure

COLOURS = {"theirs": "#d95f02", "ours": "#2b7bb9", "ours_with_assist": "#7fb3d5"}
LABELS = {
    "theirs": "core anthropic + Assist API",
    "ours": "ours (default options)",
    "ours_with_assist": "ours + Assist API",
}
PARTS = (("tools", 1.0), ("system", 0.6), ("messages", 0.3))


def draw(results: dict[str, Any], path: Path) -> None:
    """Three panels: bytes per task and bytes by prompt part (the first run: both agents on
    one model), and the total cost of every run, cold and warm cache (log scale)."""
    agents: list[str] = results["agents"]
    runs: list[dict[str, Any]] = results["runs"]
    first = runs[0]
    tasks = first["tasks"]
    fig, (per_task, parts, cost) = plt.subplots(
        1, 3, figsize=(19, 5.6), gridspec_kw={"width_ratios": [3, 1.2, 2.4]}
    )
    width = 0.8 / len(agents)
    for index, agent in enumerate(agents):
        xs = [i + (index - (len(agents) - 1) / 2) * width for i in range(len(tasks))]
        values = [t["agents"][agent]["request_bytes"] / 1000 for t in tasks]
        per_task.bar(xs, values, width, color=COLOURS[agent], label=LABELS[agent])
    for i, task in enumerate(tasks):
        top = max(task["agents"][a]["request_bytes"] for a in agents) / 1000
        per_task.text(i, top + 1, f"{task['ratio_ours_bytes']:.2f}", ha="center", fontsize=7)
    per_task.set_xticks(range(len(tasks)), [t["task"] for t in tasks], rotation=40, ha="right")
    per_task.set_ylabel("kB sent per task (all model calls)")
    per_task.set_title(f"request bytes per task, {first['label']} (number: ours / theirs)")
    per_task.legend(fontsize=8)

    for index, agent in enumerate(agents):
        bottom = 0.0
        for part, alpha in PARTS:
            value = (
                sum(call["part_bytes"][part] for t in tasks for call in t["agents"][agent]["calls"])
                / 1000
            )
            parts.bar(
                index,
                value,
                0.6,
                bottom=bottom,
                color=COLOURS[agent],
                alpha=alpha,
                label=part if index == 0 else None,
                edgecolor="white",
            )
            bottom += value
    parts.set_xticks(range(len(agents)), [LABELS[a] for a in agents], rotation=20, ha="right")
    parts.set_ylabel("kB, all tasks")
    parts.set_title("tools / system / messages")
    parts.legend(fontsize=8)

    cases = [(run, cache) for run in runs for cache in ("cold_cache", "warm_cache")]
    for index, agent in enumerate(agents):
        xs = [i + (index - (len(agents) - 1) / 2) * width for i in range(len(cases))]
        values = [run["summary"][agent]["cost_usd"][cache] * 1000 for run, cache in cases]
        cost.bar(xs, values, width, color=COLOURS[agent], label=LABELS[agent])
    cost.set_yscale("log")
    cost.set_xticks(
        range(len(cases)),
        [f"{_run_label(run)}\n{cache.split('_')[0]}" for run, cache in cases],
        fontsize=7,
    )
    cost.set_ylabel("US$ per 1,000 runs of all tasks (estimated, log scale)")
    defaults = next((run for run in runs if run["model"] == "default"), None)
    note = ""
    if defaults is not None:
        theirs, ours = (
            str(defaults["summary"][agent]["model"]).removeprefix("claude-")
            for agent in ("theirs", "ours")
        )
        note = f"\n(each its default: theirs {theirs}, ours {ours})"
    cost.set_title(f"cost of all tasks, per run: both agents on one model{note}", fontsize=10)
    load = results["load_average"]["start"]
    fig.suptitle(
        f"{len(tasks)} tasks, same home and plans; tokens estimated (4 chars/token); thinking "
        f"tokens not simulated; load average {load[0]} at start on "
        f"{results['machine']['cpus']} CPUs",
        fontsize=9,
    )
    save_figure(fig, path)


def _run_label(run: dict[str, Any]) -> str:
    if run["model"] == "default":
        return "each its\ndefault"
    return str(run["model"]).removeprefix("claude-").replace("-", " ", 1)
