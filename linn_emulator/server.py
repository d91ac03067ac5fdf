"""LPEC over TCP: sessions, the first-command quirk, subscriptions and events."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
import contextlib
from dataclasses import dataclass, field
import logging

from .errors import (
    ACTION_NOT_IMPLEMENTED,
    ALREADY_SUBSCRIBED,
    COMMAND_NOT_RECOGNISED,
    DEVICE_NOT_FOUND,
    METHOD_EXECUTION_EXCEPTION,
    SERVICE_NOT_FOUND,
    SERVICE_NOT_SUBSCRIBED,
    SUBSCRIPTION_NOT_FOUND,
    TOO_MANY_SUBSCRIPTIONS,
    VERSION_NOT_SUPPORTED,
    DeviceError,
    describe,
)
from .linebreaks import Given, spread_values, spread_variables
from .quirks import Quirk
from .services import EmulatedService
from .wire import (
    ActionRequest,
    SubscribeRequest,
    UnsubscribeRequest,
    alive_line,
    byebye_line,
    error_line,
    event_line,
    read_request,
    response_line,
    subscribed_line,
    unsubscribed_line,
)

_LOGGER = logging.getLogger(__name__)

MAX_REQUEST_BYTES = 12000
"""ohNet reads each request into a buffer of this many bytes (DviSessionLpec kMaxReadBytes,
ReaderUntilS): a request whose LF does not fit in it (12000 bytes or more before the LF)
throws ReaderError, which ends the session without an answer (DviSessionLpec::Run)."""
MAX_SUBSCRIPTIONS = 16
MAX_WRITE_BUFFER = 16 * 1024 * 1024
"""A client that stops reading loses its session once this much output is queued."""
SEQUENCE_WRAP = 2**32
CLOSE_TIMEOUT = 2.0


@dataclass(slots=True)
class Subscription:
    """One SUBSCRIBE on one session."""

    id: int
    service: EmulatedService
    sequence: int = 0
    last: dict[str, str] = field(default_factory=dict)


class Session:
    """One TCP connection once it holds a session slot."""

    def __init__(
        self, server: LpecServer, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        self.server = server
        self.reader = reader
        self.writer = writer
        self.subscriptions: dict[int, Subscription] = {}
        self.seen_blank = False
        self.seen_command = False
        self.closed = False
        self.announced = False
        """The session began (ohNet copies the device map then, disabled devices too), so
        a disable sends BYEBYE on it, whether or not it heard ALIVE."""
        self.devices_gone = False
        """The device was disabled with the byebye_only quirk: gone from this session for
        good, so every command naming it gets ERROR 111 and no ALIVE comes again."""
        self.idle = asyncio.Event()
        """Set unless an ACTION is being run and answered."""
        self.idle.set()
        self.stalled = False
        """A request waits here, unread (the stall_requests fault)."""
        self.byebye_due = False
        """A BYEBYE waits for the ACTION being run: ohNet writes its answer first."""

    # --- writing --------------------------------------------------------------

    def write_line(self, line: str) -> None:
        """Send one line with CRLF (dropped while the device is hung)."""
        # surrogateescape: raw bytes a value holds (a Latin-1 title) go out as they are
        self.write_bytes(f"{line}\r\n".encode("utf-8", "surrogateescape"))

    def write_bytes(self, data: bytes) -> None:
        """Send raw bytes (dropped while the device is hung or after close)."""
        if self.closed or self.server.frozen or self.writer.is_closing():
            return
        transport = self.writer.transport
        if transport.get_write_buffer_size() + len(data) > MAX_WRITE_BUFFER:
            _LOGGER.debug("client is not reading: dropping the session")
            self.abort()
            return
        self.writer.write(data)

    def write_event(self, sub_id: int, sequence: int, variables: dict[str, str]) -> None:
        """An EVENT, in the firmware's line breaks when its quirks say so."""
        quirks = self.server.quirks
        if Quirk.MULTILINE_METADATA in quirks:
            variables = spread_variables(variables, self.server.given)
        raw = Quirk.RAW_LINE_BREAKS in quirks
        self.write_line(event_line(sub_id, sequence, variables, raw_line_breaks=raw))

    def write_response(self, action: str, values: list[str]) -> None:
        """A RESPONSE, in the firmware's line breaks when its quirks say so."""
        quirks = self.server.quirks
        if Quirk.MULTILINE_METADATA in quirks:
            values = spread_values(action, values, self.server.given)
        self.write_line(response_line(values, raw_line_breaks=Quirk.RAW_LINE_BREAKS in quirks))

    def write_error(self, code: int, description: str | None = None) -> None:
        """An ERROR; its text raw (as ohNet writes it) or escaped."""
        text = describe(code) if description is None else description
        self.write_line(error_line(code, text, raw=Quirk.RAW_ERROR_TEXT in self.server.quirks))

    def is_closed(self) -> bool:
        """True once the session was closed or aborted."""
        return self.closed

    def abort(self) -> None:
        """Close abruptly (RST where the OS allows)."""
        self.closed = True
        self.writer.transport.abort()

    def close(self) -> None:
        """Close after flushing what was written."""
        self.closed = True
        self.writer.close()

    # --- eventing -------------------------------------------------------------

    def publish(self, cache: dict[str, dict[str, str]]) -> None:
        """Send an EVENT with the changed variables of every subscription."""
        for sub in list(self.subscriptions.values()):
            current = cache.get(sub.service.name)
            if current is None:
                current = cache[sub.service.name] = sub.service.variables()
            changes = {k: v for k, v in current.items() if sub.last.get(k) != v}
            if not changes:
                continue
            sub.last = current
            sub.sequence = sub.sequence + 1 if sub.sequence + 1 < SEQUENCE_WRAP else 1
            self.write_event(sub.id, sub.sequence, changes)

    # --- reading --------------------------------------------------------------

    async def run(self) -> None:
        """Announce, then serve lines until EOF, an oversized line or close."""
        await self.server.wait_unfrozen()
        if Quirk.SILENT_ENABLE not in self.server.quirks:
            await self.server.wait_enabled()
        self.server.announce(self)
        while not self.closed:
            await self.server.wait_unfrozen()
            try:
                data = await self.reader.readuntil(b"\n")
            except asyncio.IncompleteReadError:
                return
            except asyncio.LimitOverrunError:
                _LOGGER.debug("request of %d bytes or more: ending the session", MAX_REQUEST_BYTES)
                return
            except ConnectionError:
                return
            await self.server.wait_unfrozen()
            if not self.server.reading:
                self.stalled = True
                try:
                    await self.server.wait_reading()
                finally:
                    self.stalled = False
            if self.is_closed():
                return
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                self.seen_command = True
                self.write_error(COMMAND_NOT_RECOGNISED, "Invalid UTF-8")
                continue
            await self.handle_line(text)

    async def handle_line(self, text: str) -> None:
        """One client line."""
        if not text.strip():
            self.seen_blank = True
            return
        if not self.seen_command:
            self.seen_command = True
            if not self.seen_blank and Quirk.NO_FIRST_COMMAND_ERROR not in self.server.quirks:
                # The wiki's bug: the first command after ALIVE fails unless a blank line came
                # first. ohNet has no such bug (quirk no_first_command_error).
                self.write_error(COMMAND_NOT_RECOGNISED)
                return
        try:
            message = read_request(text)
        except DeviceError as err:
            self.write_error(err.code, err.description)
            return
        match message:
            case ActionRequest():
                await self.action(message)
            case SubscribeRequest():
                self.subscribe(message)
            case UnsubscribeRequest():
                self.unsubscribe(message)
            case None:
                pass

    def _service(self, device: str, name: str) -> EmulatedService:
        if device not in ("Ds", "MediaRenderer") or self.devices_gone:
            raise DeviceError(DEVICE_NOT_FOUND)
        if not self.server.enabled and Quirk.SILENT_ENABLE not in self.server.quirks:
            raise DeviceError(DEVICE_NOT_FOUND)
        service = self.server.services.get(name)
        if service is None or service.device_name != device:
            raise DeviceError(SERVICE_NOT_FOUND)
        return service

    async def action(self, request: ActionRequest) -> None:
        """Run an ACTION and answer it; a BYEBYE meanwhile goes after the answer."""
        self.idle.clear()
        try:
            await self._action(request)
        finally:
            self.idle.set()
            if self.byebye_due:
                self.byebye_due = False
                self.server.byebye(self)

    async def _action(self, request: ActionRequest) -> None:
        """Run an ACTION and answer RESPONSE or ERROR (after the configured delay)."""
        self.server.record(request)
        self.server.given.remember(request.args)
        values: list[str] | None = None
        error: DeviceError | None = None
        try:
            values = self._invoke(request)
        except DeviceError as err:
            error = err
        except Exception as err:
            _LOGGER.exception("emulator bug: action %s failed", request)
            self.server.record_failure(err)
            error = DeviceError(METHOD_EXECUTION_EXCEPTION)
        delay = self.server.response_delay()
        if delay > 0:
            await asyncio.sleep(delay)
        if error is not None:
            self.write_error(error.code, error.description)
        else:
            assert values is not None
            self.write_response(request.action, values)

    def _invoke(self, request: ActionRequest) -> list[str]:
        service = self._service(request.device, request.service)
        queued = self.server.injected_errors.get(request.action)
        if queued:
            code, description = queued.pop(0)
            raise DeviceError(code, description)
        if request.version > service.version:
            raise DeviceError(VERSION_NOT_SUPPORTED)
        spec = service.actions.get(request.action)
        if spec is None:
            raise DeviceError(ACTION_NOT_IMPLEMENTED)
        return spec.invoke(request.args)

    def _subscribable(self, request: SubscribeRequest) -> EmulatedService:
        service = self._service(request.device, request.service)
        if any(sub.service is service for sub in self.subscriptions.values()):
            raise DeviceError(ALREADY_SUBSCRIBED)
        if len(self.subscriptions) >= self.server.max_subscriptions:
            raise DeviceError(TOO_MANY_SUBSCRIPTIONS)
        return service

    def subscribe(self, request: SubscribeRequest) -> None:
        """SUBSCRIBE: ack with the id, then the full state as sequence 0."""
        try:
            service = self._subscribable(request)
        except DeviceError as err:
            self.write_error(err.code, err.description)
            return
        sub = Subscription(self.server.next_subscription_id(), service)
        self.subscriptions[sub.id] = sub
        sub.last = service.variables()
        self.write_line(subscribed_line(sub.id))
        self.write_event(sub.id, 0, sub.last)

    def unsubscribe(self, request: UnsubscribeRequest) -> None:
        """UNSUBSCRIBE by id, by service, or everything (each removal is acknowledged)."""
        if request.subscription_id is not None:
            if self.subscriptions.pop(request.subscription_id, None) is None:
                self.write_error(SUBSCRIPTION_NOT_FOUND)
                return
            self.write_line(unsubscribed_line(request.subscription_id))
            return
        if request.service is not None:
            ids = [
                i
                for i, sub in self.subscriptions.items()
                if sub.service.name == request.service and sub.service.device_name == request.device
            ]
            if not ids:
                self.write_error(SERVICE_NOT_SUBSCRIBED)
                return
        else:
            ids = list(self.subscriptions)
        for sub_id in ids:
            del self.subscriptions[sub_id]
            self.write_line(unsubscribed_line(sub_id))

    def revoke(self, service_name: str | None) -> None:
        """Unsolicited UNSUBSCRIBE of the service's subscriptions (all when None)."""
        for sub_id, sub in list(self.subscriptions.items()):
            if service_name is None or sub.service.name == service_name:
                del self.subscriptions[sub_id]
                self.write_line(unsubscribed_line(sub_id))


class LpecServer:
    """The listening socket and the sessions of one device."""

    def __init__(
        self,
        *,
        host: str,
        port: int,
        udn: str,
        media_renderer_udn: str,
        services: dict[str, EmulatedService],
        max_sessions: int,
        max_subscriptions: int = MAX_SUBSCRIPTIONS,
        record: Callable[[ActionRequest], None],
        record_failure: Callable[[Exception], None],
        response_delay: Callable[[], float],
        quirks: Callable[[], frozenset[Quirk]],
    ) -> None:
        self.host = host
        self.port = port
        self.udn = udn
        self.media_renderer_udn = media_renderer_udn
        self.services = services
        self.max_sessions = max_sessions
        self.max_subscriptions = max_subscriptions
        self.record = record
        self.record_failure = record_failure
        """Called with every exception inside the server: an emulator bug."""
        self.response_delay = response_delay
        self._quirks = quirks
        self.given = Given()
        """Metadata control points sent: it comes back as given (linebreaks.py)."""
        self.sessions: list[Session] = []
        self.sessions_begun = 0
        """Sessions begun (given a slot) since the server started."""
        self.pending: int = 0
        self.held_slots: int = 0
        """Session slots taken by other controllers (the session-limit fault)."""
        self._server: asyncio.Server | None = None
        self._handlers: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()
        self._slot_freed = asyncio.Event()
        self._unfrozen = asyncio.Event()
        self._unfrozen.set()
        self._enabled = asyncio.Event()
        self._enabled.set()
        self._reading = asyncio.Event()
        self._reading.set()
        self._granted = 0
        self.injected_errors: dict[str, list[tuple[int, str]]] = {}
        """Action name -> errors the next calls of it answer (Faults.fail_action)."""
        self.stopped = False
        """Set by the emulator's stop(): a reboot in progress must not listen again."""

    @property
    def quirks(self) -> frozenset[Quirk]:
        """The firmware quirks in force (the device state's)."""
        return self._quirks()

    # --- lifecycle ------------------------------------------------------------

    @property
    def listening(self) -> bool:
        """True while connections are accepted."""
        return self._server is not None

    async def listen(self) -> None:
        """Start accepting connections (port 0 picks a free port, kept for restarts)."""
        if self.stopped or self._server is not None:
            return
        self._server = await asyncio.start_server(
            self._handle, self.host, self.port, limit=MAX_REQUEST_BYTES - 1
        )
        self.port = self._server.sockets[0].getsockname()[1]

    async def close(self, *, graceful: bool) -> None:
        """Stop listening and end every connection and handler task."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
        for session in list(self.sessions):
            if graceful:
                session.close()
            else:
                session.abort()
        for writer in list(self._writers):
            writer.transport.abort()
        tasks = list(self._handlers)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        if server is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(server.wait_closed(), CLOSE_TIMEOUT)

    # --- connections ----------------------------------------------------------

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._server is None:
            # Accepted just as the listener closed (stop or reboot): refuse it.
            writer.transport.abort()
            return
        task = asyncio.current_task()
        assert task is not None
        self._handlers.add(task)
        self._writers.add(writer)
        try:
            self.pending += 1
            try:
                while len(self.sessions) + self.held_slots >= self.max_sessions:
                    # Over the cap: accepted but ignored until a session closes.
                    self._slot_freed.clear()
                    await self._slot_freed.wait()
            finally:
                self.pending -= 1
            session = Session(self, reader, writer)
            self.sessions.append(session)
            self.sessions_begun += 1
            try:
                await session.run()
            finally:
                session.closed = True
                self.sessions.remove(session)
                self._slot_freed.set()
        except asyncio.CancelledError:
            raise
        except Exception as err:
            _LOGGER.exception("emulator bug: the session failed")
            self.record_failure(err)
        finally:
            self._writers.discard(writer)
            self._handlers.discard(task)
            if not writer.is_closing():
                writer.transport.abort()

    def announce(self, session: Session) -> None:
        """ALIVE for every sub-device (none while the device is disabled)."""
        session.announced = True
        if not self.enabled:
            return
        session.write_line(alive_line("Ds", self.udn))
        session.write_line(alive_line("MediaRenderer", self.media_renderer_udn))

    def byebye(self, session: Session) -> None:
        """BYEBYE for every sub-device, after the answer to an ACTION being run.

        ohNet's NotifyDeviceDisabled takes the session's device lock, which an ACTION holds
        while it runs and writes its answer: a command is answered before the BYEBYE, or
        read after it and answered ERROR 111 without running.
        """
        if not session.idle.is_set():
            session.byebye_due = True
            return
        session.write_line(byebye_line("Ds", self.udn))
        session.write_line(byebye_line("MediaRenderer", self.media_renderer_udn))

    @property
    def granted_subscriptions(self) -> int:
        """Subscriptions granted since the device was created, over every session."""
        return self._granted

    def next_subscription_id(self) -> int:
        """The next subscription id: one counter over every session.

        From 0, as ohNet's stack-wide counter (quirk subscription_ids_from_zero), else from 1.
        """
        sub_id = self._granted
        self._granted += 1
        return sub_id if Quirk.SUBSCRIPTION_IDS_FROM_ZERO in self.quirks else sub_id + 1

    def publish(self) -> None:
        """Diff every subscription against the device and send EVENTs."""
        cache: dict[str, dict[str, str]] = {}
        for session in list(self.sessions):
            session.publish(cache)

    # --- faults ---------------------------------------------------------------

    @property
    def frozen(self) -> bool:
        """True while the device neither reads nor writes (half-open fault)."""
        return not self._unfrozen.is_set()

    def set_frozen(self, frozen: bool) -> None:
        """Start or end the half-open fault."""
        if frozen:
            self._unfrozen.clear()
        else:
            self._unfrozen.set()

    async def wait_unfrozen(self) -> None:
        """Block while the device is hung."""
        await self._unfrozen.wait()

    @property
    def enabled(self) -> bool:
        """False while the device is disabled (faults.disable)."""
        return self._enabled.is_set()

    def set_reading(self, reading: bool) -> None:
        """Start or stop taking requests off the sockets (the stall_requests fault)."""
        if reading:
            self._reading.set()
        else:
            self._reading.clear()

    @property
    def reading(self) -> bool:
        """False while requests stay unread (the stall_requests fault)."""
        return self._reading.is_set()

    async def wait_reading(self) -> None:
        """Block while requests stay unread."""
        await self._reading.wait()

    async def wait_idle(self) -> None:
        """Wait until no session is running an ACTION."""
        for session in list(self.sessions):
            await session.idle.wait()

    async def wait_enabled(self) -> None:
        """Block while the device is disabled: a new session hears no ALIVE meanwhile."""
        await self._enabled.wait()

    def disable(self) -> None:
        """The device is disabled: BYEBYE on every session begun (ALIVE heard or not).

        With the byebye_only quirk (ohNet NotifyDeviceDisabled) that is all: no
        UNSUBSCRIBE, the session stays open, the device is gone from it for good. Without
        it (the wiki), each subscription is revoked with UNSUBSCRIBE first.
        """
        if not self.enabled:
            return
        self._enabled.clear()
        byebye_only = Quirk.BYEBYE_ONLY in self.quirks
        for session in list(self.sessions):
            if not session.announced or session.devices_gone:
                continue
            if byebye_only:
                session.devices_gone = True
            else:
                session.revoke(None)
            self.byebye(session)

    def enable(self) -> None:
        """The device is back.

        With the silent_enable quirk (ohNet) no session hears anything: only new sessions
        announce it. Otherwise ALIVE on every session it is not gone from: sessions that
        began while it was disabled hear their first ALIVE now; with the byebye_only
        quirk the sessions that heard BYEBYE hear nothing.
        """
        if self.enabled:
            return
        self._enabled.set()
        if Quirk.SILENT_ENABLE in self.quirks:
            return  # ohNet: a session announces only when it starts
        for session in list(self.sessions):
            if session.announced and not session.devices_gone:
                self.announce(session)

    def hold_slots(self, count: int) -> None:
        """Let other controllers take `count` session slots (0 gives them back)."""
        self.held_slots = count
        self._slot_freed.set()

    def abort_all(self) -> None:
        """Abort every connection, sessions and connections waiting for a slot."""
        for session in list(self.sessions):
            session.abort()
        for writer in list(self._writers):
            writer.transport.abort()

    def write_all(self, data: bytes) -> None:
        """Raw bytes to every session."""
        for session in list(self.sessions):
            session.write_bytes(data)
