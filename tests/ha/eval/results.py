"""The suite's results: collected per run, written as CSV when LINN_EVAL_CSV names a file."""

from __future__ import annotations

import csv
from dataclasses import asdict, fields
import os
from pathlib import Path

from .checks import CaseResult

CSV_ENV = "LINN_EVAL_CSV"
COLUMNS = [f.name for f in fields(CaseResult) if f.name != "failures"] + ["failure"]

collected: list[CaseResult] = []


def record(result: CaseResult) -> None:
    """Keep a run's row for the CSV."""
    collected.append(result)


def write_csv(path: Path, rows: list[CaseResult]) -> None:
    """One row per run of a case."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        for row in rows:
            data = asdict(row)
            data["failure"] = "; ".join(data.pop("failures"))
            data["latency_ms"] = round(row.latency_ms, 1)
            data["cost_usd"] = f"{row.cost_usd:.6f}"
            writer.writerow(data)


def write_if_asked() -> Path | None:
    """At the end of the session: the CSV, when the environment asks for one."""
    target = os.environ.get(CSV_ENV)
    if not target or not collected:
        return None
    path = Path(target)
    write_csv(path, collected)
    return path


def pass_hat_k(rows: list[CaseResult]) -> dict[str, float]:
    """Per mode: the share of cases whose every run passed (tau-bench's pass^k)."""
    by_case: dict[tuple[str, str], list[bool]] = {}
    for row in rows:
        by_case.setdefault((row.mode, row.case), []).append(row.passed)
    modes: dict[str, list[bool]] = {}
    for (mode, _case), passes in by_case.items():
        modes.setdefault(mode, []).append(all(passes))
    return {mode: sum(ok) / len(ok) for mode, ok in modes.items()}
