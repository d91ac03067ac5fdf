"""messages_to_send: thinking dropped from a change on, never the active tool loop's."""

from __future__ import annotations

from homeassistant.components import conversation
from homeassistant.helpers import llm

from custom_components.linn.agent.history import ConversationStore, messages_to_send
from custom_components.linn.agent.messages import BuiltMessages, chat_messages
from custom_components.linn.agent.native import ModelMessage

AGENT = "conversation.claude_assistant"
MODEL = "claude-haiku-5-5"


def step(number: int) -> list[conversation.Content]:
    """A model message with thinking and a call, and the call's result."""
    native = ModelMessage(MODEL)
    call_id = f"toolu_{number}"
    native.blocks.extend(
        [
            {"type": "thinking", "thinking": "", "signature": f"sig{number}"},
            {"type": "tool_use", "id": call_id, "name": "linn__pause", "input": {}},
        ]
    )
    return [
        conversation.AssistantContent(
            AGENT, tool_calls=[llm.ToolInput("linn__pause", {}, id=call_id)], native=native
        ),
        conversation.ToolResultContent(AGENT, call_id, "linn__pause", llm.ToolResult({"ok": 1})),
    ]


def send(
    store: ConversationStore, content: list[conversation.Content], system: str, active: int
) -> BuiltMessages:
    record = store.get("kitchen", content)
    return messages_to_send(
        record,
        content,
        MODEL,
        {"system": system},
        lambda dropped: chat_messages(
            content, {}, {"linn__pause"}, agent_id=AGENT, model=MODEL, drop_thinking=dropped
        ),
        active=active,
    )


def test_a_changed_prefix_mid_loop_keeps_the_active_messages_thinking() -> None:
    store = ConversationStore()
    content: list[conversation.Content] = [conversation.UserContent("pause"), *step(1)]
    assert send(store, content, "system one", active=1).thinking_at == [[], [1], []]
    content.extend(step(2))
    built = send(store, content, "system two", active=3)  # the system prompt changed
    assert built.thinking_at == [[], [], [], [3], []]


def test_a_message_dropped_before_keeps_its_thinking_while_it_is_the_active_one() -> None:
    store = ConversationStore()
    content: list[conversation.Content] = [conversation.UserContent("pause"), *step(1)]
    send(store, content, "system", active=1)
    store.get("kitchen", content).dropped.add(1)
    assert send(store, content, "system", active=1).thinking_at == [[], [1], []]


def test_positions_of_a_turn_that_was_never_stored_are_forgotten() -> None:
    store = ConversationStore()
    kept: list[conversation.Content] = [
        conversation.SystemContent("prompt"),
        conversation.UserContent("pause"),
        conversation.AssistantContent(AGENT, content="Paused."),
    ]
    cancelled = [*kept, conversation.UserContent("louder"), *step(1)]
    record = store.get("kitchen", cancelled)
    record.facts.update({1: "facts of pause", 3: "facts of louder"})
    record.dropped.add(4)
    # Home Assistant stores no content of a cancelled turn: the next one reuses position 3
    again = [conversation.SystemContent("prompt"), *kept[1:], conversation.UserContent("hi")]
    record = store.get("kitchen", again)
    assert record.facts == {1: "facts of pause"}
    assert record.dropped == set()
