"""Faults on the device: the entity goes unavailable, comes back resynced, nothing hangs."""

from __future__ import annotations

import asyncio

from homeassistant.components.media_player import (
    ATTR_INPUT_SOURCE,
    ATTR_MEDIA_VOLUME_LEVEL,
    DOMAIN as MP_DOMAIN,
)
from homeassistant.const import ATTR_ENTITY_ID, SERVICE_VOLUME_SET, STATE_UNAVAILABLE
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

import custom_components.linn as linn_init
from linn_emulator import LinnEmulator
from testing.ha.streamers import ENTITY_ID
from testing.helpers import wait_for


@pytest.fixture(autouse=True)
def _fast_fault_detection(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seconds instead of the production half-minute, so faults show quickly."""
    monkeypatch.setattr(linn_init, "KEEPALIVE_INTERVAL", 0.3)
    monkeypatch.setattr(linn_init, "ACTION_TIMEOUT", 0.5)
    monkeypatch.setattr(linn_init, "RECONNECT_MAX", 0.5)


def state(hass: HomeAssistant) -> str:
    return hass.states.get(ENTITY_ID).state


async def test_dropped_connection_recovers_with_resynced_state(
    hass: HomeAssistant, emulator: LinnEmulator, loaded_entry: MockConfigEntry
) -> None:
    emulator.faults.drop_connections()
    await wait_for(lambda: state(hass) == STATE_UNAVAILABLE)
    # changed while we were away: must show up after the resync
    emulator.panel.set_volume(17)
    emulator.panel.select_source("HDMI")
    await wait_for(lambda: state(hass) != STATE_UNAVAILABLE, timeout=5)
    await wait_for(
        lambda: hass.states.get(ENTITY_ID).attributes.get(ATTR_MEDIA_VOLUME_LEVEL) == 0.17
    )
    assert hass.states.get(ENTITY_ID).attributes[ATTR_INPUT_SOURCE] == "TV"


async def test_reboot_recovers(
    hass: HomeAssistant, emulator: LinnEmulator, loaded_entry: MockConfigEntry
) -> None:
    reboot = asyncio.create_task(emulator.faults.reboot(downtime=0.5))
    try:
        await wait_for(lambda: state(hass) == STATE_UNAVAILABLE)
    finally:
        await reboot
    await wait_for(lambda: state(hass) != STATE_UNAVAILABLE, timeout=5)
    await wait_for(lambda: emulator.sessions == 1)


async def test_half_open_is_detected_and_calls_do_not_hang(
    hass: HomeAssistant, emulator: LinnEmulator, loaded_entry: MockConfigEntry
) -> None:
    emulator.faults.half_open(True)
    async with asyncio.timeout(3):
        with pytest.raises(HomeAssistantError) as err:
            await hass.services.async_call(
                MP_DOMAIN,
                SERVICE_VOLUME_SET,
                {ATTR_ENTITY_ID: ENTITY_ID, ATTR_MEDIA_VOLUME_LEVEL: 0.2},
                blocking=True,
            )
    assert err.value.translation_key == "command_failed"
    await wait_for(lambda: state(hass) == STATE_UNAVAILABLE, timeout=3)

    emulator.faults.half_open(False)
    await wait_for(lambda: state(hass) != STATE_UNAVAILABLE, timeout=5)
    await hass.services.async_call(
        MP_DOMAIN,
        SERVICE_VOLUME_SET,
        {ATTR_ENTITY_ID: ENTITY_ID, ATTR_MEDIA_VOLUME_LEVEL: 0.2},
        blocking=True,
    )
    assert emulator.state.volume == 20


async def test_calls_while_device_is_down_return_promptly(
    hass: HomeAssistant, emulator: LinnEmulator, loaded_entry: MockConfigEntry
) -> None:
    """Home Assistant skips unavailable entities; the call must not hang either way."""
    reboot = asyncio.create_task(emulator.faults.reboot(downtime=1.0))
    try:
        await wait_for(lambda: state(hass) == STATE_UNAVAILABLE)
        async with asyncio.timeout(1):
            await hass.services.async_call(
                MP_DOMAIN,
                SERVICE_VOLUME_SET,
                {ATTR_ENTITY_ID: ENTITY_ID, ATTR_MEDIA_VOLUME_LEVEL: 0.25},
                blocking=True,
            )
    finally:
        await reboot
    await wait_for(lambda: state(hass) != STATE_UNAVAILABLE, timeout=5)
    assert emulator.state.volume != 25


async def test_unavailability_is_logged_once_and_recovery_once(
    hass: HomeAssistant,
    emulator: LinnEmulator,
    loaded_entry: MockConfigEntry,
    caplog: pytest.LogCaptureFixture,
) -> None:
    emulator.faults.drop_connections()
    await wait_for(lambda: state(hass) == STATE_UNAVAILABLE)
    await wait_for(lambda: state(hass) != STATE_UNAVAILABLE, timeout=5)
    assert caplog.text.count("is unavailable; reconnecting") == 1
    assert caplog.text.count("is back") == 1


async def test_home_assistant_stopping_is_not_logged_as_an_outage(
    hass: HomeAssistant,
    emulator: LinnEmulator,
    loaded_entry: MockConfigEntry,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The session closes as Home Assistant stops (every scripts/develop stop): no warning."""
    await hass.async_stop()
    assert "is unavailable" not in caplog.text
    assert not [
        r for r in caplog.records if r.name.startswith("custom_components.linn") and r.levelno >= 30
    ]
