"""Diagnostics: a streamer entry (host redacted) and everything the device reported.

An assistant entry is handed over to agent/diagnostics.py; the guard's audit is in both.
"""

from __future__ import annotations

import dataclasses
from typing import Any, cast

from homeassistant.components.diagnostics import async_redact_data
from homeassistant.const import CONF_HOST
from homeassistant.core import HomeAssistant

from . import LinnConfigEntry
from .agent.diagnostics import async_get_assistant_diagnostics
from .agent.runtime import AssistantConfigEntry
from .const import is_assistant_data
from .guard import ChainError
from .tools.ha_adapter import DATA_GUARD

TO_REDACT = {CONF_HOST, "presentation_url"}
AUDIT_REDACT = {"user_id", "agent_id", "conversation_id"}
AUDIT_RECORDS = 200


async def async_get_config_entry_diagnostics(
    hass: HomeAssistant, entry: LinnConfigEntry | AssistantConfigEntry
) -> dict[str, Any]:
    """Return diagnostics for a config entry."""
    if is_assistant_data(entry.data):
        return await async_get_assistant_diagnostics(
            hass, cast(AssistantConfigEntry, entry), _guard_diagnostics(hass)
        )
    entry = cast(LinnConfigEntry, entry)
    device = entry.runtime_data
    state = dataclasses.asdict(device.state)
    state["services"] = sorted(service.short_name for service in device.state.services)
    state["radio"]["slots"] = _slots(device.state.radio.slots)
    state["pins"]["slots"] = _slots(device.state.pins.slots)
    return {
        "entry": async_redact_data(dict(entry.data), TO_REDACT),
        "available": device.available,
        "udn": device.udn,
        "state": async_redact_data(state, TO_REDACT),
        "guard": _guard_diagnostics(hass),
    }


def _slots(slots: tuple[int, ...]) -> dict[str, Any]:
    """How many slots there are (Radio always has 100) and the filled ones (id 0 is empty)."""
    return {
        "total": len(slots),
        "filled": [{"slot": number, "id": id_} for number, id_ in enumerate(slots, 1) if id_],
    }


def _guard_diagnostics(hass: HomeAssistant) -> dict[str, Any]:
    """The newest audit records (people and conversations redacted; arguments already are)."""
    runtime = hass.data.get(DATA_GUARD)
    if runtime is None:
        return {}
    audit = runtime.guard.audit
    verified: bool | str = True
    try:
        audit.verify()
    except ChainError as err:
        verified = str(err)
    records = [record.to_dict() for record in audit.records[-AUDIT_RECORDS:]]
    return {
        "audit_verified": verified,
        "audit_total": audit.total,
        "audit_head": audit.head,
        "audit_records": async_redact_data(records, AUDIT_REDACT),
        "pending_approvals": len(runtime.guard.pending.awaiting_approval()),
        "today": runtime.guard.ledger.totals_today(),
    }
