"""Home Assistant's chat log as Messages API messages, with the cache breakpoints in them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

from homeassistant.components import conversation
from homeassistant.helpers.json import json_dumps

from .prompt import CACHE_CONTROL

API_CONTEXT_TAG: Final = "home_assistant_api"


def api_context_block(api_prompt: str) -> dict[str, Any]:
    """Other LLM APIs' prompt as a data block, itself a cache breakpoint (stable per user)."""
    return {
        "type": "text",
        "text": f"<{API_CONTEXT_TAG}>\n{api_prompt.strip()}\n</{API_CONTEXT_TAG}>",
        "cache_control": CACHE_CONTROL,
    }


def chat_messages(
    content: Iterable[conversation.Content],
    facts: Mapping[int, str],
    tool_names: set[str],
    api_prompt: str = "",
) -> list[dict[str, Any]]:
    """User, assistant and tool-result content in the API's shape.

    `facts` are the turn facts sent with the user content at each chat-log index: they go
    before that utterance's text, so every earlier message is sent again exactly as it was
    (the cached history matches) and the facts never enter the stable prefix. `api_prompt`
    (other LLM APIs' prompt) opens the first message as data. Calls of tools the model is
    not offered (local intents of limited mode) are told as text. The last block of the
    last message is the moving cache breakpoint.
    """
    messages: list[dict[str, Any]] = []
    for index, item in enumerate(content):
        blocks: list[dict[str, Any]]
        if isinstance(item, conversation.UserContent):
            role = "user"
            blocks = []
            if index in facts:
                blocks.append({"type": "text", "text": facts[index]})
            if item.content.strip():
                blocks.append({"type": "text", "text": item.content})
        elif isinstance(item, conversation.ToolResultContent):
            if item.tool_name not in tool_names:
                continue
            role = "user"
            blocks = [
                {
                    "type": "tool_result",
                    "tool_use_id": item.tool_call_id,
                    "content": json_dumps(item.result.data),
                    "is_error": item.result.error,
                }
            ]
        elif isinstance(item, conversation.AssistantContent):
            role = "assistant"
            blocks = []
            if item.content:
                blocks.append({"type": "text", "text": item.content})
            for call in item.tool_calls or []:
                if call.tool_name in tool_names:
                    blocks.append(
                        {
                            "type": "tool_use",
                            "id": call.id,
                            "name": call.tool_name,
                            "input": call.tool_args,
                        }
                    )
                else:
                    blocks.append({"type": "text", "text": f"(handled locally: {call.tool_name})"})
        else:  # the system prompt is built separately
            continue
        if not blocks:
            continue
        if messages and messages[-1]["role"] == role:
            messages[-1]["content"].extend(blocks)
        else:
            messages.append({"role": role, "content": blocks})
    if api_prompt.strip() and messages and messages[0]["role"] == "user":
        messages[0]["content"].insert(0, api_context_block(api_prompt))
    if messages:
        last = messages[-1]["content"][-1]
        messages[-1]["content"][-1] = {**last, "cache_control": CACHE_CONTROL}
    return messages
