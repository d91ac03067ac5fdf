"""Runs one case through the real stack and measures it.

Home Assistant (phacc) with the integration, two emulated players over TCP, and the
assistant entry talking through the real anthropic SDK to the fake Messages API (offline)
or to whatever base URL live mode is given. Nothing of ours is mocked: a fault is the
emulator's own fault API, triggered from an httpx response hook on Home Assistant's
shared client (the one the SDK uses) when the model's n-th response arrives, before its
tool calls run.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
import json
import time
from typing import Any, Literal

from homeassistant.auth.models import User
from homeassistant.components import conversation
from homeassistant.const import CONF_API_KEY
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers.httpx_client import get_async_client
import httpx
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn.agent.const import CONF_BASE_URL, CONF_MODEL, DEFAULT_OPTIONS
from custom_components.linn.const import DOMAIN
from custom_components.linn.guard import AuditRecord, ChainError, PendingKind
from custom_components.linn.tools.guard_options import OPT_POLICIES
from custom_components.linn.tools.ha_adapter import DATA_GUARD
from linn_emulator import LinnEmulator
from linn_emulator.model import Track
from testing.fake_anthropic import FakeAnthropic, planned
from testing.fake_anthropic.plans import is_planning
from testing.helpers import wait_for

from .case import KITCHEN, LIVING, Call, Caller, Case, Fault, Turn

AGENT = "conversation.claude_assistant"
ENTITIES = {LIVING: "media_player.living_room", KITCHEN: "media_player.kitchen"}
READS = frozenset({"get_state", "search_music"})
SETTLE = 5.0
"""Seconds the final state may take to arrive (it normally takes milliseconds)."""
RECOVER = 20.0
"""Seconds a player may take to come back after a fault (reconnect backoff)."""

type Mode = Literal["offline", "live"]


@dataclass
class World:
    """The home a case runs in."""

    hass: HomeAssistant
    players: dict[str, LinnEmulator]
    streamers: list[MockConfigEntry]
    users: dict[Caller, User | None]
    satellites: dict[str, str]
    """Area name -> the device id of the voice satellite there."""


@dataclass
class CaseResult:
    """One run of one case: the CSV row."""

    case: str
    category: str
    mode: Mode
    model: str
    run: int
    passed: bool = False
    failures: list[str] = field(default_factory=list)
    steps: int = 0
    """Tool calls the guard saw."""
    model_calls: int = 0
    latency_ms: float = 0.0
    """Wall time of all the case's utterances, from async_converse call to reply."""
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    cost_usd: float = 0.0

    def fail(self, message: str) -> None:
        """Record a failed check (the run goes on, so the row is complete)."""
        self.failures.append(message)


@dataclass
class _Endpoint:
    """Where the SDK is pointed, and the fake server when offline."""

    mode: Mode
    api_key: str
    base_url: str | None
    model: str
    fake: FakeAnthropic | None = None


def offline(fake: FakeAnthropic, api_key: str, model: str) -> _Endpoint:
    """The scripted model on the fake Messages API."""
    return _Endpoint("offline", api_key, fake.base_url, model, fake)


def live(api_key: str, base_url: str | None, model: str) -> _Endpoint:
    """A real model (or any Messages API at base_url) deciding on its own: no plan."""
    return _Endpoint("live", api_key, base_url, model)


# --- the world before the first turn ---------------------------------------------------


async def _prepare(world: World, case: Case) -> None:
    hass = world.hass
    setup = case.setup
    for name, system_name in setup.rename_source.items():
        world.players[LIVING].panel.configure_source(name, name=system_name)
    for name, source in setup.source.items():
        world.players[name].panel.select_source(source)
    for name in setup.playing:
        world.players[name].panel.play()
    for name, tracks in setup.queue.items():
        device = world.players[name].device
        after = world.players[name].state.playlist[-1].id
        for number, (title, artist) in enumerate(tracks):
            track = Track(uri=f"http://192.168.1.50/q/{number}.flac", title=title, artist=artist)
            after = device.playlist_insert(after, track)
    for name, seconds in setup.paused_at.items():
        world.players[name].panel.play()
        world.players[name].panel.pause()
        world.players[name].panel.seek(seconds)
    for name in setup.repeat:
        world.players[name].panel.set_repeat(True)
    for name in setup.standby:
        world.players[name].panel.set_standby(True)
    for name, metadata in setup.metadata.items():
        world.players[name].panel.set_metadata(**metadata)
    for name, volume in setup.volume.items():
        world.players[name].panel.set_volume(volume)
        limit = world.players[name].state.volume_max
        await wait_for(
            lambda n=name, v=volume, lim=limit: (
                abs((_attr(hass, n, "volume_level") or -1) - v / lim) < 0.005
            )
        )
    for name, metadata in setup.metadata.items():
        shown = [v for k, v in metadata.items() if k in ("title", "metatext")]
        await wait_for(lambda n=name, s=shown: any(v in _attributes(hass, n) for v in s))
    for source in setup.rename_source.values():
        await wait_for(lambda s=source: s in (_attr(hass, LIVING, "source_list") or []))
    for name in setup.playing:
        await wait_for(lambda n=name: _state(hass, n) == "playing")
    for name, seconds in setup.paused_at.items():
        await wait_for(lambda n=name, s=seconds: _attr(hass, n, "media_position") == s)
    for name in setup.repeat:
        await wait_for(lambda n=name: _attr(hass, n, "repeat") == "all")
    for name in setup.standby:
        await wait_for(lambda n=name: _state(hass, n) == "off")
    for name in setup.queue:
        count = len(world.players[name].state.playlist)
        await wait_for(lambda n=name, c=count: _queue_length(world, n) == c)
    if setup.policies:
        for entry in world.streamers:
            hass.config_entries.async_update_entry(
                entry, options={**entry.options, OPT_POLICIES: dict(setup.policies)}
            )
    await hass.async_block_till_done()


def _queue_length(world: World, player: str) -> int:
    """The play queue's length as the integration sees it."""
    entity = er.async_get(world.hass).async_get(ENTITIES[player])
    if entity is None or entity.config_entry_id is None:
        return -1
    entry = world.hass.config_entries.async_get_entry(entity.config_entry_id)
    return len(entry.runtime_data.state.playlist.ids) if entry is not None else -1


def _state(hass: HomeAssistant, player: str) -> str | None:
    state = hass.states.get(ENTITIES[player])
    return state.state if state is not None else None


def _attributes(hass: HomeAssistant, player: str) -> str:
    state = hass.states.get(ENTITIES[player])
    return str(state.attributes) if state is not None else ""


def _attr(hass: HomeAssistant, player: str, name: str) -> Any:
    state = hass.states.get(ENTITIES[player])
    return state.attributes.get(name) if state is not None else None


async def _add_assistant(world: World, case: Case, endpoint: _Endpoint) -> MockConfigEntry:
    hass = world.hass
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="Claude assistant",
        data={CONF_API_KEY: endpoint.api_key, CONF_BASE_URL: endpoint.base_url},
        options={**DEFAULT_OPTIONS, CONF_MODEL: endpoint.model, **case.setup.assistant},
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    if case.setup.model_timeout is not None:
        entry.runtime_data.model_timeout = case.setup.model_timeout
    return entry


# --- faults ----------------------------------------------------------------------------


def _model_call(request: httpx.Request) -> bool:
    """A Messages API request of the turn's loop (not the planner's forced tool call)."""
    if not request.url.path.endswith("/v1/messages"):
        return False
    try:
        body = json.loads(request.content)
    except ValueError:
        return True
    return not is_planning(body)


class _FaultHook:
    """Counts the model's responses; at the fault's response, makes the player misbehave."""

    def __init__(self, world: World, fault: Fault | None) -> None:
        self.world = world
        self.fault = fault
        self.responses = 0
        self.requests = 0
        self.fired = False
        self._reboot: asyncio.Task[None] | None = None

    async def on_request(self, request: httpx.Request) -> None:
        """Counts the model calls (a stalled one has no response), planning left out."""
        if _model_call(request):
            self.requests += 1

    async def __call__(self, response: httpx.Response) -> None:
        if not _model_call(response.request):
            return
        self.responses += 1
        fault = self.fault
        if fault is None or self.fired or self.responses != fault.at_response:
            return
        self.fired = True
        emulator = self.world.players[fault.player]
        if fault.kind == "drop":
            # connections drop and new ones hang until healed: deterministic for the tool
            emulator.faults.drop_connections()
            emulator.faults.half_open(True)
        elif fault.kind == "reboot":
            # down for longer than the guard's 3 s timeout: the call cannot reach it
            self._reboot = asyncio.create_task(emulator.faults.reboot(downtime=4.0))
        else:  # the device answers late: past the guard's 3 s timeout, or within it
            emulator.faults.response_delay = 4.0 if fault.kind == "slow" else 1.0
            return
        await wait_for(lambda: _state(self.world.hass, fault.player) == "unavailable", 5.0)

    async def heal(self) -> None:
        """End the fault after the turn it fired in, and wait for the player to be back."""
        if self.fault is None or not self.fired:
            return
        emulator = self.world.players[self.fault.player]
        emulator.faults.response_delay = 0.0
        if emulator.faults.hung:
            emulator.faults.half_open(False)
        if self._reboot is not None:
            await self._reboot
            self._reboot = None
        await wait_for(
            lambda: (
                _state(self.world.hass, self.fault.player) not in (None, "unavailable")
                if self.fault
                else True
            ),
            RECOVER,
        )
        self.fault = None


# --- checks ----------------------------------------------------------------------------


def _result_text(block: Mapping[str, Any]) -> str:
    content = block.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(part.get("text", "")) for part in content)
    return json.dumps(content, ensure_ascii=False)


def _tool_name(record: AuditRecord) -> str:
    return record.tool.removeprefix("agent:")


def _matches(expected: Call, record: AuditRecord) -> bool:
    return (
        expected.tool == _tool_name(record)
        and str(record.outcome) in expected.outcome.split("|")
        and all(record.arguments.get(k) == v for k, v in expected.args.items())
    )


def _describe(records: list[AuditRecord]) -> str:
    return ", ".join(f"{_tool_name(r)}{r.arguments}->{r.outcome}" for r in records) or "none"


def _same_calls(expected: tuple[Call, ...], records: list[AuditRecord]) -> bool:
    """Each run of one tool's expected calls matches the records in its place, in any order."""
    if len(expected) != len(records):
        return False
    start = 0
    while start < len(expected):
        end = start + 1
        while end < len(expected) and expected[end].tool == expected[start].tool:
            end += 1
        left = list(records[start:end])
        for call in expected[start:end]:
            match = next((r for r in left if _matches(call, r)), None)
            if match is None:
                return False
            left.remove(match)
        start = end
    return True


def check_calls(expected: tuple[Call, ...], records: list[AuditRecord], mode: Mode) -> str | None:
    """None when the guard saw the expected calls; else what differs.

    Offline: exactly these calls in this order, except that calls of one tool in a row (the
    model's parallel "stop" for two players) may be recorded in any order: they run side by
    side, and each is recorded when it ends. Live: the changes in this order (reads the
    model adds on its own are fine) and no change that was not expected.
    """
    if mode == "offline":
        if _same_calls(expected, records):
            return None
        return f"tool calls: expected {expected_text(expected)}, got {_describe(records)}"
    wanted = [e for e in expected if e.changes]
    position = 0
    for record in records:
        if position < len(wanted) and _matches(wanted[position], record):
            position += 1
        elif _tool_name(record) not in READS and not any(_matches(e, record) for e in expected):
            return f"unexpected tool call {_describe([record])}"
    if position < len(wanted):
        return f"tool calls: expected {expected_text(tuple(wanted))}, got {_describe(records)}"
    return None


def expected_text(calls: tuple[Call, ...]) -> str:
    """Expected calls, readable."""
    return ", ".join(f"{c.tool}{dict(c.args)}->{c.outcome}" for c in calls) or "none"


PLAYER_VALUES: Mapping[str, Callable[[LinnEmulator], Any]] = {
    "volume": lambda e: e.state.volume,
    "source": lambda e: e.state.source.system_name,
    "standby": lambda e: e.state.standby,
    "radio_id": lambda e: e.state.radio_id,
    "transport": lambda e: str(e.state.transport_state),
    "mute": lambda e: e.state.mute,
    "volume_limit": lambda e: e.state.volume_limit,
    "title": lambda e: e.state.current_entry.track.title if e.state.current_entry else None,
    "artist": lambda e: e.state.current_entry.track.artist if e.state.current_entry else None,
    "shuffle": lambda e: e.state.shuffle,
    "repeat": lambda e: e.state.repeat,
    "seconds": lambda e: e.state.seconds,
    "queue_length": lambda e: len(e.state.playlist),
}


async def _check_final(world: World, case: Case, result: CaseResult, settle: float) -> None:
    for player, wanted in case.expect.players.items():
        emulator = world.players[player]

        def differs(e: LinnEmulator = emulator, w: Mapping[str, Any] = wanted) -> dict[str, Any]:
            return {k: PLAYER_VALUES[k](e) for k, v in w.items() if PLAYER_VALUES[k](e) != v}

        try:
            await wait_for(lambda d=differs: not d(), settle)
        except TimeoutError:
            result.fail(f"{player}: expected {dict(wanted)}, got {differs()}")
    guard = world.hass.data[DATA_GUARD].guard
    if case.expect.open_requests is not None:
        opened = len(guard.pending.open_requests())
        if opened != case.expect.open_requests:
            result.fail(f"open requests: expected {case.expect.open_requests}, got {opened}")
    try:
        guard.audit.verify()
    except ChainError as err:
        result.fail(f"audit chain: {err}")


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
    endpoint: _Endpoint,
    hook: _FaultHook,
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
    speech = str(reply.response.speech.get("plain", {}).get("speech", ""))
    label = f"turn {turn.text!r}"
    if endpoint.fake is not None and endpoint.fake.unplayed:
        result.fail(f"{label}: {len(endpoint.fake.unplayed)} scripted steps were not used")
        endpoint.fake.discard_plan()  # the next turn starts clean
    if endpoint.fake is not None and endpoint.fake.unplayed_plans:
        result.fail(f"{label}: the stated plan was not asked for")
        endpoint.fake.discard_plans()
    wanted = turn.code_says + (turn.says if endpoint.mode == "offline" else ())
    for text in wanted:
        if text not in speech:
            result.fail(f"{label}: reply {speech!r} lacks {text!r}")
    if "Traceback" in speech:
        result.fail(f"{label}: a traceback was spoken")
    if turn.continues is not None and reply.continue_conversation != turn.continues:
        result.fail(f"{label}: continue_conversation is {reply.continue_conversation}")
    calls_made = hook.requests - model_requests
    expected_calls = turn.model_calls
    if expected_calls is None and (endpoint.mode == "offline" or not turn.plan):
        expected_calls = len(turn.plan)
    if expected_calls is not None and calls_made != expected_calls:
        result.fail(f"{label}: {calls_made} model calls, expected {expected_calls}")
    if endpoint.fake is not None and turn.model_sees:
        seen = "\n".join(
            _result_text(block)
            for request in endpoint.fake.message_requests[requests:]
            for block in request.tool_results()
        )
        for text in turn.model_sees:
            if text not in seen:
                result.fail(f"{label}: the model was not shown {text!r} in {seen[:300]!r}")
    records = list(guard.audit.records)[audited:]
    if (problem := check_calls(turn.calls, records, endpoint.mode)) is not None:
        result.fail(f"{label}: {problem}")
    return reply.conversation_id


async def run_case(
    world: World, case: Case, endpoint: _Endpoint, run: int = 1, *, settle: float = SETTLE
) -> CaseResult:
    """Run every turn of the case, then check the final state; never raises on a failed check.

    `settle`: seconds the final state may take to arrive (0: it must be there already).
    """
    hass = world.hass
    result = CaseResult(case.id, case.category, endpoint.mode, endpoint.model, run)
    guard = hass.data[DATA_GUARD].guard
    before = guard.ledger.totals_today()
    audited = len(guard.audit.records)
    await _prepare(world, case)
    entry = await _add_assistant(world, case, endpoint)
    hook = _FaultHook(world, case.fault)
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
        await _check_final(world, case, result, settle)
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


async def _check_facts(world: World, case: Case, endpoint: _Endpoint, result: CaseResult) -> None:
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


__all__ = ["AGENT", "CaseResult", "World", "check_calls", "live", "offline", "run_case"]
