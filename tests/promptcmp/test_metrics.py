"""The comparison's cost estimate agrees with the fake Messages API's own cache simulation.

Requests go through the real anthropic SDK to the fake over HTTP; the fake (with the model's
minimum cacheable length) reports usage as the API would, and the cost `metrics.cost`
computes from the recorded requests alone must match the cost of that usage.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import anthropic
import pytest

from custom_components.linn.agent.usage import Usage
from tests.fake_anthropic import FakeAnthropic, Reply
from tests.promptcmp.metrics import CACHE_FLOORS, cost, run_metrics

KEY = "sk-ant-metrics"
MODEL = "claude-haiku-4-5"


@pytest.fixture
async def fake() -> AsyncIterator[FakeAnthropic]:
    async with FakeAnthropic(api_key=KEY, min_cache_tokens=CACHE_FLOORS[MODEL]) as server:
        yield server


async def _two_calls(fake: FakeAnthropic, system_text: str) -> None:
    """One task's two model calls with the same marked system prompt."""
    fake.script(Reply("first"), Reply("second"))
    system: Any = [{"type": "text", "text": system_text, "cache_control": {"type": "ephemeral"}}]
    async with anthropic.AsyncAnthropic(
        api_key=KEY, base_url=fake.base_url, max_retries=0, timeout=5.0
    ) as client:
        for text in ("turn it up", "thanks"):
            await client.messages.create(
                model=MODEL,
                max_tokens=50,
                system=system,
                messages=[{"role": "user", "content": text}],
            )


def _reported_cost(fake: FakeAnthropic) -> float:
    return sum(
        Usage(
            input_tokens=usage["input_tokens"],
            output_tokens=usage["output_tokens"],
            cache_read_tokens=usage["cache_read_input_tokens"],
            cache_write_tokens=usage["cache_creation_input_tokens"],
        ).cost(MODEL)
        for _request, usage in fake.usages
    )


async def test_a_prefix_above_the_floor_is_written_then_read(fake: FakeAnthropic) -> None:
    await _two_calls(fake, "stable words " * 1600)  # ~5,200 estimated tokens
    assert fake.usages[0][1]["cache_creation_input_tokens"] > 0
    assert fake.usages[1][1]["cache_read_input_tokens"] > 0
    cold = cost(fake.usages, MODEL, warm=False)
    assert cold == pytest.approx(_reported_cost(fake))
    assert cost(fake.usages, MODEL, warm=True) < cold
    figures = run_metrics(fake.usages)
    assert figures["model_calls"] == 2
    assert 0.95 < figures["cacheable_share"] < 1


async def test_a_prefix_below_the_floor_is_never_cached(fake: FakeAnthropic) -> None:
    await _two_calls(fake, "stable words " * 600)  # ~2,000 estimated tokens
    assert all(usage["cache_read_input_tokens"] == 0 for _r, usage in fake.usages)
    assert all(usage["cache_creation_input_tokens"] == 0 for _r, usage in fake.usages)
    cold = cost(fake.usages, MODEL, warm=False)
    assert cold == pytest.approx(_reported_cost(fake))
    assert cost(fake.usages, MODEL, warm=True) == pytest.approx(cold)


async def test_a_moving_breakpoint_is_costed_as_the_fake_reports_it(fake: FakeAnthropic) -> None:
    """The last message marked too, as our agent sends it: each call reads the one before."""
    fake.script(Reply("first"), Reply("second"))
    system: Any = [
        {"type": "text", "text": "stable words " * 1600, "cache_control": {"type": "ephemeral"}}
    ]
    marked = {"type": "ephemeral"}
    first: Any = [{"role": "user", "content": [{"type": "text", "text": "volume 30"}]}]
    second: Any = [
        {"role": "user", "content": [{"type": "text", "text": "volume 30"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "first " * 300}]},
        {"role": "user", "content": [{"type": "text", "text": "thanks", "cache_control": marked}]},
    ]
    first[0]["content"][0]["cache_control"] = marked
    async with anthropic.AsyncAnthropic(
        api_key=KEY, base_url=fake.base_url, max_retries=0, timeout=5.0
    ) as client:
        for messages in (first, second):
            await client.messages.create(
                model=MODEL, max_tokens=50, system=system, messages=messages
            )
    assert fake.usages[1][1]["cache_read_input_tokens"] > 0
    assert fake.usages[1][1]["cache_creation_input_tokens"] > 0
    cold = cost(fake.usages, MODEL, warm=False)
    assert cold == pytest.approx(_reported_cost(fake))
    # warm: only the system prompt was cached by an earlier conversation
    warm = cost(fake.usages, MODEL, warm=True)
    assert warm < cold
