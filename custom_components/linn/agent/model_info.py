"""The configured model's capabilities, as the models API reports them.

The models API returns `capabilities` per model (thinking types adaptive / enabled, effort
and its levels); Home Assistant's own anthropic integration decides its thinking and
effort parameters from them, and so does the assistant (thinking_params.py). A server
that reports none (a local Anthropic-compatible server), or cannot be asked, gets no
thinking or effort parameters.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
import logging
import time
from typing import Any, Final

import anthropic

from .const import KEY_CHECK_TIMEOUT

_LOGGER = logging.getLogger(__name__)

RETRY_SECONDS: Final = 600.0
"""After a failed look-up (the server unreachable), a turn asks again after this long."""
EFFORT_LEVELS: Final = ("low", "medium", "high", "xhigh", "max")


@dataclass(frozen=True, slots=True)
class ModelCapabilities:
    """What the request parameters are decided from."""

    model: str
    source: str
    """"api": reported by the server; "not_reported": the server reports none (or does not
    know the model); "unavailable": the look-up failed (asked again later)."""
    adaptive_thinking: bool = False
    enabled_thinking: bool = False
    effort: bool = False
    effort_levels: frozenset[str] = frozenset()
    checked_at: float = 0.0
    """time.monotonic() of the look-up."""

    @property
    def stale(self) -> bool:
        """A failed look-up old enough to try again."""
        return self.source == "unavailable" and time.monotonic() - self.checked_at > RETRY_SECONDS

    def as_dict(self) -> dict[str, Any]:
        """For diagnostics."""
        return {
            "model": self.model,
            "source": self.source,
            "thinking_adaptive": self.adaptive_thinking,
            "thinking_enabled": self.enabled_thinking,
            "effort": self.effort,
            "effort_levels": sorted(self.effort_levels, key=EFFORT_LEVELS.index),
        }


async def async_fetch_capabilities(
    client: anthropic.AsyncAnthropic, model: str
) -> ModelCapabilities:
    """The model's capabilities from the models API (client.models.retrieve)."""
    now = time.monotonic()
    try:
        info = await client.models.retrieve(model, timeout=KEY_CHECK_TIMEOUT)
    except anthropic.APIStatusError as err:
        if err.status_code >= 500 or err.status_code == 429:
            _LOGGER.info("Cannot look up model %s (%s); asked again later", model, err)
            return ModelCapabilities(model, "unavailable", checked_at=now)
        _LOGGER.info("The server does not describe model %s (%s)", model, err.status_code)
        return ModelCapabilities(model, "not_reported", checked_at=now)
    except anthropic.APIError as err:
        _LOGGER.info("Cannot look up model %s (%s); asked again later", model, err)
        return ModelCapabilities(model, "unavailable", checked_at=now)
    return _from_answer(model, info.capabilities, now)


def listed_capabilities(models: Iterable[Any], model: str) -> ModelCapabilities | None:
    """The model's capabilities from its entry in a model list, None when it is not listed.

    A list entry is the same object GET /v1/models/{id} returns, so a listed model needs no
    second request; a model that is not on the page (an alias, a typed id, a later page)
    is looked up with async_fetch_capabilities.
    """
    for info in models:
        if getattr(info, "id", None) == model:
            return _from_answer(model, getattr(info, "capabilities", None), time.monotonic())
    return None


def _from_answer(model: str, capabilities: Any, now: float) -> ModelCapabilities:
    """Capabilities from the answer's `capabilities`, or "not_reported" when it is partial.

    The SDK builds its objects from the JSON without validating them, so a field that an
    Anthropic-compatible server left out (or sent as something else) is missing, not an
    error: every field read here is checked to be a bool, and an answer that lacks one of
    the required fields counts as no answer.
    """
    if capabilities is None:
        return ModelCapabilities(model, "not_reported", checked_at=now)
    thinking = _flag(capabilities, "thinking", "supported")
    adaptive = _flag(capabilities, "thinking", "types", "adaptive", "supported")
    enabled = _flag(capabilities, "thinking", "types", "enabled", "supported")
    effort = _flag(capabilities, "effort", "supported")
    if thinking is None or adaptive is None or enabled is None or effort is None:
        _LOGGER.info("The server's capabilities of model %s are incomplete; not used", model)
        return ModelCapabilities(model, "not_reported", checked_at=now)
    levels = frozenset(
        level for level in EFFORT_LEVELS if _flag(capabilities, "effort", level, "supported")
    )
    return ModelCapabilities(
        model,
        "api",
        adaptive_thinking=thinking and adaptive,
        enabled_thinking=thinking and enabled,
        effort=effort,
        effort_levels=levels,
        checked_at=now,
    )


def _flag(value: Any, *path: str) -> bool | None:
    """The bool at `path` (attributes, or keys of a dict the SDK left as it was), or None."""
    for name in path:
        value = value.get(name) if isinstance(value, dict) else getattr(value, name, None)
    return value if isinstance(value, bool) else None
