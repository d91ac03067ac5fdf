"""One model call streamed into the chat log: retried once on a rate limit or overload.

The call's usage goes to the guard's ledger and the chat log's trace, and what it said
about the prompt cache to the runtime, however the stream ends.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import anthropic
from homeassistant.components import conversation
from homeassistant.core import HomeAssistant

from ..guard import Ledger
from ..tools.ha_adapter import DATA_GUARD
from .caching import cache_report
from .const import MAX_RETRY_DELAY, RETRY_DELAY
from .runtime import AssistantRuntime
from .stream import DeltaStream

_LOGGER = logging.getLogger(__name__)

RETRIED = (
    anthropic.RateLimitError,
    anthropic.OverloadedError,
    anthropic.ServiceUnavailableError,
    anthropic.InternalServerError,
)
"""429, 529 (overloaded) and other 5xx: worth one more try."""


async def async_stream_with_retry(
    hass: HomeAssistant,
    runtime: AssistantRuntime,
    chat_log: conversation.ChatLog,
    request: dict[str, Any],
    *,
    agent_id: str,
    model: str,
    ledger: Ledger,
    user_id: str | None,
) -> str | None:
    """Stream the model's message into the chat log (its tools start as they arrive).

    The stop reason. Raises the SDK's error of a failed call (one retry of RETRIED) and
    stream.MalformedToolInput.
    """
    # A per-request timeout, not client.with_options(): anthropic SDK 0.125.0 reads its
    # profile file there, a blocking call in the event loop.
    messages, timeout = runtime.client.messages, runtime.model_timeout
    try:
        stream = await messages.create(**request, stream=True, timeout=timeout)
    except RETRIED as err:
        delay = retry_delay(err)
        _LOGGER.info("Model call failed (%s); one retry in %.1f s", err.status_code, delay)
        await asyncio.sleep(delay)
        stream = await messages.create(**request, stream=True, timeout=timeout)
    deltas = DeltaStream(stream, model)
    try:
        async with stream:
            async for _content in chat_log.async_add_delta_content_stream(agent_id, deltas):
                pass
    finally:
        ledger.add_amounts(
            chat_log.conversation_id, deltas.usage.ledger_amounts(model), user_id=user_id
        )
        hass.data[DATA_GUARD].async_ledger_changed()
        chat_log.async_trace({"stats": deltas.usage.ledger_amounts(model)})
        if deltas.usage.prompt_tokens:
            runtime.last_cache = cache_report(
                model,
                deltas.usage,
                len(json.dumps([request["tools"], request["system"]])),
                len(json.dumps([request["tools"], request["system"], request["messages"]])),
            )
    return deltas.stop_reason


def retry_delay(err: anthropic.APIStatusError) -> float:
    """The server's retry-after when it gives one (capped), else our own backoff."""
    header = err.response.headers.get("retry-after")
    try:
        return min(MAX_RETRY_DELAY, max(0.0, float(header))) if header else RETRY_DELAY
    except ValueError:
        return RETRY_DELAY
