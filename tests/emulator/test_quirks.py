"""Firmware quirks on the wire: each on its own, and off (the wiki's protocol).

The bytes are read raw here: what a device sends, not what a client makes of it.
"""

from __future__ import annotations

import asyncio

from custom_components.linn.lpec.codec import Alive, ByeBye, Subscribed, Unsubscribed
from linn_emulator import DOCUMENTED, OHNET, LinnEmulator, Quirk
from tests.emulator.client import Client, Connect


async def _raw_until(client: Client, marker: bytes, wait: float = 2.0) -> bytes:
    data = b""
    async with asyncio.timeout(wait):
        while marker not in data:
            chunk = await client.reader.read(65536)
            assert chunk, data
            data += chunk
    return data


async def _subscribe_raw(client: Client, path: str) -> bytes:
    """SUBSCRIBE and return the raw bytes up to the end of its EVENT 0."""
    await client.send(f"SUBSCRIBE {path}")
    return await _raw_until(client, b'"\r\n')


def test_ohnet_is_the_default_and_documented_is_none() -> None:
    assert LinnEmulator().quirks == OHNET == frozenset(Quirk)
    assert LinnEmulator(quirks=DOCUMENTED).quirks == frozenset()
    assert LinnEmulator(quirks={"byebye_only"}).quirks == {Quirk.BYEBYE_ONLY}


async def test_raw_line_breaks_in_values(emu: LinnEmulator, connect: Connect) -> None:
    emu.quirks = {Quirk.RAW_LINE_BREAKS}
    client = await connect()
    await _subscribe_raw(client, "Ds/Product")
    emu.panel.set_room("Upstairs\r\nLanding\rBack")
    raw = await _raw_until(client, b'Back"\r\n')
    # CRLF and CR go as one LF, raw, inside the quotes (ohNet Converter::ToXmlEscaped).
    assert b'ProductRoom "Upstairs\nLanding\nBack"\r\n' in raw

    emu.quirks = DOCUMENTED
    emu.panel.set_room("A\r\nB")
    raw = await _raw_until(client, b'B"\r\n')
    assert b'ProductRoom "A&#13;&#10;B"\r\n' in raw


async def test_multiline_metadata(emu: LinnEmulator, connect: Connect) -> None:
    emu.quirks = {Quirk.RAW_LINE_BREAKS, Quirk.MULTILINE_METADATA}
    client = await connect()
    raw = await _subscribe_raw(client, "Ds/Info")
    metadata = raw.split(b' Metadata "', 1)[1].split(b'" ', 1)[0]
    assert metadata.startswith(b"&lt;DIDL-Lite ")
    assert b"&gt;\n&lt;item" in metadata
    assert metadata.count(b"\n") > 3

    emu.quirks = DOCUMENTED
    other = await connect()
    raw = await _subscribe_raw(other, "Ds/Info")
    assert raw.count(b"\n") == raw.count(b"\r\n")  # every line break ends a message


async def test_given_metadata_comes_back_as_given(emu: LinnEmulator, connect: Connect) -> None:
    client = await connect()
    channel = "<DIDL-Lite><item><dc:title>Given</dc:title></item></DIDL-Lite>"
    await client.action("Ds/Product", "SetSourceBySystemName", "Radio", version=2)
    await client.action("Ds/Radio", "SetChannel", "http://ha.local/tts.mp3", channel)
    assert (await client.action("Ds/Info", "Track")).values[1] == channel


async def test_raw_error_text(emu: LinnEmulator, connect: Connect) -> None:
    emu.quirks = {Quirk.RAW_ERROR_TEXT}
    client = await connect()
    emu.faults.fail_action("Standby", 801, 'Json & "corrupt" <x>', times=2)
    await client.send("ACTION Ds/Product 1 Standby")
    assert await client.raw_line() == b'ERROR 801 "Json & "corrupt" <x>"\r\n'
    emu.quirks = DOCUMENTED
    await client.send("ACTION Ds/Product 1 Standby")
    assert await client.raw_line() == (b'ERROR 801 "Json &amp; &quot;corrupt&quot; &lt;x&gt;"\r\n')


async def test_subscription_ids_from_zero(connect: Connect, emu: LinnEmulator) -> None:
    emu.quirks = {Quirk.SUBSCRIPTION_IDS_FROM_ZERO}
    first = await connect()
    second = await connect()
    assert (await first.subscribe("Ds/Product"))[0] == 0
    assert (await second.subscribe("Ds/Product"))[0] == 1  # one counter, every session
    emu.quirks = DOCUMENTED
    assert (await first.subscribe("Ds/Volume"))[0] == 3  # the same counter, from 1


async def test_disable_byebye_only(emu: LinnEmulator, connect: Connect) -> None:
    emu.quirks = {Quirk.BYEBYE_ONLY}
    client = await connect()
    await client.subscribe("Ds/Volume")
    emu.faults.disable()
    # BYEBYE only: no UNSUBSCRIBE first.
    assert await client.message() == ByeBye("Ds", emu.udn)
    assert await client.message() == ByeBye("MediaRenderer", emu.media_renderer_udn)
    # The session stays open; the device is gone from it.
    assert (await client.error("ACTION Ds/Product 1 Standby")).code == 111
    assert (await client.error("SUBSCRIBE Ds/Product")).code == 111
    # A new connection is accepted but hears no ALIVE while the device is disabled.
    late = await connect(alive=False, workaround=False)
    await late.silent(0.2)
    emu.faults.enable()
    assert isinstance(await late.message(), Alive)
    assert isinstance(await late.message(), Alive)
    # ...and the old session never hears ALIVE again; its commands still get ERROR 111.
    await client.silent(0.3)
    assert (await client.error("ACTION Ds/Product 1 Standby")).code == 111


async def test_disable_documented(emu: LinnEmulator, connect: Connect) -> None:
    emu.quirks = DOCUMENTED
    client = await connect()
    sub, _ = await client.subscribe("Ds/Volume")
    emu.faults.disable()
    assert emu.faults.disabled
    assert await client.message() == Unsubscribed(sub)
    assert await client.message() == ByeBye("Ds", emu.udn)
    assert await client.message() == ByeBye("MediaRenderer", emu.media_renderer_udn)
    emu.faults.enable()
    assert await client.message() == Alive("Ds", emu.udn)
    assert await client.message() == Alive("MediaRenderer", emu.media_renderer_udn)
    await client.send("SUBSCRIBE Ds/Volume")
    assert isinstance(await client.reply(), Subscribed)


async def test_pins_read_list_spans_lines_between_objects(
    emu: LinnEmulator, connect: Connect
) -> None:
    """Compact JSON as ohPipeline writes it, a line break after each object; values intact."""
    emu.quirks = {Quirk.RAW_LINE_BREAKS, Quirk.MULTILINE_METADATA}
    emu.panel.set_pin_title(1, "Odd },{ title")
    client = await connect()
    await client.send('ACTION Ds/Pins 1 ReadList "[1,2]"')
    raw = await _raw_until(client, b']"\r\n')
    text = raw.decode().replace("&quot;", '"')
    assert '"title":"Odd },{ title",' in text
    assert '"shuffle":false},\n{"id":2,' in text

    emu.quirks = DOCUMENTED
    await client.send('ACTION Ds/Pins 1 ReadList "[1,2]"')
    raw = await _raw_until(client, b']"\r\n')
    assert b"\n" not in raw.removesuffix(b"\r\n")
