"""A device that never answers one action: the client resynchronises at once.

LPEC replies carry no ids, so after a lost reply the next reply on that connection
cannot be matched to a command. These tests use a scripted device that swallows
SetVolume and answers everything else at once.
"""

from __future__ import annotations

import asyncio

import pytest

from custom_components.linn.lpec import LinnDevice, LpecSession, LpecTimeoutError, Service
from testing.helpers import wait_for
from tests.lpec.helpers import FAST, ScriptedPeer, assert_no_lpec_tasks
from tests.lpec.session_helpers import Quiet

LOST = "ACTION Ds/Volume 1 SetVolume"
SET_MUTE = 'ACTION Ds/Volume 1 SetMute "true"'
# Timeouts as on a real device (action 5 s, keepalive 5 s), scaled down.
TIMEOUTS = {**FAST, "action_timeout": 0.3, "keepalive_timeout": 0.3}


def swallows_set_volume(line: str) -> str | None:
    """Product and Volume; SetVolume is never answered, every other action is."""
    if not line or line.startswith(LOST):
        return None
    if line == "SUBSCRIBE Ds/Product":
        return 'SUBSCRIBE 1\r\nEVENT 1 0 ProductRoom "Den" Standby "false"\r\n'
    if line == "SUBSCRIBE Ds/Volume":
        return 'SUBSCRIBE 2\r\nEVENT 2 0 Volume "5" Mute "false"\r\n'
    if line.startswith("SUBSCRIBE "):
        return 'ERROR 103 "Service not found"\r\n'
    if line == "ACTION Ds/Product 1 Standby":  # the keepalive
        return 'RESPONSE "false"\r\n'
    return "RESPONSE\r\n"


async def test_command_right_after_a_lost_reply_gets_its_own_answer() -> None:
    async with ScriptedPeer(swallows_set_volume) as peer:
        device = LinnDevice(
            "127.0.0.1", peer.port, **TIMEOUTS, services=(Service.PRODUCT, Service.VOLUME)
        )
        await device.connect()
        try:
            with pytest.raises(LpecTimeoutError):
                await device.set_volume(10)
            async with asyncio.timeout(1.0):
                await device.set_mute(True)
            assert peer.received.count(SET_MUTE) == 1  # answered the first time
            # resynchronised once, and no keepalive declared unanswered afterwards
            await asyncio.sleep(4 * TIMEOUTS["keepalive_timeout"])
            async with asyncio.timeout(1.0):
                await device.set_mute(True)
            assert peer.connections == 2
            assert device.available
        finally:
            await device.close()
    assert_no_lpec_tasks()


async def test_command_queued_behind_a_lost_reply_is_sent_once_and_answered() -> None:
    async with ScriptedPeer(swallows_set_volume) as peer:
        session = LpecSession(
            "127.0.0.1", peer.port, ["Ds/Product", "Ds/Volume"], Quiet(), **TIMEOUTS
        )
        await session.connect()
        try:
            lost = asyncio.create_task(session.action("Ds/Volume", 1, "SetVolume", ["10"]))
            await wait_for(lambda: any(line.startswith(LOST) for line in peer.received))
            queued = session.action("Ds/Volume", 1, "SetMute", ["true"], action_timeout=2.0)
            async with asyncio.timeout(2.0):
                assert await queued == ()
            with pytest.raises(LpecTimeoutError):
                await lost
            assert peer.received.count(SET_MUTE) == 1
            assert [line for line in peer.received if line.startswith(LOST)] == [
                'ACTION Ds/Volume 1 SetVolume "10"'
            ]  # the lost command raised; it is not sent again behind the caller's back
        finally:
            await session.close()
    assert_no_lpec_tasks()
