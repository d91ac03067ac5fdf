"""The media player against the emulator: every action changes the device, pushes arrive."""

from __future__ import annotations

import logging
from typing import Any

from homeassistant.components.media_player import (
    ATTR_INPUT_SOURCE,
    ATTR_MEDIA_CONTENT_ID,
    ATTR_MEDIA_CONTENT_TYPE,
    ATTR_MEDIA_REPEAT,
    ATTR_MEDIA_SEEK_POSITION,
    ATTR_MEDIA_SHUFFLE,
    ATTR_MEDIA_VOLUME_LEVEL,
    ATTR_MEDIA_VOLUME_MUTED,
    DOMAIN as MP_DOMAIN,
    SERVICE_PLAY_MEDIA,
    SERVICE_SELECT_SOURCE,
    MediaPlayerEntityFeature as Feature,
    MediaPlayerState,
    RepeatMode,
)
from homeassistant.const import (
    SERVICE_MEDIA_NEXT_TRACK,
    SERVICE_MEDIA_PAUSE,
    SERVICE_MEDIA_PLAY,
    SERVICE_MEDIA_PREVIOUS_TRACK,
    SERVICE_MEDIA_SEEK,
    SERVICE_MEDIA_STOP,
    SERVICE_REPEAT_SET,
    SERVICE_SHUFFLE_SET,
    SERVICE_TURN_OFF,
    SERVICE_TURN_ON,
    SERVICE_VOLUME_DOWN,
    SERVICE_VOLUME_MUTE,
    SERVICE_VOLUME_SET,
    SERVICE_VOLUME_UP,
)
from homeassistant.core import HomeAssistant, callback
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from linn_emulator import LinnEmulator, PlaybackState
from testing.ha.streamers import ENTITY_ID
from testing.helpers import wait_for

from .media_player_calls import attr, call, current_source

pytestmark = pytest.mark.usefixtures("loaded_entry")


async def test_power(hass: HomeAssistant, emulator: LinnEmulator) -> None:
    await call(hass, SERVICE_TURN_OFF)
    assert emulator.state.standby is True
    await wait_for(lambda: hass.states.get(ENTITY_ID).state == MediaPlayerState.OFF)

    await call(hass, SERVICE_TURN_ON)
    assert emulator.state.standby is False
    await wait_for(lambda: hass.states.get(ENTITY_ID).state != MediaPlayerState.OFF)


async def test_volume_is_scaled_by_volume_max(hass: HomeAssistant, emulator: LinnEmulator) -> None:
    await call(hass, SERVICE_VOLUME_SET, **{ATTR_MEDIA_VOLUME_LEVEL: 0.42})
    assert emulator.state.volume == 42
    await wait_for(lambda: attr(hass, ATTR_MEDIA_VOLUME_LEVEL) == 0.42)

    await call(hass, SERVICE_VOLUME_UP)
    assert emulator.state.volume == 43
    await call(hass, SERVICE_VOLUME_DOWN)
    await call(hass, SERVICE_VOLUME_DOWN)
    assert emulator.state.volume == 41

    await call(hass, SERVICE_VOLUME_MUTE, **{ATTR_MEDIA_VOLUME_MUTED: True})
    assert emulator.state.mute is True
    await wait_for(lambda: attr(hass, ATTR_MEDIA_VOLUME_MUTED) is True)


async def test_volume_above_limit_clamps_and_logs(
    hass: HomeAssistant, emulator: LinnEmulator, caplog: pytest.LogCaptureFixture
) -> None:
    assert emulator.state.volume_limit == 80
    with caplog.at_level(logging.INFO):
        await call(hass, SERVICE_VOLUME_SET, **{ATTR_MEDIA_VOLUME_LEVEL: 0.95})
    assert emulator.state.volume == 80
    assert "clamped to the device's volume limit 80" in caplog.text


async def test_one_slider_drag_above_the_limit_logs_once_and_not_as_a_warning(
    hass: HomeAssistant, emulator: LinnEmulator, caplog: pytest.LogCaptureFixture
) -> None:
    """The frontend's slider sends volumes while it is dragged: the clamp is said once."""
    assert emulator.state.volume_limit == 80

    def clamps() -> list[logging.LogRecord]:
        return [
            r
            for r in caplog.records
            if r.name.startswith("custom_components.linn") and "clamped" in r.getMessage()
        ]

    with caplog.at_level(logging.DEBUG, logger="custom_components.linn"):
        for level in (0.7, 0.85, 0.9, 0.96, 0.96):  # one drag, and its release
            await call(hass, SERVICE_VOLUME_SET, **{ATTR_MEDIA_VOLUME_LEVEL: level})
        assert emulator.state.volume == 80
        (said,) = clamps()
        assert said.levelno == logging.INFO
        assert "volume 85 clamped" in said.getMessage()

        # a later drag, after a volume below the limit, is said again
        await call(hass, SERVICE_VOLUME_SET, **{ATTR_MEDIA_VOLUME_LEVEL: 0.5})
        await call(hass, SERVICE_VOLUME_SET, **{ATTR_MEDIA_VOLUME_LEVEL: 0.96})
        assert [r.levelno for r in clamps()] == [logging.INFO, logging.INFO]
    assert not [
        r
        for r in caplog.records
        if r.name.startswith("custom_components.linn") and r.levelno >= logging.WARNING
    ]


async def test_sources_by_user_name_selected_by_system_name(
    hass: HomeAssistant, emulator: LinnEmulator
) -> None:
    # the hidden "Digital 1" is not offered; user names are shown
    assert attr(hass, "source_list") == [
        "Playlist",
        "Radio",
        "Songcast",
        "Spotify",
        "Turntable",
        "TV",
    ]
    await call(hass, SERVICE_SELECT_SOURCE, **{ATTR_INPUT_SOURCE: "Turntable"})
    assert current_source(emulator) == "Analog 1"
    await wait_for(lambda: attr(hass, ATTR_INPUT_SOURCE) == "Turntable")
    # external inputs have no transport controls
    assert not Feature(attr(hass, "supported_features")) & Feature.NEXT_TRACK


async def test_transport_and_modes(hass: HomeAssistant, emulator: LinnEmulator) -> None:
    await call(hass, SERVICE_MEDIA_PLAY)
    assert emulator.state.transport_state == PlaybackState.PLAYING
    await wait_for(lambda: hass.states.get(ENTITY_ID).state == MediaPlayerState.PLAYING)

    await call(hass, SERVICE_MEDIA_PAUSE)
    assert emulator.state.transport_state == PlaybackState.PAUSED
    await wait_for(lambda: hass.states.get(ENTITY_ID).state == MediaPlayerState.PAUSED)

    first = emulator.state.playlist_id
    await call(hass, SERVICE_MEDIA_NEXT_TRACK)
    assert emulator.state.playlist_id != first
    await call(hass, SERVICE_MEDIA_PREVIOUS_TRACK)
    assert emulator.state.playlist_id == first

    # paused, so the clock cannot move the position between the seek and the checks
    await call(hass, SERVICE_MEDIA_PAUSE)
    await call(hass, SERVICE_MEDIA_SEEK, **{ATTR_MEDIA_SEEK_POSITION: 100})
    assert emulator.state.seconds == 100
    await wait_for(lambda: attr(hass, "media_position") == 100)

    await call(hass, SERVICE_SHUFFLE_SET, **{ATTR_MEDIA_SHUFFLE: True})
    assert emulator.state.shuffle is True
    await call(hass, SERVICE_REPEAT_SET, **{ATTR_MEDIA_REPEAT: RepeatMode.ALL})
    assert emulator.state.repeat is True
    await wait_for(lambda: attr(hass, ATTR_MEDIA_REPEAT) == RepeatMode.ALL)

    await call(hass, SERVICE_MEDIA_STOP)
    assert emulator.state.transport_state == PlaybackState.STOPPED


async def test_front_panel_change_reaches_ha_within_100ms(
    hass: HomeAssistant, emulator: LinnEmulator
) -> None:
    emulator.panel.set_volume(55)
    await wait_for(lambda: attr(hass, ATTR_MEDIA_VOLUME_LEVEL) == 0.55, timeout=0.1)
    emulator.panel.select_source("HDMI")
    await wait_for(lambda: attr(hass, ATTR_INPUT_SOURCE) == "TV", timeout=0.1)
    emulator.panel.set_standby(True)
    await wait_for(lambda: hass.states.get(ENTITY_ID).state == MediaPlayerState.OFF, timeout=0.1)


async def test_radio_metatext_is_the_title(hass: HomeAssistant, emulator: LinnEmulator) -> None:
    await call(
        hass,
        SERVICE_PLAY_MEDIA,
        **{ATTR_MEDIA_CONTENT_TYPE: "linn_preset", ATTR_MEDIA_CONTENT_ID: "2"},
    )
    assert current_source(emulator) == "Radio"
    assert emulator.state.radio_id == 2
    await wait_for(lambda: attr(hass, "media_title") == "Björk - Jóga")
    assert attr(hass, "media_channel") == "Radio Paradise (FLAC)"
    assert hass.states.get(ENTITY_ID).state == MediaPlayerState.PLAYING


async def test_play_url_goes_into_the_playlist(hass: HomeAssistant, emulator: LinnEmulator) -> None:
    emulator.panel.select_source("Radio")
    url = "http://192.0.2.5/music/track.flac"
    before = len(emulator.state.playlist)
    await call(
        hass, SERVICE_PLAY_MEDIA, **{ATTR_MEDIA_CONTENT_TYPE: "music", ATTR_MEDIA_CONTENT_ID: url}
    )
    assert len(emulator.state.playlist) == before + 1
    assert current_source(emulator) == "Playlist"
    current = next(e for e in emulator.state.playlist if e.id == emulator.state.playlist_id)
    assert current.track.uri == url
    assert emulator.state.transport_state == PlaybackState.PLAYING
    # the radio preset was not hijacked
    assert all(channel.track.uri != url for channel in emulator.state.radio_channels)


async def test_play_pin_and_source(hass: HomeAssistant, emulator: LinnEmulator) -> None:
    await call(
        hass,
        SERVICE_PLAY_MEDIA,
        **{ATTR_MEDIA_CONTENT_TYPE: "linn_pin", ATTR_MEDIA_CONTENT_ID: "3"},
    )
    assert current_source(emulator) == "Analog 1"
    await call(
        hass,
        SERVICE_PLAY_MEDIA,
        **{ATTR_MEDIA_CONTENT_TYPE: "linn_source", ATTR_MEDIA_CONTENT_ID: "Radio"},
    )
    assert current_source(emulator) == "Radio"


async def test_invoke_pin_action(hass: HomeAssistant, emulator: LinnEmulator) -> None:
    await call(hass, "invoke_pin", domain="linn", pin=1)
    assert current_source(emulator) == "Radio"
    assert emulator.state.radio_id == 1


async def test_features_follow_transport_capabilities(
    hass: HomeAssistant, emulator: LinnEmulator
) -> None:
    features = Feature(attr(hass, "supported_features"))
    assert Feature.NEXT_TRACK in features
    assert Feature.SEEK in features
    emulator.panel.select_source("Songcast")
    await wait_for(lambda: attr(hass, ATTR_INPUT_SOURCE) == "Songcast")
    features = Feature(attr(hass, "supported_features"))
    assert Feature.NEXT_TRACK not in features
    assert Feature.SEEK not in features
    assert Feature.PLAY in features


async def test_device_without_volume_has_no_volume_features(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    del loaded_entry
    async with LinnEmulator(port=0, services={"Product", "Transport", "Info", "Time"}) as emu:
        entry = MockConfigEntry(
            domain="linn",
            unique_id=emu.udn,
            data={"host": "127.0.0.1", "port": emu.port},
        )
        entry.add_to_hass(hass)
        assert await hass.config_entries.async_setup(entry.entry_id)
        await hass.async_block_till_done()
        entity_id = next(
            s.entity_id for s in hass.states.async_all(MP_DOMAIN) if s.entity_id != ENTITY_ID
        )
        features = Feature(hass.states.get(entity_id).attributes["supported_features"])
        assert not features & (Feature.VOLUME_SET | Feature.VOLUME_MUTE | Feature.VOLUME_STEP)
        assert hass.states.get(entity_id).attributes.get(ATTR_MEDIA_VOLUME_LEVEL) is None
        assert await hass.config_entries.async_unload(entry.entry_id)


async def test_position_is_written_on_seek_not_every_second(
    hass: HomeAssistant, emulator: LinnEmulator
) -> None:
    emulator.tick_interval = 1.0  # real time, as a device: one Seconds event per second
    await call(hass, SERVICE_MEDIA_PLAY)
    await wait_for(lambda: hass.states.get(ENTITY_ID).state == MediaPlayerState.PLAYING)
    written = hass.states.get(ENTITY_ID).last_updated
    start = emulator.state.seconds
    # two ticks of normal progress write nothing
    await wait_for(lambda: emulator.state.seconds >= start + 2, timeout=4)
    await hass.async_block_till_done()
    assert hass.states.get(ENTITY_ID).last_updated == written

    emulator.panel.seek(200)
    await wait_for(lambda: attr(hass, "media_position") in (200, 201))
    emulator.panel.pause()
    await wait_for(lambda: hass.states.get(ENTITY_ID).state == MediaPlayerState.PAUSED)
    assert attr(hass, "media_position") == emulator.state.seconds


async def test_a_burst_of_events_ends_with_the_last_value_of_each(
    hass: HomeAssistant, emulator: LinnEmulator
) -> None:
    """Events that arrive together are written together (issue 31): the state that results
    shows the last value of every one, and each change made on its own is shown."""
    limit = "number.living_room_volume_limit"
    written: list[tuple[Any, Any, Any]] = []

    @callback  # in the loop, in order (a plain function would run in the executor)
    def on_state(event: Any) -> None:
        if event.data["entity_id"] == ENTITY_ID and event.data["new_state"] is not None:
            shown = event.data["new_state"].attributes
            written.append(
                (
                    shown.get(ATTR_MEDIA_VOLUME_LEVEL),
                    shown.get(ATTR_MEDIA_VOLUME_MUTED),
                    shown.get(ATTR_INPUT_SOURCE),
                )
            )

    unsub = hass.bus.async_listen("state_changed", on_state)
    # One burst, no await in between: the emulator writes every event before HA reads any.
    for volume in range(30, 71):
        emulator.panel.set_volume(volume)
    emulator.panel.set_mute(True)
    emulator.panel.select_source("HDMI")
    emulator.panel.set_volume_limit(90)
    emulator.panel.set_volume(71)  # unmutes, as the knob does
    emulator.panel.set_mute(True)

    def settled() -> bool:
        return (
            attr(hass, ATTR_MEDIA_VOLUME_LEVEL) == 0.71
            and attr(hass, ATTR_MEDIA_VOLUME_MUTED) is True
            and attr(hass, ATTR_INPUT_SOURCE) == "TV"
            and hass.states.get(limit).state == "90.0"
        )

    await wait_for(settled)
    await hass.async_block_till_done()
    assert settled()
    assert written[-1] == (0.71, True, "TV")
    # one write per read of the socket, not per event: the burst arrives in a read or two
    assert len(written) <= 5

    # Each change made on its own reaches HA, also one back to a value shown before.
    for volume in (40, 41, 40):
        emulator.panel.set_volume(volume)
        await wait_for(lambda v=volume: attr(hass, ATTR_MEDIA_VOLUME_LEVEL) == v / 100)
    emulator.panel.set_mute(True)
    await wait_for(lambda: attr(hass, ATTR_MEDIA_VOLUME_MUTED) is True)
    emulator.panel.set_mute(False)
    await wait_for(lambda: attr(hass, ATTR_MEDIA_VOLUME_MUTED) is False)
    emulator.panel.select_source("Radio")
    await wait_for(lambda: attr(hass, ATTR_INPUT_SOURCE) != "TV")
    emulator.panel.set_volume_limit(80)
    await wait_for(lambda: hass.states.get(limit).state == "80.0")
    unsub()
