"""Sliding-window rate limits: reject fast, never queue."""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable
import math

from .clock import Clock


class RateLimiter:
    """At most `limit` hits per `window` seconds for each key (an exact sliding log)."""

    def __init__(self, clock: Clock, limit: int, window: float = 60.0) -> None:
        self._clock = clock
        self.limit = limit
        self.window = window
        self._hits: dict[Hashable, deque[float]] = {}

    def hit(self, key: Hashable) -> float | None:
        """Count a hit; None if within the limit, else the seconds until one is free."""
        now = self._clock().timestamp()
        hits = self._hits.setdefault(key, deque())
        while hits and hits[0] <= now - self.window:
            hits.popleft()
        if len(hits) >= self.limit:
            return max(0.0, hits[0] + self.window - now)
        hits.append(now)
        return None


def retry_message(seconds: float) -> str:
    """The categorical message a limited caller gets."""
    return f"Rate limited: try again in {max(1, math.ceil(seconds))} s"
