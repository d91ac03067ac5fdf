"""What a loaded assistant entry holds."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import anthropic
from homeassistant.config_entries import ConfigEntry

from ..guard import CircuitBreaker
from ..tools.ha_adapter import hass_clock
from .caching import CacheReport
from .const import MODEL_TIMEOUT
from .history import ConversationStore
from .model_info import ModelCapabilities

MODEL_FAILURES_TO_OPEN = 3
MODEL_OPEN_SECONDS = 60.0


@dataclass(slots=True)
class AssistantRuntime:
    """The SDK client, the model's circuit breaker and what the turns keep.

    An open breaker means limited mode at once; the turns keep, per conversation, the
    facts sent and what the last request sent (see history.py), and what the last
    request's usage said about the prompt cache. `capabilities` are the configured
    model's, fetched when the entry sets up (an options change reloads the entry);
    `thinking_params` are those the last request sent.
    """

    client: anthropic.AsyncAnthropic
    model_timeout: float = MODEL_TIMEOUT
    breaker: CircuitBreaker = field(
        default_factory=lambda: CircuitBreaker(
            hass_clock, failures_to_open=MODEL_FAILURES_TO_OPEN, open_seconds=MODEL_OPEN_SECONDS
        )
    )
    conversations: ConversationStore = field(default_factory=ConversationStore)
    capabilities: ModelCapabilities | None = None
    last_cache: CacheReport | None = None
    thinking_params: dict[str, Any] | None = None
    thinking_warned: bool = False
    """The warning that the thinking option cannot be applied was logged."""
    plan_outcomes: Counter[str] = field(default_factory=Counter)
    """The planner's turns by outcome: planned, or why there was no plan (diagnostics)."""


type AssistantConfigEntry = ConfigEntry[AssistantRuntime]
