"""LPEC over TCP: the listener, the session cap, subscription ids, the fan-out and the faults.

Each connection, once it holds a slot, is a `Session` (session.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
import contextlib
import logging

from .linebreaks import Given
from .quirks import Quirk
from .services import EmulatedService
from .session import MAX_REQUEST_BYTES, Session
from .wire import ActionRequest, alive_line, byebye_line

_LOGGER = logging.getLogger(__name__)

MAX_SUBSCRIPTIONS = 16
CLOSE_TIMEOUT = 2.0


async def cancel_tasks(tasks: Iterable[asyncio.Task[None]]) -> None:
    """Cancel each task and wait until all have ended, whatever they raise."""
    pending = list(tasks)  # a set a task leaves as it ends
    for task in pending:
        task.cancel()
    if pending:
        await asyncio.gather(*pending, return_exceptions=True)


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
        await cancel_tasks(self._handlers)
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
