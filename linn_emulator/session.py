"""One LPEC session: its writing, its events, and ACTION, SUBSCRIBE and UNSUBSCRIBE.

The listening socket, the session cap and the faults are the server's (server.py).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
import logging
from typing import TYPE_CHECKING

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
from .linebreaks import spread_values, spread_variables
from .quirks import Quirk
from .services import EmulatedService
from .wire import (
    ActionRequest,
    SubscribeRequest,
    UnsubscribeRequest,
    error_line,
    event_line,
    read_request,
    response_line,
    subscribed_line,
    unsubscribed_line,
)

if TYPE_CHECKING:
    from .server import LpecServer

_LOGGER = logging.getLogger(__name__)

MAX_REQUEST_BYTES = 12000
"""ohNet reads each request into a buffer of this many bytes (DviSessionLpec kMaxReadBytes,
ReaderUntilS): a request whose LF does not fit in it (12000 bytes or more before the LF)
throws ReaderError, which ends the session without an answer (DviSessionLpec::Run)."""
MAX_WRITE_BUFFER = 16 * 1024 * 1024
"""A client that stops reading loses its session once this much output is queued."""
SEQUENCE_WRAP = 2**32


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
