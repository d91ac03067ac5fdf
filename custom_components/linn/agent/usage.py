"""Token usage of model calls, their estimated cost, and the budgets checked before each call."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from ..guard import Ledger
from .const import (
    CONF_BUDGET_CONVERSATION_COST,
    CONF_BUDGET_CONVERSATION_TOKENS,
    CONF_BUDGET_DAY_COST,
    CONF_BUDGET_DAY_TOKENS,
    option,
)

PRICES_DATED: Final = "2026-12-03"
"""When PRICES was last compared with Anthropic's published price list.

Checked on this date against the copy of Anthropic's pricing and model pages held in the
project's documentation search (the copy's own date is not known), not against the live
site: re-check before relying on a cost figure. Rows are only models whose price that copy
showed; cache writes are 5-minute writes (1.25 x input), cache reads 0.1 x input, except
where the page lists other figures (Fable 5.1).
"""


@dataclass(frozen=True, slots=True)
class Price:
    """US dollars per million tokens."""

    input: float
    output: float
    cache_write: float  # 5-minute cache writes
    cache_read: float


PRICES: Final[Mapping[str, Price]] = {
    "claude-haiku-4-5": Price(1.00, 5.00, 1.25, 0.10),
    "claude-sonnet-4-5": Price(3.00, 15.00, 3.75, 0.30),
    "claude-opus-4-5": Price(5.00, 25.00, 6.25, 0.50),
    "claude-opus-4-6": Price(5.00, 25.00, 6.25, 0.50),
    "claude-opus-4-7": Price(5.00, 25.00, 6.25, 0.50),
    "claude-opus-4-8": Price(5.00, 25.00, 6.25, 0.50),
    "claude-opus-5": Price(5.00, 25.00, 6.25, 0.50),
    "claude-opus-4-1": Price(15.00, 75.00, 18.75, 1.50),
    "claude-fable-5-1": Price(10.00, 50.00, 12.50, 0.25),
    "claude-fable-5": Price(10.00, 50.00, 12.50, 1.00),
    "claude-3-5-haiku": Price(0.80, 4.00, 1.00, 0.08),
}
UNKNOWN_MODEL_PRICE: Final = PRICES["claude-sonnet-4-5"]
"""A model not in the table (a newer one, a local server) is costed like Sonnet 4.5: budgets
then err on the safe side for smaller models (not for the Fable class, which is listed)."""

# ledger counter names
TOKENS: Final = "tokens"
COST: Final = "cost_usd"


def price_for(model: str) -> Price:
    """The price of a model id; dated ids (claude-haiku-4-5-20251001) match their family."""
    for name, price in PRICES.items():
        if model == name or model.startswith(f"{name}-"):
            return price
    return UNKNOWN_MODEL_PRICE


@dataclass(frozen=True, slots=True)
class Usage:
    """What one model call used, as the API reported it."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        """Every token billed, cached or not."""
        return (
            self.input_tokens
            + self.output_tokens
            + self.cache_read_tokens
            + self.cache_write_tokens
        )

    def cost(self, model: str) -> float:
        """Estimated US dollars."""
        price = price_for(model)
        return (
            self.input_tokens * price.input
            + self.output_tokens * price.output
            + self.cache_read_tokens * price.cache_read
            + self.cache_write_tokens * price.cache_write
        ) / 1_000_000

    def ledger_amounts(self, model: str) -> dict[str, float]:
        """The counters this call adds to the guard's ledger."""
        return {
            "model_calls": 1,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cache_read_tokens": self.cache_read_tokens,
            "cache_write_tokens": self.cache_write_tokens,
            TOKENS: self.total_tokens,
            COST: self.cost(model),
        }


class BudgetExceeded(StrEnum):
    """Which budget is used up."""

    CONVERSATION = "conversation"
    DAY = "day"


def exceeded_budget(
    ledger: Ledger, conversation_id: str, options: Mapping[str, Any]
) -> BudgetExceeded | None:
    """The budget this conversation or today has used up, if any (0 means no limit)."""
    spent = ledger.for_conversation(conversation_id)
    if _over(spent, option(options, CONF_BUDGET_CONVERSATION_TOKENS), TOKENS) or _over(
        spent, option(options, CONF_BUDGET_CONVERSATION_COST), COST
    ):
        return BudgetExceeded.CONVERSATION
    today = ledger.totals_today()
    if _over(today, option(options, CONF_BUDGET_DAY_TOKENS), TOKENS) or _over(
        today, option(options, CONF_BUDGET_DAY_COST), COST
    ):
        return BudgetExceeded.DAY
    return None


def _over(counters: Mapping[str, float], limit: float, name: str) -> bool:
    return bool(limit) and counters.get(name, 0.0) >= limit
