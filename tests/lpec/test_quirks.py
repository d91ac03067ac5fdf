"""Firmware quirks the emulator does not model, against a scripted peer over real TCP.

The peer below is a device that answers the blank line itself with the spurious
ERROR, ends lines with LF only, writes keywords in lower case and uses the old
Product:1 variable names from the Linn LPEC page.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from custom_components.linn.lpec import LinnDevice, Service
from tests.lpec.helpers import FAST, assert_no_lpec_tasks

UDN = "4c494e4e-0050-c221-71e5-df000003013f"


class OldFirmware:
    """Just enough of an old DS to subscribe to Product and refuse Volume."""

    def __init__(self) -> None:
        self.received: list[str] = []
        self._server: asyncio.Server | None = None
        self._writers: list[asyncio.StreamWriter] = []

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return int(self._server.sockets[0].getsockname()[1])

    async def stop(self) -> None:
        assert self._server is not None
        self._server.close()
        for writer in self._writers:
            writer.close()
        await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.append(writer)
        writer.write(f"alive Ds {UDN}\nalive MediaRenderer {UDN}-mr\n".encode())
        while line := await reader.readline():
            text = line.decode().strip()
            self.received.append(text)
            writer.write(self._answer(text).encode())

    def _answer(self, text: str) -> str:
        if not text:
            return 'error 101 "Command not recognised"\n'
        if text == "SUBSCRIBE Ds/Product":
            return (
                "subscribe 49\n"
                'event 49 0 ProductName "Sneaky Music DS" ProductRoom "Main Room" '
                'ProductStandby "true" ProductSourceIndex "0"\n'
            )
        if text.startswith("SUBSCRIBE "):
            return 'error 103 "Service not found"\n'
        if text.startswith("ACTION Ds/Product 1 SetStandby"):
            return 'event 49 1 ProductStandby "false"\nresponse\n'
        return 'error 101 "Command not recognised"\n'


@pytest.fixture
async def old_firmware() -> AsyncIterator[OldFirmware]:
    peer = OldFirmware()
    yield peer
    await peer.stop()


async def test_old_firmware(old_firmware: OldFirmware) -> None:
    port = await old_firmware.start()
    device = LinnDevice(
        "127.0.0.1",
        port,
        **FAST,
        services=(Service.PRODUCT, Service.VOLUME, Service.PINS),
    )
    async with asyncio.timeout(3):
        await device.connect()
    try:
        assert device.udn == UDN
        assert device.state.services == frozenset({Service.PRODUCT})
        assert device.state.product.room == "Main Room"
        assert device.state.product.name == "Sneaky Music DS"
        assert device.state.product.standby is True
        assert device.state.product.source_index == 0
        assert not device.state.has_volume
        assert not device.state.has_pins
        await device.set_standby(False)
        product = device.state.product  # a new snapshot after the event
        assert product.standby is False
        assert old_firmware.received[:2] == ["", "SUBSCRIBE Ds/Product"]
    finally:
        await device.close()
    assert_no_lpec_tasks()
