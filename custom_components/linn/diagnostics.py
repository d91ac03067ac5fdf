"""Diagnostics: the entry (host redacted) and everything the device reported."""

from __future__ import annotations

import dataclasses
from typing import Any, cast

from homeassistant.components.diagnostics import async_redact_data
from homeassistant.const import CONF_API_KEY, CONF_HOST
from homeassistant.core import HomeAssistant

from . import LinnConfigEntry
from .agent.const import is_assistant_data
from .agent.runtime import AssistantConfigEntry

TO_REDACT = {CONF_HOST, "presentation_url"}


async def async_get_config_entry_diagnostics(
    hass: HomeAssistant, entry: LinnConfigEntry | AssistantConfigEntry
) -> dict[str, Any]:
    """Return diagnostics for a config entry."""
    if is_assistant_data(entry.data):
        return {
            "entry": async_redact_data(dict(entry.data), {CONF_API_KEY}),
            "options": dict(entry.options),
        }
    entry = cast(LinnConfigEntry, entry)
    device = entry.runtime_data
    state = dataclasses.asdict(device.state)
    state["services"] = sorted(service.short_name for service in device.state.services)
    return {
        "entry": async_redact_data(dict(entry.data), TO_REDACT),
        "available": device.available,
        "udn": device.udn,
        "state": async_redact_data(state, TO_REDACT),
    }
