"""Subscribing: every service on a new connection, and revoked ones again on the same one."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
import logging

from .codec import Error, Response, Subscribed, format_subscribe
from .connection import LpecConnection
from .errors import LpecConnectionError, LpecError, LpecProtocolError

_LOGGER = logging.getLogger(__name__)

SERVICE_NOT_FOUND = 103
DEVICE_NOT_FOUND = 111
"""The sub-device is gone from this session (ohNet, after BYEBYE): a new one is needed."""
ALREADY_SUBSCRIBED = 401
DS = "Ds"


async def subscribe(conn: LpecConnection, path: str, reply_timeout: float) -> Subscribed | Error:
    """SUBSCRIBE to one service: its ack, or the device's ERROR."""
    deadline = asyncio.get_running_loop().time() + reply_timeout
    reply = await conn.request(format_subscribe(path), Subscribed, deadline, path=path)
    if isinstance(reply, Response):
        raise LpecProtocolError(f"RESPONSE to SUBSCRIBE {path}")
    return reply


async def subscribe_all(
    conn: LpecConnection, services: Sequence[str], reply_timeout: float
) -> tuple[list[str], list[str]]:
    """Subscribe to each service in turn: the paths present, and those absent."""
    present: list[str] = []
    absent: list[str] = []
    for index, path in enumerate(services):
        reply = await subscribe(conn, path, reply_timeout)
        if isinstance(reply, Error) and index == 0 and reply.code != SERVICE_NOT_FOUND:
            # The first-command bug may still hit if the blank line was ignored.
            reply = await subscribe(conn, path, reply_timeout)
        if isinstance(reply, Subscribed):
            present.append(path)
        elif reply.code == DEVICE_NOT_FOUND and path.startswith(f"{DS}/"):
            raise LpecConnectionError(f"the device is gone from this session ({reply})")
        else:
            if reply.code != SERVICE_NOT_FOUND:
                _LOGGER.warning("Cannot subscribe to %s: %s", path, reply)
            absent.append(path)
    return present, absent


async def resubscribe_revoked(
    conn: LpecConnection, revoked: set[str], reply_timeout: float
) -> bool:
    """Subscribe again to the revoked paths whose sub-device is alive; drop each one renewed.

    False when it stopped early: the connection closed, or was aborted here (to start over).
    """
    for path in sorted(revoked):
        if conn.closed:
            return False
        if path.partition("/")[0] not in conn.alive:
            continue  # resubscribed when the sub-device says ALIVE
        try:
            reply = await subscribe(conn, path, reply_timeout)
        except LpecError as err:
            # No usable ack (a late one would carry an id we never registered): start over.
            conn.abort(LpecConnectionError(f"resubscribing to {path} failed: {err}"))
            return False
        if isinstance(reply, Subscribed):
            revoked.discard(path)
        elif reply.code == ALREADY_SUBSCRIBED:
            # The device still has a subscription whose id we dropped: start over.
            conn.abort(LpecConnectionError(f"lost track of the subscription to {path}"))
            return False
        else:
            _LOGGER.debug("Resubscribe to %s refused: %s", path, reply)
    return True
