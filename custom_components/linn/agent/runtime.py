"""What a loaded assistant entry holds."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

import anthropic
from homeassistant.config_entries import ConfigEntry

from ..guard import CircuitBreaker
from ..guard.ha_adapter import hass_clock
from .caching import CacheReport
from .const import MODEL_TIMEOUT

MODEL_FAILURES_TO_OPEN = 3
MODEL_OPEN_SECONDS = 60.0
FACTS_CONVERSATIONS = 64


class SentFacts:
    """The turn facts sent with each user utterance, per conversation (the newest kept).

    Earlier utterances are sent again with the facts they had, so the history the API
    cached is matched byte for byte on the next turn.
    """

    def __init__(self, conversations: int = FACTS_CONVERSATIONS) -> None:
        """Keep the facts of at most `conversations` conversations."""
        self._conversations = conversations
        self._facts: OrderedDict[str, dict[int, str]] = OrderedDict()

    def get(self, conversation_id: str) -> dict[int, str]:
        """A copy of the facts by chat-log index of their utterance."""
        return dict(self._facts.get(conversation_id, {}))

    def put(self, conversation_id: str, facts: dict[int, str]) -> None:
        """Store a conversation's facts (the least recently stored one goes over the cap)."""
        self._facts[conversation_id] = dict(facts)
        self._facts.move_to_end(conversation_id)
        while len(self._facts) > self._conversations:
            self._facts.popitem(last=False)


@dataclass(slots=True)
class AssistantRuntime:
    """The SDK client, the model's circuit breaker and what the turns keep.

    An open breaker means limited mode at once; the turns keep the facts sent per
    conversation and what the last request's usage said about the prompt cache.
    """

    client: anthropic.AsyncAnthropic
    model_timeout: float = MODEL_TIMEOUT
    breaker: CircuitBreaker = field(
        default_factory=lambda: CircuitBreaker(
            hass_clock, failures_to_open=MODEL_FAILURES_TO_OPEN, open_seconds=MODEL_OPEN_SECONDS
        )
    )
    sent_facts: SentFacts = field(default_factory=SentFacts)
    last_cache: CacheReport | None = None


type AssistantConfigEntry = ConfigEntry[AssistantRuntime]
