"""Typed device state, built from events.

Every class is immutable: a new event produces a new object, so a listener can keep
a reference to an old state safely.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import time

from .capabilities import (
    SOURCE_CAPABILITIES,
    SOURCE_SERVICES,
    Capability,
    PlaybackState,
    SourceType,
)
from .didl import EMPTY_METADATA, TrackMetadata
from .services import Service
from .software import EMPTY_SOFTWARE_STATUS, SoftwareStatus
from .sources import Source


@dataclass(frozen=True, slots=True)
class ProductState:
    """Product service: identity, standby and sources."""

    room: str | None = None
    name: str | None = None
    manufacturer: str | None = None
    model: str | None = None
    standby: bool | None = None
    sources: tuple[Source, ...] = ()
    source_index: int | None = None

    @property
    def source(self) -> Source | None:
        """The current source, if known."""
        if self.source_index is None or not 0 <= self.source_index < len(self.sources):
            return None
        return self.sources[self.source_index]

    @property
    def visible_sources(self) -> tuple[Source, ...]:
        """The sources the user chose to show."""
        return tuple(source for source in self.sources if source.visible)

    def source_by_system_name(self, system_name: str) -> Source | None:
        """Find the source with this (fixed) system name, case-insensitively."""
        wanted = system_name.casefold()
        return next((s for s in self.sources if s.system_name.casefold() == wanted), None)

    def source_by_type(self, source_type: SourceType) -> Source | None:
        """Find the first source of this type."""
        return next((s for s in self.sources if s.kind is source_type), None)


@dataclass(frozen=True, slots=True)
class VolumeState:
    """Volume service, in device units (not necessarily 0-100)."""

    volume: int | None = None
    mute: bool | None = None
    volume_max: int | None = None
    volume_limit: int | None = None
    volume_steps: int | None = None
    volume_unity: int | None = None

    @property
    def ceiling(self) -> int | None:
        """The highest volume the device will accept: VolumeLimit, else VolumeMax."""
        if self.volume_limit is not None and self.volume_max is not None:
            return min(self.volume_limit, self.volume_max)
        return self.volume_limit if self.volume_limit is not None else self.volume_max


@dataclass(frozen=True, slots=True)
class TransportState:
    """Transport service: source-independent transport state and capabilities."""

    state: str | None = None
    can_pause: bool = False
    can_seek: bool = False
    can_skip_next: bool = False
    can_skip_previous: bool = False
    can_repeat: bool = False
    can_shuffle: bool = False
    shuffle: bool | None = None
    repeat: bool | None = None
    stream_id: int | None = None


@dataclass(frozen=True, slots=True)
class InfoState:
    """Info service: the current track and stream details."""

    uri: str | None = None
    track: TrackMetadata = EMPTY_METADATA
    metatext: str | None = None
    codec_name: str | None = None
    bit_depth: int | None = None
    sample_rate: int | None = None
    bit_rate: int | None = None
    lossless: bool | None = None
    duration: int | None = None


@dataclass(frozen=True, slots=True)
class TimeState:
    """Time service; `seconds_updated_at` is time.monotonic() when seconds changed."""

    duration: int | None = None
    seconds: int | None = None
    seconds_updated_at: float | None = None

    def position(self, now: float | None = None) -> float | None:
        """Seconds extrapolated to `now` (monotonic); assumes the track is playing."""
        if self.seconds is None or self.seconds_updated_at is None:
            return self.seconds
        now = time.monotonic() if now is None else now
        return self.seconds + max(0.0, now - self.seconds_updated_at)


@dataclass(frozen=True, slots=True)
class Pin:
    """One pin as returned by Pins ReadList."""

    id: int
    title: str = ""
    artwork_uri: str | None = None
    mode: str = ""
    type: str = ""
    uri: str = ""
    description: str = ""


EMPTY_SLOT = 0
"""The id of an empty pin or radio preset slot (ohPipeline kIdEmpty / kPresetIdNone)."""


def _occupied(slots: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(slot for slot in slots if slot != EMPTY_SLOT)


@dataclass(frozen=True, slots=True)
class PinsState:
    """Pins service; `pins` is filled by LinnDevice.read_pins().

    `slots` is IdArray as sent: one id per pin slot, 0 for an empty slot, () before the
    device's first update (IdArray ""). `ids` are the pins that exist.
    """

    slots: tuple[int, ...] = ()
    pins: tuple[Pin, ...] = ()

    @property
    def ids(self) -> tuple[int, ...]:
        """The ids of the pins that hold something, in slot order."""
        return _occupied(self.slots)


@dataclass(frozen=True, slots=True)
class RadioPreset:
    """One radio preset (channel) as returned by Radio ReadList."""

    id: int
    uri: str | None
    metadata: TrackMetadata = EMPTY_METADATA

    @property
    def title(self) -> str | None:
        """The preset's station name."""
        return self.metadata.title


@dataclass(frozen=True, slots=True)
class RadioState:
    """Radio service; `presets` is filled by LinnDevice.read_presets().

    `slots` is IdArray as sent: on Linn firmware always 100 slots, 0 for an empty one.
    `ids` are the presets that exist.
    """

    slots: tuple[int, ...] = ()
    presets: tuple[RadioPreset, ...] = ()
    channel_id: int | None = None
    uri: str | None = None
    metadata: TrackMetadata = EMPTY_METADATA
    transport_state: str | None = None

    @property
    def ids(self) -> tuple[int, ...]:
        """The ids of the stored presets, in slot order."""
        return _occupied(self.slots)


@dataclass(frozen=True, slots=True)
class ReceiverState:
    """Receiver (Songcast) service; `metadata` is the sender's raw DIDL-Lite."""

    uri: str | None = None
    metadata: str = ""
    transport_state: str | None = None


@dataclass(frozen=True, slots=True)
class SenderState:
    """Sender (Songcast) service: what another device needs to join this one."""

    uri: str | None = None
    metadata: str = ""
    status: str | None = None
    audio: bool | None = None
    presentation_url: str | None = None


@dataclass(frozen=True, slots=True)
class PlaylistState:
    """Playlist service."""

    ids: tuple[int, ...] = ()
    current_id: int | None = None
    transport_state: str | None = None
    shuffle: bool | None = None
    repeat: bool | None = None


@dataclass(frozen=True, slots=True)
class UpdateState:
    """Linn Update service: firmware status."""

    software: SoftwareStatus = EMPTY_SOFTWARE_STATUS


@dataclass(frozen=True, slots=True)
class DeviceState:
    """Everything known about a device; `services` holds the services it has."""

    product: ProductState = field(default_factory=ProductState)
    volume: VolumeState = field(default_factory=VolumeState)
    transport: TransportState = field(default_factory=TransportState)
    info: InfoState = field(default_factory=InfoState)
    time: TimeState = field(default_factory=TimeState)
    pins: PinsState = field(default_factory=PinsState)
    radio: RadioState = field(default_factory=RadioState)
    receiver: ReceiverState = field(default_factory=ReceiverState)
    sender: SenderState = field(default_factory=SenderState)
    playlist: PlaylistState = field(default_factory=PlaylistState)
    update: UpdateState = field(default_factory=UpdateState)
    services: frozenset[Service] = frozenset()

    @property
    def has_volume(self) -> bool:
        """True if the device has a Volume service (not every DS has a pre-amp)."""
        return Service.VOLUME in self.services

    @property
    def has_transport(self) -> bool:
        """True if the device has the source-independent Transport service."""
        return Service.TRANSPORT in self.services

    @property
    def has_pins(self) -> bool:
        """True if the device has the Pins service."""
        return Service.PINS in self.services

    @property
    def can_group(self) -> bool:
        """True if the device can both send and listen to Songcast."""
        return {Service.RECEIVER, Service.SENDER} <= self.services

    # --- the current source -------------------------------------------------------

    @property
    def source_type(self) -> SourceType | None:
        """The current source's type; None while no source is known."""
        source = self.product.source
        return None if source is None else source.kind

    @property
    def source_service(self) -> Service | None:
        """The service of the current source's type (Playlist, Radio, Receiver), if any."""
        source_type = self.source_type
        return None if source_type is None else SOURCE_SERVICES.get(source_type)

    @property
    def playback_state(self) -> PlaybackState | None:
        """From Transport, else from the current source's own service; None if unknown."""
        if self.has_transport:
            return PlaybackState.parse(self.transport.state)
        match self.source_service:
            case Service.PLAYLIST:
                return PlaybackState.parse(self.playlist.transport_state)
            case Service.RADIO:
                return PlaybackState.parse(self.radio.transport_state)
            case Service.RECEIVER:
                return PlaybackState.parse(self.receiver.transport_state)
        return None

    @property
    def capabilities(self) -> Capability:
        """What the current source can do now.

        With Transport, its Can* flags, plus play and stop whenever any of them is set
        or the source has a transport service of its own; without Transport, what the
        current source type's own service can do.
        """
        source_type = self.source_type
        own = (
            Capability.NONE
            if source_type is None
            else SOURCE_CAPABILITIES.get(source_type, Capability.NONE)
        )
        if not self.has_transport:
            return own
        transport = self.transport
        flags = {
            Capability.PAUSE: transport.can_pause,
            Capability.NEXT: transport.can_skip_next,
            Capability.PREVIOUS: transport.can_skip_previous,
            Capability.SEEK: transport.can_seek,
            Capability.SHUFFLE: transport.can_shuffle,
            Capability.REPEAT: transport.can_repeat,
        }
        capabilities = Capability.NONE
        for capability, enabled in flags.items():
            if enabled:
                capabilities |= capability
        if capabilities or own:
            capabilities |= Capability.PLAY | Capability.STOP
        return capabilities

    @property
    def shuffle(self) -> bool | None:
        """Shuffle, from Transport, else from Playlist."""
        return self.transport.shuffle if self.has_transport else self.playlist.shuffle

    @property
    def repeat(self) -> bool | None:
        """Repeat (all or nothing), from Transport, else from Playlist."""
        return self.transport.repeat if self.has_transport else self.playlist.repeat

    @property
    def is_listening(self) -> bool:
        """True while the Songcast source plays from some sender."""
        return (
            bool(self.receiver.uri)  # first: the cheapest test, false on most devices
            and self.source_type is SourceType.RECEIVER
            and (state := PlaybackState.parse(self.receiver.transport_state)) is not None
            and state.is_active
        )
