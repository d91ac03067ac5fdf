"""Home Assistant's chat log as Messages API messages."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from homeassistant.components import conversation
from homeassistant.helpers.json import json_dumps


def chat_messages(
    content: Iterable[conversation.Content], facts: str, tool_names: set[str]
) -> list[dict[str, Any]]:
    """User, assistant and tool-result content in the API's shape.

    `facts` go before the text of the last user utterance, so they never enter the cached
    prefix and the history of earlier turns stays as it was sent. Calls of tools the model
    is not offered (local intents of limited mode) are told as text.
    """
    items = list(content)
    last_user = max(
        (i for i, item in enumerate(items) if isinstance(item, conversation.UserContent)),
        default=-1,
    )
    messages: list[dict[str, Any]] = []
    for index, item in enumerate(items):
        blocks: list[dict[str, Any]]
        if isinstance(item, conversation.UserContent):
            role = "user"
            blocks = []
            if index == last_user:
                blocks.append({"type": "text", "text": facts})
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
    return messages
