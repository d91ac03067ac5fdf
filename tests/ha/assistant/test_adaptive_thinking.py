"""What an adaptive model does: it may skip thinking for a step, and may think again between
its tool calls. Either way the assistant sends the message back exactly as it came; the
fake answers 400 otherwise, and the turn would end in limited mode."""

from __future__ import annotations

from typing import Any

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
import pytest

from custom_components.linn.agent.const import CONF_MODEL, DEFAULT_OPTIONS
from linn_emulator import LinnEmulator
from testing.fake_anthropic import FakeAnthropic, Reply, ToolUse
from testing.helpers import wait_for

from .chat import PLAYER, converse, speech


@pytest.fixture
def assistant_options() -> dict[str, Any]:
    """Claude Haiku 5.5 (adaptive thinking)."""
    return {**DEFAULT_OPTIONS, CONF_MODEL: "claude-haiku-5-5"}


VOLUME = ToolUse("linn__set_volume", {"player": PLAYER, "volume": 30})
STATE = ToolUse("linn__get_state", {"player": PLAYER})


@pytest.mark.usefixtures("assistant")
async def test_a_step_without_thinking_goes_back_without_it(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    fake.script(Reply(tool_uses=(VOLUME,), thinks=False), Reply("At 30."))
    result = await converse(hass, "living room to 30", hass_admin_user)
    assert speech(result) == "At 30."
    await wait_for(lambda: emulator.state.volume == 30)
    second = fake.message_requests[1]
    assert [b["type"] for b in second.messages[1]["content"]] == ["tool_use"]
    # and the final reply, which thought, opens with its thinking in the next turn
    fake.script(Reply("Still 30."))
    again = await converse(hass, "and now?", hass_admin_user, result.conversation_id)
    assert speech(again) == "Still 30."
    assert [b["type"] for b in fake.message_requests[-1].messages[3]["content"]] == [
        "thinking",
        "text",
    ]


@pytest.mark.usefixtures("assistant")
async def test_thinking_between_tool_calls_goes_back_in_its_place(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    fake.script(Reply(tool_uses=(VOLUME, STATE), interleaved=True), Reply("At 30."))
    result = await converse(hass, "living room to 30 and tell me", hass_admin_user)
    assert speech(result) == "At 30."
    await wait_for(lambda: emulator.state.volume == 30)
    second = fake.message_requests[1]
    echoed = second.messages[1]["content"]
    assert [b["type"] for b in echoed] == ["thinking", "tool_use", "thinking", "tool_use"]
    assert echoed[0]["signature"] != echoed[2]["signature"]
    assert [b["tool_use_id"] for b in second.messages[2]["content"]] == [
        echoed[1]["id"],
        echoed[3]["id"],
    ]
