"""Songcast groups across Linn config entries: who sends, who listens."""

from __future__ import annotations

from typing import Final

from homeassistant.components.media_player import DOMAIN as MEDIA_PLAYER_DOMAIN
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import entity_registry as er

from .agent.const import is_assistant_data
from .const import DOMAIN
from .entity_entries import async_entry_of_entity
from .lpec import LinnDevice
from .udn import normalize_udn

SIGNAL_GROUPS_CHANGED: Final = f"{DOMAIN}_groups_changed"


@callback
def _loaded_devices(hass: HomeAssistant) -> list[LinnDevice]:
    return [
        entry.runtime_data
        for entry in hass.config_entries.async_entries(DOMAIN)
        if entry.state is ConfigEntryState.LOADED and not is_assistant_data(entry.data)
    ]


@callback
def _entity_id(hass: HomeAssistant, device: LinnDevice) -> str | None:
    return er.async_get(hass).async_get_entity_id(
        MEDIA_PLAYER_DOMAIN, DOMAIN, normalize_udn(device.udn or "")
    )


@callback
def async_device_for_entity(hass: HomeAssistant, entity_id: str) -> LinnDevice | None:
    """The LinnDevice behind a media_player entity id, if it is one of ours and loaded."""
    config_entry = async_entry_of_entity(hass, entity_id)
    if config_entry is None or config_entry.state is not ConfigEntryState.LOADED:
        return None
    device: LinnDevice = config_entry.runtime_data
    return device


@callback
def async_entity_for_sender(hass: HomeAssistant, sender_uri: str) -> str | None:
    """The media player whose Songcast sender has this URI."""
    for device in _loaded_devices(hass):
        if device.state.sender.uri == sender_uri:
            return _entity_id(hass, device)
    return None


@callback
def async_entities_listening_to(hass: HomeAssistant, sender_uri: str) -> list[str]:
    """Media players currently playing this Songcast sender."""
    return [
        entity_id
        for device in _loaded_devices(hass)
        if device.state.is_listening and device.state.receiver.uri == sender_uri
        if (entity_id := _entity_id(hass, device)) is not None
    ]
