"""What a conversation's record keeps holds only for the chat log it came from.

Home Assistant drops a chat log after five idle minutes and gives a conversation id that is
not a ULID ("kitchen", as an automation passes it to conversation.process) to a fresh chat
log. The chat log is expired here as Home Assistant does it: its session's cleanup runs
when the time passes CONVERSATION_TIMEOUT.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from homeassistant.auth.models import User
from homeassistant.components import conversation
from homeassistant.components.conversation.chat_log import DATA_CHAT_LOGS
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers.chat_session import CONVERSATION_TIMEOUT
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_fire_time_changed

from custom_components.linn.agent.const import CONF_INSTRUCTIONS, CONF_MODEL, DEFAULT_OPTIONS
from custom_components.linn.agent.history import ConversationStore
from linn_emulator import LinnEmulator
from testing.fake_anthropic import FakeAnthropic, Reply, ToolUse
from testing.fake_anthropic.plans import RecordedRequest
from testing.helpers import wait_for

from .chat import AGENT, PLAYER, assistant_entry, converse, speech

THINKING = "claude-haiku-5-5"
KITCHEN = "kitchen"


@pytest.fixture
def assistant_options() -> dict[str, Any]:
    """Claude Haiku 5.5 (adaptive thinking), the default effort."""
    return {**DEFAULT_OPTIONS, CONF_MODEL: THINKING}


def types(request: RecordedRequest, index: int) -> list[str]:
    return [block["type"] for block in request.messages[index]["content"]]


async def expire_chat_logs(hass: HomeAssistant) -> None:
    """Let the sessions' idle time pass: Home Assistant's cleanup drops their chat logs."""
    async_fire_time_changed(hass, dt_util.utcnow() + CONVERSATION_TIMEOUT + timedelta(seconds=2))
    await hass.async_block_till_done()
    assert KITCHEN not in hass.data[DATA_CHAT_LOGS]


@pytest.mark.usefixtures("assistant")
async def test_a_refused_turn_of_an_expired_chat_log_leaves_nothing_out_of_a_fresh_one(
    hass: HomeAssistant, hass_admin_user: User, fake: FakeAnthropic
) -> None:
    fake.script(Reply("Hello."), Reply("I", stop_reason="refusal"))
    await converse(hass, "hello", hass_admin_user, KITCHEN)
    refused = await converse(hass, "something it will not do", hass_admin_user, KITCHEN)
    assert speech(refused) == "I can't help with that one."
    await expire_chat_logs(hass)
    fake.script(Reply("One."), Reply("Two."))
    assert speech(await converse(hass, "one", hass_admin_user, KITCHEN)) == "One."
    two = await converse(hass, "two", hass_admin_user, KITCHEN)
    assert speech(two) == "Two."
    request = fake.message_requests[-1]
    # user "one", [thinking, "One."], user "two": the fresh chat log, all of it
    assert [m["role"] for m in request.messages] == ["user", "assistant", "user"]
    assert request.last_user_text == "two"
    assert "one" in str(request.messages[0])


@pytest.mark.usefixtures("assistant")
async def test_a_fresh_chat_log_keeps_the_thinking_of_its_tool_loop(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    def set_volume(volume: int) -> Reply:
        return Reply(tool_uses=(ToolUse("linn__set_volume", {"player": PLAYER, "volume": volume}),))

    fake.script(set_volume(25), Reply("At 25."), Reply("Hello."))
    await converse(hass, "living room to 25", hass_admin_user, KITCHEN)
    # no user now: the tools change, so the first turn's thinking is dropped (positions 2, 4)
    assert speech(await converse(hass, "hello", None, KITCHEN)) == "Hello."
    await expire_chat_logs(hass)
    fake.script(set_volume(30), Reply("At 30."))
    result = await converse(hass, "living room to 30", hass_admin_user, KITCHEN)
    assert speech(result) == "At 30."
    await wait_for(lambda: emulator.state.volume == 30)
    # position 2 is now the tool loop's own message: its thinking goes back
    assert types(fake.message_requests[-1], 1) == ["thinking", "tool_use"]


async def converse_with(
    hass: HomeAssistant, agent: str, text: str, user: User, conversation_id: str | None
) -> conversation.ConversationResult:
    return await conversation.async_converse(
        hass, text, conversation_id, Context(user_id=user.id), language="en", agent_id=agent
    )


@pytest.mark.usefixtures("assistant")
async def test_another_assistants_thinking_is_not_sent_back(
    hass: HomeAssistant, hass_admin_user: User, fake: FakeAnthropic
) -> None:
    other = "conversation.claude_assistant_2"
    options = {**DEFAULT_OPTIONS, CONF_MODEL: THINKING, CONF_INSTRUCTIONS: "Be brief."}
    async with assistant_entry(hass, fake, "Claude assistant 2", options, other):
        fake.script(Reply("Hello."), Reply("Hi, brief."), Reply("Again."))
        first = await converse_with(hass, AGENT, "hello", hass_admin_user, None)
        shared = first.conversation_id
        assert speech(await converse_with(hass, other, "hi", hass_admin_user, shared)) == (
            "Hi, brief."
        )
        again = await converse_with(hass, AGENT, "again", hass_admin_user, shared)
        assert speech(again) == "Again."
    request = fake.message_requests[-1]
    assert "Be brief." not in request.system_text
    # user, [thinking, "Hello."] (ours), user, ["Hi, brief."] (the other's, no thinking), user
    assert types(request, 1) == ["thinking", "text"]
    assert types(request, 3) == ["text"]


async def test_a_refused_turn_stays_out_after_the_record_is_evicted(
    hass: HomeAssistant, hass_admin_user: User, fake: FakeAnthropic, assistant: MockConfigEntry
) -> None:
    assistant.runtime_data.conversations = ConversationStore(conversations=1)
    fake.script(Reply("I", stop_reason="refusal"), Reply("Hi."), Reply("Hello again."))
    refused = await converse(hass, "something it will not do", hass_admin_user, KITCHEN)
    assert speech(refused) == "I can't help with that one."
    await converse(hass, "hi", hass_admin_user)  # another conversation evicts the record
    again = await converse(hass, "hello again", hass_admin_user, KITCHEN)
    assert speech(again) == "Hello again."
    request = fake.message_requests[-1]
    assert "something it will not do" not in str(request.messages)
    assert len(request.messages) == 1
