"""Content quirks (Icy Metatext, radio and pin slots): default, each alone, documented."""

from __future__ import annotations

import base64
from collections.abc import Iterable
import json

import pytest

from linn_emulator import LinnEmulator
from linn_emulator.quirks import DOCUMENTED, OHNET, Quirk

from .client import Client


async def _radio_and_pins(
    quirks: Iterable[Quirk],
) -> tuple[dict[str, str], dict[str, str], str, str]:
    async with LinnEmulator(port=0, quirks=quirks) as emu:
        client = await Client.connect(emu.port)
        try:
            _, radio = await client.subscribe("Ds/Radio")
            _, pins = await client.subscribe("Ds/Pins")
            listing = (await client.action("Ds/Radio", "ReadList", "1 2")).values[0]
            await client.action("Ds/Radio", "SetId", "4", "")
            await client.action("Ds/Radio", "Play")
            metatext = (await client.action("Ds/Info", "Metatext")).values[0]
        finally:
            await client.close()
    return radio, pins, listing, metatext


async def test_documented_variant() -> None:
    radio, pins, listing, metatext = await _radio_and_pins(DOCUMENTED)
    assert len(base64.b64decode(radio["IdArray"])) == 4 * 4  # only the stored presets
    assert pins["IdArray"] == "[1,2,3,4,5,6]"
    assert "<Uri>" in listing
    assert metatext == "Miles Davis & John Coltrane - 'So What'"  # plain text


async def test_ohnet_default() -> None:
    radio, pins, listing, metatext = await _radio_and_pins(OHNET)
    assert len(base64.b64decode(radio["IdArray"])) == 100 * 4
    assert json.loads(pins["IdArray"]) == [1, 2, 3, 4, 0, 0]
    assert "<Uri>" not in listing
    assert "<dc:title>Miles Davis & John Coltrane - 'So What'</dc:title>" in metatext


@pytest.mark.parametrize("quirk", [Quirk.ICY_METATEXT, Quirk.RADIO_SLOTS, Quirk.PIN_SLOTS])
async def test_each_quirk_alone(quirk: Quirk) -> None:
    radio, pins, listing, metatext = await _radio_and_pins({quirk})
    assert (len(base64.b64decode(radio["IdArray"])) == 400) == (quirk is Quirk.RADIO_SLOTS)
    assert (pins["IdArray"] == "[1,2,3,4,0,0]") == (quirk is Quirk.PIN_SLOTS)
    assert ("<Uri>" not in listing) == (quirk is Quirk.RADIO_SLOTS)
    assert metatext.startswith("<DIDL-Lite") == (quirk is Quirk.ICY_METATEXT)


async def test_product_1_has_no_set_source_by_system_name() -> None:
    async with LinnEmulator(port=0, product_version=1) as emu:
        client = await Client.connect(emu.port)
        try:
            # ohNet: a version above the service's is refused; an unknown action is 501.
            assert (await client.error('ACTION Ds/Product 2 SetSourceIndex "1"')).code == 106
            error = await client.error('ACTION Ds/Product 1 SetSourceBySystemName "Radio"')
            assert (error.code, error.description) == (501, "Action not implemented")
            await client.action("Ds/Product", "SetSourceIndex", "1")
            assert emu.state.source_index == 1
        finally:
            await client.close()
