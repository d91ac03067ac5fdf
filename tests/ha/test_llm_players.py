"""The players the Linn tools offer: loaded Linn media players exposed to the assistant."""

from __future__ import annotations

from homeassistant.auth.models import User
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
import pytest

from custom_components.linn.tools.players import async_players
from linn_emulator import LinnEmulator
from testing.ha.assist_api import assist, call
from testing.ha.streamers import ENTITY_ID, OTHER_UDN

KITCHEN_ID = "media_player.kitchen"


pytestmark = pytest.mark.usefixtures("llm_ready")


def offered(hass: HomeAssistant, assistant: str | None = "conversation") -> list[str]:
    return [player.entity_id for player in async_players(hass, assistant)]


async def test_only_loaded_exposed_linn_media_players_are_offered(
    hass: HomeAssistant, hass_admin_user: User, kitchen: LinnEmulator
) -> None:
    # another integration's media player is no Linn player, exposed or not
    other = er.async_get(hass).async_get_or_create("media_player", "other", "tv")
    hass.states.async_set(other.entity_id, "on", {"friendly_name": "Another TV"})
    assert offered(hass) == [KITCHEN_ID, ENTITY_ID]  # by name: Kitchen, Living Room

    async_expose_entity(hass, "conversation", KITCHEN_ID, False)
    assert offered(hass) == [ENTITY_ID]
    assert offered(hass, None) == [KITCHEN_ID, ENTITY_ID]  # no assistant: nothing to expose to
    api = await assist(hass, hass_admin_user)
    refused = await call(api, "standby", player="Kitchen")
    assert refused.data == {"error": "Invalid argument: player must be one of the listed players"}

    async_expose_entity(hass, "conversation", KITCHEN_ID, True)
    kitchen_entry = hass.config_entries.async_entry_for_domain_unique_id("linn", OTHER_UDN)
    assert kitchen_entry is not None
    assert await hass.config_entries.async_unload(kitchen_entry.entry_id)
    await hass.async_block_till_done()
    assert hass.states.get(KITCHEN_ID) is not None  # unavailable, still in the state machine
    assert offered(hass) == offered(hass, None) == [ENTITY_ID]
