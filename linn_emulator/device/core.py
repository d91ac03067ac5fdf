"""The device's core: its state, the change fan-out, Songcast senders and derived values.

Every state change ends in `changed()`, which updates the counters and tells listeners
(the LPEC server) and the Songcast receivers following this device.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
import random

from ..didl import icy_didl
from ..errors import INVALID_SOURCE, DeviceError
from ..model import EmulatedDeviceState, NowPlaying, PlaybackState, SourceType, Track
from ..quirks import Quirk

SENDER_PORT = 51972
SENDER_GROUP = "239.255.255.250"
EXTERNAL_TYPES = frozenset({SourceType.ANALOG, SourceType.DIGITAL, SourceType.HDMI})

# Songcast senders by URI, so a receiver in the same process can follow its sender.
_SENDERS: dict[str, DeviceCore] = {}


class Capabilities:
    """Transport capabilities of the current source."""

    __slots__ = ("pause", "repeat", "seek", "shuffle", "skip_next", "skip_previous")

    def __init__(
        self,
        *,
        pause: bool = False,
        skip: bool = False,
        repeat: bool = False,
        shuffle: bool = False,
        seek: bool = False,
    ) -> None:
        self.pause = pause
        self.skip_next = skip
        self.skip_previous = skip
        self.repeat = repeat
        self.shuffle = shuffle
        self.seek = seek


class DeviceCore:
    """A Linn DSM's state and what follows from it, without any wire protocol."""

    def __init__(self, state: EmulatedDeviceState, *, services: frozenset[str]) -> None:
        self.state = state
        self.services = services
        self._listeners: list[Callable[[], None]] = []
        self._notifying = False
        self._random = random.Random(state.udn)
        now = self.now_playing()
        self._last_track = (now.uri, now.metadata)
        self._last_metatext = now.metatext

    # --- plumbing -------------------------------------------------------------

    @property
    def sender_uri(self) -> str:
        """Songcast URI other devices' Receiver.SetSender takes."""
        return f"ohz://{SENDER_GROUP}:{SENDER_PORT}/{self.state.udn}"

    def add_listener(self, listener: Callable[[], None]) -> None:
        """Call `listener` after every state change."""
        self._listeners.append(listener)

    def remove_listener(self, listener: Callable[[], None]) -> None:
        """Stop calling `listener`."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def register_sender(self) -> None:
        """Make this device's Songcast sender reachable by receivers in this process."""
        _SENDERS[self.sender_uri] = self

    def unregister_sender(self) -> None:
        """Forget the sender (the device is off)."""
        if _SENDERS.get(self.sender_uri) is self:
            del _SENDERS[self.sender_uri]
        for follower in self._followers():
            follower.changed()

    def _sender(self) -> DeviceCore | None:
        sender = _SENDERS.get(self.state.receiver_uri)
        return None if sender is self else sender

    def _followers(self) -> list[DeviceCore]:
        return [
            device
            for device in list(_SENDERS.values())
            if device is not self and device.state.receiver_uri == self.sender_uri
        ]

    def changed(self) -> None:
        """Update counters, then tell listeners and Songcast receivers following us."""
        if self._notifying:
            return
        self._notifying = True
        try:
            if self.state.source.type is SourceType.RECEIVER:
                self.state.transport_state = self.transport_state()
            now = self.now_playing()
            track = (now.uri, now.metadata)
            if track != self._last_track:
                self._last_track = track
                self.state.track_count += 1
                self.state.details_count += 1
                self.state.stream_id += 1
            if now.metatext != self._last_metatext:
                self._last_metatext = now.metatext
                self.state.metatext_count += 1
            for listener in list(self._listeners):
                listener()
            for follower in self._followers():
                follower.changed()
        finally:
            self._notifying = False

    # --- derived values -------------------------------------------------------

    def transport_state_of(self, source_type: SourceType) -> PlaybackState:
        """What a source's own service reports: its state while current, else Stopped."""
        if self.state.source.type is source_type:
            return self.transport_state()
        return PlaybackState.STOPPED

    def transport_state(self, _depth: int = 0) -> PlaybackState:
        """TransportState of the current source."""
        state = self.state
        if state.source.type is SourceType.RECEIVER:
            if not state.receiver_active or state.standby:
                return PlaybackState.STOPPED
            sender = self._sender()
            if (
                sender is not None
                and _depth < 4
                and not sender.state.standby
                and sender.transport_state(_depth + 1) is PlaybackState.PLAYING
            ):
                return PlaybackState.PLAYING
            return PlaybackState.WAITING
        return state.transport_state

    def capabilities(self) -> Capabilities:
        """Return what the current source allows (Transport Can* variables)."""
        match self.state.source.type:
            case SourceType.PLAYLIST:
                return Capabilities(pause=True, skip=True, repeat=True, shuffle=True, seek=True)
            case SourceType.SPOTIFY:
                return Capabilities(pause=True, skip=True)
            case _:
                return Capabilities()

    def now_playing(self, _depth: int = 0) -> NowPlaying:
        """Return what Info reports for the current source."""
        state = self.state
        now = NowPlaying()
        match state.source.type:
            case SourceType.PLAYLIST:
                entry = state.current_entry
                if entry is not None:
                    now = NowPlaying.of(entry.track)
            case SourceType.RADIO:
                channel = state.current_channel
                if channel is not None and channel.track.uri == state.radio_uri:
                    metatext = channel.metatext
                    if metatext and Quirk.ICY_METATEXT in state.quirks:
                        metatext = icy_didl(metatext)
                    now = NowPlaying.of(channel.track, metatext)
                elif state.radio_uri:
                    now = NowPlaying(uri=state.radio_uri, metadata=state.radio_metadata)
            case SourceType.RECEIVER:
                sender = self._sender()
                if (
                    sender is not None
                    and _depth < 4
                    and self.transport_state() is PlaybackState.PLAYING
                ):
                    now = sender.now_playing(_depth + 1)
                elif state.receiver_uri:
                    now = NowPlaying(uri=state.receiver_uri, metadata=state.receiver_metadata)
            case SourceType.SPOTIFY:
                if state.spotify_track is not None:
                    now = NowPlaying.of(state.spotify_track)
            case _:
                source = state.source
                now = NowPlaying(
                    metadata=Track(uri="", title=source.name, upnp_class="object.item").didl(),
                    bit_depth=24,
                    sample_rate=192000 if source.type is not SourceType.ANALOG else 96000,
                    lossless=True,
                    codec="PCM",
                )
        override = state.metadata_override
        if override is not None:
            # The text is replaced; the stream (duration, format) stays the track's.
            now = replace(
                now,
                uri=override.uri or now.uri,
                metadata=override.metadata,
                duration=override.duration or now.duration,
                metatext=override.metatext,
            )
        if state.metatext_override is not None:
            now = replace(now, metatext=state.metatext_override)
        return now

    def position(self, _depth: int = 0) -> tuple[int, int]:
        """(Duration, Seconds) for Time; a receiver reports its sender's."""
        if self.state.source.type is SourceType.RECEIVER:
            sender = self._sender()
            if (
                sender is not None
                and _depth < 4
                and self.transport_state() is PlaybackState.PLAYING
            ):
                return sender.position(_depth + 1)
            return (0, 0)
        return (self.now_playing().duration, self.state.seconds)

    # --- source selection primitives ------------------------------------------

    def _leave_standby(self) -> None:
        self.state.standby = False

    def _select_type(self, kind: SourceType) -> None:
        if self.state.source.type is kind:
            self._leave_standby()
            return
        for index, source in enumerate(self.state.sources):
            if source.type is kind:
                self._leave_standby()
                self.state.source_index = index
                self.state.seconds = 0
                self.state.metadata_override = None
                self.state.metatext_override = None
                self.state.transport_state = PlaybackState.STOPPED
                return
        raise DeviceError(INVALID_SOURCE, f"No {kind} source")
