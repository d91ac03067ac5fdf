"""Back after enable as ohNet announces: ALIVE only when a session begins, never on enable.

ohNet DviSessionLpec announces once, at session start, skipping a disabled device, and
enabling it sends nothing to any session (the emulator's silent_enable quirk, on by
default). A session the client began while the device was disabled never hears ALIVE:
the client gives up on it after `alive_timeout` and begins another (with backoff).
"""

from __future__ import annotations

import asyncio

import pytest

from custom_components.linn.lpec import LinnDevice, LpecTimeoutError
from linn_emulator import LinnEmulator
from linn_emulator.quirks import OHNET, Quirk
from testing.helpers import wait_for
from tests.lpec.helpers import FAST

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
    """The emulator as ohNet, on a session begun while the device was disabled.

    No ALIVE, and enabling sends none; its commands are answered as usual all the same
    (DviDeviceMap::CopyMap holds disabled devices, DviService::InvokeDirect ignores the
    enabled state). Disabling later sends BYEBYE on it, and then the device is gone: 111.
    """
    async with LinnEmulator(port=0, quirks=OHNET) as emu:
        emu.faults.disable()
        reader, writer = await asyncio.open_connection("127.0.0.1", emu.port)
        try:
            async with asyncio.timeout(5):  # a held session would never answer
                writer.write(b"ACTION Ds/Volume 1 Volume\r\n")
                assert await reader.readline() == f'RESPONSE "{emu.state.volume}"\r\n'.encode()
                emu.faults.enable()
                writer.write(b"ACTION Ds/Volume 1 Volume\r\n")
                line = await reader.readline()
                assert line.startswith(b"RESPONSE "), line  # no ALIVE came before it
                emu.faults.disable()
                assert await reader.readline() == f"BYEBYE Ds {emu.udn}\r\n".encode()
                await reader.readline()  # BYEBYE MediaRenderer
                writer.write(b"ACTION Ds/Volume 1 Volume\r\n")
                assert await reader.readline() == b'ERROR 111 "Device not found"\r\n'
        finally:
            writer.close()


async def test_the_client_sends_nothing_on_a_session_without_alive() -> None:
    """The device would answer there (ohNet), but without ALIVE the client does not use it.

    No ALIVE means the device was disabled when the session began: its identity is not
    announced, and nothing is announced on that session later either. connect() fails
    with a clear error, having sent no command and taken no subscription.
    """
    async with LinnEmulator(port=0, quirks=OHNET) as emu:
        emu.faults.disable()
        device = LinnDevice("127.0.0.1", emu.port, **{**FAST, "alive_timeout": 0.2})
        with pytest.raises(LpecTimeoutError, match="sent no ALIVE"):
            await device.connect()
        assert emu.actions == []
        assert emu.granted_subscriptions == 0
        await device.close()


async def test_byebye_on_a_session_that_never_had_alive_is_left_at_once() -> None:
    """ohNet sends BYEBYE on a session begun while the device was disabled, too.

    Nothing ever comes on that session afterwards, so the client leaves it at once for a
    new one, instead of waiting out `alive_timeout` (30 s here).
    """
    async with LinnEmulator(port=0, tick_interval=0.05, quirks=OHNET) as emu:
        slow = {**FAST, "connect_timeout": 30.0, "alive_timeout": 30.0}
        device = LinnDevice("127.0.0.1", emu.port, **slow)
        await device.connect()
        try:
            emu.faults.disable()
            await wait_for(lambda: not device.available)
            begun = emu.sessions_begun
            # The client's new session begins while the device is disabled: no ALIVE.
            await wait_for(lambda: emu.sessions_begun > begun and emu.sessions == 1)
            emu.faults.enable()  # silent on that session (ohNet)
            emu.faults.disable()  # BYEBYE on it all the same
            emu.faults.enable()
            await wait_for(lambda: device.available)
            assert emu.sessions_begun == begun + 2
            assert await device.set_volume(34) == 34
        finally:
            await device.close()
