"""The long fault soak: `scripts/bench --soak MINUTES [--json FILE] [--summary FILE]`.

testing/soak/rounds.py's rounds (random faults while HA actions and guarded tools run) for MINUTES,
in a real Home Assistant core built as pytest-homeassistant-custom-component builds it, with
one emulated streamer on loopback. Fault detection is tuned as in the short soak (keepalive
every 1 s of silence, 1 s action timeout, reconnect backoff capped at 1 s): with the
shipped 30 s keepalive a silent half-open socket is found only after up to 35 s.

After a warm-up (the rate windows, idempotency cache and audit ring fill) traced memory
(less this script's own samples), task count and RSS are sampled every 30 s; the summary
gives the memory slope and, when it grows, the tracemalloc snapshot diff by traceback that
attributes it.
"""

from __future__ import annotations

import argparse
import asyncio
from collections import Counter
import logging
from pathlib import Path
import resource
import statistics
import sys
import time
import tracemalloc
from typing import Any

from benchmarks.hass import async_setup_http, home_assistant
from benchmarks.stats import machine, percentile, write_json
import custom_components.linn as linn_init
from linn_emulator import LinnEmulator
from testing.ha.assist_api import assist_with_unlimited_guard
from testing.ha.streamers import async_setup_linn
from testing.soak import BREAKING, Soak, SoakReport, SoakSettings, traced_bytes, traced_snapshot

ACTION_TIMEOUT = 1.0
AUDIT_RECORDS = 100
LAG_GOAL_MS = 20.0
OWN = tracemalloc.Filter(False, __file__)
"""This script's own samples are not the integration's memory."""


def _rss_bytes() -> int:
    with Path("/proc/self/statm").open() as statm:
        return int(statm.read().split()[1]) * resource.getpagesize()


def _slope_per_minute(points: list[tuple[float, int]]) -> float:
    """Least-squares slope of (seconds, bytes), in bytes per minute."""
    if len(points) < 2:
        return 0.0
    xs = [t for t, _ in points]
    ys = [float(v) for _, v in points]
    return statistics.linear_regression(xs, ys).slope * 60


def _ms(samples: list[float]) -> dict[str, float]:
    ms = [s * 1000 for s in samples] or [0.0]
    return {
        "n": len(samples),
        "p50_ms": percentile(ms, 50),
        "p99_ms": percentile(ms, 99),
        "max_ms": max(ms),
    }


async def soak(args: argparse.Namespace) -> dict[str, Any]:  # noqa: PLR0915 - one run, in order
    tuned = {"KEEPALIVE_INTERVAL": 1.0, "ACTION_TIMEOUT": ACTION_TIMEOUT, "RECONNECT_MAX": 1.0}
    for name, value in tuned.items():
        setattr(linn_init, name, value)
    async with (
        LinnEmulator(port=0, tick_interval=1.0) as emu,
        home_assistant() as hass,
    ):
        await async_setup_http(hass)
        await async_setup_linn(hass, emu.udn, emu.port)
        admin = await hass.auth.async_create_user("soak", group_ids=["system-admin"])
        api, guard = await assist_with_unlimited_guard(
            hass, admin.id, platform="bench", audit_max_records=AUDIT_RECORDS
        )
        entity_id = next(s.entity_id for s in hass.states.async_all("media_player") if s.entity_id)
        runner = Soak(
            hass,
            emu,
            entity_id=entity_id,
            player="Living Room",
            api=api,
            guard=guard,
            seed=args.seed,
            settings=SoakSettings(
                action_bound=ACTION_TIMEOUT + 2.5,
                tool_bound=7.0,
                slow_delay=ACTION_TIMEOUT / 2,
                reply_timeout=ACTION_TIMEOUT,
            ),
        )
        runner.start()
        if args.frames:
            tracemalloc.start(args.frames)
        started = time.perf_counter()
        end = started + args.minutes * 60
        warm_until = started + args.warmup * 60
        baseline: tracemalloc.Snapshot | None = None
        started_sampling = False
        rss: list[tuple[float, int]] = []
        memory: list[tuple[float, int]] = []
        tasks: list[tuple[float, int]] = []
        next_sample = warm_until
        try:
            while time.perf_counter() < end:
                await runner.round()
                emu.actions.clear()  # the emulator's log for tests; not the integration's
                now = time.perf_counter()
                if now < next_sample:
                    continue
                next_sample = max(next_sample + args.sample_every, now)
                await hass.async_block_till_done()
                if not started_sampling:
                    started_sampling = True
                    runner.report.lag_s.clear()  # lag after the warm-up, like the rest
                    if args.frames:
                        baseline = traced_snapshot(OWN)
                elapsed = now - started
                if args.frames:
                    memory.append((elapsed, traced_bytes(OWN)))
                    runner.skip_lag()
                rss.append((elapsed, _rss_bytes()))
                tasks.append((elapsed, len(asyncio.all_tasks())))
                report = runner.report
                print(
                    f"{elapsed / 60:5.1f} min: {report.rounds} rounds, "
                    f"{sum(report.commands.values())} commands, "
                    f"{len(report.violations)} violations, "
                    f"traced {memory[-1][1] / 1024 if memory else 0:.0f} KiB, "
                    f"RSS {rss[-1][1] / 2**20:.1f} MiB, tasks {tasks[-1][1]}",
                    file=sys.stderr,
                    flush=True,
                )
            await hass.async_block_till_done()
            growth: list[dict[str, Any]] = []
            if baseline is not None:
                final = traced_snapshot(OWN)
                growth = [
                    {
                        "size_diff_bytes": stat.size_diff,
                        "count_diff": stat.count_diff,
                        "traceback": stat.traceback.format(most_recent_first=True)[:16],
                    }
                    for stat in final.compare_to(baseline, "traceback")[:10]
                ]
        finally:
            tracemalloc.stop()
            await runner.stop()
    return _results(
        args,
        runner.report,
        memory=memory,
        rss=rss,
        tasks=tasks,
        growth=growth,
        seconds=time.perf_counter() - started,
    )


def _results(
    args: argparse.Namespace,
    report: SoakReport,
    *,
    memory: list[tuple[float, int]],
    rss: list[tuple[float, int]],
    tasks: list[tuple[float, int]],
    growth: list[dict[str, Any]],
    seconds: float,
) -> dict[str, Any]:
    lag = _ms(report.lag_s)
    breaking = sum(report.faults[f] for f in BREAKING)
    return {
        "machine": machine(),
        "load_note": args.note,
        "seed": args.seed,
        "minutes": seconds / 60,
        "warmup_minutes": args.warmup,
        "tracemalloc_frames": args.frames,
        "rounds": report.rounds,
        "faults": dict(report.faults),
        "commands": dict(report.commands),
        "commands_total": sum(report.commands.values()),
        "outcomes": dict(report.outcomes),
        "tool_calls": report.tool_calls,
        "audit_records": report.audit_records,
        "audit_expiry_records": report.expiry_records,
        "breaking_faults": breaking,
        "unavailable_after_fault": _ms(report.detect_s),
        "back_and_resynced_after_recovery": _ms(report.recover_s),
        "back_and_resynced_by_fault": {
            fault: _ms(samples) for fault, samples in sorted(report.recover_by_fault.items())
        },
        "event_loop_lag": lag | {"goal_p99_ms": LAG_GOAL_MS},
        "traced_memory": {
            "first_bytes": memory[0][1] if memory else None,
            "last_bytes": memory[-1][1] if memory else None,
            "max_bytes": max((v for _, v in memory), default=None),
            "slope_bytes_per_minute": _slope_per_minute(memory),
            "slope_last_half_bytes_per_minute": _slope_per_minute(memory[len(memory) // 2 :]),
        },
        "rss": {
            "first_bytes": rss[0][1] if rss else None,
            "last_bytes": rss[-1][1] if rss else None,
            "slope_bytes_per_minute": _slope_per_minute(rss),
            "slope_last_half_bytes_per_minute": _slope_per_minute(rss[len(rss) // 2 :]),
        },
        "tasks": {
            "first": tasks[0][1] if tasks else None,
            "last": tasks[-1][1] if tasks else None,
            "max": max((v for _, v in tasks), default=None),
        },
        "top_growth_by_traceback": growth,
        "violations": report.violations,
        "samples": {"traced_memory": memory, "rss": rss, "tasks": tasks},
    }


def summary(results: dict[str, Any]) -> str:
    """Plain text for the terminal and docs/benchmarks.md."""
    mem, rss, tasks = results["traced_memory"], results["rss"], results["tasks"]
    lag = results["event_loop_lag"]
    detect = results["unavailable_after_fault"]
    back = results["back_and_resynced_after_recovery"]
    outcomes = Counter(results["outcomes"])
    lines = [
        f"soak: {results['minutes']:.1f} min, seed {results['seed']}, "
        f"{results['rounds']} rounds; load: {results['load_note']}",
        "faults: " + ", ".join(f"{k} {v}" for k, v in sorted(results["faults"].items())),
        f"commands: {results['commands_total']} "
        f"({sum(v for k, v in results['commands'].items() if k.startswith('action'))} actions, "
        f"{results['tool_calls']} tool calls)",
        "outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())),
        f"audit records: {results['audit_records']} for {results['tool_calls']} tool calls "
        f"(and {results['audit_expiry_records']} for held requests that expired)",
        f"unavailable after a breaking fault: p50 {detect['p50_ms']:.0f} ms, "
        f"max {detect['max_ms']:.0f} ms (n {detect['n']}; bound 5 s)",
        f"back and resynced after recovery: p50 {back['p50_ms']:.0f} ms, "
        f"max {back['max_ms']:.0f} ms (n {back['n']}; bound 5 s)",
        "  by fault (max ms): "
        + ", ".join(
            f"{fault} {values['max_ms']:.0f}"
            for fault, values in results["back_and_resynced_by_fault"].items()
        ),
        f"event-loop lag after warm-up: p50 {lag['p50_ms']:.2f} ms, p99 {lag['p99_ms']:.2f} ms, "
        f"max {lag['max_ms']:.1f} ms (goal p99 < {lag['goal_p99_ms']:.0f} ms)",
        (
            f"traced memory after warm-up: {mem['first_bytes'] / 1024:.0f} -> "
            f"{mem['last_bytes'] / 1024:.0f} KiB (max {mem['max_bytes'] / 1024:.0f}), "
            f"slope {mem['slope_bytes_per_minute'] / 1024:+.1f} KiB/min, over the last half "
            f"{mem['slope_last_half_bytes_per_minute'] / 1024:+.1f} KiB/min"
            if mem["first_bytes"] is not None
            else "traced memory: not traced (--frames 0)"
        ),
        f"RSS: {rss['first_bytes'] / 2**20:.1f} -> {rss['last_bytes'] / 2**20:.1f} MiB, "
        f"slope {rss['slope_bytes_per_minute'] / 1024:+.1f} KiB/min, over the last half "
        f"{rss['slope_last_half_bytes_per_minute'] / 1024:+.1f} KiB/min",
        f"tasks: {tasks['first']} -> {tasks['last']} (max {tasks['max']})",
        f"violations: {len(results['violations'])}",
        *(f"  {v}" for v in results["violations"][:20]),
        "top traced growth by traceback (most recent frame first):",
    ]
    for item in results["top_growth_by_traceback"][:5]:
        lines.append(f"  {item['size_diff_bytes']:+,} B in {item['count_diff']:+} blocks")
        lines.extend(f"    {frame}" for frame in item["traceback"][:6])
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="scripts/bench --soak", description=__doc__)
    parser.add_argument("--soak", dest="minutes", type=float, required=True, metavar="MINUTES")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--warmup", type=float, default=2.0, help="minutes before sampling")
    parser.add_argument(
        "--frames", type=int, default=8, help="tracemalloc frames per trace (0: no tracemalloc)"
    )
    parser.add_argument(
        "--sample-every", type=float, default=30.0, help="seconds between memory samples"
    )
    parser.add_argument("--note", default="", help="machine load conditions, for the record")
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--summary", type=Path, help="write the summary text here")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    results = asyncio.run(soak(args))
    text = summary(results)
    print(text)
    if args.json:
        write_json(args.json, results)
    if args.summary:
        args.summary.parent.mkdir(parents=True, exist_ok=True)
        args.summary.write_text(text + "\n")
    if results["violations"]:
        sys.exit(1)
