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
  model, from the prefix sizes: *cold* (the task is the first request in five minutes: the
  first call writes the prefix, later calls with the same prefix read it) and *warm* (an
  earlier request cached the prefix: every call reads it). A prefix shorter than the model's
  minimum cacheable length is not cached at all. Output tokens are the fake's estimate of
  the scripted replies (the same for both agents).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
import json
from typing import Any, Final

from custom_components.linn.agent.usage import Usage
from tests.fake_anthropic import RecordedRequest, cache_prefix, prompt_tokens

PROMPT_PARTS: Final = ("tools", "system", "messages")
CACHE_FLOORS: Final = {"claude-haiku-4-5": 4096, "claude-sonnet-4-5": 1024}
"""Minimum cacheable prompt lengths (tokens) from Anthropic's prompt-caching documentation."""


def _part_bytes(body: dict[str, Any], part: str) -> int:
    value = body.get(part)
    if value is None:
        return 0
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())


def _prefix_key(body: dict[str, Any]) -> str:
    """What the cache is keyed on: the model and the prefix's content."""
    return json.dumps([body.get("model"), cache_prefix(body)], sort_keys=True)


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


def cost(
    calls: Sequence[tuple[RecordedRequest, dict[str, int]]], model: str, *, warm: bool
) -> float:
    """US dollars for the calls of one run, with a cold or warm prompt cache."""
    floor = CACHE_FLOORS[model]
    cached: set[str] = set()
    total = 0.0
    for request, usage in calls:
        body = request.body or {}
        tokens, prefix = prompt_tokens(body)
        read = write = 0
        if prefix and prefix >= floor:
            key = _prefix_key(body)
            if warm or key in cached:
                read = prefix
            else:
                write = prefix
                cached.add(key)
        total += Usage(
            input_tokens=tokens - read - write,
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
