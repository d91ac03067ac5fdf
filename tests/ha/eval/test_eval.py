"""The task suite: every case through the real stack.

Offline (part of scripts/test): each case's scripted plan on the fake Messages API; a
failed check fails the case. Live (scripts/eval with ANTHROPIC_API_KEY): the same cases,
k runs each, against the real API with no plan; results go to the CSV and pass^k, and a
failed live run never fails the suite.
"""

from __future__ import annotations

import os

import pytest

from tests.fake_anthropic import FakeAnthropic

from .case import Case
from .cases import ALL_CASES
from .harness import World, live, offline, run_case
from .results import record

API_KEY = "sk-ant-eval"
MODEL = "claude-haiku-4-5"
LIVE_ENV = "LINN_EVAL_LIVE"
K_ENV = "LINN_EVAL_K"
LIVE_MODEL_ENV = "LINN_EVAL_MODEL"


def _live_enabled() -> bool:
    return os.environ.get(LIVE_ENV) == "1" and bool(os.environ.get("ANTHROPIC_API_KEY"))


def _k() -> int:
    return max(1, int(os.environ.get(K_ENV, "3")))


@pytest.mark.parametrize("case", ALL_CASES, ids=lambda case: case.id)
async def test_case_offline(world: World, case: Case) -> None:
    async with FakeAnthropic(api_key=API_KEY) as fake:
        result = await run_case(world, case, offline(fake, API_KEY, MODEL))
    record(result)
    assert result.passed, "\n".join(result.failures)


LIVE_CASES = [
    pytest.param(case, run, id=f"{case.id}-run{run}")
    for case in ALL_CASES
    if case.live
    for run in range(1, (_k() if _live_enabled() else 1) + 1)
]


@pytest.mark.skipif(not _live_enabled(), reason="live mode: scripts/eval with ANTHROPIC_API_KEY")
@pytest.mark.parametrize(("case", "run"), LIVE_CASES)
async def test_case_live(world: World, case: Case, run: int) -> None:
    """A real model decides; the row goes to the CSV whatever happens."""
    endpoint = live(
        os.environ["ANTHROPIC_API_KEY"],
        os.environ.get("ANTHROPIC_BASE_URL") or None,
        os.environ.get(LIVE_MODEL_ENV, MODEL),
    )
    result = await run_case(world, case, endpoint, run)
    record(result)
    if not result.passed:
        pytest.skip("live run failed (reported, not a suite failure): " + "; ".join(result.failures))
