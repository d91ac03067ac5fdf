"""Thinking models: blocks sent back as the API returned them, parameters from capabilities.

The fake answers 400, as the API does, when a thinking block is not echoed byte for byte,
when what came before it changed, or when the active tool loop's last message lost it; the
assistant then falls back to limited mode, so a spoken model reply means the fake accepted
every request of the turn.
"""

from __future__ import annotations

from typing import Any

from homeassistant.auth.models import User
from homeassistant.components import conversation
from homeassistant.components.conversation.chat_log import DATA_CHAT_LOGS
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er, llm
from homeassistant.setup import async_setup_component
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn.agent.const import (
    CONF_INSTRUCTIONS,
    CONF_LLM_APIS,
    CONF_MAX_TOKENS,
    CONF_MODEL,
    CONF_THINKING_EFFORT,
    DEFAULT_OPTIONS,
)
from custom_components.linn.agent.history import ConversationStore
from custom_components.linn.diagnostics import async_get_config_entry_diagnostics
from linn_emulator import LinnEmulator
from testing.fake_anthropic import FakeAnthropic, Reply, ToolUse
from testing.fake_anthropic.plans import RecordedRequest
from testing.ha.streamers import ENTITY_ID
from testing.helpers import wait_for

from .chat import AGENT, API_KEY, PLAYER, assistant_entry, converse, speech

THINKING = "claude-haiku-5-5"


@pytest.fixture
def assistant_options() -> dict[str, Any]:
    """Claude Haiku 5.5 (adaptive thinking), the default effort."""
    return {**DEFAULT_OPTIONS, CONF_MODEL: THINKING}


def blocks(request: RecordedRequest, index: int) -> list[dict[str, Any]]:
    """The content blocks of one message of a request."""
    return list(request.messages[index]["content"])


def types(request: RecordedRequest, index: int) -> list[str]:
    return [block["type"] for block in blocks(request, index)]


def set_volume(volume: int) -> Reply:
    return Reply(tool_uses=(ToolUse("linn__set_volume", {"player": PLAYER, "volume": volume}),))


async def volume_turn(
    hass: HomeAssistant,
    user: User,
    server: FakeAnthropic,
    emulator: LinnEmulator,
    volume: int,
    *,
    conversation_id: str | None = None,
) -> conversation.ConversationResult:
    """A turn in which the model sets the living room's volume, then says so."""
    server.script(set_volume(volume), Reply(f"At {volume}."))
    result = await converse(hass, f"living room to {volume}", user, conversation_id)
    assert speech(result) == f"At {volume}."
    await wait_for(lambda: emulator.state.volume == volume)
    return result


@pytest.mark.usefixtures("assistant")
async def test_a_tool_call_on_haiku_5_5_sends_its_thinking_back_as_received(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    await volume_turn(hass, hass_admin_user, fake, emulator, 35)
    first, second = fake.message_requests
    assert first.body["thinking"] == {"type": "adaptive"}
    assert first.body["output_config"] == {"effort": "low"}
    assert "temperature" not in first.body
    echoed = blocks(second, 1)
    assert [block["type"] for block in echoed] == ["thinking", "tool_use"]
    # Haiku 5.5 omits the thinking text: the empty block goes back with its signature
    assert echoed[0]["thinking"] == ""
    assert echoed[0]["signature"]
    assert echoed[1]["input"] == {"player": PLAYER, "volume": 35}


@pytest.mark.usefixtures("assistant")
async def test_a_redacted_thinking_block_goes_back_in_its_place(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    fake.script(
        Reply(
            tool_uses=(ToolUse("linn__set_volume", {"player": PLAYER, "volume": 30}),),
            redacted_thinking=True,
        ),
        Reply("Done."),
    )
    result = await converse(hass, "living room to 30", hass_admin_user)
    assert speech(result) == "Done."
    await wait_for(lambda: emulator.state.volume == 30)
    second = fake.message_requests[1]
    assert types(second, 1) == ["thinking", "redacted_thinking", "tool_use"]
    assert blocks(second, 1)[1]["data"]


@pytest.mark.usefixtures("assistant")
async def test_a_follow_up_turn_keeps_the_earlier_turns_thinking(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    first = await volume_turn(hass, hass_admin_user, fake, emulator, 25)
    await volume_turn(
        hass, hass_admin_user, fake, emulator, 28, conversation_id=first.conversation_id
    )
    follow_up = fake.message_requests[2]
    # user, [thinking, tool_use], [tool_result], [thinking, text], user
    assert types(follow_up, 1) == ["thinking", "tool_use"]
    assert types(follow_up, 3) == ["thinking", "text"]
    assert follow_up.messages[1] == fake.message_requests[1].messages[1]  # as in turn one
    assert types(fake.message_requests[3], 5) == ["thinking", "tool_use"]


async def test_after_an_options_change_the_earlier_thinking_is_dropped(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    fake: FakeAnthropic,
    assistant: MockConfigEntry,
) -> None:
    first = await volume_turn(hass, hass_admin_user, fake, emulator, 25)
    hass.config_entries.async_update_entry(
        assistant, options={**assistant.options, CONF_INSTRUCTIONS: "Answer very briefly."}
    )
    await volume_turn(
        hass, hass_admin_user, fake, emulator, 28, conversation_id=first.conversation_id
    )
    follow_up, last = fake.message_requests[2:]
    assert "Answer very briefly." in follow_up.system_text
    assert types(follow_up, 1) == ["tool_use"]  # the system prompt changed after it
    assert types(follow_up, 3) == ["text"]
    assert types(last, 5) == ["thinking", "tool_use"]  # this turn's own, kept


async def test_a_conversation_whose_record_was_evicted_drops_its_earlier_thinking(
    hass: HomeAssistant,
    hass_admin_user: User,
    fake: FakeAnthropic,
    assistant: MockConfigEntry,
) -> None:
    assistant.runtime_data.conversations = ConversationStore(conversations=1)
    fake.script(Reply("Hello."))
    first = await converse(hass, "hello", hass_admin_user)
    fake.script(Reply("Hi there."))
    await converse(hass, "hi", hass_admin_user)  # another conversation evicts the first
    fake.script(Reply("Still here."))
    again = await converse(hass, "are you there", hass_admin_user, first.conversation_id)
    assert speech(again) == "Still here."
    assert types(fake.message_requests[2], 1) == ["text"]


@pytest.mark.parametrize(
    "assistant_options",
    [
        {**DEFAULT_OPTIONS, CONF_MODEL: THINKING, CONF_THINKING_EFFORT: "off"},
        # a small output limit stored before the form required room for thinking
        {
            **DEFAULT_OPTIONS,
            CONF_MODEL: THINKING,
            CONF_THINKING_EFFORT: "low",
            CONF_MAX_TOKENS: 256,
        },
    ],
    ids=["off", "too-few-tokens"],
)
@pytest.mark.usefixtures("assistant")
async def test_effort_off_disables_thinking(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    await volume_turn(hass, hass_admin_user, fake, emulator, 33)
    first, second = fake.message_requests
    assert first.body["thinking"] == {"type": "disabled"}
    assert "output_config" not in first.body
    assert types(second, 1) == ["tool_use"]


@pytest.mark.parametrize(
    "assistant_options",
    [{**DEFAULT_OPTIONS, CONF_MODEL: "claude-haiku-4-5", CONF_THINKING_EFFORT: "high"}],
)
@pytest.mark.usefixtures("assistant")
async def test_haiku_4_5_gets_no_thinking_parameters(
    hass: HomeAssistant, hass_admin_user: User, fake: FakeAnthropic
) -> None:
    fake.script(Reply("Hello."))
    assert speech(await converse(hass, "hello", hass_admin_user)) == "Hello."
    (request,) = fake.message_requests
    assert "thinking" not in request.body
    assert "output_config" not in request.body


@pytest.mark.usefixtures("loaded_entry")
async def test_a_server_without_capabilities_gets_no_thinking_parameters(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    options = {**DEFAULT_OPTIONS, CONF_MODEL: THINKING}
    async with (
        FakeAnthropic(api_key=API_KEY, capabilities=False) as server,
        assistant_entry(hass, server, "Claude assistant", options, AGENT) as entry,
    ):
        await volume_turn(hass, hass_admin_user, server, emulator, 31)
        first, second = server.message_requests
        assert "thinking" not in first.body
        assert "output_config" not in first.body
        # the model thinks by default all the same, and gets its thinking back
        assert types(second, 1) == ["thinking", "tool_use"]
        thinking = (await async_get_config_entry_diagnostics(hass, entry))["thinking"]
        assert thinking["capabilities"]["source"] == "not_reported"
        assert thinking["last_request_params"] == {}


@pytest.mark.usefixtures("assistant")
async def test_a_refusal_gets_its_own_reply_and_the_refused_turn_is_not_sent_again(
    hass: HomeAssistant, hass_admin_user: User, fake: FakeAnthropic
) -> None:
    fake.script(Reply("Hello."))
    first = await converse(hass, "hello", hass_admin_user)
    fake.script(Reply("I", stop_reason="refusal"))
    refused = await converse(
        hass, "something it will not do", hass_admin_user, first.conversation_id
    )
    assert speech(refused) == "I can't help with that one."
    assert refused.response.error_code is None
    fake.script(Reply("Hello again."))
    again = await converse(hass, "hello again", hass_admin_user, first.conversation_id)
    assert speech(again) == "Hello again."
    request = fake.message_requests[2]
    # user, [thinking, "Hello."], user: the refused turn is left out, the first kept
    assert types(request, 1) == ["thinking", "text"]
    assert len(request.messages) == 3
    assert "something it will not do" not in str(request.messages)
    assert request.last_user_text == "hello again"


@pytest.mark.usefixtures("assistant")
async def test_our_words_after_a_model_message_send_it_back_without_its_thinking(
    hass: HomeAssistant, hass_admin_user: User, fake: FakeAnthropic
) -> None:
    fake.script(Reply("", stop_reason="max_tokens"))  # only thinking, out of tokens
    cut = await converse(hass, "hello", hass_admin_user)
    assert speech(cut) == "Sorry, the assistant could not answer that."
    fake.script(Reply("Hello."))
    again = await converse(hass, "hello?", hass_admin_user, cut.conversation_id)
    assert speech(again) == "Hello."
    # the model's message and our line are one message: not the one the API returned
    assert types(fake.message_requests[1], 1) == ["text"]


@pytest.mark.usefixtures("assistant")
async def test_diagnostics_show_the_capabilities_and_the_parameters_sent(
    hass: HomeAssistant, hass_admin_user: User, fake: FakeAnthropic, assistant: MockConfigEntry
) -> None:
    fake.script(Reply("Hello."))
    await converse(hass, "hello", hass_admin_user)
    thinking = (await async_get_config_entry_diagnostics(hass, assistant))["thinking"]
    assert thinking == {
        "effort_option": "low",
        "capabilities": {
            "model": THINKING,
            "source": "api",
            "thinking_adaptive": True,
            "thinking_enabled": False,
            "effort": True,
            "effort_levels": ["low", "medium", "high", "xhigh", "max"],
        },
        "last_request_params": {
            "thinking": {"type": "adaptive"},
            "output_config": {"effort": "low"},
        },
        "option_not_applied": None,
    }
    assert API_KEY not in str(thinking)


@pytest.mark.usefixtures("assistant")
async def test_a_tool_no_longer_offered_keeps_its_call_and_result_paired(
    hass: HomeAssistant, hass_admin_user: User, fake: FakeAnthropic
) -> None:
    fake.script(
        Reply(tool_uses=(ToolUse("remember", {"fact": "I like jazz"}, id="toolu_jazz"),)),
        Reply("I will remember that."),
    )
    first = await converse(hass, "remember that I like jazz", hass_admin_user)
    assert speech(first) == "I will remember that."
    fake.script(Reply("Hello."))
    # no signed-in user now: remember is not offered, but its call goes back as it came
    # (without its thinking: the tools changed after it), answered by its own result
    again = await converse(hass, "hello", None, first.conversation_id)
    assert speech(again) == "Hello."
    request = fake.message_requests[2]
    assert "remember" not in {tool["name"] for tool in request.body["tools"]}
    assert types(request, 1) == ["tool_use"]
    (result,) = blocks(request, 2)
    assert (result["type"], result["tool_use_id"]) == ("tool_result", "toolu_jazz")
    assert "I like jazz" in result["content"]


@pytest.mark.usefixtures("loaded_entry")
async def test_displayed_thinking_goes_to_the_chat_log_not_the_reply(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    model = "claude-sonnet-5-5"  # its thinking text is displayed by default
    options = {**DEFAULT_OPTIONS, CONF_MODEL: model}
    async with (
        FakeAnthropic(api_key=API_KEY, models=((model, "Claude Sonnet 5.5"),)) as server,
        assistant_entry(hass, server, "Claude assistant", options, AGENT),
    ):
        server.script(
            Reply(
                tool_uses=(ToolUse("linn__set_volume", {"player": PLAYER, "volume": 32}),),
                thinking="They want the living room at 32.",
            ),
            Reply("At 32.", thinking="Done; say so."),
        )
        result = await converse(hass, "living room to 32", hass_admin_user)
        assert speech(result) == "At 32."
        log = hass.data[DATA_CHAT_LOGS][result.conversation_id]
        thoughts = [
            item.thinking_content
            for item in log.content
            if isinstance(item, conversation.AssistantContent)
        ]
        assert thoughts == ["They want the living room at 32.", "Done; say so."]
        echoed = server.message_requests[1].messages[1]["content"][0]
        assert echoed["thinking"] == "They want the living room at 32."


@pytest.mark.parametrize("assistant_options", [{**DEFAULT_OPTIONS, CONF_MODEL: "claude-haiku-4-5"}])
async def test_choosing_a_thinking_model_in_the_options_looks_up_its_capabilities(
    hass: HomeAssistant,
    hass_admin_user: User,
    fake: FakeAnthropic,
    assistant: MockConfigEntry,
) -> None:
    fake.script(Reply("Hello."))
    await converse(hass, "hello", hass_admin_user)
    assert "thinking" not in fake.message_requests[0].body  # Haiku 4.5
    flow = await hass.config_entries.options.async_init(assistant.entry_id)
    flow = await hass.config_entries.options.async_configure(
        flow["flow_id"], {"next_step_id": "assistant"}
    )
    effort = next(v for k, v in flow["data_schema"].schema.items() if k == CONF_THINKING_EFFORT)
    assert effort.config["options"] == ["off", "low", "medium", "high"]
    flow = await hass.config_entries.options.async_configure(
        flow["flow_id"],
        {**assistant.options, CONF_MODEL: THINKING, CONF_THINKING_EFFORT: "medium"},
    )
    assert assistant.options[CONF_THINKING_EFFORT] == "medium"
    fake.script(Reply("Hello again."))
    assert speech(await converse(hass, "hello", hass_admin_user)) == "Hello again."
    request = fake.message_requests[-1]
    assert request.body["thinking"] == {"type": "adaptive"}
    assert request.body["output_config"] == {"effort": "medium"}
    # Haiku 4.5's came with the key check's model list at setup; the new model is asked for
    assert [r.path for r in fake.requests if r.path.startswith("/v1/models/")] == [
        f"/v1/models/{THINKING}"
    ]


@pytest.mark.parametrize(
    "assistant_options",
    [{**DEFAULT_OPTIONS, CONF_MODEL: THINKING, CONF_LLM_APIS: [llm.LLM_API_ASSIST]}],
)
@pytest.mark.usefixtures("assistant")
async def test_a_changed_assist_prompt_drops_the_thinking_after_it(
    hass: HomeAssistant, hass_admin_user: User, fake: FakeAnthropic
) -> None:
    fake.script(Reply("Hello."))
    first = await converse(hass, "hello", hass_admin_user)
    er.async_get(hass).async_update_entity(ENTITY_ID, aliases={"Hi-fi"})
    fake.script(Reply("Hello again."))
    again = await converse(hass, "hello again", hass_admin_user, first.conversation_id)
    assert speech(again) == "Hello again."
    before, after = fake.message_requests
    assert before.body["tools"] == after.body["tools"]
    assert before.system_text == after.system_text
    assert "Hi-fi" in blocks(after, 0)[0]["text"]  # only the Assist prompt changed
    assert types(after, 1) == ["text"]
