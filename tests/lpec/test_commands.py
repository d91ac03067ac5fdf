"""Every LinnDevice command changes the emulator's state."""

from __future__ import annotations

import pytest

from custom_components.linn.lpec import (
    LinnDevice,
    LpecInvalidArgumentError,
    LpecUnsupportedError,
    Service,
)
from linn_emulator import LinnEmulator
from testing.helpers import wait_for
from tests.lpec.helpers import FAST


async def test_standby(emu: LinnEmulator, device: LinnDevice) -> None:
    await device.set_standby(True)
    assert emu.state.standby is True
    await wait_for(lambda: device.state.product.standby is True)
    await device.set_standby(False)
    assert emu.state.standby is False


async def test_select_source_by_system_name(emu: LinnEmulator, device: LinnDevice) -> None:
    await device.select_source("Radio")
    assert emu.state.source.system_name == "Radio"
    await device.select_source("analog 1")  # case-insensitive, hidden index counted
    assert emu.state.source.system_name == "Analog 1"
    await wait_for(lambda: device.state.product.source_index == emu.state.source_index)
    with pytest.raises(LpecInvalidArgumentError):
        await device.select_source("Turntable")  # a user name, not a system name


async def test_volume_clamped_to_limit(emu: LinnEmulator, device: LinnDevice) -> None:
    assert await device.set_volume(40) == 40
    assert emu.state.volume == 40
    assert await device.set_volume(95) == emu.state.volume_limit
    assert emu.state.volume == emu.state.volume_limit
    assert await device.set_volume(-3) == 0
    await device.volume_up()
    assert emu.state.volume == 1
    await device.volume_down()
    assert emu.state.volume == 0
    await device.set_mute(True)
    assert emu.state.mute is True
    await device.set_mute(False)
    assert emu.state.mute is False


async def test_transport_commands(emu: LinnEmulator, device: LinnDevice) -> None:
    await device.select_source("Playlist")
    await device.play()
    assert str(emu.state.transport_state) == "Playing"
    first = emu.state.playlist_id
    await device.next_track()
    assert emu.state.playlist_id != first
    await device.previous_track()
    assert emu.state.playlist_id == first
    await device.pause()
    assert str(emu.state.transport_state) == "Paused"
    await device.seek(30)
    assert emu.state.seconds == 30
    await device.stop()
    assert str(emu.state.transport_state) == "Stopped"
    await device.set_shuffle(True)
    assert emu.state.shuffle is True
    await device.set_repeat(True)
    assert emu.state.repeat is True
    with pytest.raises(LpecInvalidArgumentError):
        await device.seek(-1)


async def test_pins(emu: LinnEmulator, device: LinnDevice) -> None:
    pins = await device.read_pins()
    assert [p.id for p in pins] == [p.id for p in emu.state.pins if not p.empty]
    assert pins[0].title == emu.state.pins[0].title
    assert pins[0].artwork_uri == emu.state.pins[0].artwork_uri
    assert device.state.pins.pins == pins
    await device.invoke_pin(3)  # the Turntable input pin
    assert emu.state.source.system_name == "Analog 1"
    await device.invoke_pin_index(1)  # the album pin
    assert emu.state.source.system_name == "Playlist"
    with pytest.raises(LpecInvalidArgumentError):
        await device.invoke_pin(99)
    with pytest.raises(LpecInvalidArgumentError):
        await device.invoke_pin_index(6)


async def test_radio_presets(emu: LinnEmulator, device: LinnDevice) -> None:
    presets = await device.read_presets()
    assert [p.id for p in presets] == [c.id for c in emu.state.radio_channels]
    assert presets[3].title == "Jazz & Blues <24/7>"
    await device.play_preset(2)
    assert emu.state.source.system_name == "Radio"
    assert emu.state.radio_id == 2
    assert str(emu.state.transport_state) == "Playing"
    await wait_for(lambda: device.state.radio.channel_id == 2)
    with pytest.raises(LpecInvalidArgumentError):
        await device.play_preset(42)


async def test_play_url_inserts_into_playlist(emu: LinnEmulator, device: LinnDevice) -> None:
    await device.select_source("Radio")
    before = len(emu.state.playlist)
    new_id = await device.play_url("http://example.com/a.mp3?x=1&y=2", title="Doorbell & Co")
    assert len(emu.state.playlist) == before + 1
    assert emu.state.playlist_id == new_id
    assert emu.state.source.system_name == "Playlist"
    entry = emu.state.current_entry
    assert entry is not None
    assert entry.track.uri == "http://example.com/a.mp3?x=1&y=2"
    assert not any(a.service == "Radio" and a.action == "SetChannel" for a in emu.actions)


async def test_songcast_join_and_leave(emu: LinnEmulator, device: LinnDevice) -> None:
    await device.select_source("Analog 1")
    async with LinnEmulator(port=0, tick_interval=0.05) as sender_emu:
        sender = LinnDevice("127.0.0.1", sender_emu.port, **FAST)
        await sender.connect()
        try:
            assert sender.state.sender.uri
            await device.songcast_join(sender.state.sender.uri, sender.state.sender.metadata)
            assert emu.state.receiver_uri == sender.state.sender.uri
            assert emu.state.source.system_name == "Songcast"
            await device.songcast_leave()
            assert emu.state.source.system_name == "Analog 1"
        finally:
            await sender.close()


async def test_device_without_optional_services() -> None:
    """Absent services are known after connect, and their commands are refused."""
    async with LinnEmulator(
        port=0, tick_interval=0.05, services={"Product", "Info", "Time", "Playlist", "Radio"}
    ) as emu:
        dev = LinnDevice("127.0.0.1", emu.port, **FAST)
        await dev.connect()
        try:
            assert not dev.state.has_volume
            assert not dev.state.has_transport
            assert not dev.state.has_pins
            assert Service.PRODUCT in dev.state.services
            with pytest.raises(LpecUnsupportedError):
                await dev.set_volume(10)
            with pytest.raises(LpecUnsupportedError):
                await dev.invoke_pin(1)
            await dev.select_source("Playlist")
            await wait_for(lambda: dev.state.product.source_index == emu.state.source_index)
            await dev.play()  # no Transport: falls back to the Playlist service
            assert str(emu.state.transport_state) == "Playing"
            await dev.next_track()
            await dev.set_shuffle(True)
            assert emu.state.shuffle is True
            await dev.select_source("Analog 1")
            await wait_for(lambda: dev.state.product.source_index == emu.state.source_index)
            with pytest.raises(LpecUnsupportedError):
                await dev.play()
        finally:
            await dev.close()
