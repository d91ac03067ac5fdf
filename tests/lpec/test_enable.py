"""Back after enable as ohNet announces: ALIVE only when a session begins, never on enable.

ohNet DviSessionLpec announces once, at session start, skipping a disabled device, and
enabling it sends nothing to any session (the emulator's silent_enable quirk, on by
default). A session the client began while the device was disabled never hears ALIVE:
the client gives up on it after `alive_timeout` and begins another (with backoff).
"""

from __future__ import annotations

import asyncio

from custom_components.linn.lpec import LinnDevice
from linn_emulator import LinnEmulator
from linn_emulator.quirks import OHNET, Quirk
from tests.helpers import wait_for

RECOVERY_BOUND = 5.0
"""The issue's bound for being back after the device is."""


async def test_back_within_the_bound_after_enable_with_no_alive_on_the_session() -> None:
    async with LinnEmulator(port=0, tick_interval=0.05) as emu:
        assert Quirk.SILENT_ENABLE in emu.quirks
        # Production timeouts: a 10 s connect_timeout is what kept it away before.
        device = LinnDevice("127.0.0.1", emu.port)
        await device.connect()
        try:
            emu.faults.disable()
            await wait_for(lambda: not device.available)
            begun = emu.sessions_begun
            # The client's new session begins while the device is disabled: no ALIVE on it.
            await wait_for(lambda: emu.sessions_begun > begun, timeout=RECOVERY_BOUND)
            emu.faults.enable()
            await wait_for(lambda: device.available, timeout=RECOVERY_BOUND)
            await device.set_volume(33)
            assert emu.state.volume == 33
        finally:
            await device.close()


async def test_a_session_begun_while_disabled_hears_no_alive_on_enable() -> None:
    """The emulator as ohNet: commands on it meanwhile get ERROR 111; enable sends nothing."""
    async with LinnEmulator(port=0, quirks=OHNET) as emu:
        emu.faults.disable()
        reader, writer = await asyncio.open_connection("127.0.0.1", emu.port)
        try:
            async with asyncio.timeout(5):  # a held session would never answer
                writer.write(b"\r\nACTION Ds/Volume 1 Volume\r\n")  # the blank line: 101 bug
                assert await reader.readline() == b'ERROR 111 "Device not found"\r\n'
                emu.faults.enable()
                writer.write(b"ACTION Ds/Volume 1 Volume\r\n")
                line = await reader.readline()
                assert line.startswith(b"RESPONSE "), line  # no ALIVE came before it
        finally:
            writer.close()
