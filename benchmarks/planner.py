"""scripts/bench planner: what the planner (issue 29) adds to an assistant turn's latency.

One Home Assistant core (built as pytest-homeassistant-custom-component builds it), the
emulated streamer on loopback, and an assistant entry on the fake Messages API
(testing/fake_anthropic) with the same fixed delay on every request it answers: the turn's
model calls and the planning request alike. The fake runs in a process of its own
(benchmarks/fake_api.py), as the real API is not in Home Assistant's process; `--fake-in-loop`
runs it on Home Assistant's event loop instead (how this benchmark first ran), which
counts the fake's work for the planning request as latency of the turn.

Each turn is a new conversation saying "set the living room to N": the model calls
linn__set_volume, the tool runs (a change: it waits for the turn's plan), the model answers.
A turn is timed from conversation.async_converse to its result. Also recorded: how long each
change waited for its plan, and the CPU time of the event loop's thread per turn (Home
Assistant, the agent and the SDK; the fake too with `--fake-in-loop`).

Turns are measured with the planner and without it, alternating (so both see the same
machine). Without it means no planning request at all, in this process only:
AssistantTurn._start_planner does nothing and the planner for other agents' turns
(TurnPlans.starter) is unset, so a change finds no plan to wait for and the policy decides
(this turn reads no device text, so the decision is the same either way).
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import AsyncIterator, Callable
import contextlib
import functools
import os
from pathlib import Path
import random
import statistics
import sys
import time
from typing import Any

from homeassistant.components import conversation
from homeassistant.const import CONF_API_KEY
from homeassistant.core import Context, HomeAssistant
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from benchmarks.fake_api import fake_api
from benchmarks.hass import async_setup_http, home_assistant
from benchmarks.stats import machine, summarize, write_json
from custom_components.linn.agent.const import CONF_BASE_URL, DEFAULT_OPTIONS
from custom_components.linn.agent.turn import AssistantTurn
from custom_components.linn.const import DOMAIN
from custom_components.linn.guard.call import Turn
from custom_components.linn.guard.plan import NoPlan, Plan
from custom_components.linn.guard.turn_plans import PLAN_WAIT, TurnPlans
from custom_components.linn.tools.ha_adapter import DATA_GUARD
from linn_emulator import LinnEmulator
from testing.ha.assist_api import assist_with_unlimited_guard
from testing.ha.streamers import async_setup_linn

API_KEY = "sk-ant-bench-planner"
AGENT = "conversation.claude_assistant"
VARIANTS = ("with_planner", "without_planner")
PERCENTILES = (50, 90, 99)
ROOT = Path(__file__).resolve().parent.parent
"""The repository: the fake API process's working directory (python -m benchmarks.fake_api)."""


class Turns:
    """The benchmark's turns: the asked level, the planner switch and what was recorded."""

    def __init__(self) -> None:
        self.level = 30
        self.planner = True
        self.requests: list[str] = []
        """"model" or "plan" per request, in the order the fake answered them."""
        self.original_start = AssistantTurn._start_planner
        self.original_plan_for = TurnPlans.async_plan_for
        self.plan_waits: list[float] = []
        """Seconds each change waited for its turn's plan (with the planner)."""
        self.planning_first: list[bool] = []
        """Per turn with the planner: its planning request reached the fake before the
        turn's first model request."""

    def install(self) -> None:
        """Make the planner switchable in this process (see the module's docstring)."""
        turns = self

        def start_planner(self: AssistantTurn) -> None:
            if turns.planner:
                turns.original_start(self)

        async def plan_for(
            self: TurnPlans, turn: Turn, wait: float = PLAN_WAIT
        ) -> Plan | NoPlan | None:
            started = time.perf_counter()
            try:
                return await turns.original_plan_for(self, turn, wait)
            finally:
                if turns.planner:
                    turns.plan_waits.append(time.perf_counter() - started)

        AssistantTurn._start_planner = start_planner  # type: ignore[method-assign]
        TurnPlans.async_plan_for = plan_for  # type: ignore[method-assign]

    def uninstall(self) -> None:
        """The agent as it was."""
        AssistantTurn._start_planner = self.original_start  # type: ignore[method-assign]
        TurnPlans.async_plan_for = self.original_plan_for  # type: ignore[method-assign]


async def one_turn(
    hass: HomeAssistant, emu: LinnEmulator, turns: Turns, user_id: str
) -> tuple[float, float]:
    """One timed turn: its wall-clock and event loop thread CPU seconds."""
    requests_before = len(turns.requests)
    cpu_started = time.thread_time()
    started = time.perf_counter()
    result = await conversation.async_converse(
        hass,
        f"set the living room to {turns.level}",
        None,
        Context(user_id=user_id),
        language="en",
        agent_id=AGENT,
    )
    elapsed = time.perf_counter() - started
    cpu_used = time.thread_time() - cpu_started
    speech = result.response.speech["plain"]["speech"]
    assert speech == f"The living room is at {turns.level}.", speech
    assert emu.state.volume == turns.level, (emu.state.volume, turns.level)
    await asyncio.sleep(0.01)  # the fake's lines of this turn (from its process)
    requests = turns.requests[requests_before:]
    assert requests.count("plan") == (1 if turns.planner else 0), requests
    assert requests.count("model") == 2, requests
    if turns.planner:
        # which of the turn's first two requests the fake answered first
        turns.planning_first.append(requests[0] == "plan")
    return elapsed, cpu_used


@contextlib.asynccontextmanager
async def fake_api_process(
    delay: float, log: Callable[[str], None], cpus: tuple[int, int] | None = None
) -> AsyncIterator[str]:
    """benchmarks/fake_api.py in a child process; yields its base URL.

    `cpus`: this process's CPU and the child's (see pinned_cpus).
    """
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "benchmarks.fake_api",
        "--api-key",
        API_KEY,
        "--delay",
        str(delay),
        cwd=ROOT,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert child.stdout is not None
    assert child.stdin is not None
    if cpus is not None:
        os.sched_setaffinity(child.pid, {cpus[1]})
    first = (await child.stdout.readline()).decode().split()
    assert first[:1] == ["url"], first

    async def read_lines() -> None:
        assert child.stdout is not None
        while line := await child.stdout.readline():
            log(line.decode().strip())

    reader = asyncio.create_task(read_lines())
    try:
        yield first[1]
    finally:
        child.stdin.close()
        await child.wait()
        await reader


def pinned_cpus() -> tuple[int, int] | None:
    """Two CPUs, one for Home Assistant's process and one for the fake's; None with fewer.

    Unpinned on a 2-CPU machine, the kernel often runs the woken fake on the loop's own CPU
    inside the loop's `sendmsg` (about 0.7 ms per request here, measured with cProfile), so
    the fake's work for a request counted as the turn's latency. The real API's work is
    never on Home Assistant's CPU.
    """
    if not hasattr(os, "sched_setaffinity"):
        return None
    allowed = sorted(os.sched_getaffinity(0))
    return (allowed[0], allowed[-1]) if len(allowed) >= 2 else None


def paired_differences(samples: dict[str, list[float]]) -> dict[str, Any]:
    """The median of the pairwise differences (with minus without, turns measured side by
    side) and a bootstrap 95 % interval of that median, in milliseconds.

    Pairs cancel the machine's slow drifts that two separate p50s carry.
    """
    differences = [
        (with_ - without) * 1000
        for with_, without in zip(samples["with_planner"], samples["without_planner"], strict=True)
    ]
    rng = random.Random(29)
    medians = sorted(
        statistics.median(rng.choices(differences, k=len(differences))) for _ in range(2000)
    )
    return {
        "n": len(differences),
        "median_ms": statistics.median(differences),
        "ci95_ms": [medians[49], medians[1949]],
    }


async def bench_planner(
    count: int,
    delay: float,
    warm_up: int,
    *,
    fake_in_loop: bool,
    same: bool = False,
    pin: bool = True,
) -> dict[str, Any]:
    """`count` timed turns per variant (after `warm_up` each), alternating variants."""
    turns = Turns()
    samples: dict[str, list[float]] = {variant: [] for variant in VARIANTS}
    cpu: dict[str, list[float]] = {variant: [] for variant in VARIANTS}
    cpus = pinned_cpus() if pin and not fake_in_loop else None
    if cpus is not None:
        os.sched_setaffinity(0, {cpus[0]})
    fake = (
        functools.partial(fake_api, API_KEY)
        if fake_in_loop
        else functools.partial(fake_api_process, cpus=cpus)
    )
    async with (
        fake(delay, turns.requests.append) as base_url,
        LinnEmulator(port=0, tick_interval=3600) as emu,
        home_assistant() as hass,
    ):
        await async_setup_http(hass)
        linn = await async_setup_linn(hass, emu.udn, emu.port)
        admin = await hass.auth.async_create_user("bench", group_ids=["system-admin"])
        # rate limits of the guard would refuse a benchmark's 20th change in a minute
        await assist_with_unlimited_guard(hass, admin.id, platform="bench")
        assert await async_setup_component(hass, "conversation", {})
        entry = MockConfigEntry(
            domain=DOMAIN,
            title="Claude assistant",
            data={CONF_API_KEY: API_KEY, CONF_BASE_URL: base_url},
            options=dict(DEFAULT_OPTIONS),
        )
        entry.add_to_hass(hass)
        assert await hass.config_entries.async_setup(entry.entry_id)
        await hass.async_block_till_done()
        plans = hass.data[DATA_GUARD].plans
        starter = plans.starter
        assert starter is not None
        turns.install()
        try:
            for number in range(warm_up + count):
                # alternate which variant goes first, so neither always follows the other
                order = VARIANTS if number % 2 == 0 else VARIANTS[::-1]
                for variant in order:
                    turns.planner = same or variant == "with_planner"
                    plans.starter = starter if turns.planner else None
                    waits_before = len(turns.plan_waits)
                    turns.level = 30 + (number * 2 + (variant == "with_planner")) % 10
                    elapsed, cpu_used = await one_turn(hass, emu, turns, admin.id)
                    if number >= warm_up:
                        samples[variant].append(elapsed)
                        cpu[variant].append(cpu_used)
                    elif turns.planner:
                        del turns.plan_waits[waits_before:]  # a warm-up turn's
        finally:
            turns.uninstall()
            plans.starter = starter
        outcomes = dict(entry.runtime_data.plan_outcomes)
        await hass.config_entries.async_unload(entry.entry_id)
        await hass.config_entries.async_unload(linn.entry_id)
        await hass.async_block_till_done()
    turn = {variant: summarize(got, PERCENTILES) for variant, got in samples.items()}
    difference = {
        f"p{pct}_ms": turn["with_planner"][f"p{pct}_ms"] - turn["without_planner"][f"p{pct}_ms"]
        for pct in PERCENTILES
    }
    return {
        "delay_ms": delay * 1000,
        "fake_api": "Home Assistant's event loop" if fake_in_loop else "a process of its own",
        "same": same,
        "model_requests_per_turn": 2,
        "planning_requests_per_turn": {"with_planner": 1, "without_planner": 0},
        "plan_outcomes": outcomes,
        "turn_latency": turn,
        "added_by_planner": difference,
        "added_by_planner_paired": paired_differences(samples),
        "pinned_cpus": list(cpus) if cpus is not None else None,
        "change_waited_for_plan": summarize(turns.plan_waits, PERCENTILES),
        "planning_request_arrived_first": {
            "yes": sum(turns.planning_first),
            "no": len(turns.planning_first) - sum(turns.planning_first),
        },
        "loop_thread_cpu_per_turn": {
            variant: summarize(got, PERCENTILES) for variant, got in cpu.items()
        },
        "samples_ms": {variant: [s * 1000 for s in got] for variant, got in samples.items()},
    }


def print_table(results: dict[str, Any]) -> None:
    """Human-readable distributions."""
    print(f"machine: {results['machine']}")
    print(f"fake API delay per request: {results['delay_ms']:.0f} ms, in {results['fake_api']}")
    print(f"plan outcomes (turns with the planner, warm-up included): {results['plan_outcomes']}")
    first = results["planning_request_arrived_first"]
    print(f"planning request reached the fake first (warm-up included): {first}")
    print(f"{'turn latency':<20} {'n':>5} {'min ms':>8} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8}")
    for variant, dist in results["turn_latency"].items():
        print(
            f"{variant:<20} {dist['n']:>5} {dist['min_ms']:>8.1f} {dist['p50_ms']:>8.1f} "
            f"{dist['p90_ms']:>8.1f} {dist['p99_ms']:>8.1f}"
        )
    added = results["added_by_planner"]
    print(
        f"{'added by planner':<20} {'':>5} {'':>8} {added['p50_ms']:>8.1f} "
        f"{added['p90_ms']:>8.1f} {added['p99_ms']:>8.1f}"
    )
    paired = results["added_by_planner_paired"]
    print(
        f"added, paired median: {paired['median_ms']:.2f} ms "
        f"(95 % interval {paired['ci95_ms'][0]:.2f} to {paired['ci95_ms'][1]:.2f} ms, "
        f"n {paired['n']}); CPUs (Home Assistant, fake): {results['pinned_cpus']}"
    )
    rows = [("change waited for plan", results["change_waited_for_plan"])] + [
        (f"CPU {variant}", dist) for variant, dist in results["loop_thread_cpu_per_turn"].items()
    ]
    for name, dist in rows:
        print(
            f"{name:<20} {dist['n']:>5} {dist['min_ms']:>8.1f} {dist['p50_ms']:>8.1f} "
            f"{dist['p90_ms']:>8.1f} {dist['p99_ms']:>8.1f}"
        )


def main(argv: list[str] | None = None) -> None:
    """Entry point (`scripts/bench planner ...`)."""
    parser = argparse.ArgumentParser(prog="scripts/bench planner", description=__doc__)
    parser.add_argument("--count", type=int, default=40, help="timed turns per variant")
    parser.add_argument("--warm-up", type=int, default=3, help="untimed turns per variant first")
    parser.add_argument(
        "--delay", type=float, default=0.15, help="seconds the fake API takes per request"
    )
    parser.add_argument(
        "--fake-in-loop",
        action="store_true",
        help="run the fake API on Home Assistant's event loop, not in a process of its own",
    )
    parser.add_argument(
        "--same",
        action="store_true",
        help="both variants with the planner (an A/A run: how far two p50s differ by chance)",
    )
    parser.add_argument(
        "--no-pin",
        action="store_true",
        help="leave Home Assistant's process and the fake's on any CPU (see pinned_cpus)",
    )
    parser.add_argument("--note", default="", help="stored with the results")
    parser.add_argument(
        "--json", type=Path, help="write the results to this file (relative to the repository)"
    )
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    measured = asyncio.run(
        bench_planner(
            args.count,
            args.delay,
            args.warm_up,
            fake_in_loop=args.fake_in_loop,
            same=args.same,
            pin=not args.no_pin,
        )
    )
    load = {"before": list(load_before), "after": list(os.getloadavg())}
    results = {"machine": {**machine(), "load_average": load}, "note": args.note, **measured}
    print_table(results)
    if args.json:
        write_json(args.json, results)


if __name__ == "__main__":
    main()
