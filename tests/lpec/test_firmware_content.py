"""What Linn firmware puts in values, through the client against the emulator's default.

Lenient metadata (Icy Metatext with a bare `&`, undeclared prefixes, a bare `<`),
empty pin and radio slots, and each action sent with a service version that has it.
"""

from __future__ import annotations

import pytest

from custom_components.linn.lpec import (
    DeviceState,
    LinnDevice,
    LpecDeviceError,
    LpecInvalidArgumentError,
    LpecUnsupportedError,
    Service,
)
from custom_components.linn.lpec.reducers import apply_event
from linn_emulator import LinnEmulator
from linn_emulator.quirks import DOCUMENTED
from testing.helpers import wait_for
from tests.lpec.helpers import FAST

STATION = "Miles Davis & John Coltrane - 'So What'"

# --- lenient metadata ---------------------------------------------------------------


async def test_icy_metatext_with_a_bare_ampersand(emu: LinnEmulator, device: LinnDevice) -> None:
    """ohPipeline's Icy parser does not escape the StreamTitle; the text still shows."""
    await device.play_preset(4)
    await wait_for(lambda: device.state.info.metatext == STATION)
    assert device.available


async def _set_channel(device: LinnDevice, metadata: str) -> None:
    # Radio SetChannel: any DIDL-Lite a control point gives is what the device reports.
    await device.select_source("Radio")
    await device.action(Service.RADIO, "SetChannel", "http://radio.example/stream", metadata)


async def test_undeclared_prefixes_and_a_bare_less_than(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    didl = (
        "<DIDL-Lite><item id='1'>\n<dc:title>Jazz <24/7> & Blues</dc:title>\n"
        "<upnp:artist>Nina Simone</upnp:artist><upnp:album>Pastel Blues</upnp:album>\n"
        "<upnp:albumArtURI>http://art.example/x.jpg?a=1&b=2</upnp:albumArtURI>"
        "<res duration='0:04:12'>http://radio.example/stream</res></item></DIDL-Lite>"
    )
    await _set_channel(device, didl)
    await wait_for(lambda: device.state.radio.metadata.title == "Jazz <24/7> & Blues")
    metadata = device.state.radio.metadata
    assert metadata.artist == "Nina Simone"
    assert metadata.album == "Pastel Blues"
    assert metadata.album_art_uri == "http://art.example/x.jpg?a=1&b=2"
    await wait_for(lambda: device.state.info.track.title == "Jazz <24/7> & Blues")
    assert device.state.info.track.artist == "Nina Simone"


@pytest.mark.parametrize(
    "didl",
    [
        "<DIDL-Lite><item><dc:title>unterminated",
        "<<<>>>&&&",
        # An external entity is never fetched or expanded: the document is refused.
        '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/hostname">]>'
        "<DIDL-Lite><item><dc:title>&x;</dc:title></item></DIDL-Lite>",
    ],
    ids=["truncated", "garbage", "external entity"],
)
async def test_unrecoverable_metadata_is_no_metadata(
    emu: LinnEmulator, device: LinnDevice, didl: str
) -> None:
    await _set_channel(device, "<DIDL-Lite><item><dc:title>Before</dc:title></item></DIDL-Lite>")
    await wait_for(lambda: device.state.radio.metadata.title == "Before")
    await _set_channel(device, didl)
    await wait_for(lambda: device.state.radio.metadata.title is None)
    assert device.state.info.track.title is None
    assert device.available
    await device.set_volume(12)  # the session still works
    assert emu.state.volume == 12


# --- empty slots ----------------------------------------------------------------------


async def test_empty_slots_are_not_ids(emu: LinnEmulator, device: LinnDevice) -> None:
    assert device.state.pins.slots == (1, 2, 3, 4, 0, 0)
    assert device.state.pins.ids == (1, 2, 3, 4)
    assert len(device.state.radio.slots) == 100
    assert device.state.radio.ids == (1, 2, 3, 4)
    pins = await device.read_pins()
    assert [pin.id for pin in pins] == [1, 2, 3, 4]
    presets = await device.read_presets()
    assert [preset.id for preset in presets] == [1, 2, 3, 4]
    # The ChannelList carries no <Uri>: the stream is the DIDL-Lite <res>.
    assert [preset.uri for preset in presets] == [c.track.uri for c in emu.state.radio_channels]


@pytest.mark.parametrize(
    ("command", "argument"),
    [
        (LinnDevice.invoke_pin, 0),
        (LinnDevice.play_preset, 0),
        (LinnDevice.invoke_pin_index, 4),  # pin 5: an empty slot
    ],
    ids=["pin id 0", "preset 0", "empty pin slot"],
)
async def test_an_empty_slot_is_refused_and_nothing_is_sent(
    emu: LinnEmulator, device: LinnDevice, command: object, argument: int
) -> None:
    before = len(emu.actions)
    source = emu.state.source_index
    with pytest.raises(LpecInvalidArgumentError):
        await command(device, argument)  # type: ignore[operator]
    assert len(emu.actions) == before
    assert emu.state.source_index == source


def test_pin_ids_before_the_first_update() -> None:
    """ProviderPins starts with IdArray "": no pins yet, nothing to browse or invoke."""
    state = apply_event(DeviceState(), Service.PINS, {"IdArray": ""})
    assert state.pins.slots == ()
    assert state.pins.ids == ()


async def test_documented_pins_still_work() -> None:
    async with LinnEmulator(port=0, quirks=DOCUMENTED) as emu:
        device = LinnDevice("127.0.0.1", emu.port, **FAST)
        await device.connect()
        try:
            assert device.state.pins.ids == (1, 2, 3, 4, 5, 6)
            assert device.state.radio.ids == (1, 2, 3, 4)
            await device.invoke_pin(2)
            assert emu.state.source.system_name == "Playlist"
        finally:
            await device.close()


# --- service versions -----------------------------------------------------------------


async def test_set_source_by_system_name_is_sent_as_product_2(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    await device.select_source("Radio")
    sent = [a for a in emu.actions if a.action == "SetSourceBySystemName"]
    assert [(a.service, a.version) for a in sent] == [("Product", 2)]
    assert emu.state.source.system_name == "Radio"


@pytest.mark.parametrize("product_version", [1, 2, 4])
async def test_select_source_on_every_product_version(product_version: int) -> None:
    """Product:1 lacks SetSourceBySystemName: its refusal is answered by SetSourceIndex."""
    async with LinnEmulator(port=0, product_version=product_version) as emu:
        device = LinnDevice("127.0.0.1", emu.port, **FAST)
        await device.connect()
        try:
            for _ in range(2):  # the second time goes straight to what works
                await device.select_source("Radio")
                assert emu.state.source.system_name == "Radio"
                await device.select_source("Playlist")
                assert emu.state.source.system_name == "Playlist"
            await device.play_preset(2)  # selects the Radio source on the way
            assert emu.state.source.system_name == "Radio"
            by_name = [a for a in emu.actions if a.action == "SetSourceBySystemName"]
            assert {a.version for a in by_name} == {2}
            # Product:1 refuses it once (ERROR 106); from then on SetSourceIndex only.
            assert len(by_name) == (1 if product_version == 1 else 5)
            by_index = [a for a in emu.actions if a.action == "SetSourceIndex"]
            assert len(by_index) == (5 if product_version == 1 else 0)
        finally:
            await device.close()


async def test_a_declared_product_1_gets_set_source_index_only() -> None:
    """The device declares Product:1: SetSourceBySystemName is never put on the wire."""
    async with LinnEmulator(port=0, product_version=1) as emu:
        device = LinnDevice("127.0.0.1", emu.port, declared_versions={"Product": 1}, **FAST)
        await device.connect()
        try:
            await device.select_source("Radio")
            assert emu.state.source.system_name == "Radio"
            await device.select_source("Playlist")
            assert emu.state.source.system_name == "Playlist"
            await device.play_preset(2)
            assert emu.state.source.system_name == "Radio"
            sent = [a.action for a in emu.actions if a.action.startswith("SetSource")]
            assert sent == ["SetSourceIndex"] * 3
            with pytest.raises(LpecUnsupportedError, match="Product:1"):
                await device.action(Service.PRODUCT, "SetSourceBySystemName", "Radio")
            assert not any(a.action == "SetSourceBySystemName" for a in emu.actions)
            assert device.declared_versions == {"Product": 1}
        finally:
            await device.close()


async def test_no_action_is_sent_above_the_declared_version() -> None:
    async with LinnEmulator(port=0, product_version=3) as emu:
        declared = {"Product": 3, "Volume": 4, "Credentials": 1}  # Credentials: not ours
        device = LinnDevice("127.0.0.1", emu.port, declared_versions=declared, **FAST)
        await device.connect()
        try:
            await device.action(Service.PRODUCT, "Standby", version=4)
            await device.select_source("Radio")  # Product 2 <= 3: by system name
            sent = [(a.action, a.version) for a in emu.actions[-2:]]
            assert sent == [("Standby", 3), ("SetSourceBySystemName", 2)]
            assert device.declared_versions == {"Product": 3, "Volume": 4}
        finally:
            await device.close()


@pytest.mark.parametrize(
    ("code", "description"),
    [(501, "Action not implemented"), (106, "Version not supported"), (103, "Service not found")],
)
async def test_a_refused_action_is_answered_by_the_fallback(
    emu: LinnEmulator, device: LinnDevice, code: int, description: str
) -> None:
    emu.faults.fail_action("SetSourceBySystemName", code, description)
    await device.select_source("Radio")
    assert emu.state.source.system_name == "Radio"
    assert [a.action for a in emu.actions[-2:]] == ["SetSourceBySystemName", "SetSourceIndex"]
    await device.select_source("Playlist")  # straight to what works
    assert emu.actions[-1].action == "SetSourceIndex"
    assert emu.state.source.system_name == "Playlist"


async def test_other_errors_are_not_answered_by_the_fallback(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    emu.faults.fail_action("SetSourceBySystemName", 800, "Invalid source")
    with pytest.raises(LpecDeviceError, match="800"):
        await device.select_source("Radio")
    assert not any(a.action == "SetSourceIndex" for a in emu.actions)


async def test_pins_read_list_over_lines_in_the_firmware_shape(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    """Compact JSON (ohPipeline WriterJson) spread over lines; a title may hold `},{`."""
    emu.panel.set_pin_title(1, "Odd },{ title\nsecond line")
    pins = await device.read_pins()
    assert [pin.id for pin in pins] == [1, 2, 3, 4]
    assert pins[0].title == "Odd },{ title\nsecond line"
    assert [pin.title for pin in pins[1:]] == [pin.title for pin in emu.state.pins[1:4]]


async def test_an_empty_pin_read_as_such_is_refused_and_the_device_says_803() -> None:
    """Documented variant: empty pins have ids of their own, so only their details show it.

    Read as empty (no mode): refused before sending. Not read: the device answers as
    ohPipeline's ProviderPins does, 803 "Pin mode not supported" (PinsManager::BeginInvoke).
    """
    async with LinnEmulator(port=0, quirks=DOCUMENTED) as emu:
        device = LinnDevice("127.0.0.1", emu.port, **FAST)
        await device.connect()
        try:
            with pytest.raises(LpecDeviceError) as caught:
                await device.invoke_pin(5)
            assert (caught.value.code, caught.value.description) == (803, "Pin mode not supported")
            await device.read_pins()
            sent = len(emu.actions)
            with pytest.raises(LpecInvalidArgumentError, match="pin 5 is empty"):
                await device.invoke_pin(5)
            with pytest.raises(LpecInvalidArgumentError, match="pin 6 is empty"):
                await device.invoke_pin_index(5)
            assert len(emu.actions) == sent
            await device.invoke_pin(2)
            assert emu.state.source.system_name == "Playlist"
        finally:
            await device.close()
