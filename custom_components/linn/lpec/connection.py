"""One LPEC TCP connection: message framing, the single command slot and message routing.

A connection never reconnects; when it dies it fails the command in flight and tells
its listener once. `LpecSession` builds reconnection on top of it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
import logging
import time
from typing import Protocol

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
from .framing import MAX_MESSAGE_BYTES, MessageReader, MessageTooLongError
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
        reader: MessageReader,
        writer: asyncio.StreamWriter,
        listener: ConnectionListener,
        alive: dict[str, str],
    ) -> None:
        self._reader = reader
        self._writer = writer
        self._listener = listener
        self.alive = alive
        self.subscriptions: dict[int, str] = {}
        self.last_reply = time.monotonic()
        self._lock = asyncio.Lock()
        self._current: _Command | None = None
        self._closed = False
        self._bad_lines = RateLimitedLog(_LOGGER, interval=10.0)
        self._task = asyncio.get_running_loop().create_task(self._read_loop(), name="lpec-reader")

    @classmethod
    async def open(cls, host: str, port: int, listener: ConnectionListener) -> LpecConnection:
        """Connect, wait for ALIVE of the Ds sub-device, then send a blank line.

        No timeout here: the caller bounds the whole open (a device at its session
        cap accepts TCP but never says ALIVE).
        """
        try:
            stream, writer = await asyncio.open_connection(host, port)
        except OSError as err:
            raise LpecConnectionError(f"cannot connect to {host}:{port}: {err}") from err
        reader = MessageReader(stream, MAX_MESSAGE_BYTES)
        try:
            alive = await _read_alive(reader)
            # The wiki: firmware answers the first command after ALIVE with a spurious
            # ERROR unless a blank line came first. ohNet ignores blank lines and has no
            # such bug, so nothing waits for an answer to it; a stray ERROR with nothing
            # in flight is dropped, and one taken for the first SUBSCRIBE's is retried.
            writer.write(b"\r\n")
            await writer.drain()
        except OSError as err:
            writer.close()
            raise LpecConnectionError(f"connection to {host}:{port} lost: {err}") from err
        except BaseException:
            writer.close()
            raise
        return cls(reader, writer, listener, alive)

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
        if self._closed or self._writer.transport.is_closing():
            raise CommandNotSentError("connection is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Reply] = loop.create_future()
        self._current = _Command(line, expects, path, future, min_values)
        try:
            self._writer.write(line.encode() + b"\r\n")
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
        if asyncio.current_task() is not self._task:
            self._task.cancel()
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
        self._writer.close()
        try:
            self._listener.on_closed(error)
        except Exception:
            _LOGGER.exception("Connection listener failed")

    async def close(self) -> None:
        """Close the connection and wait for the reader to finish."""
        self.abort(LpecConnectionError("connection closed"))
        await asyncio.gather(self._task, return_exceptions=True)
        try:
            async with asyncio.timeout(1.0):
                await self._writer.wait_closed()
        except OSError, TimeoutError:
            pass

    async def _read_loop(self) -> None:
        error: LpecConnectionError
        try:
            while True:
                # All complete messages of one TCP read, handled in one pass.
                messages = await self._reader.read_batch()
                if messages is None:
                    error = LpecConnectionError("connection closed by the device")
                    break
                for message in messages:
                    self._handle_line(message)
        except LpecConnectionError as err:  # a message over the limit
            # Handed to the command in flight and the listener, who may keep it: without
            # its traceback, whose frames hold the last chunk read (up to 64 KiB).
            error = err.with_traceback(None)
        except OSError as err:
            error = LpecConnectionError(f"connection lost: {err}")
        _LOGGER.debug("LPEC connection ends: %s", error)
        self.abort(error)

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


async def _read_alive(reader: MessageReader) -> dict[str, str]:
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
