"""LinnDevice against the emulator: connect, full state, events, listeners."""

from __future__ import annotations

import asyncio

import pytest

from custom_components.linn.lpec import (
    LinnDevice,
    LpecConnectionError,
    LpecTimeoutError,
    Service,
)
from linn_emulator import LinnEmulator
from testing.helpers import wait_for
from tests.lpec.helpers import FAST, assert_no_lpec_tasks


async def test_connect_gives_full_state(emu: LinnEmulator, device: LinnDevice) -> None:
    state = device.state
    assert device.available
    assert device.udn == emu.udn
    assert state.product.room == emu.state.room
    assert state.product.name == emu.state.name
    assert state.product.standby == emu.state.standby
    assert [s.system_name for s in state.product.sources] == [
        s.system_name for s in emu.state.sources
    ]
    assert state.product.source is not None
    assert state.product.source.system_name == emu.state.source.system_name
    assert state.volume.volume == emu.state.volume
    assert state.volume.volume_limit == emu.state.volume_limit
    assert state.volume.volume_max == emu.state.volume_max
    assert state.pins.ids == tuple(pin.id for pin in emu.state.pins if not pin.empty)
    assert state.radio.ids == tuple(channel.id for channel in emu.state.radio_channels)
    assert state.playlist.ids == tuple(entry.id for entry in emu.state.playlist)
    assert state.product.model == emu.state.model
    assert state.product.manufacturer == emu.state.manufacturer
    assert state.info.track.title
    assert state.info.codec_name
    assert state.info.sample_rate
    assert state.info.lossless is not None
    assert state.transport.state is not None
    assert state.playlist.current_id == emu.state.playlist_id
    assert state.sender.uri == emu.sender_uri
    assert state.has_volume
    assert state.has_transport
    assert state.has_pins
    assert {
        Service.PRODUCT,
        Service.INFO,
        Service.TIME,
        Service.PLAYLIST,
        Service.RADIO,
        Service.RECEIVER,
    } <= state.services


async def test_panel_changes_arrive_as_events(emu: LinnEmulator, device: LinnDevice) -> None:
    changes: list[frozenset[Service]] = []
    remove = device.add_listener(changes.append)
    emu.panel.set_volume(55)
    emu.panel.set_mute(True)
    await wait_for(lambda: device.state.volume.volume == 55 and device.state.volume.mute is True)
    assert frozenset({Service.VOLUME}) in changes
    remove()
    changes.clear()
    emu.panel.set_volume(56)
    await wait_for(lambda: device.state.volume.volume == 56)
    assert changes == []


async def test_track_metadata_and_metatext(emu: LinnEmulator, device: LinnDevice) -> None:
    emu.panel.set_metadata(
        title='"Heroes"',
        artist="Simon & Garfunkel",
        album="Café <Live>",
        art_uri="http://a/b?c=1&d=2",
    )
    await wait_for(lambda: device.state.info.track.title == '"Heroes"')
    track = device.state.info.track
    assert track.artist == "Simon & Garfunkel"
    assert track.album == "Café <Live>"
    assert track.album_art_uri == "http://a/b?c=1&d=2"
    emu.panel.set_metadata(title="FIP", metatext="Björk - Jóga")
    await wait_for(lambda: device.state.info.metatext == "Björk - Jóga")


async def test_metatext_override(emu: LinnEmulator, device: LinnDevice) -> None:
    emu.panel.set_metatext('Café Tacvba - "La ingrata"')
    await wait_for(lambda: device.state.info.metatext == 'Café Tacvba - "La ingrata"')


async def test_transport_capabilities_follow_the_source(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    emu.panel.select_source("Playlist")
    emu.panel.play()
    await wait_for(
        lambda: device.state.transport.can_skip_next and device.state.transport.can_pause
    )
    assert device.state.transport.can_seek
    emu.panel.select_source("Analog 1")
    await wait_for(lambda: not device.state.transport.can_skip_next)


async def test_time_ticks_while_playing(emu: LinnEmulator, device: LinnDevice) -> None:
    emu.panel.select_source("Playlist")
    emu.panel.play()
    await wait_for(lambda: (device.state.time.seconds or 0) >= 1, timeout=3.0)
    assert device.state.time.seconds_updated_at is not None
    assert device.state.time.duration


async def test_interleaved_events_between_action_and_response(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    """Events written while an ACTION waits for its RESPONSE are applied, in order."""
    emu.faults.response_delay = 0.2
    task = asyncio.create_task(device.set_standby(False))
    await asyncio.sleep(0.05)
    emu.panel.set_volume(61)
    async with asyncio.timeout(2):
        await task
    assert device.state.volume.volume == 61
    assert device.available


async def test_session_cap_fifth_connection_times_out(emu: LinnEmulator) -> None:
    devices = [LinnDevice("127.0.0.1", emu.port, **FAST) for _ in range(4)]
    try:
        for dev in devices:
            await dev.connect()
        fifth = LinnDevice("127.0.0.1", emu.port, **{**FAST, "connect_timeout": 0.3})
        with pytest.raises(LpecTimeoutError, match="session limit"):
            async with asyncio.timeout(2):
                await fifth.connect()
        await fifth.close()
    finally:
        for dev in devices:
            await dev.close()


async def test_close_while_connect_waits_for_alive(emu: LinnEmulator) -> None:
    """A connect stuck behind the session cap ends as soon as close() is called."""
    emu.faults.half_open(True)  # accepts TCP, never says ALIVE
    device = LinnDevice("127.0.0.1", emu.port, **{**FAST, "connect_timeout": 5.0})
    connect = asyncio.create_task(device.connect())
    await asyncio.sleep(0.1)
    async with asyncio.timeout(1):
        await device.close()
        with pytest.raises(LpecConnectionError, match="closed while connecting"):
            await connect
    emu.faults.half_open(False)
    assert_no_lpec_tasks()
