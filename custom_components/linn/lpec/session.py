"""A long-lived LPEC session: connect, subscribe, keep alive, reconnect, resubscribe."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Sequence
import logging
from typing import Any, Protocol, TypedDict

from .backoff import Backoff
from .codec import Error, Event, Response, format_action
from .connection import CommandNotRunError, LpecConnection
from .errors import (
    LpecConnectionError,
    LpecDeviceError,
    LpecError,
    LpecProtocolError,
    LpecTimeoutError,
)
from .keepalive import keepalive
from .replies import out_arguments
from .subscriptions import DEVICE_NOT_FOUND, DS, resubscribe_revoked, subscribe_all

_LOGGER = logging.getLogger(__name__)

ALIVE_TIMEOUT = 1.0
"""Seconds to wait for ALIVE on a new session: ohNet says it at once, or never (a device
disabled when the session began; reference: DviSessionLpec announces only at its start)."""


class SessionHandler(Protocol):
    """What the session tells its owner (called synchronously in the event loop)."""

    def on_event(self, path: str, event: Event) -> None:
        """Variables of a subscribed service changed; sequence 0 is its full state."""

    def on_availability(self, available: bool) -> None:
        """Report that the device became reachable (True) or was lost (False)."""

    def on_read_done(self) -> None:
        """Every event of one read has been passed on: a point to act on them together."""


class SessionTimings(TypedDict, total=False):
    """LpecSession's timeouts and intervals, in seconds, for whoever passes them on."""

    connect_timeout: float
    alive_timeout: float
    action_timeout: float
    keepalive_interval: float
    keepalive_timeout: float
    reconnect_min: float
    reconnect_max: float


class LpecSession:
    """One logical session to a device that survives disconnects.

    Call `connect()` once; afterwards the session keeps itself connected until
    `close()`. `action()` waits for a connection when there is none, up to its timeout.
    """

    def __init__(
        self,
        host: str,
        port: int,
        services: Sequence[str],
        handler: SessionHandler,
        *,
        connect_timeout: float = 10.0,
        alive_timeout: float = ALIVE_TIMEOUT,
        action_timeout: float = 5.0,
        keepalive_interval: float = 30.0,
        keepalive_timeout: float = 5.0,
        reconnect_min: float = 0.5,
        reconnect_max: float = 4.0,
    ) -> None:
        self.host = host
        self.port = port
        self._services = tuple(services)
        self._handler = handler
        self.connect_timeout = connect_timeout
        self.alive_timeout = min(alive_timeout, connect_timeout)
        self.action_timeout = action_timeout
        self._keepalive_interval = keepalive_interval
        self._keepalive_timeout = keepalive_timeout
        self._backoff = Backoff(reconnect_min, reconnect_max)
        self._resubscribe_delay = reconnect_min
        self._conn: LpecConnection | None = None
        self._ready = asyncio.Event()
        self._lost = asyncio.Event()
        self._closing = False
        self._available = False
        self._tasks: set[asyncio.Task[None]] = set()
        self._supervisor: asyncio.Task[None] | None = None
        self._opener: asyncio.Task[LpecConnection] | None = None
        self._revoked: set[str] = set()
        self._revocation_on: LpecConnection | None = None
        """The connection the last revocation came on: a BYEBYE after it is the wiki's."""
        self._resubscribing = asyncio.Lock()
        self._initial_seen: set[str] = set()
        self._initial_event = asyncio.Event()
        self.present: frozenset[str] = frozenset()
        self.absent: frozenset[str] = frozenset()
        self.udn: str | None = None

    @property
    def closing(self) -> bool:
        """True once close() was called."""
        return self._closing

    @property
    def available(self) -> bool:
        """True while connected, subscribed and the Ds sub-device is alive."""
        return self._available

    # --- lifecycle -------------------------------------------------------------

    async def connect(self) -> None:
        """Open the first connection and subscribe; raise if the device is not there."""
        if self._closing:
            raise LpecConnectionError("session is closed")
        if self._supervisor is not None:
            return
        # A task of its own, so close() can cancel a connect that is still waiting.
        opener = asyncio.get_running_loop().create_task(self._open(), name="lpec-connect")
        self._opener = opener
        try:
            await asyncio.wait({opener})
        except asyncio.CancelledError:
            opener.cancel()
            raise
        finally:
            self._opener = None
        if opener.cancelled():
            raise LpecConnectionError("session closed while connecting")
        conn = opener.result()
        if self.closing:
            await conn.close()
            raise LpecConnectionError("session is closed")
        self._install(conn)
        self._supervisor = self._spawn(self._supervise(), "lpec-supervisor")

    async def close(self) -> None:
        """Close the connection, stop reconnecting and fail every pending command."""
        self._closing = True
        self._ready.set()  # wake waiters: they see _closing and raise
        conn, self._conn = self._conn, None
        if self._opener is not None:
            self._opener.cancel()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if conn is not None:
            await conn.close()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._set_available(False)

    async def _open(self) -> LpecConnection:
        phase = ["connecting"]
        try:
            async with asyncio.timeout(self.connect_timeout):
                return await self._open_and_subscribe(phase)
        except TimeoutError as err:
            if isinstance(err, LpecTimeoutError):
                raise
            if phase[0] == "connecting":
                raise LpecTimeoutError(
                    f"{self.host}:{self.port} sent no ALIVE within {self.alive_timeout}s"
                    " (disabled when the session began, or at its LPEC session limit?)"
                ) from None
            raise LpecTimeoutError(
                f"{self.host}:{self.port} did not become ready within"
                f" {self.connect_timeout}s (subscribing to its services took too long)"
            ) from None

    async def _open_and_subscribe(self, phase: list[str]) -> LpecConnection:
        # ohNet announces a device only when a session starts, and not one disabled then:
        # no ALIVE soon means none will come on this session; a new one is the way back.
        async with asyncio.timeout(self.alive_timeout):
            conn = await LpecConnection.open(self.host, self.port, self)
        phase[0] = "subscribing"
        try:
            self._initial_seen.clear()
            # From here on a revocation concerns this connection: _install() repairs it.
            self._revoked.clear()
            present, absent = await subscribe_all(conn, self._services, self.action_timeout)
            await self._wait_initial_state(present)
        except BaseException:
            await conn.close()
            raise
        self.present, self.absent = frozenset(present), frozenset(absent)
        self.udn = conn.alive.get(DS)
        return conn

    async def _wait_initial_state(self, present: list[str]) -> None:
        """Wait for EVENT 0 of every subscription, so connect() returns full state."""
        try:
            async with asyncio.timeout(self.action_timeout):
                while not self._initial_seen.issuperset(present):
                    self._initial_event.clear()
                    await self._initial_event.wait()
        except TimeoutError:
            missing = sorted(set(present) - self._initial_seen)
            _LOGGER.warning("No initial state from %s for %s", self.host, missing)

    def _install(self, conn: LpecConnection) -> None:
        self._conn = conn
        self._lost.clear()
        self._backoff.reset()
        self._ready.set()
        self._spawn(
            keepalive(conn, self.host, self._keepalive_interval, self._keepalive_timeout),
            "lpec-keepalive",
        )
        self._set_available(True)
        if self._revoked:  # revoked while connecting, when nothing could resubscribe
            self._schedule_resubscribe(0.0)

    async def _supervise(self) -> None:
        while not self._closing:
            await self._lost.wait()
            spent = 0.0
            while not self._closing:
                # The backoff spaces the attempts' starts: a failed attempt's own wait
                # (for ALIVE) counts, so recovery after the device returns stays within
                # reconnect_max of it.
                delay = max(0.0, self._backoff.next_delay() - spent)
                _LOGGER.debug("Reconnecting to %s in %.2fs", self.host, delay)
                await asyncio.sleep(delay)
                started = asyncio.get_running_loop().time()
                try:
                    conn = await self._open()
                except LpecError as err:
                    spent = asyncio.get_running_loop().time() - started
                    _LOGGER.debug("Reconnect to %s failed: %s", self.host, err)
                    continue
                except Exception:
                    # Never let the supervisor die: that would end reconnection for good.
                    _LOGGER.exception("Unexpected error reconnecting to %s", self.host)
                    continue
                _LOGGER.info("Reconnected to %s", self.host)
                self._install(conn)
                break

    def _spawn(self, coro: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and (err := task.exception()) is not None:
            _LOGGER.error("LPEC task %s failed", task.get_name(), exc_info=err)

    def _set_available(self, available: bool) -> None:
        if available == self._available:
            return
        self._available = available
        try:
            self._handler.on_availability(available)
        except Exception:
            _LOGGER.exception("Availability handler failed")

    # --- commands --------------------------------------------------------------

    async def action(
        self,
        path: str,
        version: int,
        name: str,
        args: Sequence[str] = (),
        action_timeout: float | None = None,
    ) -> tuple[str, ...]:
        """Run one ACTION and return its out-arguments; raise LpecError on any failure."""
        limit = self.action_timeout if action_timeout is None else action_timeout
        line = format_action(path, version, name, tuple(args))
        deadline = asyncio.get_running_loop().time() + limit
        min_values = out_arguments(path, name)
        resent = False
        while True:
            conn = await self._connection(deadline)
            try:
                reply = await conn.request(line, Response, deadline, min_values=min_values)
            except CommandNotRunError:
                # Never written (e.g. queued behind a command whose reply was lost), or in
                # flight when the device said BYEBYE (ohNet: it answers 111, runs nothing):
                # the next connection carries it, within the same deadline.
                continue
            if (
                isinstance(reply, Error)
                and reply.code == DEVICE_NOT_FOUND
                and path.startswith(f"{DS}/")
            ):
                self._device_gone(conn, f"ACTION {path} {name}")
                if not resent:
                    # ohNet answers 111 before it invokes anything: the action did not
                    # run, so it goes once more, on the new session (within its deadline).
                    resent = True
                    continue
            break
        # A command in flight when the connection ends without BYEBYE (a reboot, a lost
        # reply) raises LpecOutcomeUnknownError or LpecTimeoutError: it may have run.
        if isinstance(reply, Error):
            raise LpecDeviceError(reply.code, reply.description)
        if not isinstance(reply, Response):
            raise LpecProtocolError(f"unexpected reply to ACTION {path} {name}: {reply}")
        return reply.values

    def _device_gone(self, conn: LpecConnection, what: str) -> None:
        """The device answered 111: it is gone from this session; open a new one."""
        conn.abort(LpecConnectionError(f"the device is gone from this session ({what}: 111)"))

    async def _connection(self, deadline: float) -> LpecConnection:
        while True:
            if self._closing:
                raise LpecConnectionError("session is closed")
            conn = self._conn
            if conn is not None and not conn.closed:
                return conn
            if self._supervisor is None:
                raise LpecConnectionError("not connected: call connect() first")
            try:
                async with asyncio.timeout_at(deadline):
                    await self._ready.wait()
            except TimeoutError:
                raise LpecConnectionError(
                    f"not connected to {self.host}:{self.port} (waited for a reconnect)"
                ) from None

    # --- ConnectionListener ----------------------------------------------------

    def on_event(self, path: str, event: Event) -> None:
        """Pass an event on to the handler."""
        if event.sequence == 0:
            self._initial_seen.add(path)
            self._initial_event.set()
        self._handler.on_event(path, event)

    def on_read_done(self) -> None:
        """Tell the handler that the events of one read have all been passed on."""
        self._handler.on_read_done()

    def on_alive(self, device: str, udn: str) -> None:
        """Resubscribe what a sub-device lost when it comes back."""
        if device == DS:
            self.udn = udn
        if any(path.startswith(f"{device}/") for path in self._revoked):
            self._schedule_resubscribe(0.0)  # goes available once resubscribed
        elif device == DS and self._conn is not None:
            self._set_available(True)

    def on_byebye(self, device: str, udn: str) -> None:
        """Go unavailable at once when the Ds sub-device leaves; get it back.

        As the firmware does it (ohNet), BYEBYE comes alone: the device is gone from this
        session for good (commands get ERROR 111, no ALIVE comes again), so the session is
        closed and a new one opened, with backoff. As the wiki says, subscriptions were
        revoked (UNSUBSCRIBE) first and ALIVE follows on this session: it is kept, for
        `connect_timeout` at most.
        """
        if device != DS:
            return
        self._set_available(False)
        conn = self._conn
        if conn is None or conn.closed:
            return
        documented, self._revocation_on = self._revocation_on is conn, None
        if documented:
            self._spawn(self._await_alive(conn), "lpec-await-alive")
        else:
            conn.abort(LpecConnectionError("BYEBYE: the device is gone from this session"), gone=DS)

    async def _await_alive(self, conn: LpecConnection) -> None:
        """After a documented BYEBYE: no ALIVE in time means a new session."""
        await asyncio.sleep(self.connect_timeout)
        if not conn.closed and DS not in conn.alive:
            conn.abort(LpecConnectionError(f"no ALIVE within {self.connect_timeout}s of BYEBYE"))

    def on_revoked(self, path: str) -> None:
        """Try to get a revoked subscription back shortly."""
        _LOGGER.info("%s revoked the subscription to %s", self.host, path)
        self._revoked.add(path)
        self._revocation_on = self._conn
        self._schedule_resubscribe(self._resubscribe_delay)

    def on_closed(self, error: LpecConnectionError) -> None:
        """Go unavailable and let the supervisor reconnect."""
        if self._closing:
            return
        _LOGGER.warning("Lost connection to %s: %s", self.host, error)
        self._conn = None
        self._revocation_on = None  # holds no dead connection (nor its buffers)
        self._ready.clear()
        self._lost.set()
        self._set_available(False)

    def _schedule_resubscribe(self, delay: float) -> None:
        conn = self._conn
        if conn is None or self._closing:
            return
        self._spawn(self._resubscribe(conn, delay), "lpec-resubscribe")

    async def _resubscribe(self, conn: LpecConnection, delay: float) -> None:
        await asyncio.sleep(delay)
        # One at a time: two tasks sending SUBSCRIBE for one path would get ERROR 401.
        async with self._resubscribing:
            renewed = await resubscribe_revoked(conn, self._revoked, self.action_timeout)
            if renewed and DS in conn.alive and not conn.closed and conn is self._conn:
                self._set_available(True)
