"""Option keys and defaults of an assistant entry."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

CONF_BASE_URL: Final = "base_url"
CONF_MODEL: Final = "model"
CONF_INSTRUCTIONS: Final = "instructions"
CONF_MAX_TOKENS: Final = "max_tokens"
CONF_MAX_STEPS: Final = "max_steps"
CONF_LLM_APIS: Final = "llm_apis"
"""Other LLM APIs (Assist ...) whose tools the assistant may also call, through the guard."""
CONF_BUDGET_CONVERSATION_TOKENS: Final = "budget_conversation_tokens"
CONF_BUDGET_CONVERSATION_COST: Final = "budget_conversation_cost"
CONF_BUDGET_DAY_TOKENS: Final = "budget_day_tokens"
CONF_BUDGET_DAY_COST: Final = "budget_day_cost"
CONF_BUDGET_DAY_SHARE: Final = "budget_day_share"
"""Percent of the day budgets one member (a user who is not an admin) may use; the callers
with no user count as one member. 100: no share of their own."""
CONF_THINKING_EFFORT: Final = "thinking_effort"
"""off / low / medium / high: see thinking_params.py."""

DEFAULT_MODEL: Final = "claude-haiku-5-5"
DEFAULT_OPTIONS: Final[Mapping[str, Any]] = {
    CONF_MODEL: DEFAULT_MODEL,
    CONF_INSTRUCTIONS: "",
    CONF_MAX_TOKENS: 1024,
    CONF_MAX_STEPS: 6,
    CONF_LLM_APIS: [],
    # token budgets count input-token equivalents (usage.py): an evening's 100-turn dialog
    # with tool calls on Haiku 5.5 uses about 560,000 (tests/ha/assistant/test_long_conversation)
    CONF_BUDGET_CONVERSATION_TOKENS: 1_500_000,
    CONF_BUDGET_CONVERSATION_COST: 0.25,
    CONF_BUDGET_DAY_TOKENS: 6_000_000,
    CONF_BUDGET_DAY_COST: 2.0,
    CONF_BUDGET_DAY_SHARE: 50,
    CONF_THINKING_EFFORT: "low",  # a voice assistant wants speed; HA core's default too
}

RAW_TOKEN_DEFAULTS: Final[Mapping[str, int]] = {
    CONF_BUDGET_CONVERSATION_TOKENS: 100_000,
    CONF_BUDGET_DAY_TOKENS: 2_000_000,
}
"""The token budgets' defaults when they counted raw tokens (config entry minor version 1)."""

KEY_CHECK_TIMEOUT: Final = 10.0
"""Seconds for the model list that checks a key."""
MODEL_TIMEOUT: Final = 30.0
"""Seconds one model call may take before the turn falls back to local intents."""
RETRY_DELAY: Final = 1.0
"""Seconds before the one retry after a rate limit or overload (or the server's retry-after,
when shorter than MAX_RETRY_DELAY)."""
MAX_RETRY_DELAY: Final = 5.0
MAX_UTTERANCE_CHARS: Final = 2000
"""Longer input is refused before any model call or local intent: a voice command is a
sentence, and one huge input could use up a budget and force limited mode."""


def option(options: Mapping[str, Any], key: str) -> Any:
    """An option's value, or its default."""
    return options.get(key, DEFAULT_OPTIONS[key])
