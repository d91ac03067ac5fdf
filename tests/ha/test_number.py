"""The volume limit as a configuration number, through the device's Config service."""

from __future__ import annotations

from homeassistant.components.media_player import (
    ATTR_MEDIA_VOLUME_LEVEL,
    DOMAIN as MP_DOMAIN,
    SERVICE_VOLUME_SET,
)
from homeassistant.components.number import (
    ATTR_VALUE,
    DOMAIN as NUMBER_DOMAIN,
    SERVICE_SET_VALUE,
)
from homeassistant.const import ATTR_ENTITY_ID, EntityCategory
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import entity_registry as er
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

import custom_components.linn as linn_init
from custom_components.linn.number import LinnVolumeLimit
from linn_emulator import LinnEmulator
from testing.ha.streamers import ENTITY_ID, async_setup_linn
from testing.helpers import wait_for

LIMIT = "number.living_room_volume_limit"


@pytest.mark.usefixtures("loaded_entry")
async def test_limit_is_a_config_number_that_the_player_obeys(
    hass: HomeAssistant, emulator: LinnEmulator, entity_registry: er.EntityRegistry
) -> None:
    state = hass.states.get(LIMIT)
    assert state.state == "80.0"
    assert state.attributes["max"] == 100
    assert entity_registry.async_get(LIMIT).entity_category is EntityCategory.CONFIG

    await hass.services.async_call(
        NUMBER_DOMAIN, SERVICE_SET_VALUE, {ATTR_ENTITY_ID: LIMIT, ATTR_VALUE: 50}, blocking=True
    )
    assert emulator.state.volume_limit == 50
    await wait_for(lambda: hass.states.get(LIMIT).state == "50.0")

    # the media player now clamps to the new limit
    await hass.services.async_call(
        MP_DOMAIN,
        SERVICE_VOLUME_SET,
        {ATTR_ENTITY_ID: ENTITY_ID, ATTR_MEDIA_VOLUME_LEVEL: 0.7},
        blocking=True,
    )
    assert emulator.state.volume == 50

    # a change in Konfig shows up here
    emulator.panel.set_volume_limit(65)
    await wait_for(lambda: hass.states.get(LIMIT).state == "65.0")

    with pytest.raises(ServiceValidationError):
        await hass.services.async_call(
            NUMBER_DOMAIN,
            SERVICE_SET_VALUE,
            {ATTR_ENTITY_ID: LIMIT, ATTR_VALUE: 101},
            blocking=True,
        )
    assert emulator.state.volume_limit == 65


@pytest.mark.usefixtures("loaded_entry")
async def test_a_volume_change_writes_nothing_for_the_limit(
    hass: HomeAssistant, emulator: LinnEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 31: a volume event leaves the limit as shown, so it costs the number no state
    write; a limit change still reaches it."""
    written: list[LinnVolumeLimit] = []
    original = LinnVolumeLimit.async_write_ha_state

    def counting(self: LinnVolumeLimit) -> None:
        written.append(self)
        original(self)

    monkeypatch.setattr(LinnVolumeLimit, "async_write_ha_state", counting)
    # The first event may write once (the add's write recorded no key); then none.
    emulator.panel.set_volume(31)
    await wait_for(lambda: hass.states.get(ENTITY_ID).attributes[ATTR_MEDIA_VOLUME_LEVEL] == 0.31)
    await hass.async_block_till_done()
    written.clear()
    for volume in (32, 33, 34):
        emulator.panel.set_volume(volume)
        await wait_for(
            lambda v=volume: (
                hass.states.get(ENTITY_ID).attributes[ATTR_MEDIA_VOLUME_LEVEL] == v / 100
            )
        )
    await hass.async_block_till_done()
    assert written == []
    assert hass.states.get(LIMIT).state == "80.0"

    emulator.panel.set_volume_limit(70)
    await wait_for(lambda: hass.states.get(LIMIT).state == "70.0")
    assert len(written) == 1


async def test_no_number_without_the_config_service(hass: HomeAssistant) -> None:
    services = {"Product", "Volume", "Transport", "Info", "Time"}
    async with LinnEmulator(port=0, room="Study", services=services) as emu:
        entry = await async_setup_linn(hass, emu.udn, emu.port)
        assert hass.states.get("media_player.study") is not None
        assert hass.states.get("number.study_volume_limit") is None
        assert await hass.config_entries.async_unload(entry.entry_id)


async def test_unanswered_check_skips_the_number_and_says_why(
    hass: HomeAssistant,
    emulator: LinnEmulator,
    config_entry: MockConfigEntry,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(linn_init, "ACTION_TIMEOUT", 0.3)
    emulator.faults.response_delay = 1.0  # subscriptions answer, actions time out
    config_entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(config_entry.entry_id)
    await hass.async_block_till_done()
    assert hass.states.get(ENTITY_ID) is not None
    assert hass.states.get(LIMIT) is None
    assert "could not check whether the volume limit can be set" in caplog.text
    emulator.faults.response_delay = 0
    assert await hass.config_entries.async_unload(config_entry.entry_id)
