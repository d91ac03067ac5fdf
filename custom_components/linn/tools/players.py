"""The Linn players an agent may see, by the names the user sees, and their state as data."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from homeassistant.components.homeassistant import async_should_expose
from homeassistant.components.media_player import DOMAIN as MEDIA_PLAYER_DOMAIN
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import entity_registry as er

from ..const import DOMAIN
from ..guard.untrusted import UNTRUSTED_NOTE, clean_text
from ..lpec import LinnDevice
from ..player.grouping import async_device_for_entity

NAME_CHARS = 60


@dataclass(frozen=True, slots=True)
class Player:
    """One exposed Linn media player."""

    entity_id: str
    name: str
    device: LinnDevice

    @property
    def ceiling(self) -> int:
        """The highest volume allowed: the device's volume limit (a hard ceiling)."""
        return self.device.state.volume.ceiling or 0

    @property
    def source_names(self) -> list[str]:
        """Visible sources by their user-given names (cleaned)."""
        return [
            clean_text(source.name, NAME_CHARS) or source.system_name
            for source in self.device.state.product.visible_sources
        ]


@callback
def async_players(hass: HomeAssistant, assistant: str | None) -> list[Player]:
    """Loaded Linn media players exposed to this assistant, sorted by name.

    Runs on every tool call: it reads the entities of the loaded Linn config entries through
    the registry's index, not the whole registry (whose size is the home's entity count).
    """
    registry = er.async_get(hass)
    players = [
        player
        for config_entry in hass.config_entries.async_loaded_entries(DOMAIN)
        for entry in er.async_entries_for_config_entry(registry, config_entry.entry_id)
        if entry.platform == DOMAIN and entry.domain == MEDIA_PLAYER_DOMAIN
        if (player := _player(hass, assistant, entry)) is not None
    ]
    return sorted(_unique_names(players), key=lambda player: player.name.casefold())


def _unique_names(players: list[Player]) -> list[Player]:
    """Players that share a name (case-insensitive) are named with their entity id too.

    A streamer's name is its room as the device reports it, and anyone on the network can
    rename it: two players called "Kitchen" become "Kitchen (media_player.kitchen)" and
    "Kitchen (media_player.living_room)", so a schema's names and a call's target stay
    one player each, and "Kitchen" alone names none (the call is refused).
    """
    counts = Counter(player.name.casefold() for player in players)
    return [
        replace(player, name=f"{player.name} ({player.entity_id})")
        if counts[player.name.casefold()] > 1
        else player
        for player in players
    ]


@callback
def _player(hass: HomeAssistant, assistant: str | None, entry: er.RegistryEntry) -> Player | None:
    """The media player entity as a Player, if it has a state, a loaded device and is exposed."""
    state = hass.states.get(entry.entity_id)
    device = async_device_for_entity(hass, entry.entity_id)
    if state is None or device is None:
        return None
    if assistant and not async_should_expose(hass, assistant, entry.entity_id):
        return None
    return Player(entry.entity_id, clean_text(state.name, NAME_CHARS) or entry.entity_id, device)


def player_state(hass: HomeAssistant, player: Player) -> dict[str, Any]:
    """Power, volume, playback and group as values; every device string under device_text."""
    device_state = player.device.state
    volume = device_state.volume
    ha_state = hass.states.get(player.entity_id)
    attributes = ha_state.attributes if ha_state is not None else {}
    text = {
        "source": attributes.get("source"),
        "title": attributes.get("media_title"),
        "artist": attributes.get("media_artist"),
        "album": attributes.get("media_album_name"),
        "station": attributes.get("media_channel"),
    }
    return {
        "player": player.name,
        "state": ha_state.state if ha_state is not None else "unavailable",
        "volume": volume.volume,
        "volume_limit": player.ceiling if volume.volume is not None else None,
        "muted": volume.mute,
        "position_seconds": attributes.get("media_position"),
        "duration_seconds": attributes.get("media_duration"),
        "group": [
            other
            for other in attributes.get("group_members") or []
            if isinstance(other, str) and other != player.entity_id
        ],
        "device_text": {
            **{key: clean_text(str(value)) for key, value in text.items() if value is not None},
            "sources": player.source_names,  # renamed in Konfig: device text, cleaned
        },
    }


def control_state(hass: HomeAssistant, player: Player) -> dict[str, Any]:
    """The state after a change, without any device text (no taint from a write)."""
    state = player_state(hass, player)
    state.pop("device_text")
    return state


def state_result(hass: HomeAssistant, players: list[Player]) -> dict[str, Any]:
    """The get_state result: data only, with the untrusted-text note."""
    return {"players": [player_state(hass, player) for player in players], "note": UNTRUSTED_NOTE}
