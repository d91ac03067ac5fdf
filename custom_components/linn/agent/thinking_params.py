"""The request's thinking and effort parameters, from the model's capabilities.

What Anthropic accepts, and what each option sends (docs/assistant.md, "Thinking and
messages sent back (for contributors)").
"""

from __future__ import annotations

from typing import Any, Final

from .model_info import ModelCapabilities

EFFORT_OFF: Final = "off"
EFFORT_CHOICES: Final = (EFFORT_OFF, "low", "medium", "high")
MIN_TOKENS_THINKING: Final = 1024
"""The least max output tokens the options accept with thinking on (any effort but "off").

Thinking counts against max_tokens, and a reply cut off by it after thinking has said
nothing (the assistant then answers that it could not). Adaptive thinking has no documented
minimum; 1024 is Anthropic's minimum thinking budget for budget-type thinking (which must
also stay below max_tokens), the option's default, and leaves room for a low-effort
thought and a spoken reply or a tool call. With thinking off the option's own minimum (64)
holds."""
CAPABILITIES_UNKNOWN: Final = "capabilities_unknown"
NO_ADAPTIVE_THINKING: Final = "model_without_adaptive_thinking"


def thinking_params(capabilities: ModelCapabilities | None, effort: str) -> dict[str, Any]:
    """`thinking` and `output_config` for the request (empty: send neither)."""
    if capabilities is None or not capabilities.adaptive_thinking:
        return {}
    if effort == EFFORT_OFF:
        return {"thinking": {"type": "disabled"}}
    params: dict[str, Any] = {"thinking": {"type": "adaptive"}}
    if capabilities.effort and effort in capabilities.effort_levels:
        params["output_config"] = {"effort": effort}
    return params


def option_not_applied(capabilities: ModelCapabilities | None) -> str | None:
    """Why the thinking-effort option is not sent, or None when it is.

    CAPABILITIES_UNKNOWN: the server did not report the model's capabilities or could not
    be asked, so the model thinks (or not) at its own default, whatever the option says
    (Haiku 5.5 would think at medium even with "off"). NO_ADAPTIVE_THINKING: the model
    reports only budget-type thinking (Haiku 4.5), which the assistant does not ask for.
    """
    if capabilities is None or capabilities.source != "api":
        return CAPABILITIES_UNKNOWN
    if not capabilities.adaptive_thinking:
        return NO_ADAPTIVE_THINKING
    return None


def too_few_tokens_for_thinking(effort: str, max_tokens: float) -> bool:
    """The options ask for thinking with fewer max output tokens than MIN_TOKENS_THINKING."""
    return effort != EFFORT_OFF and max_tokens < MIN_TOKENS_THINKING
