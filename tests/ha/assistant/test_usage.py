"""The price and cache-minimum tables: model ids match their family, the longest first."""

from __future__ import annotations

import pytest

from custom_components.linn.agent.caching import min_cacheable_tokens
from custom_components.linn.agent.usage import (
    NOT_CLAUDE_PRICE,
    PRICES,
    UNKNOWN_MODEL_PRICE,
    Usage,
    price_for,
)
from scripts.standin_model import MODEL_ID


@pytest.mark.parametrize(
    ("model", "family"),
    [
        ("claude-haiku-4-5-20251001", "claude-haiku-4-5"),
        ("claude-fable-5-1", "claude-fable-5-1"),
        ("claude-fable-5-20260301", "claude-fable-5"),
        ("claude-opus-4-1-20250805", "claude-opus-4-1"),
    ],
)
def test_dated_ids_match_their_family(model: str, family: str) -> None:
    assert price_for(model) == PRICES[family]


def test_an_unknown_claude_model_is_costed_like_sonnet() -> None:
    assert price_for("claude-sonnet-9") is UNKNOWN_MODEL_PRICE


def test_the_stand_in_is_not_charged_as_claude() -> None:
    # scripts/develop's stand-in (scripts/standin_model.py MODEL_ID) and other local models
    assert price_for(MODEL_ID) is NOT_CLAUDE_PRICE
    assert Usage(input_tokens=5000, output_tokens=500).cost(MODEL_ID) == 0


def test_a_calls_cost_counts_every_kind_of_token() -> None:
    usage = Usage(
        input_tokens=1000, output_tokens=100, cache_read_tokens=2000, cache_write_tokens=0
    )
    # Haiku 4.5: 1000 x $1 + 100 x $5 + 2000 x $0.10 per million
    assert usage.cost("claude-haiku-4-5") == pytest.approx(0.0017)


@pytest.mark.parametrize(
    ("model", "family"),
    [
        ("claude-opus-5-5", "claude-opus-5-5"),  # never taken for Opus 5
        ("claude-opus-5-20260724", "claude-opus-5"),
        ("claude-haiku-5-5", "claude-haiku-5-5"),
        ("claude-sonnet-5-5", "claude-sonnet-5-5"),
    ],
)
def test_the_longest_family_wins(model: str, family: str) -> None:
    assert price_for(model) is PRICES[family]


def test_haiku_5_5_bills_a_long_prompt_at_its_higher_band() -> None:
    short = Usage(input_tokens=60_000, output_tokens=1_000, cache_read_tokens=40_000)
    long = Usage(input_tokens=60_001, output_tokens=1_000, cache_read_tokens=40_000)
    # up to 100,000 prompt tokens: 60,000 x $0.10 + 1,000 x $0.50 + 40,000 x $0.01 per million
    assert short.cost("claude-haiku-5-5") == pytest.approx(0.0069)
    # above: every token of the request at $0.50 / $2.50 / $0.05
    assert long.cost("claude-haiku-5-5") == pytest.approx(0.0345005)


@pytest.mark.parametrize(
    ("model", "minimum"),
    [
        ("claude-haiku-4-5-20251001", 4096),
        ("claude-sonnet-4-5", 1024),
        ("claude-opus-5", 512),
        ("claude-opus-5-5", None),  # known model, minimum not found in the documentation
        ("claude-haiku-5-5", 512),  # Apidog's guide, citing Anthropic's model page
        ("local-standin", None),
    ],
)
def test_each_models_minimum_cacheable_length(model: str, minimum: int | None) -> None:
    assert min_cacheable_tokens(model) == minimum
