"""Every name a user could say for what Assist exposes: entities, their aliases, areas."""

from __future__ import annotations

from homeassistant.components.homeassistant.exposed_entities import async_should_expose
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import area_registry as ar, entity_registry as er, floor_registry as fr


@callback
def async_exposed_names(hass: HomeAssistant) -> list[str]:
    """Names and aliases of the entities exposed to Assist, and every area's and floor's.

    The guard uses them to tell whole names: "front door light" names the light, so it does
    not name the lock "Front Door" (guard/names.py).
    """
    entities = er.async_get(hass)
    names: set[str] = set()
    for state in hass.states.async_all():
        if not async_should_expose(hass, "conversation", state.entity_id):
            continue
        names.add(state.name)
        if (entry := entities.async_get(state.entity_id)) is not None:
            names.update(alias for alias in entry.aliases if isinstance(alias, str))
    for area in ar.async_get(hass).async_list_areas():
        names.add(area.name)
        names.update(area.aliases)
    for floor in fr.async_get(hass).async_list_floors():
        names.add(floor.name)
        names.update(floor.aliases)
    return sorted(name for name in names if name)
