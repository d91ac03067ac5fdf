"""Songcast as Home Assistant grouping: join, group_members, unjoin, across two streamers."""

from __future__ import annotations

from homeassistant.components.media_player import (
    ATTR_GROUP_MEMBERS,
    DOMAIN as MP_DOMAIN,
    SERVICE_JOIN,
    SERVICE_UNJOIN,
)
from homeassistant.const import ATTR_ENTITY_ID
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
import pytest

from linn_emulator import LinnEmulator
from testing.ha.streamers import ENTITY_ID, OTHER_UDN
from testing.helpers import wait_for

KITCHEN = "media_player.kitchen"


def members(hass: HomeAssistant, entity_id: str) -> list[str]:
    return list(hass.states.get(entity_id).attributes.get(ATTR_GROUP_MEMBERS) or [])


async def test_join_and_unjoin(
    hass: HomeAssistant, emulator: LinnEmulator, kitchen: LinnEmulator
) -> None:
    emulator.panel.play()
    kitchen.panel.select_source("Radio")
    await wait_for(lambda: hass.states.get(KITCHEN).attributes.get("source") == "Radio")
    await hass.services.async_call(
        MP_DOMAIN,
        SERVICE_JOIN,
        {ATTR_ENTITY_ID: ENTITY_ID, ATTR_GROUP_MEMBERS: [KITCHEN]},
        blocking=True,
    )
    assert kitchen.state.receiver_uri == emulator.sender_uri
    assert kitchen.state.sources[kitchen.state.source_index].system_name == "Songcast"
    await wait_for(lambda: members(hass, ENTITY_ID) == [ENTITY_ID, KITCHEN])
    await wait_for(lambda: members(hass, KITCHEN) == [ENTITY_ID, KITCHEN])

    await hass.services.async_call(
        MP_DOMAIN, SERVICE_UNJOIN, {ATTR_ENTITY_ID: KITCHEN}, blocking=True
    )
    # back to the source it had before joining
    assert kitchen.state.sources[kitchen.state.source_index].system_name == "Radio"
    await wait_for(lambda: members(hass, ENTITY_ID) == [])
    assert members(hass, KITCHEN) == []


async def test_join_with_a_non_linn_member_changes_nothing(
    hass: HomeAssistant, emulator: LinnEmulator, kitchen: LinnEmulator
) -> None:
    hass.states.async_set("media_player.sonos", "idle")
    with pytest.raises(ServiceValidationError) as err:
        await hass.services.async_call(
            MP_DOMAIN,
            SERVICE_JOIN,
            {ATTR_ENTITY_ID: ENTITY_ID, ATTR_GROUP_MEMBERS: [KITCHEN, "media_player.sonos"]},
            blocking=True,
        )
    assert err.value.translation_key == "not_a_linn"
    assert not kitchen.state.receiver_uri  # the valid member was not joined either


async def test_join_an_unloaded_linn_is_refused(
    hass: HomeAssistant, emulator: LinnEmulator, kitchen: LinnEmulator
) -> None:
    kitchen_entry = next(
        e for e in hass.config_entries.async_entries("linn") if e.unique_id == OTHER_UDN
    )
    assert await hass.config_entries.async_unload(kitchen_entry.entry_id)
    with pytest.raises(ServiceValidationError) as err:
        await hass.services.async_call(
            MP_DOMAIN,
            SERVICE_JOIN,
            {ATTR_ENTITY_ID: ENTITY_ID, ATTR_GROUP_MEMBERS: [KITCHEN]},
            blocking=True,
        )
    assert err.value.translation_key == "not_a_linn"
    assert not kitchen.state.receiver_uri
    assert await hass.config_entries.async_setup(kitchen_entry.entry_id)


async def test_listening_to_a_sender_outside_home_assistant_is_no_group(
    hass: HomeAssistant, emulator: LinnEmulator, kitchen: LinnEmulator
) -> None:
    kitchen_entry = next(
        e for e in hass.config_entries.async_entries("linn") if e.unique_id == OTHER_UDN
    )
    async with LinnEmulator(port=0, room="Garage") as garage:
        garage.panel.play()
        await kitchen_entry.runtime_data.songcast_join(garage.sender_uri, garage.sender_metadata)
        await wait_for(lambda: kitchen.state.receiver_uri == garage.sender_uri)
        await wait_for(lambda: hass.states.get(KITCHEN).attributes.get("source") == "Songcast")
        await hass.async_block_till_done()
        assert members(hass, KITCHEN) == []
        assert members(hass, ENTITY_ID) == []


async def test_a_member_changing_source_leaves_the_leaders_group(
    hass: HomeAssistant, emulator: LinnEmulator, kitchen: LinnEmulator
) -> None:
    """group_members is cached: another device's source change must still reach it."""
    emulator.panel.play()
    await hass.services.async_call(
        MP_DOMAIN,
        SERVICE_JOIN,
        {ATTR_ENTITY_ID: ENTITY_ID, ATTR_GROUP_MEMBERS: [KITCHEN]},
        blocking=True,
    )
    await wait_for(lambda: members(hass, ENTITY_ID) == [ENTITY_ID, KITCHEN])
    for volume in (30, 31):  # writes of the leader with the group cached
        emulator.panel.set_volume(volume)
        await wait_for(
            lambda v=volume: hass.states.get(ENTITY_ID).attributes.get("volume_level") == v / 100
        )
    kitchen.panel.select_source("Radio")  # on the front panel: no leave, the receiver URI stays
    await wait_for(lambda: hass.states.get(KITCHEN).attributes.get("source") == "Radio")
    emulator.panel.set_volume(32)  # the leader's next write shows the group without the kitchen
    await wait_for(lambda: hass.states.get(ENTITY_ID).attributes.get("volume_level") == 0.32)
    assert members(hass, ENTITY_ID) == []
    assert members(hass, KITCHEN) == []
