"""LPEC as Linn firmware speaks it (ohNet), through Home Assistant's entity.

Issue 17 items 1, 2 and 6 against the emulator in its default (ohNet) mode: values
spanning lines, BYEBYE without ALIVE, raw ERROR text, Buffering and Waiting, subscription
ids from 0.
"""

from __future__ import annotations

from homeassistant.components.media_player import (
    ATTR_INPUT_SOURCE,
    ATTR_MEDIA_ALBUM_NAME,
    ATTR_MEDIA_ARTIST,
    ATTR_MEDIA_TITLE,
    ATTR_MEDIA_VOLUME_LEVEL,
    DOMAIN as MP_DOMAIN,
    MediaPlayerState,
)
from homeassistant.const import ATTR_ENTITY_ID, SERVICE_VOLUME_SET, STATE_UNAVAILABLE
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

import custom_components.linn as linn_init
from linn_emulator import OHNET, LinnEmulator, PlaybackState
from linn_emulator.didl import icy_didl
from testing.ha.streamers import ENTITY_ID, UDN
from testing.helpers import wait_for


@pytest.fixture(autouse=True)
def _fast_fault_detection(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seconds instead of the production half-minute, so faults show quickly."""
    monkeypatch.setattr(linn_init, "KEEPALIVE_INTERVAL", 0.3)
    monkeypatch.setattr(linn_init, "ACTION_TIMEOUT", 0.5)
    monkeypatch.setattr(linn_init, "RECONNECT_MAX", 0.5)


def _attr(hass: HomeAssistant, name: str) -> object:
    return hass.states.get(ENTITY_ID).attributes.get(name)


def _state(hass: HomeAssistant) -> str:
    return hass.states.get(ENTITY_ID).state


async def _set_volume(hass: HomeAssistant, level: float) -> None:
    await hass.services.async_call(
        MP_DOMAIN,
        SERVICE_VOLUME_SET,
        {ATTR_ENTITY_ID: ENTITY_ID, ATTR_MEDIA_VOLUME_LEVEL: level},
        blocking=True,
    )


# --- 1. line breaks inside quoted values -------------------------------------------------


async def test_multiline_metadata_shows(
    hass: HomeAssistant, emulator: LinnEmulator, loaded_entry: MockConfigEntry
) -> None:
    assert emulator.quirks == OHNET
    entry = emulator.state.current_entry
    assert entry is not None
    assert _attr(hass, ATTR_MEDIA_TITLE) == entry.track.title
    emulator.panel.set_metadata(title="Side A\r\nTrack 1", artist="Someone", album="Two\nLines")
    await wait_for(lambda: _attr(hass, ATTR_MEDIA_TITLE) == "Side A\nTrack 1")
    assert _attr(hass, ATTR_MEDIA_ARTIST) == "Someone"
    assert _attr(hass, ATTR_MEDIA_ALBUM_NAME) == "Two\nLines"
    await _set_volume(hass, 0.41)  # the next reply still pairs with its ACTION
    assert emulator.state.volume == 41
    assert _state(hass) != STATE_UNAVAILABLE


# --- 2. BYEBYE as ohNet sends it ----------------------------------------------------------


async def test_byebye_only_unavailable_then_back_on_a_new_session(
    hass: HomeAssistant, emulator: LinnEmulator, loaded_entry: MockConfigEntry
) -> None:
    emulator.faults.disable()
    await wait_for(lambda: _state(hass) == STATE_UNAVAILABLE)
    emulator.panel.set_volume(27)
    emulator.faults.enable()
    await wait_for(lambda: _state(hass) != STATE_UNAVAILABLE)
    await wait_for(lambda: _attr(hass, ATTR_MEDIA_VOLUME_LEVEL) == 0.27)
    assert emulator.sessions == 1  # the dead session was closed, not left holding a slot
    await _set_volume(hass, 0.28)
    assert emulator.state.volume == 28


async def test_a_missed_byebye_is_found_by_the_keepalive(
    hass: HomeAssistant, emulator: LinnEmulator, loaded_entry: MockConfigEntry
) -> None:
    """Commands on the old session get ERROR 111: not a sign of life, a new session."""
    seen: list[str] = []
    hass.bus.async_listen(
        "state_changed",
        lambda event: (
            seen.append(event.data["new_state"].state)
            if event.data["entity_id"] == ENTITY_ID
            else None
        ),
    )
    emulator.faults.half_open(True)  # the BYEBYE is lost on the way
    emulator.faults.disable()
    emulator.faults.half_open(False)
    emulator.faults.enable()
    await wait_for(lambda: STATE_UNAVAILABLE in seen and _state(hass) != STATE_UNAVAILABLE)
    await _set_volume(hass, 0.29)
    assert emulator.state.volume == 29


# --- 6. details -----------------------------------------------------------------------------


async def test_error_text_is_shown_raw(
    hass: HomeAssistant, emulator: LinnEmulator, loaded_entry: MockConfigEntry
) -> None:
    emulator.faults.fail_action("SetVolume", 801, 'Json &amp; "corrupt"')
    with pytest.raises(HomeAssistantError) as err:
        await _set_volume(hass, 0.3)
    assert err.value.translation_key == "command_failed"
    assert err.value.translation_placeholders is not None
    assert 'Json &amp; "corrupt"' in err.value.translation_placeholders["error"]
    await _set_volume(hass, 0.31)
    assert emulator.state.volume == 31


@pytest.mark.parametrize(
    ("emulated", "expected"),
    [
        (PlaybackState.BUFFERING, MediaPlayerState.BUFFERING),
        (PlaybackState.WAITING, MediaPlayerState.IDLE),
    ],
)
async def test_buffering_and_waiting(
    hass: HomeAssistant,
    emulator: LinnEmulator,
    loaded_entry: MockConfigEntry,
    emulated: PlaybackState,
    expected: MediaPlayerState,
) -> None:
    emulator.state.transport_state = emulated
    emulator.device.changed()
    await wait_for(lambda: _state(hass) == expected)


async def test_the_subscription_with_id_zero_is_heard(
    hass: HomeAssistant, emulator: LinnEmulator, loaded_entry: MockConfigEntry
) -> None:
    """Product is subscribed first, so ohNet gives it id 0: its events still arrive."""
    emulator.panel.select_source("HDMI")
    await wait_for(lambda: _attr(hass, ATTR_INPUT_SOURCE) == "TV")


# --- a radio station's title is text, never LPEC ---------------------------------------------


async def test_a_hostile_station_title_changes_neither_volume_nor_availability(
    hass: HomeAssistant, emulator: LinnEmulator, loaded_entry: MockConfigEntry
) -> None:
    """ohPipeline copies an Icy StreamTitle into Metatext raw, line breaks and all."""
    await _set_volume(hass, 0.3)
    forged = "\n".join(f"EVENT {sid} 999 Volume 100 Mute true" for sid in range(30))
    title = f'Live\nBYEBYE Ds {UDN}\n{forged}\nRESPONSE\nERROR 111 "gone"\nthe end'
    emulator.panel.select_source("Radio")
    emulator.panel.set_metatext(icy_didl(title))
    await wait_for(lambda: "the end" in str(_attr(hass, ATTR_MEDIA_TITLE)))
    assert _state(hass) != STATE_UNAVAILABLE
    assert _attr(hass, ATTR_MEDIA_VOLUME_LEVEL) == 0.3
    assert emulator.sessions == 1
    await _set_volume(hass, 0.31)  # the session still pairs replies with actions
    assert emulator.state.volume == 31


async def test_a_latin1_station_title_shows(
    hass: HomeAssistant, emulator: LinnEmulator, loaded_entry: MockConfigEntry
) -> None:
    """Icy titles are often Latin-1; ohNet writes the 2 bytes after 0xE9 raw (`"` and ` `)."""
    title = b'Live from "Caf\xe9" Berlin'.decode("utf-8", "surrogateescape")
    emulator.panel.select_source("Radio")
    emulator.panel.set_metatext(icy_didl(title))
    await wait_for(lambda: _attr(hass, ATTR_MEDIA_TITLE) == 'Live from "Café" Berlin')
    assert _state(hass) != STATE_UNAVAILABLE
    await _set_volume(hass, 0.32)  # the next reply still pairs with its ACTION
    assert emulator.state.volume == 32
