"""Cancelling a turn while a tool runs stops the tool too; the guard still records the attempt."""

from __future__ import annotations

import asyncio

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
import pytest

from custom_components.linn.guard import Outcome
from custom_components.linn.guard.messages import MSG_CANCELLED
from custom_components.linn.tools.ha_adapter import DATA_GUARD
from linn_emulator import LinnEmulator
from testing.fake_anthropic import FakeAnthropic, Reply, ToolUse
from testing.helpers import wait_for

from .chat import PLAYER, converse

pytestmark = pytest.mark.usefixtures("assistant")


async def test_cancelling_a_turn_stops_the_running_tool(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    emulator.faults.response_delay = 30.0  # the device acts, then is slow to answer
    fake.script(
        Reply(
            tool_uses=(
                ToolUse("linn__set_volume", {"player": PLAYER, "volume": 35}),
                ToolUse("linn__mute", {"player": PLAYER, "muted": True}),
            )
        )
    )
    task = hass.async_create_task(converse(hass, "volume 35 and mute it", hass_admin_user))
    # the two tools run side by side, in no set order: the first to reach the device has
    # acted and waits for its answer, the other waits behind it on the LPEC session
    await wait_for(lambda: emulator.state.volume == 35 or emulator.state.mute)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    audit = hass.data[DATA_GUARD].guard.audit
    # the chat log awaits one tool at a time; one left running would end only at its 3 s
    # timeout, as timed out
    await wait_for(lambda: len(audit.records) == 2, timeout=6)
    assert {r.tool for r in audit.records} == {"set_volume", "mute"}
    for record in audit.records:
        assert record.outcome is Outcome.FAILED
        assert record.reason.startswith(MSG_CANCELLED)
    assert len(fake.message_requests) == 1
    emulator.faults.response_delay = 0.0
