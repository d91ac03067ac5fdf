"""What one model request costs, read from the request the fake Messages API recorded.

Both agents are measured the same way, from the bytes they sent:

- request bytes: the HTTP body as sent (JSON, as the SDK serialised it);
- input tokens: estimated at four characters per token of the prompt's canonical JSON
  (tools, system and messages; `estimate_tokens` in testing/fake_anthropic, the estimate the
  fake reports as usage). No tokenizer for current Claude models is published for offline
  use, so this is an estimate, the same for both agents;
- cacheable tokens: the prefix up to the last `cache_control` breakpoint (tools, system,
  then messages: the API's cache order);
- cost: priced with the agent's own table (`agent/usage.py`) for the model the requests
  were sent to, under two cache states, with the fake's own cache simulation
  (`simulate_cache`: each call reads the longest prefix already cached, at a breakpoint or
  up to 20 blocks before one, and writes the rest up to its last breakpoint): *cold* (the
  task is the first request in five minutes: nothing is cached before its first call) and
  *warm* (an earlier conversation cached what every conversation shares: the breakpoints in
  the tools and system prompt, and one on Home Assistant's API notes at the start of the
  messages). A prefix shorter
  than the model's minimum cacheable length is not cached at all. Output tokens are the
  fake's estimate of the replies it sent: the scripted text and tool calls (the same for
  both agents) and, for a request that asked for thinking, the thinking block it opened the
  reply with (its text, empty when omitted, and its signature). How long a real model would
  think is not simulated.

A request's model decides what it sends (thinking parameters, thinking blocks sent back), so
each run is priced only under the model it ran with, never under another one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
import json
from typing import Any, Final

from custom_components.linn.agent.usage import Usage
from testing.fake_anthropic import (
    RecordedRequest,
    cache_prefixes,
    estimate_tokens,
    prefix_key,
    prompt_tokens,
    simulate_cache,
)
from testing.fake_anthropic.cache_floors import min_cacheable_tokens

PROMPT_PARTS: Final = ("tools", "system", "messages")
PRICED_MODELS: Final = ("claude-haiku-5-5", "claude-haiku-4-5", "claude-sonnet-4-5")
"""The models the comparison runs both agents with (each run priced under its own model)."""
CACHE_FLOORS: Final = {model: min_cacheable_tokens(model) for model in PRICED_MODELS}
"""Minimum cacheable prompt lengths (tokens): the fake's own table
(testing/fake_anthropic/cache_floors.py; Haiku 5.5 512, Haiku 4.5 4,096, Sonnet 4.5 1,024)."""
PARAMETERS: Final = ("model", "max_tokens", "thinking", "output_config", "temperature")
"""Request parameters recorded as sent (what decides whether and how the model thinks)."""
THINKING_TYPES: Final = ("thinking", "redacted_thinking")
SHARED_BLOCK_TAG: Final = "<home_assistant_api>"
"""A first message block our agent sends the same in every conversation of a user."""


def _part_bytes(body: dict[str, Any], part: str) -> int:
    value = body.get(part)
    if value is None:
        return 0
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())


def thinking_sent(body: dict[str, Any]) -> tuple[int, int]:
    """Thinking blocks the request sends back in its messages: how many, and their bytes."""
    blocks = [
        block
        for message in body.get("messages") or []
        if message.get("role") == "assistant" and isinstance(message.get("content"), list)
        for block in message["content"]
        if isinstance(block, dict) and block.get("type") in THINKING_TYPES
    ]
    size = sum(
        len(json.dumps(block, ensure_ascii=False, separators=(",", ":")).encode())
        for block in blocks
    )
    return len(blocks), size


def parameters(body: dict[str, Any]) -> dict[str, Any]:
    """The request's model and thinking parameters, as sent (absent ones left out)."""
    return {name: body[name] for name in PARAMETERS if name in body}


def request_metrics(request: RecordedRequest, usage: dict[str, int]) -> dict[str, Any]:
    """The figures of one model request."""
    body = request.body or {}
    tokens, cacheable = prompt_tokens(body)
    thinking_blocks, thinking_bytes = thinking_sent(body)
    return {
        "request_bytes": len(request.raw_body),
        "part_bytes": {part: _part_bytes(body, part) for part in PROMPT_PARTS},
        "thinking_blocks_sent": thinking_blocks,
        "thinking_bytes_sent": thinking_bytes,
        "tools": len(body.get("tools") or []),
        "input_tokens_est": tokens,
        "cacheable_tokens_est": cacheable,
        "cacheable_share": cacheable / tokens if tokens else 0.0,
        "output_tokens_est": usage.get("output_tokens", 0),
    }


def shared_prefix_keys(body: dict[str, Any], floor: int) -> set[str]:
    """The cache entries any earlier conversation would have written for this request."""
    shared = len(body.get("tools") or [])
    system = body.get("system")
    shared += (1 if isinstance(system, str) else len(system)) if system else 0
    messages = body.get("messages") or []
    first = messages[0].get("content") if messages else None
    if (
        isinstance(first, list)
        and first
        and str(first[0].get("text", "")).startswith(SHARED_BLOCK_TAG)
    ):
        shared += 1
    return {
        prefix_key(body.get("model"), prefix)
        for prefix in cache_prefixes(body)
        if len(prefix) <= shared and estimate_tokens(prefix) >= floor
    }


def run_model(calls: Sequence[tuple[RecordedRequest, dict[str, int]]]) -> str:
    """The one model a run's requests were sent to."""
    models = {str((request.body or {}).get("model", "")) for request, _usage in calls}
    if len(models) != 1:
        raise ValueError(f"a run is priced under one model; its requests name {sorted(models)}")
    return models.pop()


def cost(calls: Sequence[tuple[RecordedRequest, dict[str, int]]], *, warm: bool) -> float:
    """US dollars for the calls of one run, under the model they were sent to, with a cold
    or warm prompt cache.
    """
    if not calls:
        return 0.0
    model = run_model(calls)
    floor = min_cacheable_tokens(model)
    cache: set[str] = set()
    if warm:
        for request, _usage in calls:
            cache |= shared_prefix_keys(request.body or {}, floor)
    total = 0.0
    for request, usage in calls:
        body = request.body or {}
        uncached, read, write = simulate_cache(body, cache, floor)
        total += Usage(
            input_tokens=uncached,
            output_tokens=usage.get("output_tokens", 0),
            cache_read_tokens=read,
            cache_write_tokens=write,
        ).cost(model)
    return total


def run_metrics(calls: Sequence[tuple[RecordedRequest, dict[str, int]]]) -> dict[str, Any]:
    """The sums over the model requests of one task run."""
    per_call = [request_metrics(request, usage) for request, usage in calls]
    tokens = sum(c["input_tokens_est"] for c in per_call)
    cacheable = sum(c["cacheable_tokens_est"] for c in per_call)
    return {
        "model_calls": len(per_call),
        "parameters": parameters(calls[0][0].body or {}) if calls else {},
        "request_bytes": sum(c["request_bytes"] for c in per_call),
        "thinking_blocks_sent": sum(c["thinking_blocks_sent"] for c in per_call),
        "thinking_bytes_sent": sum(c["thinking_bytes_sent"] for c in per_call),
        "input_tokens_est": tokens,
        "cacheable_tokens_est": cacheable,
        "cacheable_share": cacheable / tokens if tokens else 0.0,
        "output_tokens_est": sum(c["output_tokens_est"] for c in per_call),
        "cost_usd": {
            "cold_cache": cost(calls, warm=False),
            "warm_cache": cost(calls, warm=True),
        },
        "calls": per_call,
    }


def tool_errors(requests: Iterable[RecordedRequest]) -> list[str]:
    """Tool results the agent sent back as errors (a failed or refused tool call)."""
    errors: list[str] = []
    for request in requests:
        for block in request.tool_results():
            content = block.get("content")
            text = content if isinstance(content, str) else json.dumps(content)
            try:
                parsed = json.loads(text)
            except ValueError:
                parsed = None
            if block.get("is_error") or (isinstance(parsed, dict) and "error" in parsed):
                errors.append(text)
    return errors
