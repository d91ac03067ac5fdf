"""The SDK's stream events as Home Assistant chat-log deltas, with the call's usage."""

from __future__ import annotations

from collections import deque
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
    TextBlock,
    TextDelta,
    ToolUseBlock,
)
from homeassistant.components import conversation
from homeassistant.helpers import llm

from .usage import Usage


class MalformedToolInput(Exception):
    """A tool_use block's input was not a JSON object."""


class DeltaStream:
    """Async iterator of deltas; `usage` and `stop_reason` are set as the events arrive.

    A tool call is handed to the chat log when its block is complete, so the chat log
    starts it while the model is still streaming the next one.
    """

    def __init__(self, stream: AsyncStream[RawMessageStreamEvent]) -> None:
        self._events = stream.__aiter__()
        self._pending: deque[conversation.AssistantContentDeltaDict] = deque()
        self._tool: ToolUseBlock | None = None
        self._tool_json = ""
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
            self._pending.append({"role": "assistant"})
        elif isinstance(event, RawContentBlockStartEvent):
            block = event.content_block
            if isinstance(block, ToolUseBlock):
                self._tool, self._tool_json = block, ""
            elif isinstance(block, TextBlock) and block.text:
                self._pending.append({"content": block.text})
        elif isinstance(event, RawContentBlockDeltaEvent):
            delta = event.delta
            if isinstance(delta, TextDelta) and delta.text:
                self._pending.append({"content": delta.text})
            elif isinstance(delta, InputJSONDelta):
                self._tool_json += delta.partial_json
        elif isinstance(event, RawContentBlockStopEvent):
            self._finish_tool()
        elif isinstance(event, RawMessageDeltaEvent):
            self.usage = Usage(
                input_tokens=self.usage.input_tokens,
                output_tokens=event.usage.output_tokens,
                cache_read_tokens=self.usage.cache_read_tokens,
                cache_write_tokens=self.usage.cache_write_tokens,
            )
            if event.delta.stop_reason is not None:
                self.stop_reason = event.delta.stop_reason

    def _finish_tool(self) -> None:
        if self._tool is None:
            return
        block, self._tool = self._tool, None
        try:
            arguments: Any = json.loads(self._tool_json) if self._tool_json else {}
        except ValueError as err:
            raise MalformedToolInput(block.name) from err
        if not isinstance(arguments, dict):
            raise MalformedToolInput(block.name)
        self._pending.append(
            {"tool_calls": [llm.ToolInput(tool_name=block.name, tool_args=arguments, id=block.id)]}
        )
