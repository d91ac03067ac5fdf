"""The streamer's device is placed in the area named like the room the streamer reports."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar, device_registry as dr
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn.const import DOMAIN
from linn_emulator import LinnEmulator
from testing.ha.streamers import UDN


def _device(hass: HomeAssistant, entry: MockConfigEntry) -> dr.DeviceEntry:
    device = dr.async_get(hass).async_get_device_by_identifier((DOMAIN, UDN), entry.entry_id)
    assert device is not None
    return device


async def test_a_new_device_goes_into_the_area_of_its_room(
    hass: HomeAssistant, emulator: LinnEmulator, config_entry: MockConfigEntry
) -> None:
    # Home Assistant matches area names ignoring case and spacing
    area = ar.async_get(hass).async_create("living room")
    ar.async_get(hass).async_create("Kitchen")
    config_entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(config_entry.entry_id)
    await hass.async_block_till_done()
    assert emulator.state.room == "Living Room"
    assert _device(hass, config_entry).area_id == area.id
    assert len(ar.async_get(hass).areas) == 2  # no new area
    assert await hass.config_entries.async_unload(config_entry.entry_id)


async def test_an_area_the_user_chose_is_kept(
    hass: HomeAssistant, emulator: LinnEmulator, config_entry: MockConfigEntry
) -> None:
    ar.async_get(hass).async_create("Living Room")
    study = ar.async_get(hass).async_create("Study")
    config_entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(config_entry.entry_id)
    await hass.async_block_till_done()
    registry = dr.async_get(hass)
    registry.async_update_device(_device(hass, config_entry).id, area_id=study.id)

    assert await hass.config_entries.async_reload(config_entry.entry_id)
    await hass.async_block_till_done()
    assert _device(hass, config_entry).area_id == study.id
    assert await hass.config_entries.async_unload(config_entry.entry_id)


async def test_no_area_is_created_for_a_room_without_one(
    hass: HomeAssistant, emulator: LinnEmulator, config_entry: MockConfigEntry
) -> None:
    ar.async_get(hass).async_create("Kitchen")
    config_entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(config_entry.entry_id)
    await hass.async_block_till_done()
    assert _device(hass, config_entry).area_id is None
    assert [area.name for area in ar.async_get(hass).async_list_areas()] == ["Kitchen"]
    assert hass.states.get("media_player.living_room") is not None
    assert await hass.config_entries.async_unload(config_entry.entry_id)
