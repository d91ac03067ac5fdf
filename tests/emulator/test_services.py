"""Subscriptions, actions and error codes over LPEC."""

from __future__ import annotations

import base64
import random
import struct

import pytest

from custom_components.linn.lpec.codec import Error, Response, format_action
from linn_emulator import LinnEmulator

from .client import Client, Connect

FULL_STATE = {
    "Ds/Product": {
        "ManufacturerName",
        "ModelName",
        "ProductRoom",
        "ProductName",
        "Standby",
        "StandbyTransitioning",
        "SourceIndex",
        "SourceCount",
        "SourceXml",
        "Attributes",
    },
    "Ds/Volume": {
        "Volume",
        "Mute",
        "Balance",
        "Fade",
        "VolumeLimit",
        "VolumeMax",
        "VolumeUnity",
        "VolumeSteps",
        "VolumeMilliDbPerStep",
    },
    "Ds/Transport": {
        "Modes",
        "CanSkipNext",
        "CanSkipPrevious",
        "CanRepeat",
        "CanShuffle",
        "StreamId",
        "CanSeek",
        "CanPause",
        "TransportState",
        "Repeat",
        "Shuffle",
    },
    "Ds/Playlist": {
        "TransportState",
        "Repeat",
        "Shuffle",
        "Id",
        "IdArray",
        "TracksMax",
        "ProtocolInfo",
    },
    "Ds/Radio": {"Uri", "Metadata", "TransportState", "Id", "IdArray", "ChannelsMax"},
    "Ds/Info": {
        "TrackCount",
        "DetailsCount",
        "MetatextCount",
        "Uri",
        "Metadata",
        "Duration",
        "BitRate",
        "BitDepth",
        "SampleRate",
        "Lossless",
        "CodecName",
        "Metatext",
    },
    "Ds/Time": {"TrackCount", "Duration", "Seconds"},
    "Ds/Pins": {"DeviceMax", "AccountMax", "Modes", "IdArray", "CloudConnected"},
    "Ds/Receiver": {"Uri", "Metadata", "TransportState", "ProtocolInfo"},
    "Ds/Sender": {"PresentationUrl", "Metadata", "Audio", "Status", "Attributes"},
    "Ds/Update": {"SoftwareStatus"},
}


@pytest.mark.parametrize("path", sorted(FULL_STATE))
async def test_subscribe_full_state(emu: LinnEmulator, connect: Connect, path: str) -> None:
    client = await connect()
    sub_id, variables = await client.subscribe(path)
    assert sub_id >= 0
    assert FULL_STATE[path] <= set(variables)


async def test_product_state(emu: LinnEmulator, connect: Connect) -> None:
    client = await connect()
    _, product = await client.subscribe("Ds/Product")
    assert product["ManufacturerName"] == "Linn"
    assert product["ProductRoom"] == "Living Room"
    assert product["SourceCount"] == "7"
    xml = product["SourceXml"]
    assert xml.startswith("<SourceList><Source><SystemName>Playlist</SystemName>")
    assert "<SystemName>Analog 1</SystemName><Type>Analog</Type><Name>Turntable</Name>" in xml
    assert "<Name>Digital 1</Name><Visible>false</Visible>" in xml
    source = await client.action("Ds/Product", "Source", "5", version=4)
    assert source.values == ("Analog 1", "Analog", "Turntable", "true")


async def test_ids_increase_and_sequences(emu: LinnEmulator, connect: Connect) -> None:
    client = await connect()
    first, _ = await client.subscribe("Ds/Volume")
    second, _ = await client.subscribe("Ds/Product")
    assert second > first
    emu.panel.set_volume(11)
    emu.panel.set_volume(12)
    one = await client.event(first)
    two = await client.event(first)
    assert (one.sequence, two.sequence) == (1, 2)
    assert one.variables == {"Volume": "11"}
    assert two.variables == {"Volume": "12"}


async def test_action_response_and_event_to_other_session(
    emu: LinnEmulator, connect: Connect
) -> None:
    actor = await connect()
    watcher = await connect()
    actor_sub, _ = await actor.subscribe("Ds/Volume")
    watcher_sub, _ = await watcher.subscribe("Ds/Volume")
    await actor.send('ACTION Ds/Volume 4 SetVolume "42"')
    # the EVENT comes before the RESPONSE on the acting session
    event = await actor.message()
    assert event.__class__.__name__ == "Event"
    assert await actor.reply() == Response(())
    seen = await watcher.event(watcher_sub)
    assert seen.variables == {"Volume": "42"}
    assert seen.sequence == 1
    assert emu.state.volume == 42
    assert actor_sub != watcher_sub


async def test_volume_clamps_to_limit(emu: LinnEmulator, connect: Connect) -> None:
    client = await connect()
    sub, state = await client.subscribe("Ds/Volume")
    assert state["VolumeLimit"] == "80"
    assert state["VolumeMax"] == "100"
    await client.action("Ds/Volume", "SetVolume", "95", version=4)
    assert (await client.event(sub)).variables["Volume"] == "80"
    await client.action("Ds/Volume", "VolumeInc")
    assert emu.state.volume == 80
    await client.action("Ds/Volume", "VolumeDec")
    assert (await client.event(sub, lambda v: v.get("Volume") == "79")).variables
    await client.action("Ds/Volume", "SetMute", "true")
    assert (await client.event(sub)).variables == {"Mute": "true"}
    characteristics = await client.action("Ds/Volume", "Characteristics", version=4)
    assert characteristics.values[0] == "100"
    emu.panel.set_volume(-5)
    assert emu.state.volume == 0


async def test_source_selection(emu: LinnEmulator, connect: Connect) -> None:
    client = await connect()
    sub, _ = await client.subscribe("Ds/Product")
    await client.action("Ds/Product", "SetSourceBySystemName", "Analog 1", version=2)
    assert (await client.event(sub)).variables["SourceIndex"] == "5"
    await client.action("Ds/Product", "SetSourceIndex", "1")
    assert (await client.event(sub)).variables["SourceIndex"] == "1"
    await client.action("Ds/Product", "SetSourceIndexByName", "TV")
    assert emu.state.source.system_name == "HDMI"
    error = await client.error('ACTION Ds/Product 2 SetSourceBySystemName "Balanced"')
    assert error.code == 800
    assert (await client.error('ACTION Ds/Product 2 SetSourceIndex "99"')).code == 800


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("ACTION Ds/Nope 1 Foo", 103),
        ("ACTION Foo/Product 1 Standby", 111),
        ("ACTION Ds/Product 5 Standby", 106),
        ("ACTION Ds/Product 4 Fly", 501),
        ("ACTION Ds/Product 4 SetStandby", 301),
        ('ACTION Ds/Product 4 SetStandby "true" "false"', 303),
        ('ACTION Ds/Product 4 SetStandby "maybe"', 201),
        ('ACTION Ds/Volume 4 SetVolume "-1"', 203),
        ('ACTION Ds/Volume 4 SetVolume "4294967296"', 203),
        ('ACTION Ds/Volume 4 SetBalance "left"', 204),
        ('ACTION Ds/Volume 4 SetBalance "99"', 803),
        ('ACTION Ds/Playlist 1 SeekId "999999"', 802),
        ('ACTION Ds/Playlist 1 SeekIndex "500"', 803),
        ('ACTION Ds/Pins 1 InvokeId "5"', 802),
        ('ACTION Ds/Pins 1 InvokeId "0"', 803),
        ('ACTION Ds/Pins 1 InvokeIndex "4"', 803),
        ('ACTION Ds/Pins 1 InvokeId "77"', 802),
        ('ACTION Ds/Pins 1 ReadList "[1,"', 801),
        ("SUBSCRIBE Ds/Nope", 103),
        ("UNSUBSCRIBE 9999", 404),
        ("UNSUBSCRIBE Ds/Volume", 405),
        ("ACTION Ds/RenderingControl 1 GetVolume", 103),
        ('ACTION MediaRenderer/RenderingControl 1 GetVolume "1" "Master"', 718),
        ('ACTION MediaRenderer/RenderingControl 1 GetVolume "0" "LF"', 600),
    ],
)
async def test_error_codes(emu: LinnEmulator, connect: Connect, line: str, code: int) -> None:
    client = await connect()
    error = await client.error(line)
    assert error.code == code
    assert error.description


async def test_already_subscribed_and_unsubscribe(emu: LinnEmulator, connect: Connect) -> None:
    client = await connect()
    sub, _ = await client.subscribe("Ds/Volume")
    assert (await client.error("SUBSCRIBE Ds/Volume")).code == 401
    await client.send(f"UNSUBSCRIBE {sub}")
    assert (await client.message()).__class__.__name__ == "Unsubscribed"
    emu.panel.set_volume(5)
    await client.silent(0.1)
    sub2, _ = await client.subscribe("Ds/Volume")
    sub3, _ = await client.subscribe("Ds/Time")
    await client.send("UNSUBSCRIBE")
    acks = {(await client.message()), (await client.message())}
    assert {getattr(a, "subscription_id", None) for a in acks} == {sub2, sub3}
    assert emu.subscriptions == 0


async def test_subscriptions_per_session(emu: LinnEmulator, connect: Connect) -> None:
    client = await connect()
    paths = [*sorted(FULL_STATE), "MediaRenderer/RenderingControl", "MediaRenderer/AVTransport"]
    ids = [(await client.subscribe(path))[0] for path in paths]
    assert len(set(ids)) == len(paths) == 13
    other = await connect()
    for path in paths:
        await other.subscribe(path)
    # the cap is per session, not per device
    assert emu.subscriptions == 26


async def test_subscription_cap() -> None:
    async with LinnEmulator(max_subscriptions=3) as emulator:
        client = await Client.connect(emulator.port)
        for path in ("Ds/Product", "Ds/Volume", "Ds/Time"):
            await client.subscribe(path)
        assert (await client.error("SUBSCRIBE Ds/Info")).code == 402
        await client.send("UNSUBSCRIBE Ds/Time")
        await client.message()
        await client.subscribe("Ds/Info")
        await client.close()
    assert LinnEmulator()._server.max_subscriptions == 16


async def test_services_can_be_left_out(connect: Connect) -> None:
    async with LinnEmulator(services={"Product", "Info", "Time"}) as emulator:
        client = await Client.connect(emulator.port)
        assert (await client.error('ACTION Ds/Volume 4 SetVolume "1"')).code == 103
        assert (await client.error("SUBSCRIBE Ds/Pins")).code == 103
        _, product = await client.subscribe("Ds/Product")
        assert product["Attributes"] == "Info Time"
        await client.close()
    with pytest.raises(ValueError, match="unknown services"):
        LinnEmulator(services={"Bogus"})


async def test_playlist_id_array(emu: LinnEmulator, connect: Connect) -> None:
    client = await connect()
    _, playlist = await client.subscribe("Ds/Playlist")
    raw = base64.b64decode(playlist["IdArray"])
    ids = list(struct.unpack(f">{len(raw) // 4}I", raw))
    assert ids == [entry.id for entry in emu.state.playlist]
    assert playlist["TracksMax"] == "1000"
    assert playlist["Id"] == str(ids[0])


async def test_metadata_escaping_round_trip(emu: LinnEmulator, connect: Connect) -> None:
    client = await connect()
    await client.action("Ds/Playlist", "SeekIndex", "6")  # Simon & Garfunkel
    track = await client.action("Ds/Info", "Track")
    assert '<upnp:artist role="Performer">Simon &amp; Garfunkel</upnp:artist>' in track.values[1]
    client.writer.write(b"ACTION Ds/Info 1 Track\r\n")
    raw = await client.raw_message()
    assert "Simon &amp;amp; Garfunkel" in raw  # double escaped on the wire
    assert isinstance(Error, type)


async def test_media_renderer(emu: LinnEmulator, connect: Connect) -> None:
    client = await connect()
    sub, state = await client.subscribe("MediaRenderer/RenderingControl")
    assert '<Volume channel="Master" val="30"/>' in state["LastChange"]
    await client.action("MediaRenderer/RenderingControl", "SetVolume", "0", "Master", "50")
    assert (
        '<Volume channel="Master" val="50"/>' in (await client.event(sub)).variables["LastChange"]
    )
    reply = await client.action("MediaRenderer/RenderingControl", "GetVolume", "0", "Master")
    assert reply == Response(("50",))
    await client.action("MediaRenderer/RenderingControl", "SetMute", "0", "Master", "1")
    assert emu.state.mute
    info = await client.action("MediaRenderer/AVTransport", "GetTransportInfo", "0")
    assert info.values == ("STOPPED", "OK", "1")
    await client.action("MediaRenderer/AVTransport", "Play", "0", "1")
    info = await client.action("MediaRenderer/AVTransport", "GetTransportInfo", "0")
    assert info.values[0] == "PLAYING"
    position = await client.action("MediaRenderer/AVTransport", "GetPositionInfo", "0")
    assert position.values[1] == "0:04:15"
    assert "Hunter" in position.values[2]


async def test_every_action_with_odd_arguments_never_fails_internally(
    emu: LinnEmulator, connect: Connect
) -> None:
    client = await connect()
    values = ["0", "1", "4294967295", "-1", "", "true", "[1,2]", "[]", "abc", "99"]
    rng = random.Random(7)
    count = 0
    for service in emu.services.values():
        path = f"{service.device_name}/{service.name}"
        for spec in service.actions.values():
            for _ in range(4):
                args = [rng.choice(values) for _ in spec.inputs]
                await client.send(format_action(path, service.version, spec.name, args))
                reply = await client.reply()
                count += 1
                if isinstance(reply, Error):
                    assert reply.code != 108, (path, spec.name, args)
                else:
                    assert isinstance(reply, Response)
                    assert len(reply.values) == len(spec.outputs), (path, spec.name)
    assert count > 400
    assert await client.action("Ds/Product", "Standby") in (
        Response(("false",)),
        Response(("true",)),
    )
