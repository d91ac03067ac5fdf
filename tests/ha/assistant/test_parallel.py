"""Independent tool calls of one model message run side by side (one per player here).

LPEC allows one action in flight per connection, so calls to one player queue at its
connection; calls to two players are in flight at the same time.
"""

from __future__ import annotations

import asyncio

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
import pytest

from linn_emulator import LinnEmulator
from testing.fake_anthropic import FakeAnthropic, Reply, ToolUse
from testing.helpers import wait_for

from .chat import PLAYER, converse

pytestmark = pytest.mark.usefixtures("assistant")


async def test_calls_to_two_players_are_in_flight_together(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    kitchen: LinnEmulator,
    fake: FakeAnthropic,
) -> None:
    await wait_for(lambda: hass.states.get("media_player.kitchen") is not None)
    for device in (emulator, kitchen):
        device.faults.response_delay = 30.0  # each device acts, then is slow to answer
    fake.script(
        Reply(
            tool_uses=(
                ToolUse("linn__set_volume", {"player": PLAYER, "volume": 35}),
                ToolUse("linn__set_volume", {"player": "Kitchen", "volume": 25}),
            )
        )
    )
    task = hass.async_create_task(converse(hass, "living room 35 and kitchen 25", hass_admin_user))
    # one after the other, the kitchen's call would start only after the living room's
    # 3 s timeout
    await wait_for(lambda: emulator.state.volume == 35 and kitchen.state.volume == 25)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    for device in (emulator, kitchen):
        device.faults.response_delay = 0.0
