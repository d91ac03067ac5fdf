"""Fixtures: an emulator on a free loopback port and a plain asyncio LPEC client."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from linn_emulator import LinnEmulator

from .client import Client, Connect


@pytest.fixture
async def emu() -> AsyncIterator[LinnEmulator]:
    """An emulator on a free port, stopped afterwards."""
    async with LinnEmulator(tick_interval=0.05) as emulator:
        yield emulator


@pytest.fixture
async def connect(emu: LinnEmulator) -> AsyncIterator[Connect]:
    """Open clients to `emu`; all closed afterwards."""
    clients: list[Client] = []

    async def factory(**kwargs: bool) -> Client:
        client = await Client.connect(emu.port, **kwargs)
        clients.append(client)
        return client

    yield factory
    for client in clients:
        await client.close()
