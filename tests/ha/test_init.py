"""Setup, unload, reload and not-ready, against the emulator."""

from __future__ import annotations

from homeassistant.config_entries import ConfigEntryState
from homeassistant.const import STATE_UNAVAILABLE
from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn.const import DOMAIN
from linn_emulator import LinnEmulator
from testing.ha.streamers import ENTITY_ID, OTHER_UDN, UDN, linn_entry
from testing.helpers import closed_port, wait_for


async def test_setup_creates_device_and_unload_closes_session(
    hass: HomeAssistant, emulator: LinnEmulator, config_entry: MockConfigEntry
) -> None:
    config_entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(config_entry.entry_id)
    await hass.async_block_till_done()
    assert config_entry.state is ConfigEntryState.LOADED
    assert emulator.sessions == 1

    device = dr.async_get(hass).async_get_device_by_identifier((DOMAIN, UDN), config_entry.entry_id)
    assert device is not None
    assert device.manufacturer == "Linn"
    assert device.model == "Selekt DSM"
    assert device.name == "Living Room"
    assert device.serial_number == UDN
    assert hass.states.get(ENTITY_ID) is not None

    assert await hass.config_entries.async_unload(config_entry.entry_id)
    await hass.async_block_till_done()
    assert config_entry.state is ConfigEntryState.NOT_LOADED
    await wait_for(lambda: emulator.sessions == 0)
    assert hass.states.get(ENTITY_ID).state == STATE_UNAVAILABLE


async def test_reload_reconnects(
    hass: HomeAssistant, emulator: LinnEmulator, loaded_entry: MockConfigEntry
) -> None:
    assert await hass.config_entries.async_reload(loaded_entry.entry_id)
    await hass.async_block_till_done()
    assert loaded_entry.state is ConfigEntryState.LOADED
    await wait_for(lambda: emulator.sessions == 1)
    assert hass.states.get(ENTITY_ID).state != STATE_UNAVAILABLE


async def test_unreachable_device_is_not_ready(hass: HomeAssistant) -> None:
    entry = linn_entry(UDN, closed_port())
    entry.add_to_hass(hass)
    assert not await hass.config_entries.async_setup(entry.entry_id)
    assert entry.state is ConfigEntryState.SETUP_RETRY
    assert "Cannot connect to the Linn streamer" in (entry.reason or "")


async def test_other_device_at_the_address_is_not_ready(hass: HomeAssistant) -> None:
    async with LinnEmulator(port=0, udn=OTHER_UDN) as other:
        entry = linn_entry(UDN, other.port)
        entry.add_to_hass(hass)
        assert not await hass.config_entries.async_setup(entry.entry_id)
        assert entry.state is ConfigEntryState.SETUP_RETRY
        assert OTHER_UDN in (entry.reason or "")
        await wait_for(lambda: other.sessions == 0)
