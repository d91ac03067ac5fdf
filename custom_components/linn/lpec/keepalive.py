"""The keepalive: probe a connection that has been idle, to find it half-open."""

from __future__ import annotations

import asyncio
import logging
import time

from .codec import Error, Response, format_action
from .connection import LpecConnection
from .errors import LpecConnectionError, LpecTimeoutError
from .replies import out_arguments

_LOGGER = logging.getLogger(__name__)


async def keepalive(conn: LpecConnection, host: str, interval: float, probe_timeout: float) -> None:
    """Detect a half-open connection: probe it when it has been idle.

    A command that times out closes the connection itself (see LpecConnection),
    so only silence needs a probe.
    """
    line = format_action("Ds/Product", 1, "Standby")
    while not conn.closed:
        idle = time.monotonic() - conn.last_reply
        if idle < interval:
            await asyncio.sleep(interval - idle)
            continue
        if conn.busy:
            # A command is in flight: its own reply (or timeout) tells us more.
            await asyncio.sleep(min(0.1, interval))
            continue
        deadline = asyncio.get_running_loop().time() + probe_timeout
        try:
            reply = await conn.request(
                line, Response, deadline, min_values=out_arguments("Ds/Product", "Standby")
            )
        except LpecTimeoutError:
            _LOGGER.warning("%s did not answer the keepalive; reconnecting", host)
            continue
        except LpecConnectionError:
            return
        if isinstance(reply, Error):
            # Not a sign of life (e.g. 111: the device is gone from this session).
            conn.abort(LpecConnectionError(f"keepalive answered {reply}; reconnecting"))
            return
