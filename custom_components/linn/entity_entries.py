"""The config entry of this integration behind an entity id."""

from __future__ import annotations

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import entity_registry as er

from .const import DOMAIN


@callback
def async_entry_of_entity(hass: HomeAssistant, entity_id: str) -> ConfigEntry | None:
    """The entry of one of our entities (None: not ours, or not registered)."""
    entity = er.async_get(hass).async_get(entity_id)
    if entity is None or entity.platform != DOMAIN or entity.config_entry_id is None:
        return None
    return hass.config_entries.async_get_entry(entity.config_entry_id)
