"""A message as the API's server-sent events: the event list, and writing it to a response.

Text and thinking arrive in word chunks (`Reply.chunk_words`), a tool call's input as two
partial JSON deltas, a thinking block's signature just before its stop; a reply may stall
after a number of events (`Reply.stall_after_events`).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from aiohttp import web

from .plans import Reply


async def write_stream(
    request: web.Request, message: dict[str, Any], reply: Reply
) -> web.StreamResponse:
    """Answer `request` with `message` as server-sent events (stalling where `reply` says)."""
    response = web.StreamResponse(headers={"content-type": "text/event-stream"})
    await response.prepare(request)
    for sent, event in enumerate(message_events(message, reply)):
        if reply.stall_after_events is not None and sent == reply.stall_after_events:
            await asyncio.sleep(reply.stall_seconds)
        payload = f"event: {event['type']}\ndata: {json.dumps(event)}\n\n"
        await response.write(payload.encode())
    await response.write_eof()
    return response


def message_events(message: dict[str, Any], reply: Reply) -> list[dict[str, Any]]:
    """The SSE events of one message, in the API's order."""
    usage = message["usage"]
    start = {**message, "content": [], "stop_reason": None}
    start["usage"] = {**usage, "output_tokens": 1}
    events: list[dict[str, Any]] = [{"type": "message_start", "message": start}]
    for index, block in enumerate(message["content"]):
        if block["type"] == "text":
            events.append(
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": {"type": "text", "text": ""},
                }
            )
            events.extend(
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "text_delta", "text": chunk},
                }
                for chunk in _chunks(block["text"], reply.chunk_words)
            )
        elif block["type"] == "thinking":
            events.extend(_thinking_events(index, block, reply.chunk_words))
        elif block["type"] == "redacted_thinking":
            events.append({"type": "content_block_start", "index": index, "content_block": block})
        else:
            events.append(
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": {**block, "input": {}},
                }
            )
            arguments = json.dumps(block["input"])
            middle = len(arguments) // 2
            events.extend(
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "input_json_delta", "partial_json": part},
                }
                for part in (arguments[:middle], arguments[middle:])
                if part
            )
        events.append({"type": "content_block_stop", "index": index})
    events.append(
        {
            "type": "message_delta",
            "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
            "usage": {"output_tokens": usage["output_tokens"]},
        }
    )
    events.append({"type": "message_stop"})
    return events


def _thinking_events(index: int, block: dict[str, Any], words: int) -> list[dict[str, Any]]:
    """A thinking block: empty at its start, text in deltas, the signature just before its stop."""
    events: list[dict[str, Any]] = [
        {
            "type": "content_block_start",
            "index": index,
            "content_block": {"type": "thinking", "thinking": "", "signature": ""},
        }
    ]
    if block["thinking"]:
        events.extend(
            {
                "type": "content_block_delta",
                "index": index,
                "delta": {"type": "thinking_delta", "thinking": chunk},
            }
            for chunk in _chunks(block["thinking"], words)
        )
    events.append(
        {
            "type": "content_block_delta",
            "index": index,
            "delta": {"type": "signature_delta", "signature": block["signature"]},
        }
    )
    return events


def _chunks(text: str, words: int) -> list[str]:
    parts = text.split(" ")
    return [
        " ".join(parts[i : i + words]) + (" " if i + words < len(parts) else "")
        for i in range(0, len(parts), max(1, words))
    ]


__all__ = ["message_events", "write_stream"]
