"""The task suite: every case through the real stack.

Offline (part of scripts/test): each case's scripted plan on the fake Messages API; a
failed check fails the case. Live (scripts/eval with ANTHROPIC_API_KEY): the same cases,
k runs each, against the real API with no plan; results go to the CSV and pass^k, and a
failed live run never fails the suite.
"""

from __future__ import annotations

from dataclasses import replace
import os
import re
from typing import Any

import pytest

from custom_components.linn.agent.const import DEFAULT_MODEL
from custom_components.linn.guard import AuditRecord, Outcome
from testing.fake_anthropic import FakeAnthropic

from .case import KITCHEN, LIVING, Case, Expect, call, read, says, use
from .cases import ALL_CASES
from .checks import CaseResult, check_calls
from .endpoint import live, offline
from .harness import run_case
from .replay import ReplayModel
from .results import pass_hat_k, record
from .world import World

API_KEY = "sk-ant-eval"
MODEL = DEFAULT_MODEL
LIVE_ENV = "LINN_EVAL_LIVE"
K_ENV = "LINN_EVAL_K"
LIVE_MODEL_ENV = "LINN_EVAL_MODEL"
CASES_BY_ID = {case.id: case for case in ALL_CASES}


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


LIVE_CASES = (
    [
        pytest.param(case, run, id=f"{case.id}-run{run}")
        for case in ALL_CASES
        if case.live
        for run in range(1, _k() + 1)
    ]
    if _live_enabled()
    else []
)


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
        pytest.skip(
            "live run failed (reported, not a suite failure): " + "; ".join(result.failures)
        )


# --- the suite's own machinery ------------------------------------------------------------

STAND_IN_CASES = (
    "vol_absolute",
    "mr_kitchen_satellite_louder",
    "confirm_yes_runs_in_code",
    "amb_which_player_then_answer",
    "de_budget",
)


@pytest.mark.parametrize("case_id", STAND_IN_CASES)
async def test_live_mode_runs_against_a_stand_in_server(world: World, case_id: str) -> None:
    """Live mode's path (no plan scripted, k runs, pass^k) with the fake server standing in
    for the real API through the base URL, answering as a model would from each request."""
    case = CASES_BY_ID[case_id]
    rows = []
    async with FakeAnthropic(api_key=API_KEY, responder=ReplayModel(case)) as fake:
        endpoint = live(API_KEY, fake.base_url, MODEL)
        for run in (1, 2):
            rows.append(await run_case(world, case, endpoint, run))
            await world.hass.async_block_till_done()
            await _reset(world)
        assert fake.unplayed == []  # nothing was scripted: the responder decided
    assert [(row.mode, row.run) for row in rows] == [("live", 1), ("live", 2)]
    assert all(row.passed for row in rows), [row.failures for row in rows]
    assert pass_hat_k(rows) == {"live": 1.0}
    assert all(row.model_calls > 0 and row.cost_usd > 0 for row in rows)


async def _reset(world: World) -> None:
    """Between live runs: the players as they started."""
    for emulator in world.players.values():
        emulator.panel.set_volume(30)


async def test_a_wrong_final_state_fails_the_case(world: World) -> None:
    """The harness's checks can fail: the same plan, a different expected state."""
    case = CASES_BY_ID["vol_absolute"]
    wrong = replace(case, expect=Expect(players={LIVING: {"volume": 36}}))
    async with FakeAnthropic(api_key=API_KEY) as fake:
        # the plan's set_volume has completed when the check runs: no need to wait for more
        result = await run_case(world, wrong, offline(fake, API_KEY, MODEL), settle=0)
    assert not result.passed
    assert result.failures == ["Living Room: expected {'volume': 36}, got {'volume': 35}"]


async def test_a_plan_that_does_something_else_fails_the_case(world: World) -> None:
    """A model that calls another tool than expected, or says other words, fails."""
    case = CASES_BY_ID["vol_absolute"]
    turn = replace(case.turns[0], plan=(use("set_volume", player=LIVING, volume=34), says("Hm.")))
    async with FakeAnthropic(api_key=API_KEY) as fake:
        result = await run_case(
            world, replace(case, turns=(turn,)), offline(fake, API_KEY, MODEL), settle=0
        )
    assert not result.passed
    assert any("tool calls: expected" in failure for failure in result.failures)
    assert any("lacks '35'" in failure for failure in result.failures)


def test_live_call_matching_allows_reads_but_no_unexpected_change() -> None:
    expected = (read(player=LIVING), call("set_volume", player=LIVING, volume=35))
    get = _record("get_state", "allowed", {"player": LIVING})
    set_35 = _record("set_volume", "allowed", {"player": LIVING, "volume": 35})
    standby = _record("standby", "allowed", {"player": LIVING})
    assert check_calls(expected, [set_35], "live") is None
    assert check_calls(expected, [get, get, set_35], "live") is None
    assert check_calls(expected, [set_35], "offline") is not None  # the read is missing
    assert check_calls(expected, [get], "live") is not None
    assert check_calls(expected, [set_35, standby], "live") == (
        "unexpected tool call standby{'player': 'Living Room'}->allowed"
    )


def test_offline_call_matching_lets_one_tools_parallel_calls_end_in_any_order() -> None:
    """The model's two stops run side by side: recorded in the order they end. Across
    tools, and for other arguments, the order and the calls still count."""
    expected = (call("stop", player=LIVING), call("stop", player=KITCHEN))
    living = _record("stop", "allowed", {"player": LIVING})
    kitchen = _record("stop", "allowed", {"player": KITCHEN})
    assert check_calls(expected, [kitchen, living], "offline") is None
    assert check_calls(expected, [living, living], "offline") is not None
    get = _record("get_state", "allowed", {"player": LIVING})
    read_then_stop = (read(player=LIVING), call("stop", player=LIVING))
    assert check_calls(read_then_stop, [living, get], "offline") is not None


def test_pass_hat_k_needs_every_run_of_a_case() -> None:
    def row(case: str, run: int, passed: bool) -> CaseResult:
        return CaseResult(case, "volume", "live", MODEL, run, passed)

    rows = [row("a", 1, True), row("a", 2, True), row("b", 1, True), row("b", 2, False)]
    assert pass_hat_k(rows) == {"live": 0.5}


def test_there_are_enough_cases_in_every_category() -> None:
    categories: dict[str, int] = {}
    for case in ALL_CASES:
        categories[case.category] = categories.get(case.category, 0) + 1
    assert len(ALL_CASES) >= 60
    assert set(categories) == {
        "now_playing", "volume", "sources", "pins_presets", "search", "multi_room",
        "follow_ups", "ambiguous", "confirm_approve", "denied", "faults", "budget_fallback",
        "german", "capabilities", "phrasings",
    }  # fmt: skip
    assert min(categories.values()) >= 4


ISSUE_19_EXAMPLES = (
    r"turn the streamer on", r"wake up the linn", r"turn on shuffle", r"repeat off",
    r"play wires", r"listen to spotify", r"back 30 seconds", r"listen to", r"put .* on",
    r"i want to hear", r"tune in to", r"\bspiel\b", r"\bmach .* an\b", r"dreh etwas auf",
    r"turn it up", r"the second one", r"which source is playing\?", r"volume limit",
)  # fmt: skip
"""Every phrasing example of issue 19 (as a pattern over a case's utterances)."""


def test_every_phrasing_example_of_issue_19_is_a_case() -> None:
    said = [turn.text.lower() for case in ALL_CASES for turn in case.turns]
    missing = [p for p in ISSUE_19_EXAMPLES if not any(re.search(p, text) for text in said)]
    assert not missing


def _record(tool: str, outcome: str, arguments: dict[str, Any]) -> AuditRecord:
    return AuditRecord(
        seq=1, ts="", outcome=Outcome(outcome), tool=tool, user_id=None, agent_id=None,
        conversation_id=None, arguments=arguments, args_hash="", reason="", latency_ms=0.0,
    )  # fmt: skip
