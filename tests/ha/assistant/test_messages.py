"""The chat log as API messages: model messages as captured, every sent call answered."""

from __future__ import annotations

from homeassistant.components import conversation
from homeassistant.helpers import llm

from custom_components.linn.agent.messages import INTERRUPTED_RESULT, chat_messages
from custom_components.linn.agent.native import ModelMessage

AGENT = "conversation.claude_assistant"
MODEL = "claude-haiku-5-5"
OURS = {"agent_id": AGENT, "model": MODEL}


def model_message(*blocks: dict) -> ModelMessage:
    message = ModelMessage(MODEL)
    message.blocks.extend(blocks)
    return message


THOUGHT = {"type": "thinking", "thinking": "", "signature": "c2ln"}
CALL = {"type": "tool_use", "id": "toolu_1", "name": "linn__pause", "input": {"player": "A"}}


def chat_log(native: ModelMessage) -> list[conversation.Content]:
    return [
        conversation.UserContent("pause"),
        conversation.AssistantContent(
            AGENT,
            tool_calls=[llm.ToolInput("linn__pause", {"player": "A"}, id="toolu_1")],
            native=native,
        ),
        conversation.UserContent("hello?"),
    ]


def test_a_call_left_without_a_result_is_answered_before_the_next_words() -> None:
    built = chat_messages(chat_log(model_message(THOUGHT, CALL)), {}, {"linn__pause"}, **OURS)
    assert built.messages[1]["content"] == [THOUGHT, CALL]
    first, words = built.messages[2]["content"]
    assert first == {
        "type": "tool_result",
        "tool_use_id": "toolu_1",
        "content": INTERRUPTED_RESULT,
        "is_error": True,
    }
    assert words["text"] == "hello?"
    assert built.thinking_at == [[], [1], []]


def test_a_dropped_message_goes_back_without_its_thinking_only() -> None:
    built = chat_messages(
        chat_log(model_message(THOUGHT, CALL)), {}, set(), drop_thinking={1}, **OURS
    )
    assert built.messages[1]["content"] == [CALL]  # sent as captured, even if not offered now
    assert built.thinking_at == [[], [], []]


def test_another_models_message_goes_back_without_its_thinking() -> None:
    native = ModelMessage("claude-sonnet-5-5")
    native.blocks.extend([THOUGHT, CALL])
    built = chat_messages(chat_log(native), {}, set(), **OURS)
    assert built.messages[1]["content"] == [CALL]
    assert built.thinking_at == [[], [], []]
