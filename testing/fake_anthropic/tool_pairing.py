"""The API's rule that every tool_use is answered by a tool_result in the very next message.

The Messages API answers 400 (invalid_request_error), with these messages, when an
assistant message's tool_use has no tool_result in the next message, and when a
tool_result names an id that the previous message did not use.
"""

from __future__ import annotations

from typing import Any, Final

from .plans import ApiError

MISSING_RESULT: Final = (
    "messages.{i}: `tool_use` ids were found without `tool_result` blocks immediately after: "
    "{ids}. Each `tool_use` block must have a corresponding `tool_result` block in the next "
    "message."
)
UNEXPECTED_RESULT: Final = (
    "messages.{i}.content.{j}: unexpected `tool_use_id` found in `tool_result` blocks: {id}. "
    "Each `tool_result` block must have a corresponding `tool_use` block in the previous "
    "message."
)


def _blocks(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message.get("content")
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _used(message: dict[str, Any]) -> list[str]:
    if message.get("role") != "assistant":
        return []
    return [str(b.get("id")) for b in _blocks(message) if b.get("type") == "tool_use"]


def check_tool_pairing(messages: list[dict[str, Any]]) -> ApiError | None:
    """The 400 for the first tool_use left unanswered or tool_result left unasked, if any."""
    for i, message in enumerate(messages):
        if message.get("role") == "assistant" and i + 1 < len(messages):
            following = messages[i + 1]
            answered = {
                str(b.get("tool_use_id"))
                for b in _blocks(following)
                if following.get("role") == "user" and b.get("type") == "tool_result"
            }
            missing = [call for call in _used(message) if call not in answered]
            if missing:
                text = MISSING_RESULT.format(i=i + 1, ids=", ".join(missing))
                return ApiError(400, "invalid_request_error", text)
        elif message.get("role") == "user":
            asked = set(_used(messages[i - 1])) if i > 0 else set()
            for j, block in enumerate(_blocks(message)):
                if block.get("type") == "tool_result" and block.get("tool_use_id") not in asked:
                    text = UNEXPECTED_RESULT.format(i=i, j=j, id=block.get("tool_use_id"))
                    return ApiError(400, "invalid_request_error", text)
    return None
