"""A command in flight when its connection ends: sent again only when it cannot have run.

ohNet (DviSessionLpec) reads a whole request line, then runs and answers it holding the
session's device lock. NotifyDeviceDisabled takes that lock before it writes BYEBYE and
removes the device from the session; a command read after that gets ERROR 111 and runs
nothing. So a command answered before BYEBYE ran; one still in flight when BYEBYE comes
did not, and goes on the next session; one in flight when the connection just ends may
have run: LpecOutcomeUnknownError, never sent again. Issue 17.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from custom_components.linn.lpec import LinnDevice, LpecOutcomeUnknownError
from linn_emulator import LinnEmulator
from testing.helpers import wait_for
from tests.lpec.helpers import FAST, assert_no_lpec_tasks


@pytest.fixture
async def patient(emu: LinnEmulator) -> AsyncIterator[LinnDevice]:
    """A client whose commands may wait out a reconnect."""
    dev = LinnDevice("127.0.0.1", emu.port, **{**FAST, "action_timeout": 5.0})
    await dev.connect()
    yield dev
    await dev.close()
    assert_no_lpec_tasks()


def incs(emu: LinnEmulator) -> int:
    return [request.action for request in emu.actions].count("VolumeInc")


async def test_a_command_being_run_at_byebye_is_answered_before_it(
    emu: LinnEmulator, patient: LinnDevice
) -> None:
    """The emulator writes the answer first, as ohNet does: the command ran, once."""
    volume = emu.state.volume
    emu.faults.response_delay = 0.2
    task = asyncio.create_task(patient.volume_up())
    await wait_for(lambda: incs(emu) == 1)  # run, its answer not written yet
    emu.faults.disable()
    await task
    emu.faults.response_delay = 0
    emu.faults.enable()
    await wait_for(lambda: patient.available)
    assert await patient.set_volume(volume + 5) == volume + 5
    assert incs(emu) == 1


async def test_a_command_unread_at_byebye_goes_on_the_new_session(
    emu: LinnEmulator, patient: LinnDevice
) -> None:
    """BYEBYE while the command waits unread: 111 on the old session, run on the new one."""
    volume = emu.state.volume
    begun = emu.sessions_begun
    emu.faults.stall_requests(True)
    task = asyncio.create_task(patient.volume_up())
    await wait_for(lambda: emu.stalled_requests == 1)
    emu.faults.disable()  # BYEBYE first; the request is read after it
    emu.faults.stall_requests(False)
    emu.faults.enable()
    await task
    assert emu.state.volume == volume + 1  # once: the first one did not run
    assert incs(emu) == 2  # seen twice, run once
    assert emu.sessions_begun > begun


async def test_a_command_in_flight_when_the_connection_drops_may_have_run(
    emu: LinnEmulator, patient: LinnDevice
) -> None:
    """No BYEBYE: the device may have run it, so it raises and is not sent again."""
    volume = emu.state.volume
    emu.faults.response_delay = 0.5
    task = asyncio.create_task(patient.volume_up())
    await wait_for(lambda: incs(emu) == 1)
    emu.faults.drop_connections()
    with pytest.raises(LpecOutcomeUnknownError, match="may have run"):
        await task
    emu.faults.response_delay = 0
    await wait_for(lambda: patient.available)
    assert await patient.set_volume(volume + 5) == volume + 5
    assert incs(emu) == 1
