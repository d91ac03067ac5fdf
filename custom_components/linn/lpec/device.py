"""LinnDevice: typed state and commands for one Linn streamer over LPEC."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
import dataclasses
import logging
from typing import Unpack

from .capabilities import Capability, SourceType
from .codec import Event, format_bool
from .errors import LpecDeviceError, LpecInvalidArgumentError, LpecUnsupportedError
from .list_commands import ListCommands
from .model import DeviceState
from .reducers import apply_event
from .services import ALL_SERVICES, Service
from .session import LpecSession, SessionTimings
from .sources import Source
from .versions import NOT_AVAILABLE_CODES, ServiceVersions, action_version

_LOGGER = logging.getLogger(__name__)

_CHANGED: dict[str, tuple[Service, frozenset[Service]]] = {
    service.value: (service, frozenset({service})) for service in Service
}
"""Each service's path -> the service and the `changed` set of one event of it (not built
per event)."""

CONFIG_PATH = "Ds/Config"
VOLUME_LIMIT_KEY = "Volume.Limit"  # ohPipeline's VolumeLimiter key

type StateListener = Callable[[frozenset[Service]], None]
type AvailabilityListener = Callable[[bool], None]

_TRANSPORT_ACTIONS: dict[Capability, str] = {
    Capability.PLAY: "Play",
    Capability.PAUSE: "Pause",
    Capability.STOP: "Stop",
    Capability.NEXT: "SkipNext",
    Capability.PREVIOUS: "SkipPrevious",
}
# The same commands on the Playlist, Radio and Receiver services (used without Transport).
_SOURCE_ACTIONS: dict[Capability, str] = {
    Capability.PLAY: "Play",
    Capability.PAUSE: "Pause",
    Capability.STOP: "Stop",
    Capability.NEXT: "Next",
    Capability.PREVIOUS: "Previous",
}


class LinnDevice(ListCommands):
    """A Linn streamer: connect once, read `state`, send commands, get callbacks.

    Every command either completes or raises an LpecError subclass; none hangs
    longer than `action_timeout`. The pins, radio presets and playlist commands are
    ListCommands' (list_commands.py).
    """

    def __init__(
        self,
        host: str,
        port: int = 23,
        *,
        services: Sequence[Service] = ALL_SERVICES,
        declared_versions: Mapping[str, int] | None = None,
        **timings: Unpack[SessionTimings],
    ) -> None:
        """Set up; nothing is sent before `connect`.

        `declared_versions`: the service versions the device declares ({"Product": 4}),
        from its UPnP description; without them each action goes with its lowest version.
        `timings`: the session's timeouts and intervals (LpecSession's defaults).
        """
        self.host = host
        self.port = port
        self._state = DeviceState()
        self._untold: frozenset[Service] | None = None
        """Services changed by events of the read being handled, not yet told."""
        self._listeners: list[StateListener] = []
        self._availability_listeners: list[AvailabilityListener] = []
        self._source_before_songcast: str | None = None
        self._versions = ServiceVersions(declared_versions)
        self._session = LpecSession(
            host, port, [service.value for service in services], self, **timings
        )

    # --- lifecycle and state ------------------------------------------------------

    async def connect(self) -> None:
        """Connect and subscribe; afterwards `state` holds the full state.

        Raises LpecConnectionError (refused, closed) or LpecTimeoutError (no ALIVE:
        e.g. the device is at its session limit).
        """
        await self._session.connect()
        self._update_services()

    async def close(self) -> None:
        """Disconnect for good; pending commands raise LpecConnectionError."""
        await self._session.close()

    @property
    def udn(self) -> str | None:
        """The device's UDN, from its ALIVE line."""
        return self._session.udn

    @property
    def declared_versions(self) -> dict[str, int]:
        """The service versions the device declared (and this library uses), by name."""
        return {s.short_name: v for s, v in self._versions.declared.items()}

    @property
    def state(self) -> DeviceState:
        """The latest state (an immutable snapshot)."""
        return self._state

    @property
    def available(self) -> bool:
        """True while connected and the device is not rebooting."""
        return self._session.available

    def add_listener(self, callback: StateListener) -> Callable[[], None]:
        """Call `callback(changed)` after each state change; returns a remover.

        `changed` holds the services whose state changed, including those that
        appeared or disappeared (after a reconnect).
        """
        self._listeners.append(callback)
        return lambda: self._remove(self._listeners, callback)

    def add_availability_listener(self, callback: AvailabilityListener) -> Callable[[], None]:
        """Call `callback(available)` on each availability change; returns a remover."""
        self._availability_listeners.append(callback)
        return lambda: self._remove(self._availability_listeners, callback)

    @staticmethod
    def _remove[T](listeners: list[T], callback: T) -> None:
        if callback in listeners:
            listeners.remove(callback)

    # --- SessionHandler -----------------------------------------------------------

    def on_event(self, path: str, event: Event) -> None:
        """Apply an event to the state; the listeners are told once the read is done."""
        service, changed = _CHANGED[path]  # the session only subscribes to Service paths
        new_state = apply_event(self._state, service, event.variables)
        if new_state is self._state:
            return
        self._state = new_state
        untold = self._untold
        self._untold = changed if untold is None else untold | changed

    def on_read_done(self) -> None:
        """Tell the listeners once what the events of one read changed (one write each)."""
        changed = self._untold
        if changed is not None:
            self._untold = None
            self._notify(changed)

    def on_availability(self, available: bool) -> None:
        """Record which services answered and tell the availability listeners."""
        self.on_read_done()  # changes applied before it are told first
        if available:
            self._versions.clear_refusals()  # the device may have new firmware after a reconnect
            self._update_services()
        for callback in list(self._availability_listeners):
            try:
                callback(available)
            except Exception:
                _LOGGER.exception("Availability listener failed")

    def _update_services(self) -> None:
        services = frozenset(Service(path) for path in self._session.present)
        appeared_or_gone = services ^ self._state.services
        if appeared_or_gone:
            self._state = dataclasses.replace(self._state, services=services)
            self._notify(appeared_or_gone)

    def _notify(self, changed: frozenset[Service]) -> None:
        for callback in list(self._listeners):
            try:
                callback(changed)
            except Exception:
                _LOGGER.exception("State listener failed")

    # --- raw access ---------------------------------------------------------------

    async def action(
        self, service: Service, name: str, *args: str, version: int | None = None
    ) -> tuple[str, ...]:
        """Run any ACTION on a present service and return its out-arguments.

        Sent with `version`, else the lowest version of the service that has the action,
        and never above the version the device declares (LpecUnsupportedError when the
        declared version lacks the action: nothing is sent).
        """
        self._require(service)
        if self._versions.lacks(service, name):
            declared = self._versions.declared[service]
            raise LpecUnsupportedError(
                f"{self.host} declares {service.short_name}:{declared}; {name} needs "
                f"{service.short_name}:{action_version(service, name)}"
            )
        version = self._versions.version(service, name, version)
        return await self._session.action(service.value, version, name, args)

    def _require(self, service: Service) -> None:
        if service not in self._state.services:
            raise LpecUnsupportedError(f"{self.host} has no {service.short_name} service")

    # --- product ------------------------------------------------------------------

    async def set_standby(self, standby: bool) -> None:
        """Put the device into standby (True) or wake it (False)."""
        await self.action(Service.PRODUCT, "SetStandby", format_bool(standby))

    async def select_source(self, system_name: str) -> None:
        """Select a source by its fixed system name (see state.product.sources)."""
        source = self._state.product.source_by_system_name(system_name)
        if source is None:
            known = ", ".join(s.system_name for s in self._state.product.sources)
            raise LpecInvalidArgumentError(f"unknown source {system_name!r} (known: {known})")
        await self._set_source(source)

    async def _set_source(self, source: Source) -> None:
        """SetSourceBySystemName (Product 2+); SetSourceIndex where the device lacks it."""
        action = "SetSourceBySystemName"
        if self._versions.available(Service.PRODUCT, action):
            try:
                await self.action(Service.PRODUCT, action, source.system_name)
            except LpecDeviceError as err:
                if err.code not in NOT_AVAILABLE_CODES:
                    raise
                _LOGGER.info("%s has no %s (%s): using SetSourceIndex", self.host, action, err)
                self._versions.record_refusal(Service.PRODUCT, action)
            else:
                return
        await self.action(Service.PRODUCT, "SetSourceIndex", str(source.index))

    async def _select_source_of_type(self, source_type: SourceType) -> None:
        product = self._state.product
        if self._state.source_type is source_type:
            return
        source = product.source_by_type(source_type)
        if source is None:
            raise LpecUnsupportedError(f"{self.host} has no {source_type.value} source")
        await self._set_source(source)

    # --- volume -------------------------------------------------------------------

    async def set_volume(self, volume: int) -> int:
        """Set the volume in device units, clamped to 0..VolumeLimit; return what was sent."""
        self._require(Service.VOLUME)
        applied = max(0, volume)
        ceiling = self._state.volume.ceiling
        if ceiling is not None:
            applied = min(applied, ceiling)
        # a clamp is not logged here: the caller gets `applied` and says it once (a slider
        # drag would log each of its steps twice)
        await self.action(Service.VOLUME, "SetVolume", str(applied))
        return applied

    async def volume_up(self) -> None:
        """One volume step up."""
        await self.action(Service.VOLUME, "VolumeInc")

    async def volume_down(self) -> None:
        """One volume step down."""
        await self.action(Service.VOLUME, "VolumeDec")

    async def set_mute(self, mute: bool) -> None:
        """Mute or unmute."""
        await self.action(Service.VOLUME, "SetMute", format_bool(mute))

    # --- transport ----------------------------------------------------------------

    async def play(self) -> None:
        """Play (via Transport, else the current source's service)."""
        await self._transport(Capability.PLAY)

    async def pause(self) -> None:
        """Pause."""
        await self._transport(Capability.PAUSE)

    async def stop(self) -> None:
        """Stop."""
        await self._transport(Capability.STOP)

    async def next_track(self) -> None:
        """Skip to the next track."""
        await self._transport(Capability.NEXT)

    async def previous_track(self) -> None:
        """Skip to the previous track."""
        await self._transport(Capability.PREVIOUS)

    async def _transport(self, capability: Capability) -> None:
        if self._state.has_transport:
            await self.action(Service.TRANSPORT, _TRANSPORT_ACTIONS[capability])
            return
        service = self._source_service_for(capability)
        await self.action(service, _SOURCE_ACTIONS[capability])

    def _source_service_for(self, capability: Capability) -> Service:
        """Without Transport: the current source's service, if it can do `capability`."""
        state = self._state
        service = state.source_service
        if service is None or capability not in state.capabilities:
            source = state.product.source
            where = "no source" if source is None else f"source {source.name!r} ({source.type})"
            name = (capability.name or str(capability)).lower()
            raise LpecUnsupportedError(f"{name} is not possible on {where}")
        return service

    async def seek(self, seconds: int) -> None:
        """Seek to an absolute position in the current track."""
        if seconds < 0:
            raise LpecInvalidArgumentError("cannot seek to a negative position")
        if self._state.has_transport:
            stream_id = self._state.transport.stream_id or 0
            await self.action(Service.TRANSPORT, "SeekSecondAbsolute", str(stream_id), str(seconds))
            return
        service = self._source_service_for(Capability.SEEK)
        await self.action(service, "SeekSecondAbsolute", str(seconds))

    async def set_shuffle(self, shuffle: bool) -> None:
        """Shuffle on or off (Transport, else Playlist)."""
        service = Service.TRANSPORT if self._state.has_transport else Service.PLAYLIST
        await self.action(service, "SetShuffle", format_bool(shuffle))

    async def set_repeat(self, repeat: bool) -> None:
        """Repeat on or off (Transport, else Playlist)."""
        service = Service.TRANSPORT if self._state.has_transport else Service.PLAYLIST
        await self.action(service, "SetRepeat", format_bool(repeat))

    # --- songcast -----------------------------------------------------------------

    async def songcast_join(self, uri: str, metadata: str = "") -> None:
        """Listen to a Songcast sender (its state.sender.uri and .metadata)."""
        self._require(Service.RECEIVER)
        if not uri:
            raise LpecInvalidArgumentError("empty Songcast sender URI")
        current = self._state.product.source
        if current is not None and current.kind is not SourceType.RECEIVER:
            self._source_before_songcast = current.system_name
        await self._select_source_of_type(SourceType.RECEIVER)
        await self.action(Service.RECEIVER, "SetSender", uri, metadata)
        await self.action(Service.RECEIVER, "Play")

    async def songcast_leave(self) -> None:
        """Stop listening and go back to the source used before joining."""
        await self.action(Service.RECEIVER, "Stop")
        previous, self._source_before_songcast = self._source_before_songcast, None
        if previous is not None and self._state.product.source_by_system_name(previous):
            await self.select_source(previous)

    # --- settings (Config service: not evented, so not subscribed) ------------------

    async def read_config(self, key: str) -> str | None:
        """A Config value; None when the device has no Config service or no such key."""
        try:
            values = await self._session.action(CONFIG_PATH, 1, "GetValue", (key,))
        except LpecDeviceError as err:
            _LOGGER.debug("%s: no config %s (%s)", self.host, key, err)
            return None
        return values[0] if values else None

    async def volume_limit_settable(self) -> bool:
        """True when the device takes Volume.Limit through its Config service."""
        return self._state.has_volume and await self.read_config(VOLUME_LIMIT_KEY) is not None

    async def set_volume_limit(self, limit: int) -> None:
        """Set the device's volume limit (device units, 0..VolumeMax)."""
        highest = self._state.volume.volume_max
        if limit < 0 or (highest is not None and limit > highest):
            raise LpecInvalidArgumentError(f"volume limit {limit} outside 0..{highest}")
        await self._session.action(CONFIG_PATH, 1, "SetValue", (VOLUME_LIMIT_KEY, str(limit)))

    # --- firmware -----------------------------------------------------------------

    async def update_firmware(self) -> None:
        """Install the available firmware (the device downloads it and reboots)."""
        if self._state.update.software.status != "update_available":
            raise LpecInvalidArgumentError("no firmware update is available")
        await self.action(Service.UPDATE, "Apply")
