"""The Linn integration: Linn network streamers over LPEC, pushed, never polled."""

from __future__ import annotations

import logging
from typing import cast

from homeassistant.config_entries import ConfigEntry, ConfigEntryState
from homeassistant.const import CONF_HOST, CONF_PORT, EVENT_HOMEASSISTANT_STOP, Platform
from homeassistant.core import Event, HomeAssistant, callback
from homeassistant.exceptions import ConfigEntryNotReady
from homeassistant.helpers import (
    area_registry as ar,
    config_validation as cv,
    device_registry as dr,
    issue_registry as ir,
)
from homeassistant.helpers.typing import ConfigType

from .agent.memory_service import async_setup_memory_service
from .agent.migration import weighted_token_budgets
from .agent.policies import async_agent_settings_lookup
from .agent.runtime import AssistantConfigEntry
from .agent.setup import async_setup_assistant_entry, async_unload_assistant_entry
from .approvals.dashboard_card import async_register_card
from .approvals.flow import async_setup_guarded_tools
from .approvals.websocket_api import async_setup_websocket_api
from .const import (
    ACTION_TIMEOUT,
    CONF_SERVICE_VERSIONS,
    CONNECT_TIMEOUT,
    DOMAIN,
    KEEPALIVE_INTERVAL,
    RECONNECT_MAX,
    is_assistant_data,
)
from .entity import streamer_device_info
from .helpers import normalize_udn
from .lpec import LinnDevice, LpecError
from .player.grouping import async_watch_groups
from .services import async_setup_services

_LOGGER = logging.getLogger(__name__)

PLATFORMS: list[Platform] = [
    Platform.MEDIA_PLAYER,
    Platform.NUMBER,
    Platform.SENSOR,
    Platform.UPDATE,
]
CONFIG_SCHEMA = cv.config_entry_only_config_schema(DOMAIN)

type LinnConfigEntry = ConfigEntry[LinnDevice]


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    """Register the integration's actions and start the tool guard (once, for every entry).

    The assistant's parts are handed to the rest from here: its action, and its own guard
    settings (by the agent id its calls carry) to the guard.
    """
    async_setup_services(hass)
    async_setup_memory_service(hass)
    await async_setup_guarded_tools(hass, async_agent_settings_lookup(hass))
    async_setup_websocket_api(hass)
    await async_register_card(hass)
    return True


async def async_migrate_entry(
    hass: HomeAssistant, entry: LinnConfigEntry | AssistantConfigEntry
) -> bool:
    """Minor version 2: an assistant's token budgets count input-token equivalents."""
    if entry.version > 1:
        return False  # a downgrade: this version cannot read it
    if entry.minor_version < 2:
        options = (
            weighted_token_budgets(entry.options)
            if is_assistant_data(entry.data)
            else dict(entry.options)
        )
        hass.config_entries.async_update_entry(entry, options=options, minor_version=2)
    return True


async def async_setup_entry(
    hass: HomeAssistant, entry: LinnConfigEntry | AssistantConfigEntry
) -> bool:
    """A streamer entry or a Claude assistant entry (an API key in its data)."""
    if is_assistant_data(entry.data):
        return await async_setup_assistant_entry(hass, cast(AssistantConfigEntry, entry))
    return await _async_setup_streamer_entry(hass, cast(LinnConfigEntry, entry))


async def _async_setup_streamer_entry(hass: HomeAssistant, entry: LinnConfigEntry) -> bool:
    """Open the LPEC session; the device then pushes every change."""
    host: str = entry.data[CONF_HOST]
    port: int = entry.data[CONF_PORT]
    device = LinnDevice(
        host,
        port,
        connect_timeout=CONNECT_TIMEOUT,
        action_timeout=ACTION_TIMEOUT,
        keepalive_interval=KEEPALIVE_INTERVAL,
        keepalive_timeout=ACTION_TIMEOUT,
        reconnect_max=RECONNECT_MAX,
        declared_versions=entry.data.get(CONF_SERVICE_VERSIONS),
    )
    try:
        await device.connect()
    except LpecError as err:
        await device.close()
        raise ConfigEntryNotReady(
            translation_domain=DOMAIN,
            translation_key="cannot_connect",
            translation_placeholders={"host": host, "port": str(port), "error": str(err)},
        ) from err

    if entry.unique_id and normalize_udn(device.udn or "") != entry.unique_id:
        found = device.udn
        await device.close()
        raise ConfigEntryNotReady(
            translation_domain=DOMAIN,
            translation_key="wrong_device",
            translation_placeholders={"host": host, "port": str(port), "udn": str(found)},
        )

    @callback
    def _log_availability(available: bool) -> None:
        if entry.state is not ConfigEntryState.LOADED or hass.is_stopping:
            return  # a deliberate close (unloading, Home Assistant stopping) is not an outage
        if available:
            _LOGGER.info("Linn at %s:%s is back", host, port)
        else:
            _LOGGER.warning("Linn at %s:%s is unavailable; reconnecting", host, port)

    async def _close_on_stop(_event: Event) -> None:
        await device.close()

    entry.async_on_unload(device.add_availability_listener(_log_availability))
    entry.async_on_unload(hass.bus.async_listen_once(EVENT_HOMEASSISTANT_STOP, _close_on_stop))
    entry.runtime_data = device
    async_watch_groups(entry)
    # Registered before any entity (whose device info may name only the identifiers), so
    # that a new device goes into the area named like its room, if there is one.
    room_area = ar.async_get(hass).async_get_area_by_name(device.state.product.room or "")
    dr.async_get(hass).async_get_or_create(
        config_entry_id=entry.entry_id,
        **streamer_device_info(device, area=room_area.name if room_area else None),
    )
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)
    # versions before the player's gate (issue 30) raised this issue while a player was
    # exposed to Assist; Assist's intents pass the gate now, and repair issues outlive restarts
    ir.async_delete_issue(hass, DOMAIN, f"assist_exposed_{entry.entry_id}")
    return True


async def async_unload_entry(
    hass: HomeAssistant, entry: LinnConfigEntry | AssistantConfigEntry
) -> bool:
    """Unload the platforms; close a streamer's LPEC session."""
    if is_assistant_data(entry.data):
        return await async_unload_assistant_entry(hass, cast(AssistantConfigEntry, entry))
    entry = cast(LinnConfigEntry, entry)
    unload_ok = await hass.config_entries.async_unload_platforms(entry, PLATFORMS)
    if unload_ok:
        await entry.runtime_data.close()
    return unload_ok
