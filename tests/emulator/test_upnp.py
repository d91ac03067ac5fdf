"""The emulator's OpenHome UPnP face, driven by a real client: openhomedevice over HTTP."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
from openhomedevice.device import Device
from openhomedevice.exceptions import OpenhomeDeviceError
import pytest

from linn_emulator import LinnEmulator, PlaybackState

from .client import Client


@pytest.fixture
async def upnp_emulator() -> AsyncIterator[LinnEmulator]:
    async with LinnEmulator(port=0, upnp_port=0, room="Kitchen", volume_limit=70) as emu:
        yield emu


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as client_session:
        yield client_session


@pytest.fixture
async def device(upnp_emulator: LinnEmulator, session: aiohttp.ClientSession) -> Device:
    assert upnp_emulator.upnp_location is not None
    openhome = Device(upnp_emulator.upnp_location, session=session)
    await openhome.init()
    return openhome


async def test_description_is_at_the_linn_path(upnp_emulator: LinnEmulator) -> None:
    assert upnp_emulator.upnp is not None
    port = upnp_emulator.upnp.port
    assert upnp_emulator.upnp_location == (
        f"http://127.0.0.1:{port}/{upnp_emulator.udn}/Upnp/device.xml"
    )


async def test_no_upnp_face_unless_asked() -> None:
    async with LinnEmulator(port=0) as emu:
        assert emu.upnp_location is None


async def test_openhomedevice_reads_the_device(upnp_emulator: LinnEmulator, device: Device) -> None:
    state = upnp_emulator.state
    assert device.uuid() == f"uuid:{upnp_emulator.udn}"
    assert device.manufacturer() == "Linn"
    assert await device.room() == "Kitchen"
    assert await device.name() == state.name
    assert await device.is_in_standby() is False
    assert await device.volume() == state.volume
    assert await device.is_muted() is False
    assert await device.transport_state() == "Stopped"
    assert await device.source() == {"type": "Playlist", "name": "Playlist"}
    names = [source["name"] for source in await device.sources()]
    assert "Digital 1" not in names  # hidden
    assert {"index": 5, "name": "Turntable", "type": "Analog"} in await device.sources()
    track = await device.track_info()
    assert track["title"] == state.playlist[0].track.title
    assert device.pins_enabled
    assert [pin["title"] for pin in await device.pins()][:2] == ["BBC Radio 3", "Re"]
    status = await device.software_status()
    assert status["status"] == "update_available"


async def test_openhomedevice_controls_the_shared_state(
    upnp_emulator: LinnEmulator, device: Device
) -> None:
    await device.set_volume(42)
    assert upnp_emulator.state.volume == 42
    await device.set_mute(True)
    assert upnp_emulator.state.mute is True
    await device.play()
    assert upnp_emulator.state.transport_state is PlaybackState.PLAYING
    await device.skip(1)
    assert upnp_emulator.state.playlist_id == upnp_emulator.state.playlist[1].id
    await device.set_source(5)
    assert upnp_emulator.state.source.name == "Turntable"
    await device.invoke_pin(1)
    assert upnp_emulator.state.source.name == "Radio"
    await device.play_media({"title": "Home Assistant", "uri": "http://192.0.2.1/a.mp3"})
    assert upnp_emulator.state.radio_uri == "http://192.0.2.1/a.mp3"
    await device.set_standby(True)
    assert upnp_emulator.state.standby is True
    assert upnp_emulator.upnp is not None
    assert upnp_emulator.upnp.actions["Volume.SetVolume"] == 1


async def test_a_change_over_upnp_is_evented_over_lpec(
    upnp_emulator: LinnEmulator, device: Device
) -> None:
    client = await Client.connect(upnp_emulator.port)
    try:
        sub_id, _ = await client.subscribe("Ds/Volume")
        await device.set_volume(55)
        event = await client.event(sub_id, lambda v: "Volume" in v)
        assert event.variables["Volume"] == "55"
    finally:
        await client.close()


async def test_a_change_over_lpec_is_read_over_upnp(
    upnp_emulator: LinnEmulator, device: Device
) -> None:
    client = await Client.connect(upnp_emulator.port)
    try:
        await client.action("Ds/Product", "SetStandby", "true")
    finally:
        await client.close()
    assert await device.is_in_standby() is True


async def test_a_device_error_is_a_soap_fault(upnp_emulator: LinnEmulator, device: Device) -> None:
    with pytest.raises(OpenhomeDeviceError, match="800"):
        await device.set_source(99)
    assert upnp_emulator.state.source_index == 0


async def test_a_request_for_another_action_than_its_header_names_is_refused(
    upnp_emulator: LinnEmulator, session: aiohttp.ClientSession
) -> None:
    location = upnp_emulator.upnp_location
    assert location is not None
    control = location.replace("device.xml", "Volume/control")
    body = (
        '<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/">'
        '<s:Body><u:SetVolume xmlns:u="urn:av-openhome-org:service:Volume:4">'
        "<Value>60</Value></u:SetVolume></s:Body></s:Envelope>"
    )
    headers = {"SOAPAction": '"urn:av-openhome-org:service:Volume:4#SetMute"'}
    async with session.post(control, data=body, headers=headers) as response:
        assert response.status == 500
        assert "<errorCode>401</errorCode>" in await response.text()
    assert upnp_emulator.state.volume != 60


async def test_unknown_paths_and_methods(
    upnp_emulator: LinnEmulator, session: aiohttp.ClientSession
) -> None:
    location = upnp_emulator.upnp_location
    assert location is not None
    async with session.get(location.replace("device.xml", "Nope/scpd.xml")) as response:
        assert response.status == 404
    async with session.post(location) as response:
        assert response.status == 405
