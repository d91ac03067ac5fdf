"""A fake Anthropic Messages API server for tests, evaluations and benchmarks.

The agent talks to it through the real `anthropic` SDK (base_url), never a mock:

    async with FakeAnthropic() as fake:
        fake.script(Reply(tool_uses=(ToolUse("linn__play", {"player": "Kitchen"}),)),
                    Reply("Playing."))
        ...  # point the assistant entry's base_url at fake.base_url
        assert fake.message_requests[0].body["tools"]
"""

from .caching import (
    cache_prefix,
    cache_prefixes,
    estimate_tokens,
    prefix_key,
    prompt_tokens,
    simulate_cache,
)
from .plans import (
    ApiError,
    PlanAnswer,
    RecordedRequest,
    Reply,
    Responder,
    Stall,
    Step,
    ToolUse,
    planned,
    planned_change,
)
from .server import FakeAnthropic

__all__ = [
    "ApiError",
    "FakeAnthropic",
    "PlanAnswer",
    "RecordedRequest",
    "Reply",
    "Responder",
    "Stall",
    "Step",
    "ToolUse",
    "cache_prefix",
    "cache_prefixes",
    "estimate_tokens",
    "planned",
    "planned_change",
    "prefix_key",
    "prompt_tokens",
    "simulate_cache",
]
