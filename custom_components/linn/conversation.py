"""Conversation platform: one Claude assistant entity per assistant entry."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .agent.entity import AssistantEntity
from .agent.runtime import AssistantConfigEntry

PARALLEL_UPDATES = 0


async def async_setup_entry(
    hass: HomeAssistant,
    entry: AssistantConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """The assistant's agent."""
    async_add_entities([AssistantEntity(entry)])
