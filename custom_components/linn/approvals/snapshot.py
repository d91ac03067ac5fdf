"""What the approvals card shows: open admin requests and recent audit records, per viewer.

An admin sees everything; anyone else only their own requests and records. The filtering
happens here, on the server, never in the card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from ..guard import AuditRecord, Guard, Outcome, PendingKind, PendingRequest
from ..guard.messages import NOTE_CONFIRMED

RISK_PREFIX = "risk: "


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking: their user id and whether they are an admin."""

    user_id: str
    is_admin: bool

    def may_see(self, user_id: str | None) -> bool:
        """An admin sees every request and record; a user only their own."""
        return self.is_admin or user_id == self.user_id


def build_snapshot(
    hass: HomeAssistant,
    guard: Guard,
    viewer: Viewer,
    user_names: dict[str, str],
    audit_count: int,
) -> dict[str, Any]:
    """The card's whole state; expiring overdue requests first, so each is audited once."""
    guard.expire_due()
    records = guard.audit.records
    pending_records = {
        r.request_id: r for r in records if r.outcome is Outcome.PENDING and r.request_id
    }
    requests = [
        _request(hass, request, viewer, user_names, pending_records.get(request.request_id))
        for request in sorted(guard.pending.open_requests(), key=lambda r: r.expires)
        if request.kind is PendingKind.APPROVE and viewer.may_see(request.user_id)
    ]
    # a request's "waiting" record leaves once the request has an outcome of its own
    answered = {r.request_id for r in records if r.request_id and r.outcome is not Outcome.PENDING}
    visible = [
        r
        for r in records
        if viewer.may_see(r.user_id)
        and not (r.outcome is Outcome.PENDING and r.request_id in answered)
    ]
    recent = visible[-audit_count:] if audit_count else []
    return {
        "now": dt_util.utcnow().isoformat(),
        "can_decide": viewer.is_admin,
        "pending": requests,
        "audit": [_record(r, user_names) for r in reversed(recent)],
    }


def _request(
    hass: HomeAssistant,
    request: PendingRequest,
    viewer: Viewer,
    user_names: dict[str, str],
    record: AuditRecord | None,
) -> dict[str, Any]:
    reasons, signals = split_reason(record.reason if record else "")
    return {
        "request_id": request.request_id,
        "tool": request.tool,
        "arguments": request.arguments,
        "user_id": request.user_id,
        "user_name": _user_name(request.user_id, user_names),
        "mine": request.user_id == viewer.user_id,
        "players": [_player_name(hass, entity_id) for entity_id in request.entity_ids],
        "entity_ids": list(request.entity_ids),
        "created": request.created.isoformat(),
        "expires": request.expires.isoformat(),
        "reasons": reasons,
        "signals": signals,
    }


def _record(record: AuditRecord, user_names: dict[str, str]) -> dict[str, Any]:
    return {
        "seq": record.seq,
        "ts": record.ts,
        "user_name": _user_name(record.user_id, user_names),
        "tool": record.tool,
        "outcome": _outcome(record),
        "request_id": record.request_id,
    }


def _outcome(record: AuditRecord) -> str:
    """The record's outcome for the card: a change the user's own yes let run is "confirmed".

    It is no administrator's approval; the guard records both as approved.
    """
    if record.outcome is Outcome.APPROVED and NOTE_CONFIRMED in record.reason.split("; "):
        return "confirmed"
    return str(record.outcome)


def split_reason(reason: str) -> tuple[list[str], list[str]]:
    """The guard's notes on a pending record: (reasons in words, risk signal names).

    The record's reason is the message to the model, then the guard's notes, joined by
    "; "; the message itself ("Needs approval: ...") says nothing new and is dropped.
    """
    reasons: list[str] = []
    signals: list[str] = []
    for part in (p.strip() for p in reason.split("; ")):
        if not part or part.startswith("Needs "):
            continue
        if part.startswith(RISK_PREFIX):
            signals.extend(s.strip() for s in part.removeprefix(RISK_PREFIX).split(","))
        else:
            reasons.append(part)
    return reasons, signals


def _user_name(user_id: str | None, user_names: dict[str, str]) -> str | None:
    if user_id is None:
        return None
    return user_names.get(user_id, user_id)


def _player_name(hass: HomeAssistant, entity_id: str) -> str:
    state = hass.states.get(entity_id)
    return state.name if state is not None else entity_id
