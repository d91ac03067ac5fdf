"""Runs one case through the real stack and measures it.

Home Assistant (phacc) with the integration, two emulated players over TCP, and the
assistant entry talking through the real anthropic SDK to the fake Messages API (offline)
or to whatever base URL live mode is given. Nothing of ours is mocked: a fault is the
emulator's own fault API (faults.py). The home is world.py, its set-up before the first
turn prepare.py, the checks checks.py.
"""

from __future__ import annotations

from collections.abc import Mapping
import time

from homeassistant.components import conversation
from homeassistant.core import Context
from homeassistant.helpers.httpx_client import get_async_client

from custom_components.linn.const import DOMAIN
from custom_components.linn.guard import PendingKind
from custom_components.linn.tools.ha_adapter import DATA_GUARD
from testing.fake_anthropic import planned

from .case import Case, Turn
from .checks import CaseResult, check_calls, check_final, result_text
from .endpoint import Endpoint
from .faults import FaultHook
from .prepare import add_assistant, prepare
from .world import AGENT, World

SETTLE = 5.0
"""Seconds the final state may take to arrive (it normally takes milliseconds)."""


async def _decide(world: World, case: Case, result: CaseResult) -> None:
    hass = world.hass
    guard = hass.data[DATA_GUARD].guard
    waiting = [r for r in guard.pending.open_requests() if r.kind is PendingKind.APPROVE]
    if len(waiting) != 1:
        result.fail(f"expected one approval request, found {len(waiting)}")
        return
    admin = world.users["admin"]
    assert admin is not None
    response = await hass.services.async_call(
        DOMAIN,
        case.decision or "approve",
        {"request_id": waiting[0].request_id},
        blocking=True,
        return_response=True,
        context=Context(user_id=admin.id),
    )
    outcome = "approved" if case.decision == "approve" else "denied"
    if response is None or response.get("outcome") != outcome:
        result.fail(f"decision: expected {outcome}, got {response}")


# --- one turn, one case ----------------------------------------------------------------


async def _turn(
    world: World,
    case: Case,
    turn: Turn,
    endpoint: Endpoint,
    hook: FaultHook,
    conversation_id: str | None,
    result: CaseResult,
) -> str | None:
    hass = world.hass
    guard = hass.data[DATA_GUARD].guard
    user = world.users[case.caller]
    if endpoint.fake is not None:
        endpoint.fake.script(*turn.plan)
        if turn.planned is not None:
            endpoint.fake.plan(planned(*turn.planned))
    audited = len(guard.audit.records)
    model_requests = hook.requests
    requests = len(endpoint.fake.message_requests) if endpoint.fake is not None else 0
    started = time.perf_counter()
    reply = await conversation.async_converse(
        hass,
        turn.text,
        conversation_id,
        Context(user_id=user.id if user else None),
        language=case.language,
        agent_id=AGENT,
        device_id=world.satellites.get(case.satellite) if case.satellite else None,
    )
    result.latency_ms += (time.perf_counter() - started) * 1000
    await hook.heal()
    label = f"turn {turn.text!r}"
    _check_script_played(endpoint, label, result)
    _check_reply(turn, endpoint, reply, label, result)
    _check_model_calls(turn, endpoint, hook.requests - model_requests, label, result)
    _check_model_sees(turn, endpoint, requests, label, result)
    records = list(guard.audit.records)[audited:]
    if (problem := check_calls(turn.calls, records, endpoint.mode)) is not None:
        result.fail(f"{label}: {problem}")
    return reply.conversation_id


def _check_script_played(endpoint: Endpoint, label: str, result: CaseResult) -> None:
    """Offline, every scripted step and the stated plan were used (the next turn starts clean)."""
    if endpoint.fake is not None and endpoint.fake.unplayed:
        result.fail(f"{label}: {len(endpoint.fake.unplayed)} scripted steps were not used")
        endpoint.fake.discard_plan()  # the next turn starts clean
    if endpoint.fake is not None and endpoint.fake.unplayed_plans:
        result.fail(f"{label}: the stated plan was not asked for")
        endpoint.fake.discard_plans()


def _check_reply(
    turn: Turn,
    endpoint: Endpoint,
    reply: conversation.ConversationResult,
    label: str,
    result: CaseResult,
) -> None:
    """The reply says what the turn expects, no traceback, and continues as expected."""
    speech = str(reply.response.speech.get("plain", {}).get("speech", ""))
    wanted = turn.code_says + (turn.says if endpoint.mode == "offline" else ())
    for text in wanted:
        if text not in speech:
            result.fail(f"{label}: reply {speech!r} lacks {text!r}")
    if "Traceback" in speech:
        result.fail(f"{label}: a traceback was spoken")
    if turn.continues is not None and reply.continue_conversation != turn.continues:
        result.fail(f"{label}: continue_conversation is {reply.continue_conversation}")


def _check_model_calls(
    turn: Turn, endpoint: Endpoint, calls_made: int, label: str, result: CaseResult
) -> None:
    """The turn made as many model calls as expected (offline, or live with no plan: the plan's)."""
    expected_calls = turn.model_calls
    if expected_calls is None and (endpoint.mode == "offline" or not turn.plan):
        expected_calls = len(turn.plan)
    if expected_calls is not None and calls_made != expected_calls:
        result.fail(f"{label}: {calls_made} model calls, expected {expected_calls}")


def _check_model_sees(
    turn: Turn, endpoint: Endpoint, requests: int, label: str, result: CaseResult
) -> None:
    """Offline, the tool results of the turn's requests (from `requests` on) show these texts."""
    if endpoint.fake is not None and turn.model_sees:
        seen = "\n".join(
            result_text(block)
            for request in endpoint.fake.message_requests[requests:]
            for block in request.tool_results()
        )
        for text in turn.model_sees:
            if text not in seen:
                result.fail(f"{label}: the model was not shown {text!r} in {seen[:300]!r}")


async def run_case(
    world: World, case: Case, endpoint: Endpoint, run: int = 1, *, settle: float = SETTLE
) -> CaseResult:
    """Run every turn of the case, then check the final state; never raises on a failed check.

    `settle`: seconds the final state may take to arrive (0: it must be there already).
    """
    hass = world.hass
    result = CaseResult(case.id, case.category, endpoint.mode, endpoint.model, run)
    guard = hass.data[DATA_GUARD].guard
    before = guard.ledger.totals_today()
    audited = len(guard.audit.records)
    await prepare(world, case)
    entry = await add_assistant(world, case, endpoint)
    hook = FaultHook(world, case.fault)
    hooks = get_async_client(hass).event_hooks
    hooks["request"].append(hook.on_request)
    hooks["response"].append(hook)
    try:
        conversation_id: str | None = None
        for turn in case.turns:
            if turn.new_conversation:
                conversation_id = None
            conversation_id = await _turn(
                world, case, turn, endpoint, hook, conversation_id, result
            )
        if case.decision is not None:
            await _decide(world, case, result)
        await check_final(world, case, result, settle)
        await _check_facts(world, case, endpoint, result)
        if case.expect.reauth and not any(
            flow["context"].get("source") == "reauth"
            for flow in hass.config_entries.flow.async_progress()
        ):
            result.fail("no reauth flow was started")
    finally:
        hooks["request"].remove(hook.on_request)
        hooks["response"].remove(hook)
        # removed, not just unloaded: a next run's entry gets the same entity id
        await hass.config_entries.async_remove(entry.entry_id)
        await hass.async_block_till_done()
    _measure(world, result, before, audited)
    result.passed = not result.failures
    return result


async def _check_facts(world: World, case: Case, endpoint: Endpoint, result: CaseResult) -> None:
    area = case.expect.user_area_in_facts
    if area is None or endpoint.fake is None:
        return
    first = endpoint.fake.message_requests[0]
    facts = first.messages[-1]["content"][0]["text"]
    if f'"user_area": "{area}"' not in facts:
        result.fail(f"turn facts do not name the user's area {area!r}: {facts}")


def _measure(world: World, result: CaseResult, before: Mapping[str, float], audited: int) -> None:
    """What this run added to the guard's ledger (the agent's own usage and price code)."""
    guard = world.hass.data[DATA_GUARD].guard
    totals = guard.ledger.totals_today()

    def spent(name: str) -> float:
        return totals.get(name, 0.0) - before.get(name, 0.0)

    result.model_calls = int(spent("model_calls"))
    result.input_tokens = int(spent("input_tokens"))
    result.output_tokens = int(spent("output_tokens"))
    result.cache_read_tokens = int(spent("cache_read_tokens"))
    result.cache_write_tokens = int(spent("cache_write_tokens"))
    result.cost_usd = spent("cost_usd")
    result.steps = len(guard.audit.records) - audited


__all__ = ["run_case"]
