"""The home a case runs in, and what Home Assistant shows of its players."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from pytest_homeassistant_custom_component.common import MockConfigEntry

from linn_emulator import LinnEmulator

from .case import KITCHEN, LIVING, Caller

AGENT = "conversation.claude_assistant"
ENTITIES = {LIVING: "media_player.living_room", KITCHEN: "media_player.kitchen"}


@dataclass
class World:
    """The home a case runs in."""

    hass: HomeAssistant
    players: dict[str, LinnEmulator]
    streamers: list[MockConfigEntry]
    users: dict[Caller, User | None]
    satellites: dict[str, str]
    """Area name -> the device id of the voice satellite there."""


def queue_length(world: World, player: str) -> int:
    """The play queue's length as the integration sees it."""
    entity = er.async_get(world.hass).async_get(ENTITIES[player])
    if entity is None or entity.config_entry_id is None:
        return -1
    entry = world.hass.config_entries.async_get_entry(entity.config_entry_id)
    return len(entry.runtime_data.state.playlist.ids) if entry is not None else -1


def player_state(hass: HomeAssistant, player: str) -> str | None:
    """The player entity's state (None when it has none)."""
    state = hass.states.get(ENTITIES[player])
    return state.state if state is not None else None


def attributes_text(hass: HomeAssistant, player: str) -> str:
    """The player entity's attributes as one string (to look for a text in)."""
    state = hass.states.get(ENTITIES[player])
    return str(state.attributes) if state is not None else ""


def attribute(hass: HomeAssistant, player: str, name: str) -> Any:
    """One attribute of the player entity (None when it has none)."""
    state = hass.states.get(ENTITIES[player])
    return state.attributes.get(name) if state is not None else None
