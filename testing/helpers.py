"""Helpers shared by every test package (fixtures live in tests/conftest.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
import socket


async def wait_for(predicate: Callable[[], bool], timeout: float = 2.0) -> None:
    """Poll until predicate() holds; fail the test on timeout instead of hanging."""
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.005)


def closed_port() -> int:
    """A loopback port nothing listens on: connecting to it fails, binding it works."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
