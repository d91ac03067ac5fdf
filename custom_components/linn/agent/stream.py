"""The SDK's stream events as Home Assistant chat-log deltas, with the call's usage.

Every content block the API returns is also kept, verbatim and in order, in the message's
`native` (native.ModelMessage): thinking with its signature, redacted_thinking, text, and
tool_use with its parsed input. The next request sends them back as they came.
"""

from __future__ import annotations

from collections import deque
import copy
import json
from typing import Any, Self

from anthropic import AsyncStream
from anthropic.types import (
    InputJSONDelta,
    RawContentBlockDeltaEvent,
    RawContentBlockStartEvent,
    RawContentBlockStopEvent,
    RawMessageDeltaEvent,
    RawMessageStartEvent,
    RawMessageStreamEvent,
    SignatureDelta,
    TextDelta,
    ThinkingDelta,
)
from homeassistant.components import conversation
from homeassistant.helpers import llm

from .native import ModelMessage
from .usage import Usage


class MalformedToolInput(Exception):
    """A tool_use block's input was not a JSON object."""


class DeltaStream:
    """Async iterator of deltas; `usage` and `stop_reason` are set as the events arrive.

    A tool call is handed to the chat log when its block is complete, so the chat log
    starts it while the model is still streaming the next one. Thinking text goes to the
    chat log's `thinking_content` (it is empty when the model omits it).
    """

    def __init__(self, stream: AsyncStream[RawMessageStreamEvent], model: str) -> None:
        """Deltas of `stream`, a reply of `model`."""
        self._events = stream.__aiter__()
        self._pending: deque[conversation.AssistantContentDeltaDict] = deque()
        self._open: dict[int, dict[str, Any]] = {}
        """Blocks started and not yet stopped, by their index in the message."""
        self._tool_json: dict[int, str] = {}
        self.message = ModelMessage(model)
        self.usage = Usage()
        self.stop_reason: str | None = None

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> conversation.AssistantContentDeltaDict:
        while not self._pending:
            event = await self._events.__anext__()  # StopAsyncIteration ends us too
            self._on_event(event)
        return self._pending.popleft()

    def _on_event(self, event: RawMessageStreamEvent) -> None:
        if isinstance(event, RawMessageStartEvent):
            usage = event.message.usage
            self.usage = Usage(
                input_tokens=usage.input_tokens,
                output_tokens=usage.output_tokens,
                cache_read_tokens=usage.cache_read_input_tokens or 0,
                cache_write_tokens=usage.cache_creation_input_tokens or 0,
            )
            # The chat log allows one native per message, set with its first delta.
            self._pending.append({"role": "assistant", "native": self.message})
        elif isinstance(event, RawContentBlockStartEvent):
            self._on_block_start(event.index, event.content_block.to_dict())
        elif isinstance(event, RawContentBlockDeltaEvent):
            self._on_delta(event)
        elif isinstance(event, RawContentBlockStopEvent):
            self._on_block_stop(event.index)
        elif isinstance(event, RawMessageDeltaEvent):
            self.usage = Usage(
                input_tokens=self.usage.input_tokens,
                output_tokens=event.usage.output_tokens,
                cache_read_tokens=self.usage.cache_read_tokens,
                cache_write_tokens=self.usage.cache_write_tokens,
            )
            if event.delta.stop_reason is not None:
                self.stop_reason = event.delta.stop_reason

    def _on_block_start(self, index: int, block: dict[str, Any]) -> None:
        """A block as the API started it (fields the SDK does not know are kept too)."""
        self._open[index] = block
        if block.get("type") == "tool_use":
            self._tool_json[index] = ""
        elif block.get("type") == "text" and block.get("text"):
            self._pending.append({"content": str(block["text"])})
        elif block.get("type") == "thinking" and block.get("thinking"):
            self._pending.append({"thinking_content": str(block["thinking"])})

    def _on_delta(self, event: RawContentBlockDeltaEvent) -> None:
        block = self._open.get(event.index)
        if block is None:
            return
        delta = event.delta
        if isinstance(delta, TextDelta):
            block["text"] = str(block.get("text", "")) + delta.text
            if delta.text:
                self._pending.append({"content": delta.text})
        elif isinstance(delta, InputJSONDelta):
            self._tool_json[event.index] = self._tool_json.get(event.index, "") + (
                delta.partial_json
            )
        elif isinstance(delta, ThinkingDelta):
            block["thinking"] = str(block.get("thinking", "")) + delta.thinking
            if delta.thinking:
                self._pending.append({"thinking_content": delta.thinking})
        elif isinstance(delta, SignatureDelta):
            # The signature arrives just before content_block_stop; it is opaque.
            block["signature"] = str(block.get("signature", "")) + delta.signature

    def _on_block_stop(self, index: int) -> None:
        block = self._open.pop(index, None)
        if block is None:
            return
        if block.get("type") == "tool_use":
            block["input"] = self._tool_input(block, self._tool_json.pop(index, ""))
            self.message.blocks.append(block)
            self._pending.append(
                {
                    "tool_calls": [
                        llm.ToolInput(
                            tool_name=str(block["name"]),
                            tool_args=copy.deepcopy(block["input"]),  # the block stays as sent
                            id=str(block["id"]),
                        )
                    ]
                }
            )
            return
        self.message.blocks.append(block)

    @staticmethod
    def _tool_input(block: dict[str, Any], partial_json: str) -> dict[str, Any]:
        try:
            arguments: Any = json.loads(partial_json) if partial_json else {}
        except ValueError as err:
            raise MalformedToolInput(block.get("name")) from err
        if not isinstance(arguments, dict):
            raise MalformedToolInput(block.get("name"))
        return arguments
