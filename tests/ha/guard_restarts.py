"""The guard's storage across a restart, as the storage tests and break-it reviews use it."""

from __future__ import annotations

from typing import Any

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from custom_components.linn.guard import Guard
from custom_components.linn.tools.ha_adapter import DATA_GUARD, STORAGE_KEY, GuardRuntime
from custom_components.linn.tools.linn_tools import TOOL_SPECS
from testing.ha.assist_api import PLAYER, assist, async_setup_llm, call


async def restart_guard(hass: HomeAssistant) -> GuardRuntime:
    """A new guard that knows only what is stored (as after a restart)."""
    old = hass.data[DATA_GUARD]
    restarted = GuardRuntime(hass, Guard(TOOL_SPECS, clock=old.guard.clock))
    await restarted.async_load()
    hass.data[DATA_GUARD] = restarted
    return restarted


async def restart_with_the_audit_log_missing(
    hass: HomeAssistant, hass_storage: dict[str, Any], admin: User
) -> None:
    """Repairs set up; the admin sets the volume through Assist (one record, saved); the
    stored audit log is then lost, and the guard restarts from what is stored."""
    await async_setup_llm(hass)
    assert await async_setup_component(hass, "repairs", {})
    api = await assist(hass, admin)
    await call(api, "set_volume", player=PLAYER, volume=21)
    await hass.data[DATA_GUARD].async_save()
    hass_storage[STORAGE_KEY]["data"].pop("audit")
    await restart_guard(hass)
