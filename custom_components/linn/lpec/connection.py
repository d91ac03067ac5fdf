"""One LPEC TCP connection: message framing, the single command slot and message routing.

A connection never reconnects; when it dies it fails the command in flight and tells
its listener once. `LpecSession` builds reconnection on top of it.

Bytes are received by an asyncio.Protocol (`_Receiver`): each chunk is framed and its
messages handled in `data_received` itself, so a pushed event costs no task wake-up
(issue 31). Only the wait for ALIVE reads messages with an await.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
import logging
import time
from typing import Protocol, cast

from .codec import (
    Alive,
    ByeBye,
    DeviceMessage,
    Error,
    Event,
    Response,
    Subscribed,
    Unsubscribed,
    parse_device_line,
)
from .errors import (
    LpecConnectionError,
    LpecError,
    LpecOutcomeUnknownError,
    LpecProtocolError,
    LpecTimeoutError,
)
from .framing import MAX_MESSAGE_BYTES, MessageFramer, MessageTooLongError
from .ratelimit import RateLimitedLog

_LOGGER = logging.getLogger(__name__)

type Reply = Response | Subscribed | Error


class CommandNotRunError(LpecConnectionError):
    """The command did not run on this connection: it may go on another one."""


class CommandNotSentError(CommandNotRunError):
    """The connection closed before the command was written."""


class ConnectionListener(Protocol):
    """What a connection reports to its owner. Called synchronously from the reader."""

    def on_alive(self, device: str, udn: str) -> None:
        """Handle a sub-device announcing itself after the connection opened."""

    def on_byebye(self, device: str, udn: str) -> None:
        """Handle a sub-device going away (it may never say ALIVE again here)."""

    def on_event(self, path: str, event: Event) -> None:
        """Handle an EVENT for the subscription to `path` (e.g. 'Ds/Product')."""

    def on_revoked(self, path: str) -> None:
        """Handle the device revoking the subscription to `path`."""

    def on_closed(self, error: LpecConnectionError) -> None:
        """Handle the death of the connection; called once."""

    def on_read_done(self) -> None:
        """Every message of one read has been handled: a point to act on them together."""


@dataclass(slots=True)
class _Command:
    line: str
    expects: type[Response] | type[Subscribed]
    path: str | None
    future: asyncio.Future[Reply]
    min_values: int = 0
    """A RESPONSE with fewer values is not this command's reply (see replies.py)."""

    @property
    def is_action(self) -> bool:
        """True for an ACTION (not a SUBSCRIBE)."""
        return self.line.startswith("ACTION ")

    @property
    def device(self) -> str:
        """The sub-device the command names ('Ds' in 'ACTION Ds/Product 1 Standby')."""
        words = self.line.split(" ", 2)
        return words[1].partition("/")[0] if len(words) > 1 else ""


class LpecConnection:
    """An open LPEC session on one TCP connection.

    Exactly one command is in flight at a time: RESPONSE lines carry no request id,
    so the next reply belongs to the command in flight. When a command gets no reply
    in time, nothing tells a late reply from the next command's, so the connection
    closes itself at once (the owner reconnects) instead of guessing.
    """

    def __init__(
        self,
        receiver: _Receiver,
        listener: ConnectionListener,
        alive: dict[str, str],
    ) -> None:
        self._receiver = receiver
        self._transport = receiver.transport
        self._listener = listener
        self.alive = alive
        self.subscriptions: dict[int, str] = {}
        self.last_reply = time.monotonic()
        self._lock = asyncio.Lock()
        self._current: _Command | None = None
        self._closed = False
        self._bad_lines = RateLimitedLog(_LOGGER, interval=10.0)
        # What came after ALIVE is handled on the next loop turn, as the reader task did:
        # after open()'s caller got the connection, never inside open().
        asyncio.get_running_loop().call_soon(self._start_reading)

    @classmethod
    async def open(cls, host: str, port: int, listener: ConnectionListener) -> LpecConnection:
        """Connect, wait for ALIVE of the Ds sub-device, then send a blank line.

        No timeout here: the caller bounds the whole open (a device at its session
        cap accepts TCP but never says ALIVE).
        """
        loop = asyncio.get_running_loop()
        try:
            _, receiver = await loop.create_connection(
                lambda: _Receiver(loop, MAX_MESSAGE_BYTES), host, port
            )
        except OSError as err:
            raise LpecConnectionError(f"cannot connect to {host}:{port}: {err}") from err
        transport = receiver.transport
        try:
            alive = await _read_alive(receiver)
            # The wiki: firmware answers the first command after ALIVE with a spurious
            # ERROR unless a blank line came first. ohNet ignores blank lines and has no
            # such bug, so nothing waits for an answer to it; a stray ERROR with nothing
            # in flight is dropped, and one taken for the first SUBSCRIBE's is retried.
            transport.write(b"\r\n")
            await receiver.drain()
        except OSError as err:
            transport.close()
            raise LpecConnectionError(f"connection to {host}:{port} lost: {err}") from err
        except BaseException:
            transport.close()
            raise
        return cls(receiver, listener, alive)

    @property
    def closed(self) -> bool:
        """True once the connection is dead."""
        return self._closed

    @property
    def busy(self) -> bool:
        """True while a command is in flight or queued."""
        return self._lock.locked()

    async def request(
        self,
        line: str,
        expects: type[Response] | type[Subscribed],
        deadline: float,
        path: str | None = None,
        min_values: int = 0,
    ) -> Reply:
        """Send one command line and return its reply (Error included, not raised).

        `deadline` is in event-loop time and covers queueing behind other commands.
        Raises CommandNotSentError when the connection closed before the line was
        written, LpecTimeoutError (and closes the connection) when no reply came.
        """
        try:
            async with asyncio.timeout_at(deadline):
                await self._lock.acquire()
        except TimeoutError:
            raise LpecTimeoutError(f"{line!r} timed out waiting for the command slot") from None
        try:
            return await self._send_and_wait(line, expects, path, deadline, min_values)
        finally:
            self._lock.release()

    async def _send_and_wait(
        self,
        line: str,
        expects: type[Response] | type[Subscribed],
        path: str | None,
        deadline: float,
        min_values: int,
    ) -> Reply:
        if self._closed or self._transport.is_closing():
            raise CommandNotSentError("connection is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Reply] = loop.create_future()
        self._current = _Command(line, expects, path, future, min_values)
        try:
            self._transport.write(line.encode() + b"\r\n")
            done, _ = await asyncio.wait({future}, timeout=max(0.0, deadline - loop.time()))
            if not done:
                raise LpecTimeoutError(f"no reply to {line!r} in time")
            return future.result()
        finally:
            self._current = None
            if not future.done():
                # Timed out or cancelled: a reply may still come, and could not be told
                # apart from the next command's. Resynchronise by starting over.
                future.cancel()
                self.abort(LpecConnectionError(f"no reply to {line!r}; resynchronising"))
            elif not future.cancelled():
                future.exception()  # retrieved, even if our caller was cancelled meanwhile

    def abort(self, error: LpecConnectionError, *, gone: str | None = None) -> None:
        """Kill the connection now (e.g. a keepalive went unanswered).

        A command in flight fails with LpecOutcomeUnknownError, or with CommandNotRunError
        if it names `gone`, a sub-device that said BYEBYE (docs/protocol.md, "BYEBYE and a
        command in flight").
        """
        if self._closed:
            return
        self._closed = True
        current = self._current
        if current is not None and not current.future.done():
            if gone is not None and current.device == gone and current.is_action:
                current.future.set_exception(
                    CommandNotRunError(f"{current.line!r} did not run: {error}")
                )
            else:
                current.future.set_exception(
                    LpecOutcomeUnknownError(
                        f"{current.line!r} was sent, then the connection ended before its"
                        f" reply ({error}): it may have run, so it is not sent again"
                    )
                )
        self._transport.close()
        try:
            self._listener.on_closed(error)
        except Exception:
            _LOGGER.exception("Connection listener failed")

    async def close(self) -> None:
        """Close the connection and wait for the reader to finish (the socket closed)."""
        self.abort(LpecConnectionError("connection closed"))
        try:
            async with asyncio.timeout(1.0):
                await self._receiver.wait_closed()
        except TimeoutError:
            pass

    def _start_reading(self) -> None:
        if not self._closed:  # e.g. closed by its opener at once
            self._receiver.start(self._handle_lines, self._reading_ended)

    def _reading_ended(self, error: LpecConnectionError) -> None:
        if self._closed:
            return  # aborted first (e.g. closed here): its socket closing is no news
        _LOGGER.debug("LPEC connection ends: %s", error)
        self.abort(error)

    def _handle_lines(self, lines: list[str]) -> None:
        for line in lines:
            self._handle_line(line)
        try:
            self._listener.on_read_done()
        except Exception:
            _LOGGER.exception("Connection listener failed")

    def _handle_line(self, line: str) -> None:
        if self._closed:
            return  # aborted by a listener (e.g. on BYEBYE): what follows is stale
        try:
            message = parse_device_line(line)
        except LpecProtocolError as err:
            self._bad_lines.warning("Skipping malformed LPEC line %.200r: %s", line, err)
            return
        if message is not None:
            try:
                self._dispatch(message)
            except Exception:
                _LOGGER.exception("Failed to handle LPEC line %.200r", line)

    def _dispatch(self, message: DeviceMessage) -> None:
        match message:
            case Event(subscription_id=sid):
                path = self.subscriptions.get(sid)
                if path is None:
                    _LOGGER.debug("Dropping EVENT for unknown subscription %s", sid)
                else:
                    self._listener.on_event(path, message)
            case Alive(device=device, udn=udn):
                self.alive[device] = udn
                self._listener.on_alive(device, udn)
            case ByeBye(device=device, udn=udn):
                # The wiki: each subscription was revoked with UNSUBSCRIBE first, and ALIVE
                # follows on this connection. ohNet: BYEBYE alone, and the device is gone
                # from this connection for good. The listener tells them apart.
                known = self.alive.get(device)
                if known is not None and known != udn:
                    # Not the sub-device that announced itself here: ignore it.
                    self._bad_lines.warning(
                        "Ignoring BYEBYE %s %s: ALIVE said %s", device, udn, known
                    )
                    return
                self.alive.pop(device, None)
                self._listener.on_byebye(device, udn)
            case Unsubscribed(subscription_id=sid):
                # This client never unsubscribes, so every UNSUBSCRIBE is a revocation.
                path = self.subscriptions.pop(sid, None)
                if path is not None:
                    self._listener.on_revoked(path)
            case Response() | Subscribed() | Error():
                self._reply(message)

    def _reply(self, message: Reply) -> None:
        if not isinstance(message, Error):
            # An ERROR is no sign of life: a device gone from this session answers 111.
            self.last_reply = time.monotonic()
        current = self._current
        if current is None or current.future.done():
            # e.g. the wiki's first-command ERROR, or the answer to a timed-out command
            _LOGGER.debug("Dropping unexpected reply %s", message)
            return
        if isinstance(message, Response) and len(message.values) < current.min_values:
            self._bad_lines.warning(
                "Ignoring a RESPONSE with %d values: the command in flight answers %d",
                len(message.values),
                current.min_values,
            )
            return
        if isinstance(message, Subscribed) and current.path is not None:
            # Register before the caller wakes up: EVENT 0 follows on the next line.
            self.subscriptions[message.subscription_id] = current.path
        current.future.set_result(message)


class _Receiver(asyncio.Protocol):
    """Frame the bytes of one connection as they arrive (the same MessageFramer as ever).

    Until `start()`, complete messages queue up in order and `read()` returns them (the
    wait for ALIVE). From `start()` on, the queue is handled first, then each chunk's
    messages are handled in `data_received` itself, and the end of reading is reported
    once, after every message framed before it: an overlong message or a broken quote
    (as the framer reports, after the messages of the read that reached it), the device's
    EOF, or a socket error.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, limit: int) -> None:
        self._loop = loop
        self._framer = MessageFramer(limit)
        self.transport = cast(asyncio.Transport, None)
        """Set by connection_made, before create_connection returns."""
        self._ready: deque[str] = deque()
        self._eof = False
        self._error: Exception | None = None
        """Why reading ended, unless by EOF: a framing error or the socket's."""
        self._waiter: asyncio.Future[None] | None = None
        self._handle: Callable[[list[str]], None] | None = None
        self._on_end: Callable[[LpecConnectionError], None] | None = None
        self._lost = False
        self._paused = False
        self._drain_waiter: asyncio.Future[None] | None = None
        self._closed: asyncio.Future[None] = loop.create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        if self._ended:
            return
        messages = self._framer.feed(data)
        self._error = self._framer.error()
        handle = self._handle
        if handle is None:
            self._ready.extend(messages)
            self._wake()
            return
        if messages:
            handle(messages)
        if self._error is not None:
            self._end()

    def eof_received(self) -> bool:
        if not self._ended:
            self._eof = True
            self._wake_or_end()
        return True  # as a StreamReader's protocol: writing stays possible until closed

    def connection_lost(self, exc: Exception | None) -> None:
        self._lost = True
        if not self._ended:
            if exc is None:
                self._eof = True
            else:
                self._error = exc
            self._wake_or_end()
        waiter = self._drain_waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)
        if not self._closed.done():
            self._closed.set_result(None)

    def pause_writing(self) -> None:
        self._paused = True

    def resume_writing(self) -> None:
        self._paused = False
        waiter = self._drain_waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def drain(self) -> None:
        """As StreamWriter.drain: raise a socket error or a lost connection, wait if paused."""
        if isinstance(self._error, OSError):
            raise self._error
        if self.transport.is_closing():
            await asyncio.sleep(0)  # let connection_lost be called
        if self._lost:
            raise ConnectionResetError("Connection lost")
        if not self._paused:
            return
        self._drain_waiter = self._loop.create_future()
        try:
            await self._drain_waiter
        finally:
            self._drain_waiter = None
        if self._lost:
            raise ConnectionResetError("Connection lost")

    async def wait_closed(self) -> None:
        """Wait until the socket is closed (connection_lost)."""
        await asyncio.shield(self._closed)

    async def read(self) -> str | None:
        """The next message queued before start(); None once the device closed.

        Raises MessageTooLongError or BrokenQuoteError (after the messages before it),
        or OSError from the socket.
        """
        while not self._ready:
            if self._error is not None:
                raise self._error
            if self._eof:
                return None
            self._waiter = self._loop.create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._ready.popleft()

    def start(
        self, handle: Callable[[list[str]], None], on_end: Callable[[LpecConnectionError], None]
    ) -> None:
        """Handle the queued messages, then each read's messages as they arrive; report the end.

        `handle` gets the messages of one read in one call, in order.
        """
        if self._ready:
            queued = list(self._ready)
            self._ready.clear()
            handle(queued)
        self._handle = handle
        self._on_end = on_end
        if self._ended:
            self._end()

    @property
    def _ended(self) -> bool:
        return self._eof or self._error is not None

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def _wake_or_end(self) -> None:
        if self._handle is None:
            self._wake()
        else:
            self._end()

    def _end(self) -> None:
        on_end = self._on_end
        if on_end is None:
            return
        self._on_end = None  # once
        error = self._error
        if error is None:
            on_end(LpecConnectionError("connection closed by the device"))
        elif isinstance(error, LpecConnectionError):
            on_end(error)
        else:
            on_end(LpecConnectionError(f"connection lost: {error}"))


async def _read_alive(reader: _Receiver) -> dict[str, str]:
    """Read messages until the Ds sub-device says ALIVE; return every ALIVE seen."""
    alive: dict[str, str] = {}
    while "Ds" not in alive:
        try:
            raw = await reader.read()
        except MessageTooLongError as err:
            raise LpecConnectionError(f"oversized message while waiting for ALIVE: {err}") from err
        except OSError as err:
            raise LpecConnectionError(f"connection lost while waiting for ALIVE: {err}") from err
        if raw is None:
            raise LpecConnectionError("device closed the connection before ALIVE")
        try:
            message = parse_device_line(raw)
        except LpecError:
            continue
        if isinstance(message, Alive):
            alive[message.device] = message.udn
        elif isinstance(message, ByeBye) and message.device == "Ds":
            # ohNet: the session's device map holds a device disabled when it began, so
            # a disable sends BYEBYE on it although it never heard ALIVE; none comes now.
            raise LpecConnectionError("BYEBYE before ALIVE: the device is gone from this session")
    return alive
