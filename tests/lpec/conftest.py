"""Fixtures for the LPEC client tests: real loopback TCP against the emulator."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from custom_components.linn.lpec import LinnDevice
from linn_emulator import LinnEmulator
from tests.lpec.helpers import FAST, assert_no_lpec_tasks


@pytest.fixture
async def emu() -> AsyncIterator[LinnEmulator]:
    """A running emulator on a free port."""
    async with LinnEmulator(port=0, tick_interval=0.05) as emulator:
        yield emulator


@pytest.fixture
async def device(emu: LinnEmulator) -> AsyncIterator[LinnDevice]:
    """A connected client with fast timeouts."""
    dev = LinnDevice("127.0.0.1", emu.port, **FAST)
    await dev.connect()
    yield dev
    await dev.close()
    assert_no_lpec_tasks()
