"""The media player against the emulator: bad input is a translated error and changes nothing."""

from __future__ import annotations

from typing import Any

from homeassistant.components.media_player import (
    ATTR_INPUT_SOURCE,
    ATTR_MEDIA_CONTENT_ID,
    ATTR_MEDIA_CONTENT_TYPE,
    ATTR_MEDIA_VOLUME_LEVEL,
    SERVICE_PLAY_MEDIA,
    SERVICE_SELECT_SOURCE,
)
from homeassistant.const import SERVICE_VOLUME_SET
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
import pytest

from linn_emulator import LinnEmulator

from .media_player_calls import call, current_source

pytestmark = pytest.mark.usefixtures("loaded_entry")


@pytest.mark.parametrize(
    ("service", "data", "translation_key"),
    [
        (SERVICE_SELECT_SOURCE, {ATTR_INPUT_SOURCE: "Gramophone"}, "unknown_source"),
        (
            SERVICE_PLAY_MEDIA,
            {ATTR_MEDIA_CONTENT_TYPE: "video", ATTR_MEDIA_CONTENT_ID: "x"},
            "unsupported_media_type",
        ),
        (
            SERVICE_PLAY_MEDIA,
            {ATTR_MEDIA_CONTENT_TYPE: "music", ATTR_MEDIA_CONTENT_ID: "ftp://x/y.mp3"},
            "unsupported_url",
        ),
        (
            SERVICE_PLAY_MEDIA,
            {ATTR_MEDIA_CONTENT_TYPE: "linn_pin", ATTR_MEDIA_CONTENT_ID: "nine"},
            "invalid_media_id",
        ),
        (
            SERVICE_PLAY_MEDIA,
            {ATTR_MEDIA_CONTENT_TYPE: "linn_pin", ATTR_MEDIA_CONTENT_ID: "9"},
            "invalid_argument",
        ),
        (
            SERVICE_PLAY_MEDIA,
            {ATTR_MEDIA_CONTENT_TYPE: "linn_preset", ATTR_MEDIA_CONTENT_ID: "77"},
            "invalid_argument",
        ),
    ],
)
async def test_bad_input_is_a_translated_error_and_changes_nothing(
    hass: HomeAssistant,
    emulator: LinnEmulator,
    service: str,
    data: dict[str, Any],
    translation_key: str,
) -> None:
    actions_before = len(emulator.actions)
    source_before = current_source(emulator)
    with pytest.raises(ServiceValidationError) as err:
        await call(hass, service, **data)
    assert err.value.translation_domain == "linn"
    assert err.value.translation_key == translation_key
    assert current_source(emulator) == source_before
    sent = [a.action for a in emulator.actions[actions_before:] if a.action != "Standby"]
    assert not [a for a in sent if a != "ReadList"]


async def test_invoke_pin_out_of_range_changes_nothing(
    hass: HomeAssistant, emulator: LinnEmulator
) -> None:
    source_before = current_source(emulator)
    with pytest.raises(ServiceValidationError) as err:
        await call(hass, "invoke_pin", domain="linn", pin=9)
    assert err.value.translation_key == "invalid_argument"
    assert current_source(emulator) == source_before


async def test_volume_out_of_range_is_rejected(hass: HomeAssistant, emulator: LinnEmulator) -> None:
    volume_before = emulator.state.volume
    with pytest.raises(Exception, match=r"1\.5|range|value must be"):
        await call(hass, SERVICE_VOLUME_SET, **{ATTR_MEDIA_VOLUME_LEVEL: 1.5})
    assert emulator.state.volume == volume_before
