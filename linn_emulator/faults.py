"""Faults for tests: drops, a hung device, garbage lines, slow responses, reboots, a full device."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
import contextlib
from typing import Any

from .server import CLOSE_TIMEOUT, LpecServer
from .wire import alive_line, byebye_line


class Faults:
    """Misbehaviour on demand; the sync methods only schedule writes."""

    def __init__(
        self,
        server: LpecServer,
        *,
        on_reboot: Callable[[], None],
        spawn: Callable[[Coroutine[Any, Any, None]], asyncio.Task[None]],
    ) -> None:
        self._server = server
        self._on_reboot = on_reboot
        self._spawn = spawn
        self.response_delay: float = 0.0
        """Seconds before each RESPONSE (or action ERROR) is written."""

    def fail_action(self, action: str, code: int, description: str, times: int = 1) -> None:
        """The next `times` calls of `action` (any service) answer ERROR with this text.

        The description is sent as the device would send its own (any text, even hostile).
        """
        self._server.injected_errors.setdefault(action, []).extend([(code, description)] * times)

    def clear_action_failures(self) -> None:
        """Forget the errors fail_action queued and no call used."""
        self._server.injected_errors.clear()

    def drop_connections(self) -> None:
        """Abruptly close every connection (sessions and waiting ones)."""
        self._server.abort_all()

    def half_open(self, enabled: bool = True) -> None:
        """Stop (or resume) reading and writing on every session; sockets stay open.

        Lines written while hung are lost; lines received are processed on resume.
        New connections are accepted but get nothing until resume.
        """
        self._server.set_frozen(enabled)

    def stall_requests(self, enabled: bool = True) -> None:
        """Stop (or resume) taking requests off every session: lines wait, unread.

        Writes (events, BYEBYE, answers already due) still go out: a device whose session
        is busy elsewhere. A request waiting when the device is disabled is read after
        the BYEBYE, and answered ERROR 111 without running (byebye_only).
        """
        self._server.set_reading(not enabled)

    @property
    def hung(self) -> bool:
        """True while half_open is on."""
        return self._server.frozen

    def session_limit(self, enabled: bool = True) -> None:
        """Other controllers take every session slot (or give them back).

        Open sessions stay; a new connection is accepted but gets nothing (no ALIVE) until
        a slot is free, as a DSM at its LPEC session limit does.
        """
        self._server.hold_slots(self._server.max_sessions if enabled else 0)

    @property
    def at_session_limit(self) -> bool:
        """True while session_limit is on."""
        return self._server.held_slots > 0

    def send_raw(self, line: str | bytes) -> None:
        """Write to every session: a str gets CRLF appended unless it ends in LF; bytes go as-is."""
        if isinstance(line, str):
            data = line.encode("utf-8", "surrogateescape")
            if not data.endswith(b"\n"):
                data += b"\r\n"
        else:
            data = line
        self._server.write_all(data)

    def send_oversized(self, size_bytes: int) -> None:
        """One line of `size_bytes` bytes without a line ending (an endless EVENT value)."""
        prefix = b'EVENT 1 1 Metadata "'
        self._server.write_all((prefix + b"x" * max(size_bytes - len(prefix), 0))[:size_bytes])

    async def reboot(self, downtime: float = 0.5) -> None:
        """BYEBYE on every session, close, refuse connections for `downtime`, come back.

        An ACTION being run is answered before the BYEBYE (as ohNet disables a device);
        requests not read yet are lost unanswered, not run. Playback stops; subscriptions
        are gone with the sessions; new sessions get ALIVE.
        """
        server = self._server
        server.set_frozen(False)
        for session in list(server.sessions):
            server.byebye(session)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(CLOSE_TIMEOUT):
                await server.wait_idle()
        await server.close(graceful=True)
        server.set_reading(True)  # a reboot ends a stall
        self._on_reboot()
        await asyncio.sleep(downtime)
        server.enable()  # a reboot ends a disable too
        await server.listen()

    def disable(self) -> None:
        """The device is disabled (as when its name changes or it shuts down).

        As the firmware does it (quirk byebye_only, the default): `BYEBYE Ds` and `BYEBYE
        MediaRenderer` only; every open session stays open but the device is gone from it:
        commands on it get `ERROR 111`, and no ALIVE ever comes on it again. As the wiki
        says (without the quirk): `UNSUBSCRIBE <id>` for each subscription, then BYEBYE,
        and ALIVE on the same session at `enable()`. New connections meanwhile are accepted
        but hear no ALIVE until `enable()`.
        """
        self._server.disable()

    def enable(self) -> None:
        """The device is enabled again after `disable()` (ALIVE where the device is not gone)."""
        self._server.enable()

    @property
    def disabled(self) -> bool:
        """True between disable() and enable()."""
        return not self._server.enabled

    def revoke_subscriptions(
        self, service: str | None = None, *, realive_after: float = 0.2
    ) -> None:
        """Sub-device disabled then re-enabled.

        Unsolicited `UNSUBSCRIBE <id>` for each subscription to `service` (every
        service when None) on every session, then `BYEBYE Ds <udn>`, then after
        `realive_after` seconds `ALIVE Ds <udn>`. Actions keep working meanwhile. This is
        the wiki's account, whatever the quirks; `disable()` follows them.
        """
        server = self._server
        for session in list(server.sessions):
            session.revoke(service)
            session.write_line(byebye_line("Ds", server.udn))

        async def realive() -> None:
            await asyncio.sleep(realive_after)
            for session in list(server.sessions):
                session.write_line(alive_line("Ds", server.udn))

        self._spawn(realive())
