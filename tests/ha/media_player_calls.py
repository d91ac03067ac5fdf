"""What the media player's tests (test_media_player*.py) share: a service call on the
streamer's entity, one of its attributes, and the emulator's current source.
"""

from __future__ import annotations

from typing import Any

from homeassistant.components.media_player import DOMAIN as MP_DOMAIN
from homeassistant.const import ATTR_ENTITY_ID
from homeassistant.core import HomeAssistant

from linn_emulator import LinnEmulator
from testing.ha.streamers import ENTITY_ID


async def call(hass: HomeAssistant, service: str, domain: str = MP_DOMAIN, **data: Any) -> None:
    await hass.services.async_call(
        domain, service, {ATTR_ENTITY_ID: ENTITY_ID, **data}, blocking=True
    )


def attr(hass: HomeAssistant, name: str) -> Any:
    return hass.states.get(ENTITY_ID).attributes.get(name)


def current_source(emulator: LinnEmulator) -> str:
    return emulator.state.sources[emulator.state.source_index].system_name
