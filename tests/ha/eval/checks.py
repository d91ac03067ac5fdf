"""What a run of a case is checked against: the tool calls the guard saw and the final state."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
import json
from typing import Any

from custom_components.linn.guard import AuditRecord, ChainError
from custom_components.linn.tools.ha_adapter import DATA_GUARD
from linn_emulator import LinnEmulator
from testing.helpers import wait_for

from .case import Call, Case
from .endpoint import Mode
from .world import World

READS = frozenset({"get_state", "search_music"})


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


def result_text(block: Mapping[str, Any]) -> str:
    """A tool result block's content as text."""
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


async def check_final(world: World, case: Case, result: CaseResult, settle: float) -> None:
    """The players' final state, the open requests and the audit chain, as the case expects."""
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
