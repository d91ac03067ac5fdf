"""An exception inside the emulator is an emulator bug: logged, and raised by stop()."""

from __future__ import annotations

import pytest

from linn_emulator import LinnEmulator, PlaybackState
from testing.helpers import wait_for

from .client import Client


def break_the_source(emu: LinnEmulator) -> None:
    """Playing on a source index that does not exist: every tick and action fails."""
    emu.state.transport_state = PlaybackState.PLAYING
    emu.state.source_index = len(emu.state.sources)


async def test_a_failing_tick_is_logged_and_raised_at_stop(
    caplog: pytest.LogCaptureFixture,
) -> None:
    emu = LinnEmulator(port=0, tick_interval=0.01)
    await emu.start()
    break_the_source(emu)
    await wait_for(lambda: len(emu.failures) >= 2)  # the clock keeps running
    with pytest.raises(ExceptionGroup) as raised:
        await emu.stop()
    assert all(isinstance(error, IndexError) for error in raised.value.exceptions)
    assert "emulator bug: the clock tick failed" in caplog.text
    await emu.stop()  # raised once: a second stop has nothing left to raise


async def test_a_failing_action_answers_108_and_fails_the_owner() -> None:
    emu = LinnEmulator(port=0, tick_interval=60)
    await emu.start()
    client = await Client.connect(emu.port)
    try:
        break_the_source(emu)
        reply = await client.error("ACTION Ds/Info 1 Track")
    finally:
        await client.close()
    assert reply.code == 108
    with pytest.raises(ExceptionGroup) as raised:
        await emu.stop()
    assert any(isinstance(error, IndexError) for error in raised.value.exceptions)
