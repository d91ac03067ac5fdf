"""Diagnostics: the entry (host redacted) and everything the device reported."""

from __future__ import annotations

from collections.abc import Mapping
import dataclasses
from typing import Any, cast

from homeassistant.components.diagnostics import async_redact_data
from homeassistant.const import CONF_API_KEY, CONF_HOST
from homeassistant.core import HomeAssistant

from . import LinnConfigEntry
from .agent.caching import min_cacheable_tokens
from .agent.const import (
    CONF_INSTRUCTIONS,
    CONF_MODEL,
    CONF_THINKING_EFFORT,
    is_assistant_data,
    option,
)
from .agent.effective_settings import async_effective_settings
from .agent.memory import async_get_memory
from .agent.runtime import AssistantConfigEntry
from .agent.thinking_params import option_not_applied
from .guard import ChainError
from .tools.ha_adapter import DATA_GUARD

TO_REDACT = {CONF_HOST, "presentation_url"}
AUDIT_REDACT = {"user_id", "agent_id", "conversation_id"}
AUDIT_RECORDS = 200
TYPED_OPTIONS = {CONF_INSTRUCTIONS}
"""Assistant options that hold a user's own words."""


async def async_get_config_entry_diagnostics(
    hass: HomeAssistant, entry: LinnConfigEntry | AssistantConfigEntry
) -> dict[str, Any]:
    """Return diagnostics for a config entry."""
    if is_assistant_data(entry.data):
        return {
            "entry": async_redact_data(dict(entry.data), {CONF_API_KEY}),
            "options": _options_diagnostics(entry.options),
            "effective_guard_settings": async_effective_settings(
                hass, cast(AssistantConfigEntry, entry)
            ),
            "guard": _guard_diagnostics(hass),
            "memory": await _memory_diagnostics(hass),
            "prompt_cache": _prompt_cache_diagnostics(cast(AssistantConfigEntry, entry)),
            "thinking": _thinking_diagnostics(cast(AssistantConfigEntry, entry)),
            "planner": _planner_diagnostics(cast(AssistantConfigEntry, entry)),
        }
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


def _prompt_cache_diagnostics(entry: AssistantConfigEntry) -> dict[str, Any]:
    """The model's minimum cacheable length and what the last request's usage showed."""
    model = option(entry.options, CONF_MODEL)
    runtime = getattr(entry, "runtime_data", None)
    last = runtime.last_cache if runtime is not None else None
    return {
        "model": model,
        "min_cacheable_tokens": min_cacheable_tokens(model),
        "last_request": last.as_dict() if last is not None else None,
    }


def _planner_diagnostics(entry: AssistantConfigEntry) -> dict[str, int]:
    """The planner's turns since the entry loaded: planned, or why there was no plan."""
    runtime = getattr(entry, "runtime_data", None)
    return dict(runtime.plan_outcomes) if runtime is not None else {}


def _thinking_diagnostics(entry: AssistantConfigEntry) -> dict[str, Any]:
    """The model's capabilities the parameters came from, and those the last request sent."""
    runtime = getattr(entry, "runtime_data", None)
    capabilities = runtime.capabilities if runtime is not None else None
    return {
        "effort_option": option(entry.options, CONF_THINKING_EFFORT),
        "capabilities": capabilities.as_dict() if capabilities is not None else None,
        "last_request_params": runtime.thinking_params if runtime is not None else None,
        "option_not_applied": option_not_applied(capabilities),
    }


def _options_diagnostics(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options, with the text a user typed given by its size only."""
    return {
        key: {"characters": len(str(value))} if key in TYPED_OPTIONS else value
        for key, value in options.items()
    }


async def _memory_diagnostics(hass: HomeAssistant) -> dict[str, Any]:
    """How many facts each user remembered, and their sizes.

    Never their text: a diagnostics file is attached to public bug reports, and a fact is
    a person's words about their household. Users by number, not by id.
    """
    memory = await async_get_memory(hass)
    return {
        f"user {number}": {"facts": len(facts), "characters": [len(fact.text) for fact in facts]}
        for number, facts in enumerate(memory.all_facts().values(), start=1)
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
