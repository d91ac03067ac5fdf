"""Audio-format sensors follow the Info service."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
import pytest

from linn_emulator import LinnEmulator
from testing.helpers import wait_for

pytestmark = pytest.mark.usefixtures("loaded_entry")


def value(hass: HomeAssistant, key: str) -> str:
    return hass.states.get(f"sensor.living_room_{key}").state


async def test_format_of_track_then_radio(hass: HomeAssistant, emulator: LinnEmulator) -> None:
    assert value(hass, "codec") == "FLAC"
    assert value(hass, "bit_depth") == "24"
    assert float(value(hass, "sample_rate")) == 96.0  # shown in kHz
    assert (
        hass.states.get("sensor.living_room_sample_rate").attributes["unit_of_measurement"] == "kHz"
    )

    emulator.panel.invoke_pin(1)  # BBC Radio 3, AAC
    await wait_for(lambda: value(hass, "codec") == "AAC")
