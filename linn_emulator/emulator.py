"""LinnEmulator: one emulated Linn DSM on a TCP port."""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Coroutine, Iterable
import logging
from types import TracebackType
from typing import Any, Self
import uuid

from . import catalog
from .device import Device
from .faults import Faults
from .model import EmulatedDeviceState, PlaybackState, PlaylistEntry
from .panel import Panel
from .quirks import OHNET, Quirk, quirk_set
from .server import LpecServer, cancel_tasks
from .services import ALL_SERVICES, SERVICE_TYPES, EmulatedService
from .services.product import ProductService, product_service
from .upnp import UpnpServer
from .wire import ActionRequest

_LOGGER = logging.getLogger(__name__)

LINN_UDN_PREFIX = "4c494e4e-"


def new_udn(seed: str | None = None) -> str:
    """Make a Linn-style UDN (starts with ASCII "LINN" in hex): random, or derived from `seed`."""
    value = uuid.uuid4() if seed is None else uuid.uuid5(uuid.NAMESPACE_URL, seed)
    return LINN_UDN_PREFIX + str(value)[len(LINN_UDN_PREFIX) :]


def initial_state(
    *, udn: str, room: str, name: str, model: str, volume_limit: int
) -> EmulatedDeviceState:
    """Build a DSM out of standby on Playlist, stopped on the first of a few albums."""
    state = EmulatedDeviceState(
        udn=udn,
        room=room,
        name=name,
        model=model,
        sources=catalog.default_sources(),
        volume_limit=volume_limit,
        radio_channels=catalog.default_radio(),
        pins=catalog.default_pins(),
        software_status=catalog.software_status(model),
    )
    state.volume = min(state.volume, volume_limit)
    for track in catalog.default_playlist():
        state.playlist.append(PlaylistEntry(state.next_playlist_id, track))
        state.next_playlist_id += 1
    state.playlist_id = state.playlist[0].id
    return state


class LinnEmulator:
    """An emulated Linn DSM speaking LPEC.

    `services` is the set of services present (None: all of them); Product is always
    present. `product_version` makes it an older device (Product:1 has no
    SetSourceBySystemName).
    Use `panel` to act like the front panel or another control point and `faults` to
    misbehave.

    An exception inside the emulator (the clock, an action handler, a session) is an
    emulator bug: it is logged, kept, and raised by `stop()` (so by `async with`) as an
    ExceptionGroup, which fails the test that owns the emulator.
    """

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        udn: str | None = None,
        room: str = "Living Room",
        name: str = "Selekt DSM",
        model: str = "Selekt DSM",
        services: Collection[str] | None = None,
        volume_limit: int = 80,
        tick_interval: float = 1.0,
        max_sessions: int = 4,
        max_subscriptions: int = 16,
        upnp_port: int | None = None,
        quirks: Iterable[Quirk | str] = OHNET,
        product_version: int = ProductService.version,
    ) -> None:
        present = frozenset(ALL_SERVICES if services is None else {*services, "Product"})
        unknown = present - ALL_SERVICES
        if unknown:
            raise ValueError(f"unknown services: {sorted(unknown)}")
        self.udn = udn or new_udn()
        self.media_renderer_udn = new_udn(f"{self.udn}/MediaRenderer")
        self.host = host
        self.tick_interval = tick_interval
        self.state = initial_state(
            udn=self.udn, room=room, name=name, model=model, volume_limit=volume_limit
        )
        self.state.quirks = quirk_set(quirks)
        self.device = Device(self.state, services=present)
        self.services: dict[str, EmulatedService] = {
            cls.name: cls(self.device) for cls in SERVICE_TYPES if cls.name in present
        }
        if product_version != ProductService.version:
            self.services["Product"] = product_service(product_version)(self.device)
        self._failures: list[Exception] = []
        self.actions: list[ActionRequest] = []
        """Every ACTION parsed (the one swallowed by the first-command quirk excepted)."""
        self._server = LpecServer(
            host=host,
            port=port,
            udn=self.udn,
            media_renderer_udn=self.media_renderer_udn,
            services=self.services,
            max_sessions=max_sessions,
            max_subscriptions=max_subscriptions,
            record=self.actions.append,
            record_failure=self._failures.append,
            response_delay=lambda: self.faults.response_delay,
            quirks=lambda: self.state.quirks,
        )
        self.upnp: UpnpServer | None = None
        """The OpenHome UPnP face (description, SOAP) when `upnp_port` is given (0: any)."""
        if upnp_port is not None:
            self.upnp = UpnpServer(
                host=host,
                port=upnp_port,
                state=self.state,
                services=self.services,
                record_failure=self._failures.append,
                response_delay=lambda: self.faults.response_delay,
            )
        self.panel = Panel(self.device)
        self.faults = Faults(self._server, on_reboot=self._on_reboot, spawn=self._spawn)
        self._tasks: set[asyncio.Task[None]] = set()
        self._started = False

    # --- lifecycle ------------------------------------------------------------

    async def start(self) -> None:
        """Listen and start the clock."""
        if self._started:
            return
        self._server.stopped = False
        await self._server.listen()
        if self.upnp is not None:
            await self.upnp.start()
        self._started = True
        self.device.add_listener(self._server.publish)
        self.device.register_sender()
        self._spawn(self._tick_loop())

    async def stop(self) -> None:
        """Close every connection and cancel every task, then raise what failed inside."""
        if not self._started:
            self.raise_failures()
            return
        self._started = False
        self._server.stopped = True
        self.device.remove_listener(self._server.publish)
        self.device.unregister_sender()
        await cancel_tasks(self._tasks)
        await self._server.close(graceful=False)
        if self.upnp is not None:
            await self.upnp.stop()
        self.raise_failures()

    async def __aenter__(self) -> Self:
        """Start."""
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Stop."""
        await self.stop()

    # --- inspection -----------------------------------------------------------

    @property
    def failures(self) -> tuple[Exception, ...]:
        """Exceptions raised inside the emulator and not yet raised by `raise_failures`."""
        return tuple(self._failures)

    def raise_failures(self) -> None:
        """Raise (once) every exception that happened inside the emulator: a bug in it."""
        failures = list(self._failures)
        self._failures.clear()  # in place: the server holds its append
        if failures:
            raise ExceptionGroup(f"the emulator failed {len(failures)} time(s)", failures)

    @property
    def quirks(self) -> frozenset[Quirk]:
        """The firmware quirks in force (quirks.py); assignable at run time."""
        return self.state.quirks

    @quirks.setter
    def quirks(self, quirks: Iterable[Quirk | str]) -> None:
        self.state.quirks = quirk_set(quirks)

    @property
    def port(self) -> int:
        """The TCP port (the real one once started with port 0)."""
        return self._server.port

    @property
    def upnp_location(self) -> str | None:
        """The UPnP device description URL (None without the UPnP face)."""
        return self.upnp.location if self.upnp is not None else None

    @property
    def sessions(self) -> int:
        """Live LPEC sessions (holding a slot)."""
        return len(self._server.sessions)

    @property
    def sessions_begun(self) -> int:
        """LPEC sessions begun (given a slot) since the emulator started."""
        return self._server.sessions_begun

    @property
    def stalled_requests(self) -> int:
        """Requests received but left unread by the stall_requests fault."""
        return sum(session.stalled for session in self._server.sessions)

    @property
    def waiting_connections(self) -> int:
        """Connections over the session cap, accepted but ignored."""
        return self._server.pending

    @property
    def subscriptions(self) -> int:
        """Subscriptions over all sessions."""
        return sum(len(session.subscriptions) for session in self._server.sessions)

    @property
    def granted_subscriptions(self) -> int:
        """Subscriptions granted since start, over every session (closed ones included)."""
        return self._server.granted_subscriptions

    @property
    def sender_uri(self) -> str:
        """Songcast URI for another emulator's Receiver.SetSender."""
        return self.device.sender_uri

    @property
    def sender_metadata(self) -> str:
        """Sender Metadata (DIDL naming the room)."""
        return self.services["Sender"].variables()["Metadata"] if "Sender" in self.services else ""

    # --- internals ------------------------------------------------------------

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _tick_loop(self) -> None:
        while True:
            await asyncio.sleep(self.tick_interval)
            try:
                self.device.tick()
            except Exception as err:
                _LOGGER.exception("emulator bug: the clock tick failed")
                self._failures.append(err)

    def _on_reboot(self) -> None:
        state = self.state
        if state.transport_state in (PlaybackState.PLAYING, PlaybackState.PAUSED):
            state.transport_state = PlaybackState.STOPPED
        state.seconds = 0
        state.receiver_active = False
        state.metadata_override = None
        state.metatext_override = None
        self.device.changed()
