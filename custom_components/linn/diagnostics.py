"""Diagnostics: the entry (host redacted) and everything the device reported."""

from __future__ import annotations

import dataclasses
from typing import Any

from homeassistant.components.diagnostics import async_redact_data
from homeassistant.const import CONF_HOST
from homeassistant.core import HomeAssistant

from . import LinnConfigEntry

TO_REDACT = {CONF_HOST, "presentation_url"}


async def async_get_config_entry_diagnostics(
    hass: HomeAssistant, entry: LinnConfigEntry
) -> dict[str, Any]:
    """Return diagnostics for a config entry."""
    device = entry.runtime_data
    state = dataclasses.asdict(device.state)
    state["services"] = sorted(service.short_name for service in device.state.services)
    return {
        "entry": async_redact_data(dict(entry.data), TO_REDACT),
        "available": device.available,
        "udn": device.udn,
        "state": async_redact_data(state, TO_REDACT),
    }
