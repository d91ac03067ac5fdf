"""Which assistant made a call, and its own guard settings (from its options).

The guard knows an assistant only by the agent id its calls carry (the conversation
entity's id, set in code by the assistant's tools, never by the model). This maps it back
to the assistant entry whose options hold the settings. They can only tighten the
players' settings, so an id that maps to nothing (another agent) changes nothing.
"""

from __future__ import annotations

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant, callback

from ..const import is_assistant_data
from ..guard import AgentSettings
from ..guard.engine import AgentSettingsLookup
from ..helpers import async_entry_of_entity
from ..tools.guard_options import agent_settings


@callback
def async_assistant_entry(hass: HomeAssistant, agent_id: str) -> ConfigEntry | None:
    """The assistant entry whose conversation entity has this id (None: another agent)."""
    entry = async_entry_of_entity(hass, agent_id)
    if entry is None or not is_assistant_data(entry.data):
        return None
    return entry


@callback
def async_agent_settings_lookup(hass: HomeAssistant) -> AgentSettingsLookup:
    """For Guard.agent_settings_for: an assistant entry's settings by its entity id."""

    @callback
    def settings_for_agent(agent_id: str) -> AgentSettings | None:
        entry = async_assistant_entry(hass, agent_id)
        return agent_settings(entry.options) if entry is not None else None

    return settings_for_agent
