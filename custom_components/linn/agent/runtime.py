"""What a loaded assistant entry holds."""

from __future__ import annotations

from dataclasses import dataclass, field

import anthropic
from homeassistant.config_entries import ConfigEntry

from ..guard import CircuitBreaker
from ..guard.ha_adapter import hass_clock
from .const import MODEL_TIMEOUT

MODEL_FAILURES_TO_OPEN = 3
MODEL_OPEN_SECONDS = 60.0


@dataclass(slots=True)
class AssistantRuntime:
    """The SDK client and the model's circuit breaker (open: limited mode at once)."""

    client: anthropic.AsyncAnthropic
    model_timeout: float = MODEL_TIMEOUT
    breaker: CircuitBreaker = field(
        default_factory=lambda: CircuitBreaker(
            hass_clock, failures_to_open=MODEL_FAILURES_TO_OPEN, open_seconds=MODEL_OPEN_SECONDS
        )
    )


type AssistantConfigEntry = ConfigEntry[AssistantRuntime]
