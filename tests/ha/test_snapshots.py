"""Entity attributes in several device states, and diagnostics, as syrupy snapshots."""

from __future__ import annotations

import asyncio
from typing import Any

from homeassistant.components.media_player import MediaPlayerState
from homeassistant.core import HomeAssistant
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.components.diagnostics import (
    get_diagnostics_for_config_entry,
)
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator
from syrupy.assertion import SnapshotAssertion

from linn_emulator import LinnEmulator
from testing.ha.streamers import ENTITY_ID
from testing.helpers import wait_for

# change with time or per run
VOLATILE = {"media_position_updated_at", "entity_picture"}


def attributes(hass: HomeAssistant) -> dict[str, Any]:
    state = hass.states.get(ENTITY_ID)
    return {
        "state": state.state,
        **{key: value for key, value in state.attributes.items() if key not in VOLATILE},
    }


def playing(emulator: LinnEmulator) -> None:
    emulator.panel.play()


def radio(emulator: LinnEmulator) -> None:
    emulator.panel.invoke_pin(1)


def standby(emulator: LinnEmulator) -> None:
    emulator.panel.set_standby(True)


def tv(emulator: LinnEmulator) -> None:
    emulator.panel.select_source("HDMI")


def idle(emulator: LinnEmulator) -> None:
    del emulator


@pytest.mark.parametrize(
    ("arrange", "expected_state"),
    [
        (idle, MediaPlayerState.IDLE),
        (playing, MediaPlayerState.PLAYING),
        (radio, MediaPlayerState.PLAYING),
        (standby, MediaPlayerState.OFF),
        (tv, MediaPlayerState.PLAYING),
    ],
    ids=["idle", "playing", "radio", "standby", "tv"],
)
async def test_media_player_attributes(
    hass: HomeAssistant,
    emulator: LinnEmulator,
    loaded_entry: MockConfigEntry,
    snapshot: SnapshotAssertion,
    arrange: Any,
    expected_state: MediaPlayerState,
) -> None:
    emulator.tick_interval = 3600  # freeze the position for a stable snapshot
    # The tick already asleep (0.05 s) comes first, not in the same read as the arrangement's
    # events (which then records the position it reports: 1, not 0).
    await asyncio.sleep(0.1)
    arrange(emulator)
    await wait_for(lambda: hass.states.get(ENTITY_ID).state == expected_state)
    await hass.async_block_till_done()
    assert attributes(hass) == snapshot


async def test_diagnostics(
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    loaded_entry: MockConfigEntry,
    snapshot: SnapshotAssertion,
) -> None:
    diagnostics = await get_diagnostics_for_config_entry(hass, hass_client, loaded_entry)
    assert diagnostics["entry"]["host"] == "**REDACTED**"
    diagnostics["entry"].pop("port")  # the emulator's port differs per run
    diagnostics["state"]["time"].pop("seconds_updated_at")
    # Radio has 100 slots on Linn firmware: only the filled ones are listed, with the count.
    assert diagnostics["state"]["radio"]["slots"] == {
        "total": 100,
        "filled": [{"slot": n, "id": n} for n in (1, 2, 3, 4)],
    }
    assert diagnostics["state"]["pins"]["slots"]["total"] == 6
    assert diagnostics == snapshot
