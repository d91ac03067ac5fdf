"""What the current source can do: its type, its playback state and its controls.

The one place that knows which source types have a transport service of their own
(Playlist, Radio, Receiver) and what each of them can do when the device has no
source-independent Transport service.
"""

from __future__ import annotations

from enum import Enum, Flag, auto

from .services import Service


class SourceType(Enum):
    """A source's Type from SourceXml, matched case-insensitively.

    Only the types with a transport service of their own are told apart; every other
    type ("Analog", "Digital", "Hdmi", "Spotify", "UpnpAv", one we have never seen, an
    empty one) is OTHER. The device's own spelling stays in `Source.type`.
    """

    PLAYLIST = "Playlist"
    RADIO = "Radio"
    RECEIVER = "Receiver"
    OTHER = "Other"

    @classmethod
    def parse(cls, text: str | None) -> SourceType:
        """The type named by `text` in any case; OTHER for anything else."""
        return _SOURCE_TYPES.get((text or "").casefold(), cls.OTHER)


class PlaybackState(Enum):
    """A TransportState value (Transport, Playlist, Radio or Receiver), in any case."""

    value: str

    PLAYING = "Playing"
    BUFFERING = "Buffering"
    PAUSED = "Paused"
    STOPPED = "Stopped"
    EOS = "Eos"
    WAITING = "Waiting"

    @classmethod
    def parse(cls, text: str | None) -> PlaybackState | None:
        """The state named by `text` in any case; None when absent or unknown."""
        return _PLAYBACK_STATES.get((text or "").casefold())

    @property
    def is_active(self) -> bool:
        """Audio is (about to be) coming out: playing or buffering."""
        return self in (PlaybackState.PLAYING, PlaybackState.BUFFERING)


_SOURCE_TYPES = {
    source_type.value.casefold(): source_type
    for source_type in SourceType
    if source_type is not SourceType.OTHER
}
_PLAYBACK_STATES = {state.value.casefold(): state for state in PlaybackState}


class Capability(Flag):
    """A control the current source offers."""

    NONE = 0
    PLAY = auto()
    PAUSE = auto()
    STOP = auto()
    NEXT = auto()
    PREVIOUS = auto()
    SEEK = auto()
    SHUFFLE = auto()
    REPEAT = auto()


SOURCE_SERVICES: dict[SourceType, Service] = {
    SourceType.PLAYLIST: Service.PLAYLIST,
    SourceType.RADIO: Service.RADIO,
    SourceType.RECEIVER: Service.RECEIVER,
}
"""The service that controls and reports playback of each source type."""

SOURCE_CAPABILITIES: dict[SourceType, Capability] = {
    SourceType.PLAYLIST: Capability.PLAY
    | Capability.PAUSE
    | Capability.STOP
    | Capability.NEXT
    | Capability.PREVIOUS
    | Capability.SEEK
    | Capability.SHUFFLE
    | Capability.REPEAT,
    # Radio:1 has SeekSecondAbsolute, but a live stream cannot be sought.
    SourceType.RADIO: Capability.PLAY | Capability.PAUSE | Capability.STOP,
    SourceType.RECEIVER: Capability.PLAY | Capability.STOP,
}
"""Without the Transport service: what each source type's own service can do."""
