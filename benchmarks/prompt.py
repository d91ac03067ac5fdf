"""scripts/bench prompt: request size and cost per task, our agent against core anthropic.

One Home Assistant core (built as pytest-homeassistant-custom-component builds it), a home of
40 exposed template entities in eight areas, two emulated Linn players on loopback, and the
fake Messages API (testing/fake_anthropic). Core `anthropic` is added through its own config
flow (the Assist API, its defaults) and reaches the fake through ANTHROPIC_BASE_URL; ours is
an assistant entry with its default options. Every task (testing/promptcmp/tasks.py) runs
through each agent with the same scripted model plan; the figures come from the requests the
fake recorded (testing/promptcmp/metrics.py says how tokens and costs are estimated).

One run per model, both agents on that model (core anthropic reconfigured to it through its
own flow, ours through its model option), each priced under that model only; `default` runs
each agent with its own default model (ours Claude Haiku 5.5, core anthropic Haiku 4.5 in
Home Assistant 2026.10), each priced under its own.
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

from benchmarks.hass import home_assistant
from benchmarks.stats import machine, write_json
from linn_emulator import LinnEmulator
from testing.fake_anthropic import FakeAnthropic
from testing.promptcmp.harness import (
    OURS,
    THEIRS,
    async_setup_comparison,
    async_unload_all,
)
from testing.promptcmp.home import OTHER_ENTITY_COUNT
from testing.promptcmp.metrics import CACHE_FLOORS, PRICED_MODELS
from testing.promptcmp.tasks import KITCHEN, LIVING, TASKS

API_KEY = "sk-ant-bench-prompt"
GOAL = 0.5
DEFAULTS = "default"
"""Not a model: each agent with its own default model."""
CACHES = ("cold_cache", "warm_cache")


def load_average() -> list[float]:
    """The 1, 5 and 15 minute load averages (the machine is shared)."""
    return [round(value, 2) for value in os.getloadavg()]


async def measure(variant: bool, model: str | None) -> dict[str, Any]:
    """Every task through every agent, all on `model` (None: each its default); the raw runs."""
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
            model=model,
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
    """Per task: every agent's figures and the ratios; overall: sums, ratios, successes."""
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

    def total_cost(agent: str, cache: str) -> float:
        return float(sum(t["agents"][agent]["cost_usd"][cache] for t in tasks))

    summary: dict[str, Any] = {}
    sent: dict[str, Any] = {}
    for agent in measured["agents"]:
        parameters = {json.dumps(t["agents"][agent]["parameters"], sort_keys=True) for t in tasks}
        assert len(parameters) == 1, f"{agent} sent different parameters per task: {parameters}"
        sent[agent] = json.loads(parameters.pop())
        figures: dict[str, Any] = {
            "model": sent[agent]["model"],
            "successes": sum(t["agents"][agent]["success"] for t in tasks),
            "tasks": len(tasks),
            "model_calls": total(agent, "model_calls"),
            "request_bytes": total(agent, "request_bytes"),
            "thinking_blocks_sent": total(agent, "thinking_blocks_sent"),
            "thinking_bytes_sent": total(agent, "thinking_bytes_sent"),
            "input_tokens_est": total(agent, "input_tokens_est"),
            "output_tokens_est": total(agent, "output_tokens_est"),
            "cacheable_share": total(agent, "cacheable_tokens_est")
            / total(agent, "input_tokens_est"),
            "cost_usd": {cache: total_cost(agent, cache) for cache in CACHES},
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
                cache: _ratio(total_cost(agent, cache), total_cost(THEIRS, cache))
                for cache in CACHES
            }
        summary[agent] = figures
    ours = summary[OURS]
    summary["goal"] = {
        "ratio_bytes_per_task_at_most": GOAL,
        "met": ours["ratio_bytes_per_task"]["max"] <= GOAL
        and ours["successes"] >= summary[THEIRS]["successes"],
    }
    return {"sent": sent, "tasks": tasks, "summary": summary, "prompt_samples": samples}


def print_run(run: dict[str, Any], agents: list[str]) -> None:
    """One model's run: per task bytes and ratio; then the totals."""
    print(f"\n== {run['label']} ==")
    for agent in agents:
        print(f"{agent} sent: {json.dumps(run['sent'][agent], sort_keys=True)}")
    head = f"{'task':<18} {'calls':>5}"
    for agent in agents:
        head += f" {agent + ' B':>18} {'ok':>3}"
    head += f" {'ours/theirs':>11}"
    print(head)
    for task in run["tasks"]:
        row = f"{task['task']:<18} {task['agents'][THEIRS]['model_calls']:>5}"
        for agent in agents:
            figures = task["agents"][agent]
            row += f" {figures['request_bytes']:>18,} {'y' if figures['success'] else 'N':>3}"
        row += f" {task[f'ratio_{OURS}_bytes']:>11.2f}"
        print(row)
    for agent in agents:
        s = run["summary"][agent]
        line = (
            f"{agent} ({s['model']}): {s['successes']}/{s['tasks']} tasks, "
            f"{s['request_bytes']:,.0f} bytes, ~{s['input_tokens_est']:,.0f} tokens, "
            f"cacheable {s['cacheable_share']:.0%}, {s['thinking_blocks_sent']:.0f} thinking "
            f"blocks sent back ({s['thinking_bytes_sent']:,.0f} B), US$ per 1,000 runs "
            f"cold {s['cost_usd']['cold_cache'] * 1000:.2f} warm "
            f"{s['cost_usd']['warm_cache'] * 1000:.2f}"
        )
        if agent != THEIRS:
            r = s["ratio_bytes_per_task"]
            c = s["ratio_cost_total"]
            line += (
                f"; bytes ours/theirs per task {r['min']:.2f}-{r['max']:.2f} "
                f"(median {r['median']:.2f}), total {s['ratio_bytes_total']:.2f}; cost "
                f"cold {c['cold_cache']:.2f} warm {c['warm_cache']:.2f}"
            )
        print(line)
    print(f"goal (ours <= {GOAL} of theirs per task, equal success): {run['summary']['goal']}")


def main(argv: list[str]) -> None:
    """Entry point (`scripts/bench prompt ...`)."""
    parser = argparse.ArgumentParser(prog="scripts/bench prompt", description=__doc__)
    parser.add_argument(
        "--no-assist-variant",
        action="store_true",
        help="leave out our agent with the Assist API enabled",
    )
    parser.add_argument(
        "--model",
        action="append",
        choices=[*PRICED_MODELS, DEFAULTS],
        help=(
            "run both agents on this model (repeatable; 'default': each its own default); "
            "default: every priced model, then 'default'"
        ),
    )
    parser.add_argument("--json", type=Path, help="write the results here (repository-relative)")
    parser.add_argument("--png", type=Path, help="draw the per-task chart here")
    args = parser.parse_args(argv)
    models: list[str] = args.model or [*PRICED_MODELS, DEFAULTS]
    start_load = load_average()
    runs: list[dict[str, Any]] = []
    agents: list[str] = []
    for model in models:
        print(f"== {model} ==", file=sys.stderr, flush=True)
        measured = asyncio.run(
            measure(not args.no_assist_variant, None if model == DEFAULTS else model)
        )
        agents = measured["agents"]
        label = "each agent's default model" if model == DEFAULTS else f"both agents on {model}"
        runs.append({"model": model, "label": label, **summarize(measured)})
    results: dict[str, Any] = {
        "machine": machine(),
        "load_average": {"start": start_load, "end": load_average()},
        "how": (
            "one HA core (phacc) per model, 40 exposed template entities, two emulated "
            "players; core anthropic (config flow, Assist API, defaults; another model chosen "
            "in its reconfigure flow) via ANTHROPIC_BASE_URL and ours (default options; the "
            "model option) on the fake Messages API; the same scripted plans; tokens "
            "estimated at 4 characters per token of the prompt's canonical JSON for both; "
            "each run priced under the model its requests named"
        ),
        "home": {"other_exposed_entities": OTHER_ENTITY_COUNT, "players": [LIVING, KITCHEN]},
        "cache_floors_tokens": CACHE_FLOORS,
        "agents": agents,
        "runs": runs,
        "goal": {
            "ratio_bytes_per_task_at_most": GOAL,
            "met": all(run["summary"]["goal"]["met"] for run in runs),
        },
    }
    print(f"machine: {results['machine']}  load average at start/end: {results['load_average']}")
    for run in runs:
        print_run(run, agents)
    print(f"\ngoal met on every run: {results['goal']['met']}")
    if args.json:
        write_json(args.json, results)
    if args.png:
        from benchmarks.prompt_plot import draw  # noqa: PLC0415

        draw(results, args.png)
