"""Token usage of model calls, their estimated cost, and the budgets checked before each call."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
import json
from typing import Any, Final

from ..guard import Ledger
from .const import (
    CONF_BUDGET_CONVERSATION_COST,
    CONF_BUDGET_CONVERSATION_TOKENS,
    CONF_BUDGET_DAY_COST,
    CONF_BUDGET_DAY_SHARE,
    CONF_BUDGET_DAY_TOKENS,
    option,
)
from .models import model_family

PRICES_DATED: Final = "2026-12-03"
"""When PRICES was last compared with Anthropic's published prices.

Checked on this date against the copies of Anthropic's pricing and model pages held in the
project's documentation search (their own dates are not known), not against the live site:
re-check before relying on a cost figure. Cache writes are 5-minute writes. The 5.5 family
(Haiku 5.5 released 2026-10-07) is from Anthropic's Claude Haiku 5.5 overview page (both
price bands) and, for Sonnet 5.5 and Opus 5.5, from Anthropic's model comparison table
($2 / $10 and $4 / $20) with their cache prices as third-party price tables quote them
(Sonnet 5.5 cache reads cut to $0.10 on 2026-10-07; the copy of Anthropic's Sonnet 5.5 page
in the search still shows $0.20, so it predates the cut).
"""

LONG_PROMPT_TOKENS: Final = 100_000
"""Above this many prompt tokens (input, cache reads and cache writes of one request) a
model with a `long_prompt` price bills every token of that request at the higher band."""


@dataclass(frozen=True, slots=True)
class Price:
    """US dollars per million tokens."""

    input: float
    output: float
    cache_write: float  # 5-minute cache writes
    cache_read: float
    long_prompt: Price | None = None
    """The band for prompts over LONG_PROMPT_TOKENS, when the model has one."""


PRICES: Final[Mapping[str, Price]] = {
    "claude-haiku-5-5": Price(0.10, 0.50, 0.125, 0.01, long_prompt=Price(0.50, 2.50, 0.625, 0.05)),
    "claude-sonnet-5-5": Price(2.00, 10.00, 2.50, 0.10),
    "claude-opus-5-5": Price(4.00, 20.00, 5.00, 0.20),
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
"""A Claude model not in the table (a newer one) is costed like Sonnet 4.5: budgets then err
on the safe side for smaller models (not for the Fable class, which is listed)."""
NOT_CLAUDE_PRICE: Final = Price(0.0, 0.0, 0.0, 0.0)
"""A model that is not Claude (no `claude-` id: the local stand-in of scripts/develop, a
local server) costs nothing here; its tokens still count against the token budgets."""

STANDARD_RATIOS: Final = Price(1.0, 5.0, 1.25, 0.1)
"""Anthropic's usual price ratios to an input token: how a model with no price (the local
stand-in) weighs its tokens."""

# ledger counter names
TOKENS: Final = "tokens"
WEIGHTED_TOKENS: Final = "weighted_tokens"
"""Input-token equivalents at the model's prices: what the token budgets count."""
COST: Final = "cost_usd"


def price_for(model: str) -> Price:
    """The price of a model id; dated ids (claude-haiku-4-5-20251001) match their family.

    Not a Claude model (the stand-in): no price, so it is not charged as if it were Claude.
    """
    family = model_family(model, PRICES)
    if family is not None:
        return PRICES[family]
    return UNKNOWN_MODEL_PRICE if model.startswith("claude") else NOT_CLAUDE_PRICE


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

    @property
    def prompt_tokens(self) -> int:
        """The request's whole prompt: uncached input, cache reads and cache writes."""
        return self.input_tokens + self.cache_read_tokens + self.cache_write_tokens

    def cost(self, model: str) -> float:
        """Estimated US dollars (the higher band when the prompt is over its threshold)."""
        price = price_for(model)
        if price.long_prompt is not None and self.prompt_tokens > LONG_PROMPT_TOKENS:
            price = price.long_prompt
        return (
            self.input_tokens * price.input
            + self.output_tokens * price.output
            + self.cache_read_tokens * price.cache_read
            + self.cache_write_tokens * price.cache_write
        ) / 1_000_000

    def weighted_tokens(self, model: str) -> float:
        """Input-token equivalents: each kind of token weighted by its price over an input's.

        A cache read costs a tenth of an input token (or less), so a long conversation
        whose history is read from the cache counts what it costs, not what it re-reads.
        """
        price = price_for(model)
        if not price.input:
            price = STANDARD_RATIOS
        return (
            self.input_tokens
            + (
                self.output_tokens * price.output
                + self.cache_read_tokens * price.cache_read
                + self.cache_write_tokens * price.cache_write
            )
            / price.input
        )

    def ledger_amounts(self, model: str) -> dict[str, float]:
        """The counters this call adds to the guard's ledger."""
        return {
            "model_calls": 1,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cache_read_tokens": self.cache_read_tokens,
            "cache_write_tokens": self.cache_write_tokens,
            TOKENS: self.total_tokens,
            WEIGHTED_TOKENS: self.weighted_tokens(model),
            COST: self.cost(model),
        }


CHARS_PER_TOKEN: Final = 4
"""About how many characters of a request make one token, for the estimate of a call."""


def in_flight_estimate(request: Mapping[str, Any]) -> dict[str, float]:
    """What a request is reserved in the ledger while it runs (Ledger.reserved).

    Its prompt (system, tools, messages) as uncached input, about one token per
    CHARS_PER_TOKEN characters, and its whole max_tokens as output, at its model's price:
    an answer that reads its prompt from the cache costs less.
    """
    model = str(request["model"])
    prompt = json.dumps(
        [request.get(key) for key in ("system", "tools", "messages")], ensure_ascii=False
    )
    usage = Usage(
        input_tokens=len(prompt) // CHARS_PER_TOKEN,
        output_tokens=int(request.get("max_tokens", 0)),
    )
    return {WEIGHTED_TOKENS: usage.weighted_tokens(model), COST: usage.cost(model)}


class BudgetExceeded(StrEnum):
    """Which budget is used up."""

    CONVERSATION = "conversation"
    DAY = "day"
    SHARE = "share"
    """A member's share of the day budget: refused, never limited mode."""


def exceeded_budget(
    ledger: Ledger,
    conversation_id: str,
    user_id: str | None,
    options: Mapping[str, Any],
    *,
    is_admin: bool = False,
) -> BudgetExceeded | None:
    """The budget this conversation, this member or today has used up, if any (0: no limit).

    Token budgets count weighted tokens; a conversation's budget is its user's in it; a member's
    share of the day budgets is checked before the household's (docs/assistant.md, "Claude
    assistant").
    """
    spent = ledger.for_conversation(conversation_id, user_id)
    if _over(spent, option(options, CONF_BUDGET_CONVERSATION_TOKENS), WEIGHTED_TOKENS) or _over(
        spent, option(options, CONF_BUDGET_CONVERSATION_COST), COST
    ):
        return BudgetExceeded.CONVERSATION
    if not is_admin and _over_share(ledger.for_user(user_id, reserved=True), options):
        return BudgetExceeded.SHARE
    today = ledger.totals_today(reserved=True)
    if _over(today, option(options, CONF_BUDGET_DAY_TOKENS), WEIGHTED_TOKENS) or _over(
        today, option(options, CONF_BUDGET_DAY_COST), COST
    ):
        return BudgetExceeded.DAY
    return None


def _over_share(mine: Mapping[str, float], options: Mapping[str, Any]) -> bool:
    """A member's counters today at or over their share of a day budget (0: no limit)."""
    share = float(option(options, CONF_BUDGET_DAY_SHARE))
    if share >= 100:
        return False
    return any(
        (limit := option(options, key)) and mine.get(name, 0.0) >= limit * share / 100
        for key, name in ((CONF_BUDGET_DAY_TOKENS, WEIGHTED_TOKENS), (CONF_BUDGET_DAY_COST, COST))
    )


NEAR: Final = 0.8
"""A budget this much used is near: the conversation's context is trimmed first."""


def budget_near(
    ledger: Ledger, conversation_id: str, user_id: str | None, options: Mapping[str, Any]
) -> bool:
    """True when the conversation's or today's budget is at least NEAR used (0 means no limit)."""
    spent = ledger.for_conversation(conversation_id, user_id)
    today = ledger.totals_today()
    return any(
        _over(counters, NEAR * option(options, key), name)
        for counters, key, name in (
            (spent, CONF_BUDGET_CONVERSATION_TOKENS, WEIGHTED_TOKENS),
            (spent, CONF_BUDGET_CONVERSATION_COST, COST),
            (today, CONF_BUDGET_DAY_TOKENS, WEIGHTED_TOKENS),
            (today, CONF_BUDGET_DAY_COST, COST),
        )
    )


def _over(counters: Mapping[str, float], limit: float, name: str) -> bool:
    return bool(limit) and counters.get(name, 0.0) >= limit
