"""Firmware update entity from the Linn Update service."""

from __future__ import annotations

from homeassistant.components.update import (
    ATTR_INSTALLED_VERSION,
    ATTR_LATEST_VERSION,
    ATTR_RELEASE_URL,
    DOMAIN as UPDATE_DOMAIN,
    SERVICE_INSTALL,
)
from homeassistant.const import ATTR_ENTITY_ID, STATE_OFF, STATE_ON
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import device_registry as dr
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from linn_emulator import LinnEmulator
from testing.ha.streamers import UDN
from testing.helpers import wait_for

ENTITY = "update.living_room_firmware"
pytestmark = pytest.mark.usefixtures("loaded_entry")


async def test_update_available_then_installed(
    hass: HomeAssistant, emulator: LinnEmulator, loaded_entry: MockConfigEntry
) -> None:
    state = hass.states.get(ENTITY)
    assert state.state == STATE_ON
    assert state.attributes[ATTR_INSTALLED_VERSION] == "4.137.1020"
    assert state.attributes[ATTR_LATEST_VERSION] == "4.141.1102"
    assert state.attributes[ATTR_RELEASE_URL].startswith("http://docs.linn.co.uk/")
    device = dr.async_get(hass).async_get_device_by_identifier(("linn", UDN), loaded_entry.entry_id)
    assert device is not None
    assert device.sw_version == "4.137.1020"

    await hass.services.async_call(
        UPDATE_DOMAIN, SERVICE_INSTALL, {ATTR_ENTITY_ID: ENTITY}, blocking=True
    )
    assert any(a.action == "Apply" for a in emulator.actions)
    await wait_for(lambda: hass.states.get(ENTITY).state == STATE_OFF)

    with pytest.raises(HomeAssistantError, match="No update available"):
        await hass.services.async_call(
            UPDATE_DOMAIN, SERVICE_INSTALL, {ATTR_ENTITY_ID: ENTITY}, blocking=True
        )
