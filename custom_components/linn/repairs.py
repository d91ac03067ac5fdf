"""Repairs: an admin acknowledges that the guard's audit log was found broken or missing."""

from __future__ import annotations

from homeassistant.components.repairs import ConfirmRepairFlow, RepairsFlow
from homeassistant.core import HomeAssistant


async def async_create_fix_flow(
    hass: HomeAssistant, issue_id: str, data: dict[str, str | int | float | None] | None
) -> RepairsFlow:
    """Acknowledging is the only fix: the log cannot be restored; the issue then goes."""
    return ConfirmRepairFlow()
