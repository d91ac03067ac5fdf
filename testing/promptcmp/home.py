"""A realistic home around the emulated players: 40 other entities in eight areas.

Template entities (optimistic: no device behind them) for lights, sensors, covers, climate
and switches, each in an area and exposed to Assist, as a user's home would be. Both agents
see the same home: it is Home Assistant's, not an agent's.
"""

from __future__ import annotations

from typing import Any, Final

from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar, entity_registry as er
from homeassistant.setup import async_setup_component

AREAS: Final = (
    "Living Room",
    "Kitchen",
    "Dining Room",
    "Bedroom",
    "Office",
    "Hall",
    "Bathroom",
    "Garden",
)
LIGHTS: Final = (
    ("Living Room", "Ceiling Light"),
    ("Living Room", "Floor Lamp"),
    ("Living Room", "Reading Lamp"),
    ("Kitchen", "Kitchen Ceiling"),
    ("Kitchen", "Worktop Lights"),
    ("Dining Room", "Dining Pendant"),
    ("Dining Room", "Sideboard Lamp"),
    ("Bedroom", "Bedroom Ceiling"),
    ("Bedroom", "Bedside Left"),
    ("Bedroom", "Bedside Right"),
    ("Office", "Desk Lamp"),
    ("Office", "Office Ceiling"),
    ("Hall", "Hall Light"),
    ("Bathroom", "Mirror Light"),
    ("Garden", "Terrace Lights"),
    ("Garden", "Path Lights"),
)
SENSORS: Final = (
    # (area, name, device class, unit, state)
    ("Living Room", "Living Room Temperature", "temperature", "°C", "21.4"),
    ("Living Room", "Living Room Humidity", "humidity", "%", "44"),
    ("Kitchen", "Kitchen Temperature", "temperature", "°C", "22.1"),
    ("Bedroom", "Bedroom Temperature", "temperature", "°C", "18.9"),
    ("Bedroom", "Bedroom Humidity", "humidity", "%", "51"),
    ("Office", "Office Temperature", "temperature", "°C", "20.6"),
    ("Office", "Office CO2", "carbon_dioxide", "ppm", "640"),
    ("Bathroom", "Bathroom Humidity", "humidity", "%", "67"),
    ("Hall", "Hall Temperature", "temperature", "°C", "19.8"),
    ("Garden", "Outside Temperature", "temperature", "°C", "7.2"),
    ("Garden", "Outside Humidity", "humidity", "%", "81"),
)
COVERS: Final = (
    ("Living Room", "Living Room Blinds"),
    ("Living Room", "Patio Door Blind"),
    ("Kitchen", "Kitchen Blind"),
    ("Bedroom", "Bedroom Shutters"),
    ("Office", "Office Blind"),
    ("Dining Room", "Dining Room Curtains"),
)
CLIMATE: Final = (
    ("Living Room", "Living Room Thermostat"),
    ("Bedroom", "Bedroom Thermostat"),
    ("Office", "Office Thermostat"),
    ("Bathroom", "Bathroom Thermostat"),
)
SWITCHES: Final = (
    ("Kitchen", "Coffee Machine"),
    ("Hall", "Dehumidifier"),
    ("Garden", "Fountain Pump"),
)
OTHER_ENTITY_COUNT: Final = len(LIGHTS) + len(SENSORS) + len(COVERS) + len(CLIMATE) + len(SWITCHES)
COMPONENTS: Final = ("template", "light", "sensor", "cover", "climate", "switch")


def _uid(kind: str, name: str) -> str:
    return f"promptcmp_{kind}_" + name.lower().replace(" ", "_")


def template_config() -> dict[str, Any]:
    """The `template:` configuration of the home (optimistic entities)."""
    return {
        "template": [
            {
                "light": [
                    {
                        "name": name,
                        "unique_id": _uid("light", name),
                        "turn_on": [],
                        "turn_off": [],
                        "set_level": [],
                    }
                    for _area, name in LIGHTS
                ],
                "sensor": [
                    {
                        "name": name,
                        "unique_id": _uid("sensor", name),
                        "state": value,
                        "device_class": device_class,
                        "unit_of_measurement": unit,
                        "state_class": "measurement",
                    }
                    for _area, name, device_class, unit, value in SENSORS
                ],
                "cover": [
                    {
                        "name": name,
                        "unique_id": _uid("cover", name),
                        "device_class": "blind",
                        "open_cover": [],
                        "close_cover": [],
                        "stop_cover": [],
                        "set_cover_position": [],
                    }
                    for _area, name in COVERS
                ],
                "climate": [
                    {
                        "name": name,
                        "unique_id": _uid("climate", name),
                        "hvac_modes": "{{ ['heat', 'off'] }}",
                        "set_hvac_mode": [],
                        "set_temperature": [],
                        "current_temperature": "{{ 20.5 }}",
                    }
                    for _area, name in CLIMATE
                ],
                "switch": [
                    {
                        "name": name,
                        "unique_id": _uid("switch", name),
                        "turn_on": [],
                        "turn_off": [],
                    }
                    for _area, name in SWITCHES
                ],
            }
        ]
    }


async def async_setup_home(hass: HomeAssistant) -> list[str]:
    """Areas and the 40 entities, each in its area and exposed to Assist; their entity ids."""
    areas = ar.async_get(hass)
    area_ids = {
        name: (areas.async_get_area_by_name(name) or areas.async_create(name)).id for name in AREAS
    }
    assert await async_setup_component(hass, "template", template_config())
    await hass.async_block_till_done()
    entities = er.async_get(hass)
    placed: list[tuple[str, str, str]] = [
        *(("light", area, name) for area, name in LIGHTS),
        *(("sensor", area, name) for area, name, *_ in SENSORS),
        *(("cover", area, name) for area, name in COVERS),
        *(("climate", area, name) for area, name in CLIMATE),
        *(("switch", area, name) for area, name in SWITCHES),
    ]
    entity_ids = []
    for kind, area, name in placed:
        entity_id = entities.async_get_entity_id(kind, "template", _uid(kind, name))
        assert entity_id is not None, f"{kind} {name} was not created"
        entities.async_update_entity(entity_id, area_id=area_ids[area])
        async_expose_entity(hass, "conversation", entity_id, True)
        entity_ids.append(entity_id)
    return entity_ids


def area_id(hass: HomeAssistant, name: str) -> str:
    """The id of one of the home's areas."""
    area = ar.async_get(hass).async_get_area_by_name(name)
    assert area is not None
    return area.id
