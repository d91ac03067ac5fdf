"""The configured model's capabilities, as the models API reports them.

The models API returns `capabilities` per model (thinking types adaptive / enabled, effort
and its levels); Home Assistant's own anthropic integration decides its thinking and
effort parameters from them, and so does the assistant (thinking_params.py). A server
that reports none (a local Anthropic-compatible server), or cannot be asked, gets no
thinking or effort parameters.
"""

from __future__ import annotations

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
    capabilities = info.capabilities
    if capabilities is None:
        return ModelCapabilities(model, "not_reported", checked_at=now)
    effort = capabilities.effort
    levels = frozenset(
        level
        for level in EFFORT_LEVELS
        if (support := getattr(effort, level, None)) is not None and support.supported
    )
    return ModelCapabilities(
        model,
        "api",
        adaptive_thinking=capabilities.thinking.supported
        and capabilities.thinking.types.adaptive.supported,
        enabled_thinking=capabilities.thinking.supported
        and capabilities.thinking.types.enabled.supported,
        effort=effort.supported,
        effort_levels=levels,
        checked_at=now,
    )
