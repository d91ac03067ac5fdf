"""Budget counters per conversation and per day; the agent fills tokens and cost."""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from .clock import Clock


class Ledger:
    """Counters that reset with the day (of the clock's time zone)."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._day: date = clock().date()
        self.today: defaultdict[str, float] = defaultdict(float)
        self.conversations: dict[str, defaultdict[str, float]] = {}

    def add(self, conversation_id: str | None, **amounts: float) -> None:
        """Add e.g. tool_calls=1, input_tokens=..., cost=... to today and the conversation."""
        self._roll()
        for name, amount in amounts.items():
            self.today[name] += amount
            if conversation_id is not None:
                counters = self.conversations.setdefault(conversation_id, defaultdict(float))
                counters[name] += amount

    def for_conversation(self, conversation_id: str) -> dict[str, float]:
        """Counters of one conversation (today)."""
        self._roll()
        return dict(self.conversations.get(conversation_id, {}))

    def totals_today(self) -> dict[str, float]:
        """Today's counters."""
        self._roll()
        return dict(self.today)

    def _roll(self) -> None:
        today = self._clock().date()
        if today != self._day:
            self._day = today
            self.today = defaultdict(float)
            self.conversations = {}
