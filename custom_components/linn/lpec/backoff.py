"""Exponential backoff with jitter for reconnect attempts."""

from __future__ import annotations

import random


class Backoff:
    """Delays that double from `minimum` up to `maximum`, each scaled by a random 0.5-1.0.

    The jitter keeps several clients from hammering a rebooting device in lockstep.
    """

    def __init__(self, minimum: float, maximum: float) -> None:
        if minimum <= 0 or maximum < minimum:
            raise ValueError("need 0 < minimum <= maximum")
        self._minimum = minimum
        self._maximum = maximum
        self._attempt = 0

    def next_delay(self) -> float:
        """Return the delay before the next attempt and advance."""
        ceiling = min(self._maximum, self._minimum * 2.0 ** min(self._attempt, 32))
        self._attempt += 1
        return ceiling * random.uniform(0.5, 1.0)

    def reset(self) -> None:
        """Start again from `minimum` (after a successful connection)."""
        self._attempt = 0
