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

from custom_components.linn.agent.caching import min_cacheable_tokens
from custom_components.linn.agent.usage import Usage
from testing.fake_anthropic import FakeAnthropic, Reply, ToolUse
from testing.promptcmp.metrics import CACHE_FLOORS, PRICED_MODELS, cost, run_metrics

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


def _reported_cost(fake: FakeAnthropic, model: str = MODEL) -> float:
    return sum(
        Usage(
            input_tokens=usage["input_tokens"],
            output_tokens=usage["output_tokens"],
            cache_read_tokens=usage["cache_read_input_tokens"],
            cache_write_tokens=usage["cache_creation_input_tokens"],
        ).cost(model)
        for _request, usage in fake.usages
    )


def test_the_floors_are_the_fakes_and_the_agents() -> None:
    """The comparison, the fake and the assistant apply the same minimum cacheable lengths."""
    assert {model: min_cacheable_tokens(model) for model in PRICED_MODELS} == CACHE_FLOORS
    assert CACHE_FLOORS["claude-haiku-5-5"] == 512
    assert CACHE_FLOORS["claude-haiku-4-5"] == 4096


async def test_a_prefix_above_the_floor_is_written_then_read(fake: FakeAnthropic) -> None:
    await _two_calls(fake, "stable words " * 1600)  # ~5,200 estimated tokens
    assert fake.usages[0][1]["cache_creation_input_tokens"] > 0
    assert fake.usages[1][1]["cache_read_input_tokens"] > 0
    cold = cost(fake.usages, warm=False)
    assert cold == pytest.approx(_reported_cost(fake))
    assert cost(fake.usages, warm=True) < cold
    figures = run_metrics(fake.usages)
    assert figures["model_calls"] == 2
    assert 0.95 < figures["cacheable_share"] < 1


async def test_a_prefix_below_the_floor_is_never_cached(fake: FakeAnthropic) -> None:
    await _two_calls(fake, "stable words " * 600)  # ~2,000 estimated tokens
    assert all(usage["cache_read_input_tokens"] == 0 for _r, usage in fake.usages)
    assert all(usage["cache_creation_input_tokens"] == 0 for _r, usage in fake.usages)
    cold = cost(fake.usages, warm=False)
    assert cold == pytest.approx(_reported_cost(fake))
    assert cost(fake.usages, warm=True) == pytest.approx(cold)


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
    cold = cost(fake.usages, warm=False)
    assert cold == pytest.approx(_reported_cost(fake))
    # warm: only the system prompt was cached by an earlier conversation
    warm = cost(fake.usages, warm=True)
    assert warm < cold


async def test_a_thinking_models_run_is_priced_as_the_fake_reports_it() -> None:
    """Haiku 5.5 (adaptive thinking, 512-token floor): its own floor and prices, with the
    thinking block of the first reply sent back in the second request, as the API requires."""
    model = "claude-haiku-5-5"
    async with FakeAnthropic(api_key=KEY) as fake:  # the fake's own floor for the model
        fake.script(
            Reply(tool_uses=(ToolUse("linn__play", {"player": "Kitchen"}, id="toolu_1"),)),
            Reply("Playing."),
        )
        system: Any = [
            {"type": "text", "text": "stable words " * 300, "cache_control": {"type": "ephemeral"}}
        ]
        thinking: Any = {"type": "adaptive"}
        messages: list[Any] = [{"role": "user", "content": "play the kitchen"}]
        async with anthropic.AsyncAnthropic(
            api_key=KEY, base_url=fake.base_url, max_retries=0, timeout=5.0
        ) as client:
            first = await client.messages.create(
                model=model, max_tokens=50, system=system, messages=messages, thinking=thinking
            )
            messages += [
                {"role": "assistant", "content": [b.model_dump() for b in first.content]},
                {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}],
                },
            ]
            await client.messages.create(
                model=model, max_tokens=50, system=system, messages=messages, thinking=thinking
            )
    assert first.content[0].type == "thinking"
    assert fake.usages[1][1]["cache_read_input_tokens"] > 0  # ~1,000 tokens: above 512
    figures = run_metrics(fake.usages)
    assert figures["parameters"] == {
        "model": model,
        "max_tokens": 50,
        "thinking": {"type": "adaptive"},
    }
    assert figures["thinking_blocks_sent"] == 1
    assert figures["thinking_bytes_sent"] > 0
    assert figures["cost_usd"]["cold_cache"] == pytest.approx(_reported_cost(fake, model))
    assert figures["cost_usd"]["warm_cache"] < figures["cost_usd"]["cold_cache"]


async def test_a_run_names_one_model(fake: FakeAnthropic) -> None:
    """Requests sent to two models are not one run: pricing them under either would be wrong."""
    fake.script(Reply("first"), Reply("second"))
    async with anthropic.AsyncAnthropic(
        api_key=KEY, base_url=fake.base_url, max_retries=0, timeout=5.0
    ) as client:
        for model in ("claude-haiku-4-5", "claude-sonnet-4-5"):
            await client.messages.create(
                model=model, max_tokens=50, messages=[{"role": "user", "content": "hi"}]
            )
    with pytest.raises(ValueError, match="one model"):
        cost(fake.usages, warm=False)
