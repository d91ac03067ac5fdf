"""A logger wrapper that says the same kind of thing at most once per interval."""

from __future__ import annotations

import logging
import time


class RateLimitedLog:
    """Log a warning at most once per interval, counting what was suppressed.

    A device stuck sending garbage must not flood the log.
    """

    def __init__(self, logger: logging.Logger, interval: float) -> None:
        self._logger = logger
        self._interval = interval
        self._last = -interval
        self._suppressed = 0

    def warning(self, msg: str, *args: object) -> None:
        """Log `msg % args` unless a warning was logged less than `interval` ago."""
        now = time.monotonic()
        if now - self._last < self._interval:
            self._suppressed += 1
            return
        if self._suppressed:
            self._logger.warning("(%d similar messages suppressed)", self._suppressed)
        self._suppressed = 0
        self._last = now
        self._logger.warning(msg, *args)
