"""What one model request costs, read from the request the fake Messages API recorded.

Both agents are measured the same way, from the bytes they sent:

- request bytes: the HTTP body as sent (JSON, as the SDK serialised it);
- input tokens: estimated at four characters per token of the prompt's canonical JSON
  (tools, system and messages; `estimate_tokens` in tests/fake_anthropic, the estimate the
  fake reports as usage). No tokenizer for current Claude models is published for offline
  use, so this is an estimate, the same for both agents;
- cacheable tokens: the prefix up to the last `cache_control` breakpoint (tools, system,
  then messages: the API's cache order);
- cost: priced with the agent's own table (`agent/usage.py`) under two cache states, per
  model, with the fake's own cache simulation (`simulate_cache`: each call reads the
  longest prefix already cached, at a breakpoint or up to 20 blocks before one, and writes
  the rest up to its last breakpoint): *cold* (the task is the first request in five
  minutes: nothing is cached before its first call) and *warm* (an earlier conversation
  cached what every conversation shares: the breakpoints in the tools and system prompt,
  and one on Home Assistant's API notes at the start of the messages). A prefix shorter
  than the model's minimum cacheable length is not cached at all. Output tokens are the
  fake's estimate of the scripted replies (the same for both agents).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
import json
from typing import Any, Final

from custom_components.linn.agent.usage import Usage
from tests.fake_anthropic import (
    RecordedRequest,
    cache_prefixes,
    estimate_tokens,
    prefix_key,
    prompt_tokens,
    simulate_cache,
)

PROMPT_PARTS: Final = ("tools", "system", "messages")
CACHE_FLOORS: Final = {"claude-haiku-4-5": 4096, "claude-sonnet-4-5": 1024}
"""Minimum cacheable prompt lengths (tokens) from Anthropic's prompt-caching documentation
(the same as tests/fake_anthropic/cache_floors.py)."""
SHARED_BLOCK_TAG: Final = "<home_assistant_api>"
"""A first message block our agent sends the same in every conversation of a user."""


def _part_bytes(body: dict[str, Any], part: str) -> int:
    value = body.get(part)
    if value is None:
        return 0
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())


def request_metrics(request: RecordedRequest, usage: dict[str, int]) -> dict[str, Any]:
    """The figures of one model request."""
    body = request.body or {}
    tokens, cacheable = prompt_tokens(body)
    return {
        "request_bytes": len(request.raw_body),
        "part_bytes": {part: _part_bytes(body, part) for part in PROMPT_PARTS},
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


def cost(
    calls: Sequence[tuple[RecordedRequest, dict[str, int]]], model: str, *, warm: bool
) -> float:
    """US dollars for the calls of one run, with a cold or warm prompt cache."""
    floor = CACHE_FLOORS[model]
    cache: set[str] = set()
    if warm:
        for request, _usage in calls:
            cache |= shared_prefix_keys({**(request.body or {}), "model": model}, floor)
    total = 0.0
    for request, usage in calls:
        body = {**(request.body or {}), "model": model}
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
        "request_bytes": sum(c["request_bytes"] for c in per_call),
        "input_tokens_est": tokens,
        "cacheable_tokens_est": cacheable,
        "cacheable_share": cacheable / tokens if tokens else 0.0,
        "output_tokens_est": sum(c["output_tokens_est"] for c in per_call),
        "cost_usd": {
            model: {
                "cold_cache": cost(calls, model, warm=False),
                "warm_cache": cost(calls, model, warm=True),
            }
            for model in CACHE_FLOORS
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
