"""The one source of time for the guard, injectable so tests control it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]
"""Returns the current time as an aware datetime."""


def system_clock() -> datetime:
    """The real time, in UTC."""
    return datetime.now(UTC)
