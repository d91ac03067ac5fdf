"""The guard's records: every attempt ends in exactly one audit record (or one count).

A user's refusals beyond their limit are counted in one summary record instead, so a
flood cannot rotate their earlier records away; a change's record is written ahead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
import math
import time
from typing import Any, Protocol

from .audit import REFUSALS, AuditLog, AuditRecord
from .call import Caller, Turn
from .clock import Clock
from .decisions import Outcome
from .ledger import Ledger
from .limits import RateLimiter
from .messages import MSG_INTERRUPTED
from .pending import PendingRequest
from .policy import ToolSpec
from .untrusted import clean_text

REFUSALS_PER_WINDOW = 30
REFUSAL_WINDOW = 600.0
"""Each user's refused attempts are recorded one by one up to 30 per 10 minutes; beyond
that they are counted in one summary record, so a flood cannot push the user's own earlier
refusals out of their quota (500) for hours."""
REFUSED_CALLS_PER_WINDOW = 120
"""After 120 refused calls in 10 minutes, a user's calls are refused at once until the
window frees. A model misled by device text cannot get there (a conversation may make 60
calls in 10 minutes); a client flooding the tools directly (an MCP client) does."""


@dataclass(frozen=True, slots=True)
class GuardResult:
    """What the caller gets back, and the audit record of the attempt."""

    outcome: Outcome
    data: dict[str, Any]
    record: AuditRecord | None
    """None for a refusal beyond the user's limit: it is counted in a summary record."""
    request_id: str | None = None
    code: str | None = None
    """Why an approval or denial by an admin did not go through (resolve only)."""

    @property
    def error(self) -> bool:
        """True unless the tool ran (or a stored run was replayed)."""
        return self.outcome not in (Outcome.ALLOWED, Outcome.APPROVED) and not (
            self.outcome is Outcome.DUPLICATE and "error" not in self.data
        )


@dataclass(slots=True)
class Attempt:
    """The bookkeeping of one attempt until its record is written."""

    tool: str
    caller: Caller
    turn: Turn
    arguments: Mapping[str, Any]
    spec: ToolSpec | None
    started: float = field(default_factory=time.perf_counter)
    args_hash: str = ""
    entity_ids: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)
    attempt_id: str | None = None
    """Set when a change was written ahead (the journal's entry for it)."""


class Journal(Protocol):
    """Where the record of a change is written, and flushed, before the change runs."""

    async def begin(self, attempt_id: str, intent: Mapping[str, Any]) -> None:
        """Persist `intent` (the attempt as it will be recorded) before it executes."""

    def end(self, attempt_id: str) -> None:
        """The attempt's final record is in the log (saved with the log from now on)."""


class Recorder:
    """The audit log, the ledger and the refusal counts of one guard."""

    def __init__(
        self,
        clock: Clock,
        *,
        audit_max_records: int,
        audit_max_refusals: int,
        audit_max_reads: int,
        refusals_per_window: int,
        refused_calls_per_window: int,
    ) -> None:
        self.clock = clock
        self.audit = AuditLog(audit_max_records, audit_max_refusals, audit_max_reads)
        self.journal: Journal | None = None
        """Set by the adapter: a change's record is flushed there before it runs."""
        self.ledger = Ledger(clock)
        self._refusal_limits = RateLimiter(clock, refusals_per_window, window=REFUSAL_WINDOW)
        """Refused attempts recorded one by one, per user; beyond it they are counted."""
        self._refused_calls = RateLimiter(clock, refused_calls_per_window, window=REFUSAL_WINDOW)
        """Refused attempts per user; beyond it every call of the user is refused at once."""
        self._uncounted: dict[str | None, dict[tuple[str, str], int]] = {}
        """Per user: refused attempts beyond the limit, by (tool, outcome), not yet recorded."""
        self.unrecorded_attempts = 0
        """Refused attempts counted in a summary record instead of one record each."""
        self.attempts = 0
        self.change_listeners: list[Callable[[], None]] = []

    def _finish(
        self,
        attempt: Attempt,
        outcome: Outcome,
        message: str | None,
        *,
        data: dict[str, Any] | None = None,
        request: PendingRequest | None = None,
        request_id: str | None = None,
        extra: dict[str, Any] | None = None,
        code: str | None = None,
    ) -> GuardResult:
        request_id = request.request_id if request is not None else request_id
        if message is not None:
            data = {"error": message, **(extra or {})}
            if outcome is Outcome.PENDING and request_id is not None:
                data["request_id"] = request_id
        user_id = attempt.caller.user_id
        record: AuditRecord | None = None
        if outcome in REFUSALS:
            self._refused_calls.hit(user_id)
        if outcome in REFUSALS and self._refusal_limits.hit(user_id) is not None:
            # beyond the user's limit: counted, so a flood cannot rotate records away
            counts = self._uncounted.setdefault(user_id, {})
            key = (clean_text(attempt.tool, 64) or "", str(outcome))
            counts[key] = counts.get(key, 0) + 1
            self.unrecorded_attempts += 1
        else:
            self._record_uncounted(user_id)
            record = self._append(attempt, outcome, message, request_id)
        self.ledger.add(
            attempt.turn.conversation_id,
            entity_ids=attempt.entity_ids,
            user_id=attempt.caller.user_id,
            tool_calls=1,
        )
        if record is not None:
            for listener in list(self.change_listeners):
                listener()
        return GuardResult(outcome, data or {}, record, request_id, code)

    def _append(
        self, attempt: Attempt, outcome: Outcome, message: str | None, request_id: str | None
    ) -> AuditRecord:
        record = self.audit.append(
            **self._intent(attempt, request_id),
            outcome=outcome,
            reason="; ".join([*([message] if message else []), *attempt.notes]) or "ok",
            latency_ms=round((time.perf_counter() - attempt.started) * 1000, 3),
            attempt_id=attempt.attempt_id,
            read=attempt.spec is not None and not attempt.spec.changes_state,
        )
        if attempt.attempt_id is not None and self.journal is not None:
            self.journal.end(attempt.attempt_id)
        return record

    def _intent(self, attempt: Attempt, request_id: str | None) -> dict[str, Any]:
        """What a record says about the attempt itself (all but its outcome)."""
        spec = attempt.spec
        return {
            "ts": self.clock().isoformat(),
            "tool": clean_text(attempt.tool, 64) or "",
            "user_id": attempt.caller.user_id,
            "agent_id": attempt.caller.agent_id,
            "conversation_id": attempt.turn.conversation_id,
            "arguments": _redact(attempt.arguments, spec.logged_fields if spec else frozenset()),
            "args_hash": attempt.args_hash,
            "request_id": request_id,
            "entity_ids": attempt.entity_ids,
        }

    def _record_uncounted(self, user_id: str | None) -> None:
        """One summary record of the user's refused attempts that were only counted."""
        counts = self._uncounted.pop(user_id, None)
        if not counts:
            return
        total = sum(counts.values())
        detail = ", ".join(f"{tool} {kind} x{n}" for (tool, kind), n in sorted(counts.items()))
        self.audit.append(
            ts=self.clock().isoformat(),
            outcome=Outcome.RATE_LIMITED,
            tool="refused_calls",
            user_id=user_id,
            agent_id=None,
            conversation_id=None,
            arguments={"count": total},
            args_hash="",
            reason=f"{total} refused attempts beyond the limit, counted, not recorded one by "
            f"one: {detail}",
            latency_ms=0.0,
        )

    def record_uncounted(self, *, now: bool = False) -> None:
        """Summary records for users whose counted refusals ended (the periodic check).

        A user still over the limit gets theirs later (one summary per flood, not one every
        check), unless `now` (Home Assistant stops).
        """
        for user_id in list(self._uncounted):
            if now or self._refusal_limits.blocked(user_id) is None:
                self._record_uncounted(user_id)
                for listener in list(self.change_listeners):
                    listener()

    def record_interrupted(self, intent: Mapping[str, Any], attempt_id: str) -> AuditRecord:
        """The record of a change that was written ahead but never finished (a crash)."""
        self.attempts += 1
        fields = {key: intent.get(key) for key in _INTENT_FIELDS}
        fields["arguments"] = dict(intent.get("arguments") or {})
        fields["entity_ids"] = tuple(intent.get("entity_ids") or ())
        return self.audit.append(
            **fields,
            outcome=Outcome.FAILED,
            reason=MSG_INTERRUPTED,
            latency_ms=0.0,
            attempt_id=attempt_id,
        )


_INTENT_FIELDS = (
    "ts",
    "tool",
    "user_id",
    "agent_id",
    "conversation_id",
    "args_hash",
    "request_id",
)


def _redact(arguments: Mapping[str, Any], logged: frozenset[str]) -> dict[str, Any]:
    redacted: dict[str, Any] = {}
    for key, value in list(arguments.items())[:20]:
        name = clean_text(str(key), 40) or "?"
        if key in logged and _json_safe_number(value):
            redacted[name] = value
        elif key in logged and isinstance(value, str):
            redacted[name] = clean_text(value, 64)
        else:
            redacted[name] = "<redacted>"
    return redacted


JSON_SAFE_INTEGER = 2**53
"""Larger integers do not survive storage (Home Assistant's JSON writer refuses them)."""


def _json_safe_number(value: Any) -> bool:
    """A number the audit log can store and reload unchanged (no 2**64, NaN or infinity)."""
    if isinstance(value, bool):
        return True
    if isinstance(value, int):
        return abs(value) <= JSON_SAFE_INTEGER
    return isinstance(value, float) and math.isfinite(value)
