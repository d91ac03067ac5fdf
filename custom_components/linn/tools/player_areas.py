"""The areas of players and satellites, and the names a user says for a player."""

from __future__ import annotations

from collections.abc import Sequence

from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar, device_registry as dr, entity_registry as er

from ..guard import PlayerTerms
from .players import Player


def device_area(hass: HomeAssistant, device_id: str | None) -> str | None:
    """The name of a device's area (a satellite's), if it has one."""
    device = dr.async_get(hass).async_get(device_id) if device_id else None
    if device is None or device.area_id is None:
        return None
    area = ar.async_get(hass).async_get_area(device.area_id)
    return area.name if area is not None else None


def player_area(hass: HomeAssistant, entity_id: str) -> str | None:
    """The name of a player's area: its entity's own, else its device's."""
    entry = er.async_get(hass).async_get(entity_id)
    if entry is None:
        return None
    if entry.area_id and (area := ar.async_get(hass).async_get_area(entry.area_id)) is not None:
        return area.name
    return device_area(hass, entry.device_id)


def player_terms(
    hass: HomeAssistant,
    players: Sequence[Player],
    targets: Sequence[Player],
    satellite: str | None,
) -> PlayerTerms:
    """The names of a change's players and of the others offered, and which are implied.

    A player is named by its name or its area's. A target is implied when it is the only
    player, or the one player in the satellite's area (the turn facts' default player).
    """

    def names(player: Player) -> tuple[str, ...]:
        return tuple(name for name in (player.name, player_area(hass, player.entity_id)) if name)

    target_ids = {player.entity_id for player in targets}
    user_area = device_area(hass, satellite)
    in_area = [p for p in players if user_area and player_area(hass, p.entity_id) == user_area]
    default = players[0] if len(players) == 1 else (in_area[0] if len(in_area) == 1 else None)
    return PlayerTerms(
        targets=tuple(names(player) for player in targets),
        others=tuple(names(p) for p in players if p.entity_id not in target_ids),
        implied=tuple(default is not None and p.entity_id == default.entity_id for p in targets),
    )
