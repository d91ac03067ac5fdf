"""Sliding-window rate limits: reject fast, never queue."""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable
import math

from .clock import Clock

SWEEP_MIN = 64


class RateLimiter:
    """At most `limit` hits per `window` seconds for each key (an exact sliding log)."""

    def __init__(self, clock: Clock, limit: int, window: float = 60.0) -> None:
        self._clock = clock
        self.limit = limit
        self.window = window
        self._hits: dict[Hashable, deque[float]] = {}
        self._sweep_at = SWEEP_MIN

    def __len__(self) -> int:
        return len(self._hits)

    def hit(self, key: Hashable) -> float | None:
        """Count a hit; None if within the limit, else the seconds until one is free."""
        now = self._clock().timestamp()
        if len(self._hits) > self._sweep_at:
            self._sweep(now)
        hits = self._hits.setdefault(key, deque())
        while hits and hits[0] <= now - self.window:
            hits.popleft()
        if len(hits) >= self.limit:
            return max(0.0, hits[0] + self.window - now)
        hits.append(now)
        return None

    def blocked(self, key: Hashable) -> float | None:
        """Like hit, without counting: None while a hit would pass, else the seconds to wait."""
        now = self._clock().timestamp()
        hits = self._hits.get(key)
        if not hits:
            return None
        while hits and hits[0] <= now - self.window:
            hits.popleft()
        if len(hits) >= self.limit:
            return max(0.0, hits[0] + self.window - now)
        return None

    def _sweep(self, now: float) -> None:
        """Forget keys with no hit in the window (every conversation is a key): amortised O(1)."""
        horizon = now - self.window
        self._hits = {k: h for k, h in self._hits.items() if h and h[-1] > horizon}
        self._sweep_at = max(SWEEP_MIN, 2 * len(self._hits))


def retry_message(seconds: float) -> str:
    """The categorical message a limited caller gets."""
    return f"Rate limited: try again in {max(1, math.ceil(seconds))} s"
