"""Helpers shared by the LPEC client tests."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

# Small values so faults are detected and repaired in well under a second.
FAST: dict[str, Any] = {
    "connect_timeout": 1.0,
    "action_timeout": 1.0,
    "keepalive_interval": 10.0,
    "keepalive_timeout": 0.3,
    "reconnect_min": 0.02,
    "reconnect_max": 0.2,
    "settle_timeout": 0.01,
}


async def wait_for(predicate: Callable[[], bool], within: float = 2.0) -> None:
    """Poll until predicate() is true; fail the test on timeout instead of hanging."""
    async with asyncio.timeout(within):
        while not predicate():
            await asyncio.sleep(0.01)


def assert_no_lpec_tasks() -> None:
    """After close(), none of the library's tasks (all named lpec-*) may be left."""
    left = [t for t in asyncio.all_tasks() if t.get_name().startswith("lpec-") and not t.done()]
    assert not left, left
