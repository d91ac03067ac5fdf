"""LinnDevice edge cases: listeners, source handling, Songcast, firmware, odd answers."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
import logging

import pytest

from custom_components.linn.lpec import (
    LinnDevice,
    LpecInvalidArgumentError,
    LpecProtocolError,
    LpecTimeoutError,
    LpecUnsupportedError,
    Service,
)
from linn_emulator import LinnEmulator
from linn_emulator.wire import event_line, response_line, subscribed_line
from testing.helpers import wait_for
from tests.lpec.helpers import FAST, ScriptedPeer


def on_source(device: LinnDevice, system_name: str) -> Callable[[], bool]:
    """A wait_for predicate: the client has seen `system_name` become the source."""

    def predicate() -> bool:
        source = device.state.product.source
        return source is not None and source.system_name == system_name

    return predicate


# --- listeners --------------------------------------------------------------------


async def test_failing_listeners_do_not_stop_the_others(
    emu: LinnEmulator, device: LinnDevice, caplog: pytest.LogCaptureFixture
) -> None:
    def fail(_arg: object) -> None:
        raise RuntimeError("listener bug")

    states: list[frozenset[Service]] = []
    availability: list[bool] = []
    device.add_listener(fail)
    device.add_listener(states.append)
    device.add_availability_listener(fail)
    device.add_availability_listener(availability.append)
    with caplog.at_level(logging.ERROR, logger="custom_components.linn.lpec"):
        emu.panel.set_volume(19)
        await wait_for(lambda: frozenset({Service.VOLUME}) in states)
        emu.faults.drop_connections()
        await wait_for(lambda: availability == [False, True])
    assert "State listener failed" in caplog.text
    assert "Availability listener failed" in caplog.text
    await device.set_volume(20)
    assert emu.state.volume == 20


async def test_removing_a_listener_twice_is_harmless(emu: LinnEmulator, device: LinnDevice) -> None:
    first: list[frozenset[Service]] = []
    second: list[frozenset[Service]] = []
    remove_first = device.add_listener(first.append)
    device.add_listener(second.append)
    remove_availability = device.add_availability_listener(lambda _up: None)
    remove_first()
    remove_first()  # e.g. HA unloads twice: must not raise nor remove another listener
    remove_availability()
    remove_availability()
    emu.panel.set_volume(24)
    await wait_for(lambda: frozenset({Service.VOLUME}) in second)
    assert first == []


# --- sources and presets ----------------------------------------------------------


async def test_play_preset_reads_the_uri_and_keeps_the_current_radio_source(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    """Presets never read: play_preset reads them for the URI; on Radio it skips reselecting."""
    assert device.state.radio.presets == ()
    await device.select_source("Radio")
    await wait_for(on_source(device, "Radio"))
    emu.actions.clear()
    await device.play_preset(3)
    assert [a.action for a in emu.actions] == ["ReadList", "SetId", "Play"]
    channel = next(c for c in emu.state.radio_channels if c.id == 3)
    assert emu.actions[1].args == ("3", channel.track.uri)
    assert emu.state.radio_id == 3
    assert [p.id for p in device.state.radio.presets] == [c.id for c in emu.state.radio_channels]


async def test_transport_without_the_transport_service() -> None:
    """Playlist/Radio/Receiver services stand in for Transport, within their abilities."""
    async with LinnEmulator(
        port=0,
        tick_interval=0.05,
        services={"Product", "Info", "Time", "Playlist", "Radio", "Receiver", "Sender"},
    ) as emu:
        device = LinnDevice("127.0.0.1", emu.port, **FAST)
        await device.connect()
        try:
            await device.select_source("Playlist")
            await wait_for(on_source(device, "Playlist"))
            await device.play()
            await device.seek(40)  # Playlist SeekSecondAbsolute
            assert emu.state.seconds in (40, 41)  # playing: a clock tick may follow the seek
            assert emu.actions[-1].service == "Playlist"
            await device.select_source("Radio")
            await wait_for(on_source(device, "Radio"))
            with pytest.raises(LpecUnsupportedError, match="next"):
                await device.next_track()  # Radio has no skip
            with pytest.raises(LpecUnsupportedError, match="seek"):
                await device.seek(10)  # nor seek: the media player does not offer it either
            await device.select_source("Songcast")
            await wait_for(on_source(device, "Songcast"))
            sent = len(emu.actions)
            with pytest.raises(LpecUnsupportedError, match="Songcast"):
                await device.seek(10)
            assert len(emu.actions) == sent  # refused before sending anything
        finally:
            await device.close()


# --- songcast -------------------------------------------------------------------------


async def test_songcast_switching_senders_returns_to_the_first_source(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    await device.select_source("Analog 1")
    await wait_for(on_source(device, "Analog 1"))
    async with (
        LinnEmulator(port=0, tick_interval=0.05) as first,
        LinnEmulator(port=0, tick_interval=0.05) as second,
    ):
        await device.songcast_join(first.sender_uri)
        await wait_for(on_source(device, "Songcast"))
        await device.songcast_join(second.sender_uri)  # already on Songcast
        assert emu.state.receiver_uri == second.sender_uri
        await device.songcast_leave()
        assert emu.state.source.system_name == "Analog 1"  # not back to Songcast


async def test_songcast_leave_without_join_only_stops(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    await device.select_source("Radio")
    emu.actions.clear()
    await device.songcast_leave()
    assert [(a.service, a.action) for a in emu.actions] == [("Receiver", "Stop")]
    assert emu.state.source.system_name == "Radio"


async def test_empty_uris_are_refused_before_sending(emu: LinnEmulator, device: LinnDevice) -> None:
    emu.actions.clear()
    with pytest.raises(LpecInvalidArgumentError):
        await device.play_url("")
    with pytest.raises(LpecInvalidArgumentError):
        await device.songcast_join("")
    assert emu.actions == []


# --- firmware ---------------------------------------------------------------------


async def test_update_firmware_applies_once(emu: LinnEmulator, device: LinnDevice) -> None:
    software = device.state.update.software
    assert software.status == "update_available"
    await device.update_firmware()
    assert emu.actions[-1].action == "Apply"
    await wait_for(lambda: device.state.update.software.status == "on_latest")
    assert device.state.update.software.current_version == software.latest_version
    with pytest.raises(LpecInvalidArgumentError, match="no firmware update"):
        await device.update_firmware()
    assert [a.action for a in emu.actions].count("Apply") == 1


# --- a device with odd answers ----------------------------------------------------

ANALOG_ONLY = (
    "<SourceXml><Source><Name>Analog 1</Name><Type>Analog</Type>"
    "<SystemName>Analog 1</SystemName><Visible>true</Visible></Source></SourceXml>"
)
BARE_STATE: dict[str, dict[str, str]] = {
    "Product": {"ProductRoom": "Den", "Standby": "false", "SourceXml": ANALOG_ONLY},
    "Volume": {"Volume": "10", "Mute": "false"},  # neither VolumeLimit nor VolumeMax
    "Playlist": {"Id": "0", "IdArray": "", "TransportState": "Stopped"},
    "Radio": {"Id": "0", "IdArray": "", "TransportState": "Stopped"},
    "Pins": {"IdArray": "[]"},
    "Receiver": {"Uri": "", "Metadata": "", "TransportState": "Stopped"},
}


def bare_device(answers: dict[str, str]) -> Callable[[str], str | None]:
    """A device with the BARE_STATE services; `answers` maps an action name to RESPONSE args."""
    ids = {f"Ds/{name}": index for index, name in enumerate(BARE_STATE, start=1)}

    def answer(line: str) -> str | None:
        if not line:
            return None
        words = line.split(" ")
        if words[0] == "SUBSCRIBE":
            if words[1] not in ids:
                return 'ERROR 103 "Service not found"\r\n'
            sid = ids[words[1]]
            state = BARE_STATE[words[1].partition("/")[2]]
            return f"{subscribed_line(sid)}\r\n{event_line(sid, 0, state)}\r\n"
        return answers.get(words[3], response_line()) + "\r\n"

    return answer


@pytest.fixture
async def bare() -> AsyncIterator[tuple[ScriptedPeer, LinnDevice]]:
    answers = {"Insert": response_line(["not-a-number"]), "ReadList": response_line()}
    async with ScriptedPeer(bare_device(answers)) as peer:
        device = LinnDevice("127.0.0.1", peer.port, **FAST)
        async with asyncio.timeout(3):
            await device.connect()
        try:
            yield peer, device
        finally:
            await device.close()


async def test_bare_device_state(bare: tuple[ScriptedPeer, LinnDevice]) -> None:
    _peer, device = bare
    assert device.state.services == frozenset(
        {Service.PRODUCT, Service.VOLUME, Service.PLAYLIST, Service.RADIO, Service.PINS}
        | {Service.RECEIVER}
    )
    assert device.state.volume.ceiling is None


async def test_volume_without_a_limit_is_sent_unclamped(
    bare: tuple[ScriptedPeer, LinnDevice],
) -> None:
    peer, device = bare
    assert await device.set_volume(150) == 150
    assert peer.received[-1] == 'ACTION Ds/Volume 1 SetVolume "150"'


async def test_empty_lists_are_not_read(bare: tuple[ScriptedPeer, LinnDevice]) -> None:
    peer, device = bare
    sent = len(peer.received)
    assert await device.read_pins() == ()
    assert await device.read_presets() == ()
    assert len(peer.received) == sent


async def test_insert_returning_a_non_numeric_id(bare: tuple[ScriptedPeer, LinnDevice]) -> None:
    peer, device = bare
    with pytest.raises(LpecProtocolError, match="non-numeric id 'not-a-number'"):
        await device.play_url("http://example.com/a.mp3")
    assert not any("SeekId" in line for line in peer.received)


async def test_missing_source_type_is_unsupported(bare: tuple[ScriptedPeer, LinnDevice]) -> None:
    peer, device = bare
    with pytest.raises(LpecUnsupportedError, match="no Receiver source"):
        await device.songcast_join("ohz://239.255.255.250:51972/sender")
    assert not any("SetSender" in line for line in peer.received)


async def test_readlist_without_out_arguments(bare: tuple[ScriptedPeer, LinnDevice]) -> None:
    peer, device = bare
    peer.write_all(f"{event_line(4, 1, {'IdArray': 'AAAAAQ=='})}\r\n")  # Radio: id 1
    await wait_for(lambda: device.state.radio.ids == (1,))
    # ReadList answers one value: a bare RESPONSE is not its reply (replies.py), so the
    # command fails in time and the connection starts over; it is never taken as "empty".
    with pytest.raises(LpecTimeoutError):
        await device.read_presets()
    await wait_for(lambda: device.available)
    peer.write_all(f"{event_line(5, 1, {'IdArray': '[7]'})}\r\n")  # Pins: id 7
    await wait_for(lambda: device.state.pins.ids == (7,))
    with pytest.raises(LpecTimeoutError):
        await device.read_pins()
