"""The price table: model ids match their family, the most specific first."""

from __future__ import annotations

import pytest

from custom_components.linn.agent.usage import PRICES, UNKNOWN_MODEL_PRICE, Usage, price_for


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


def test_an_unknown_model_is_costed_like_sonnet() -> None:
    assert price_for("local-standin") is UNKNOWN_MODEL_PRICE


def test_a_calls_cost_counts_every_kind_of_token() -> None:
    usage = Usage(
        input_tokens=1000, output_tokens=100, cache_read_tokens=2000, cache_write_tokens=0
    )
    # Haiku 4.5: 1000 x $1 + 100 x $5 + 2000 x $0.10 per million
    assert usage.cost("claude-haiku-4-5") == pytest.approx(0.0017)
