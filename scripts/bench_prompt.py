"""scripts/bench prompt: request size and cost per task, our agent against core anthropic.

One Home Assistant core (built as pytest-homeassistant-custom-component builds it), a home of
40 exposed template entities in eight areas, two emulated Linn players on loopback, and the
fake Messages API (tests/fake_anthropic). Core `anthropic` is added through its own config
flow (the Assist API, its defaults) and reaches the fake through ANTHROPIC_BASE_URL; ours is
an assistant entry with its default options. Every task (tests/promptcmp/tasks.py) runs
through each agent with the same scripted model plan; the figures come from the requests the
fake recorded (tests/promptcmp/metrics.py says how tokens and costs are estimated).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
from pathlib import Path
import statistics
import sys
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench import machine
from bench_hass import home_assistant

from linn_emulator import LinnEmulator
from tests.fake_anthropic import FakeAnthropic
from tests.promptcmp.harness import (
    OURS,
    THEIRS,
    async_setup_comparison,
    async_unload_all,
)
from tests.promptcmp.home import OTHER_ENTITY_COUNT
from tests.promptcmp.metrics import CACHE_FLOORS
from tests.promptcmp.tasks import KITCHEN, LIVING, TASKS

API_KEY = "sk-ant-bench-prompt"
GOAL = 0.5


def load_average() -> list[float]:
    """The 1, 5 and 15 minute load averages (the machine is shared)."""
    return [round(value, 2) for value in os.getloadavg()]


async def measure(variant: bool) -> dict[str, Any]:
    """Every task through every agent; the raw runs."""
    runs: list[dict[str, Any]] = []
    async with (
        FakeAnthropic(api_key=API_KEY) as fake,
        LinnEmulator(port=0, room=LIVING, tick_interval=0.05) as living,
        LinnEmulator(port=0, room=KITCHEN, tick_interval=0.05) as kitchen,
        home_assistant() as hass,
    ):
        os.environ["ANTHROPIC_BASE_URL"] = fake.base_url
        user = await hass.auth.async_create_user("bench", group_ids=["system-admin"])
        comparison = await async_setup_comparison(
            hass,
            fake,
            {LIVING: living, KITCHEN: kitchen},
            user.id,
            API_KEY,
            assist_variant=variant,
        )
        agents = list(comparison.agents)
        for task in TASKS:
            for agent in agents:
                print(f"{task.id}: {agent}", file=sys.stderr, flush=True)
                runs.append(await comparison.run(agent, task))
        await async_unload_all(hass)
    return {"agents": agents, "runs": runs}


def _ratio(ours: float, theirs: float) -> float | None:
    return ours / theirs if theirs else None


def summarize(measured: dict[str, Any]) -> dict[str, Any]:
    """Per task: both agents' figures and the ratios; overall: sums, ratios, successes."""
    by_task: dict[str, dict[str, Any]] = {}
    samples: dict[str, dict[str, Any]] = {}
    for full in measured["runs"]:
        # What each agent sends, once (the first task's first request), not per run.
        run = {k: v for k, v in full.items() if k not in {"offered_tools", "system_prompt"}}
        samples.setdefault(
            run["agent"],
            {
                "task": run["task"],
                "offered_tools": full["offered_tools"],
                "system_prompt": full["system_prompt"],
            },
        )
        by_task.setdefault(run["task"], {"category": run["category"]})[run["agent"]] = run
    tasks = []
    for task_id, row in by_task.items():
        theirs = row[THEIRS]
        entry: dict[str, Any] = {"task": task_id, "category": row["category"], "agents": {}}
        for agent in measured["agents"]:
            run = row[agent]
            entry["agents"][agent] = run
            if agent != THEIRS:
                entry[f"ratio_{agent}_bytes"] = _ratio(
                    run["request_bytes"], theirs["request_bytes"]
                )
                entry[f"ratio_{agent}_tokens"] = _ratio(
                    run["input_tokens_est"], theirs["input_tokens_est"]
                )
        tasks.append(entry)

    def total(agent: str, key: str) -> float:
        return float(sum(t["agents"][agent][key] for t in tasks))

    def total_cost(agent: str, model: str, cache: str) -> float:
        return float(sum(t["agents"][agent]["cost_usd"][model][cache] for t in tasks))

    summary: dict[str, Any] = {}
    for agent in measured["agents"]:
        figures: dict[str, Any] = {
            "successes": sum(t["agents"][agent]["success"] for t in tasks),
            "tasks": len(tasks),
            "model_calls": total(agent, "model_calls"),
            "request_bytes": total(agent, "request_bytes"),
            "input_tokens_est": total(agent, "input_tokens_est"),
            "cacheable_share": total(agent, "cacheable_tokens_est")
            / total(agent, "input_tokens_est"),
            "cost_usd": {
                model: {
                    cache: total_cost(agent, model, cache) for cache in ("cold_cache", "warm_cache")
                }
                for model in CACHE_FLOORS
            },
        }
        if agent != THEIRS:
            ratios = [t[f"ratio_{agent}_bytes"] for t in tasks]
            figures["ratio_bytes_per_task"] = {
                "min": min(ratios),
                "median": statistics.median(ratios),
                "max": max(ratios),
            }
            figures["ratio_bytes_total"] = _ratio(
                figures["request_bytes"], total(THEIRS, "request_bytes")
            )
            figures["ratio_cost_total"] = {
                model: {
                    cache: _ratio(total_cost(agent, model, cache), total_cost(THEIRS, model, cache))
                    for cache in ("cold_cache", "warm_cache")
                }
                for model in CACHE_FLOORS
            }
        summary[agent] = figures
    ours = summary[OURS]
    summary["goal"] = {
        "ratio_bytes_per_task_at_most": GOAL,
        "met": ours["ratio_bytes_per_task"]["max"] <= GOAL
        and ours["successes"] >= summary[THEIRS]["successes"],
    }
    return {"tasks": tasks, "summary": summary, "prompt_samples": samples}


def print_table(results: dict[str, Any]) -> None:
    """Per task bytes and ratio; then the totals."""
    agents = results["agents"]
    print(f"machine: {results['machine']}  load average at start/end: {results['load_average']}")
    head = f"{'task':<18} {'calls':>5}"
    for agent in agents:
        head += f" {agent + ' B':>18} {'ok':>3}"
    head += f" {'ours/theirs':>11}"
    print(head)
    for task in results["tasks"]:
        row = f"{task['task']:<18} {task['agents'][THEIRS]['model_calls']:>5}"
        for agent in agents:
            run = task["agents"][agent]
            row += f" {run['request_bytes']:>18,} {'y' if run['success'] else 'N':>3}"
        row += f" {task[f'ratio_{OURS}_bytes']:>11.2f}"
        print(row)
    for agent in agents:
        s = results["summary"][agent]
        line = (
            f"{agent}: {s['successes']}/{s['tasks']} tasks, {s['request_bytes']:,.0f} bytes, "
            f"~{s['input_tokens_est']:,.0f} tokens, cacheable {s['cacheable_share']:.0%}"
        )
        if agent != THEIRS:
            r = s["ratio_bytes_per_task"]
            line += (
                f"; bytes ours/theirs per task {r['min']:.2f}-{r['max']:.2f} "
                f"(median {r['median']:.2f}), total {s['ratio_bytes_total']:.2f}; cost ratio "
                + ", ".join(
                    f"{model} {cache.split('_')[0]} {value:.2f}"
                    for model, caches in s["ratio_cost_total"].items()
                    for cache, value in caches.items()
                )
            )
        print(line)
    print(f"goal (ours <= {GOAL} of theirs per task, equal success): {results['summary']['goal']}")


def main(argv: list[str]) -> None:
    """Entry point (`scripts/bench prompt ...`)."""
    parser = argparse.ArgumentParser(prog="scripts/bench prompt", description=__doc__)
    parser.add_argument(
        "--no-assist-variant",
        action="store_true",
        help="leave out our agent with the Assist API enabled",
    )
    parser.add_argument("--json", type=Path, help="write the results here (repository-relative)")
    parser.add_argument("--png", type=Path, help="draw the per-task chart here")
    args = parser.parse_args(argv)
    start_load = load_average()
    measured = asyncio.run(measure(not args.no_assist_variant))
    results: dict[str, Any] = {
        "machine": machine(),
        "load_average": {"start": start_load, "end": load_average()},
        "how": (
            "one HA core (phacc), 40 exposed template entities, two emulated players; core "
            "anthropic (config flow, Assist API, defaults) via ANTHROPIC_BASE_URL and ours "
            "(default options) on the fake Messages API; the same scripted plans; tokens "
            "estimated at 4 characters per token of the prompt's canonical JSON for both"
        ),
        "home": {"other_exposed_entities": OTHER_ENTITY_COUNT, "players": [LIVING, KITCHEN]},
        "cache_floors_tokens": CACHE_FLOORS,
        "agents": measured["agents"],
        **summarize(measured),
    }
    print_table(results)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    if args.png:
        from bench_prompt_plot import draw  # noqa: PLC0415

        draw(results, args.png)
