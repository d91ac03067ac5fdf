"""Home Assistant's chat log as Messages API messages, with the cache breakpoints in them."""

from __future__ import annotations

from collections.abc import Collection, Container, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from homeassistant.components import conversation
from homeassistant.helpers.json import json_dumps

from .native import ModelMessage
from .prompt import CACHE_CONTROL
from .refusal import refused_turns

API_CONTEXT_TAG: Final = "home_assistant_api"


def api_context_block(api_prompt: str) -> dict[str, Any]:
    """Other LLM APIs' prompt as a data block, itself a cache breakpoint (stable per user)."""
    return {
        "type": "text",
        "text": f"<{API_CONTEXT_TAG}>\n{api_prompt.strip()}\n</{API_CONTEXT_TAG}>",
        "cache_control": CACHE_CONTROL,
    }


TRIMMED_RESULT: Final = "(An earlier result, left out to save the conversation's budget.)"
"""Sent instead of a tool result before the record's trim point."""

INTERRUPTED_RESULT: Final = "No result: the turn ended before this tool answered."
"""The result sent for a tool call that has none in the chat log (a cancelled turn): every
tool_use needs its tool_result in the next message."""


type _Part = dict[str, Any] | tuple[int, ModelMessage]
"""A block we built, or a model message (its chat-log index and blocks)."""


@dataclass(slots=True)
class _Message:
    role: str
    parts: list[_Part]

    def blocks(self, drop_thinking: Container[int]) -> tuple[list[dict[str, Any]], list[int]]:
        """The content, and the chat-log indexes of the model messages sent with thinking.

        A model message merged with other content (our own line after it) is no longer
        the message the API returned, so its thinking goes.
        """
        merged = len(self.parts) > 1
        blocks: list[dict[str, Any]] = []
        kept: list[int] = []
        for part in self.parts:
            if isinstance(part, tuple):
                index, native = part
                drop = merged or index in drop_thinking
                blocks.extend(native.api_blocks(drop_thinking=drop))
                if not drop and native.has_thinking:
                    kept.append(index)
            else:
                blocks.append(part)
        return blocks, kept


@dataclass(slots=True)
class BuiltMessages:
    """The messages to send, and which chat-log entries' thinking each of them carries."""

    messages: list[dict[str, Any]]
    thinking_at: list[list[int]]
    """Per message: chat-log indexes of model messages whose thinking it sends back."""


def _user_parts(item: conversation.UserContent, facts: str | None) -> list[_Part]:
    """An utterance's parts: its turn facts (when sent), then its text (when it has any)."""
    parts: list[_Part] = []
    if facts is not None:
        parts.append({"type": "text", "text": facts})
    if item.content.strip():
        parts.append({"type": "text", "text": item.content})
    return parts


def chat_messages(
    content: Iterable[conversation.Content],
    facts: Mapping[int, str],
    tool_names: set[str],
    api_prompt: str = "",
    *,
    agent_id: str,
    model: str,
    drop_thinking: Collection[int] = (),
    trim_before: int = 0,
) -> BuiltMessages:
    """User, assistant and tool-result content in the API's shape.

    `facts`: turn facts per chat-log index; `api_prompt` opens the first message; the thinking
    at `drop_thinking` indexes, and of other agents (`agent_id`) or models (`model`), is left
    out; before index `trim_before` results and facts are trimmed (docs/assistant.md, "Thinking
    and messages sent back (for contributors)").
    """
    built: list[_Message] = []
    unanswered: list[str] = []
    entries = list(content)
    leave_out = refused_turns(entries)
    drop = set(drop_thinking) | _not_ours(entries, agent_id, model)

    def add(role: str, parts: list[_Part]) -> None:
        if not parts:
            return
        if built and built[-1].role == role:
            built[-1].parts.extend(parts)
        else:
            built.append(_Message(role, list(parts)))

    def answer_the_rest() -> None:
        add("user", [_interrupted(call_id) for call_id in unanswered])
        unanswered.clear()

    for index, item in enumerate(entries):
        if index in leave_out:
            continue
        if isinstance(item, conversation.UserContent):
            answer_the_rest()
            add("user", _user_parts(item, facts.get(index) if index >= trim_before else None))
        elif isinstance(item, conversation.ToolResultContent):
            if item.tool_call_id in unanswered:
                unanswered.remove(item.tool_call_id)
                add("user", [_tool_result(item, trimmed=index < trim_before)])
        elif isinstance(item, conversation.AssistantContent):
            answer_the_rest()
            if isinstance(item.native, ModelMessage) and item.native:
                unanswered.extend(item.native.tool_use_ids())
                add("assistant", [(index, item.native)])
            else:
                add("assistant", _built_assistant(item, tool_names, unanswered))
        # the system prompt is built separately
    answer_the_rest()
    messages, thinking_at = _api_messages(built, drop)
    if api_prompt.strip() and messages and messages[0]["role"] == "user":
        messages[0]["content"].insert(0, api_context_block(api_prompt))
    if messages:
        last = messages[-1]["content"][-1]
        messages[-1]["content"][-1] = {**last, "cache_control": CACHE_CONTROL}
    return BuiltMessages(messages, thinking_at)


def _api_messages(
    built: list[_Message], drop: set[int]
) -> tuple[list[dict[str, Any]], list[list[int]]]:
    """The built messages in the API's shape, with the indexes whose thinking each sends back.

    A message of thinking only, its thinking dropped, is left out.
    """
    messages: list[dict[str, Any]] = []
    thinking_at: list[list[int]] = []
    for message in built:
        blocks, kept = message.blocks(drop)
        if not blocks:
            continue
        messages.append({"role": message.role, "content": blocks})
        thinking_at.append(kept)
    return messages, thinking_at


def _not_ours(entries: Iterable[conversation.Content], agent_id: str, model: str) -> set[int]:
    """Chat-log indexes of model messages another agent or another model produced."""
    return {
        index
        for index, item in enumerate(entries)
        if isinstance(item, conversation.AssistantContent)
        and isinstance(item.native, ModelMessage)
        and (item.agent_id != agent_id or item.native.model != model)
    }


def _built_assistant(
    item: conversation.AssistantContent, tool_names: set[str], unanswered: list[str]
) -> list[_Part]:
    """Assistant content that no model message holds: our own words and calls."""
    parts: list[_Part] = []
    if item.content:
        parts.append({"type": "text", "text": item.content})
    for call in item.tool_calls or []:
        if call.tool_name in tool_names:
            parts.append(
                {"type": "tool_use", "id": call.id, "name": call.tool_name, "input": call.tool_args}
            )
            unanswered.append(call.id)
        else:
            parts.append({"type": "text", "text": f"(handled locally: {call.tool_name})"})
    return parts


def _tool_result(item: conversation.ToolResultContent, *, trimmed: bool) -> dict[str, Any]:
    return {
        "type": "tool_result",
        "tool_use_id": item.tool_call_id,
        "content": TRIMMED_RESULT if trimmed else json_dumps(item.result.data),
        "is_error": item.result.error,
    }


def _interrupted(call_id: str) -> dict[str, Any]:
    return {
        "type": "tool_result",
        "tool_use_id": call_id,
        "content": INTERRUPTED_RESULT,
        "is_error": True,
    }
