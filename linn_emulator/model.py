"""Device state, independent of any wire protocol (LPEC today, maybe UPnP later)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any
from xml.sax.saxutils import escape as xml_escape, quoteattr

from .artwork import generated_cover_uri, local_uri
from .quirks import OHNET, Quirk

DIDL_OPEN = (
    '<DIDL-Lite xmlns="urn:schemas-upnp-org:metadata-1-0/DIDL-Lite/" '
    'xmlns:dc="http://purl.org/dc/elements/1.1/" '
    'xmlns:upnp="urn:schemas-upnp-org:metadata-1-0/upnp/">'
)
DIDL_CLOSE = "</DIDL-Lite>"


class PlaybackState(StrEnum):
    """What the OpenHome `TransportState` variables report (the playback state of a source)."""

    PLAYING = "Playing"
    PAUSED = "Paused"
    STOPPED = "Stopped"
    BUFFERING = "Buffering"
    WAITING = "Waiting"


class SourceType(StrEnum):
    """Product source types (the `Type` element of SourceXml)."""

    PLAYLIST = "Playlist"
    RADIO = "Radio"
    RECEIVER = "Receiver"
    SPOTIFY = "Spotify"
    ANALOG = "Analog"
    DIGITAL = "Digital"
    HDMI = "Hdmi"


@dataclass(frozen=True, slots=True)
class Source:
    """One entry of Product SourceXml; system names never change, names are user-set."""

    system_name: str
    type: SourceType
    name: str
    visible: bool = True


def format_duration(seconds: int) -> str:
    """DIDL `res@duration` form, H:MM:SS.000."""
    hours, rest = divmod(max(seconds, 0), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}.000"


@dataclass(slots=True)
class Track:
    """A playable item with enough detail for Info, Time and DIDL-Lite metadata."""

    uri: str
    title: str
    artist: str = ""
    album: str = ""
    art_uri: str = ""
    duration: int = 0
    bit_depth: int = 16
    sample_rate: int = 44100
    bitrate: int = 1411200
    codec: str = "FLAC"
    lossless: bool = True
    track_number: int = 0
    genre: str = ""
    upnp_class: str = "object.item.audioItem.musicTrack"
    metadata: str | None = None
    """Raw DIDL-Lite as given by a control point; generated from the fields when None."""

    @property
    def protocol_info(self) -> str:
        """A res@protocolInfo matching the codec."""
        mime = {"FLAC": "audio/x-flac", "MP3": "audio/mpeg", "AAC": "audio/aac"}.get(
            self.codec, "audio/x-wav"
        )
        return f"http-get:*:{mime}:*"

    def didl(self) -> str:
        """DIDL-Lite for this item (values XML-escaped once, as on a device)."""
        if self.metadata is not None:
            return self.metadata
        parts = [DIDL_OPEN, '<item id="1" parentID="0" restricted="1">']
        parts.append(f"<dc:title>{xml_escape(self.title)}</dc:title>")
        if self.artist:
            parts.append(f'<upnp:artist role="Performer">{xml_escape(self.artist)}</upnp:artist>')
            parts.append(f"<dc:creator>{xml_escape(self.artist)}</dc:creator>")
        if self.album:
            parts.append(f"<upnp:album>{xml_escape(self.album)}</upnp:album>")
        if self.genre:
            parts.append(f"<upnp:genre>{xml_escape(self.genre)}</upnp:genre>")
        if self.track_number:
            parts.append(
                f"<upnp:originalTrackNumber>{self.track_number}</upnp:originalTrackNumber>"
            )
        art = (
            local_uri(self.art_uri) if self.art_uri else generated_cover_uri(self.uri or self.title)
        )
        if art:
            parts.append(f"<upnp:albumArtURI>{xml_escape(art)}</upnp:albumArtURI>")
        parts.append(f"<upnp:class>{self.upnp_class}</upnp:class>")
        attrs = [f"protocolInfo={quoteattr(self.protocol_info)}"]
        if self.duration:
            attrs.append(f'duration="{format_duration(self.duration)}"')
        attrs.append(f'bitsPerSample="{self.bit_depth}"')
        attrs.append(f'sampleFrequency="{self.sample_rate}"')
        attrs.append(f'bitrate="{self.bitrate // 8}"')
        parts.append(f"<res {' '.join(attrs)}>{xml_escape(self.uri)}</res>")
        parts.append("</item>")
        parts.append(DIDL_CLOSE)
        return "".join(parts)


@dataclass(slots=True)
class PlaylistEntry:
    """A track in the Playlist source, with its device-assigned id."""

    id: int
    track: Track


@dataclass(slots=True)
class RadioChannel:
    """A radio preset."""

    id: int
    track: Track
    metatext: str = ""
    """Now-playing text the station sends (artist - song)."""


@dataclass(slots=True)
class Pin:
    """One of the six device pins; an empty pin has an empty mode."""

    id: int
    mode: str = ""
    type: str = ""
    uri: str = ""
    title: str = ""
    description: str = ""
    artwork_uri: str = ""
    shuffle: bool = False

    @property
    def empty(self) -> bool:
        """True when nothing is stored on the pin."""
        return not self.mode

    def as_json(self) -> dict[str, Any]:
        """Return the object Pins.ReadList returns (lower-case keys, as a Selekt sends)."""
        return {
            "id": self.id,
            "mode": self.mode,
            "type": self.type,
            "uri": self.uri,
            "title": self.title,
            "description": self.description,
            "artworkUri": local_uri(self.artwork_uri),
            "shuffle": self.shuffle,
        }


@dataclass(frozen=True, slots=True)
class NowPlaying:
    """What Info and Time report."""

    uri: str = ""
    metadata: str = ""
    duration: int = 0
    bitrate: int = 0
    bit_depth: int = 0
    sample_rate: int = 0
    lossless: bool = False
    codec: str = ""
    metatext: str = ""

    @classmethod
    def of(cls, track: Track, metatext: str = "") -> NowPlaying:
        """Now-playing for a track."""
        return cls(
            uri=track.uri,
            metadata=track.didl(),
            duration=track.duration,
            bitrate=track.bitrate,
            bit_depth=track.bit_depth,
            sample_rate=track.sample_rate,
            lossless=track.lossless,
            codec=track.codec,
            metatext=metatext,
        )


@dataclass(slots=True)
class EmulatedDeviceState:
    """Everything the emulated device knows (the truth); services derive their variables from it."""

    udn: str
    room: str
    name: str
    model: str
    sources: list[Source]
    manufacturer: str = "Linn"
    standby: bool = False
    standby_transitioning: bool = False
    source_index: int = 0
    transport_state: PlaybackState = PlaybackState.STOPPED
    """State of the current source (Receiver is derived from the sender, see Device)."""
    volume: int = 30
    mute: bool = False
    balance: int = 0
    fade: int = 0
    volume_limit: int = 80
    volume_max: int = 100
    volume_unity: int = 80
    volume_steps: int = 100
    volume_milli_db_per_step: int = 500
    balance_max: int = 15
    fade_max: int = 10
    shuffle: bool = False
    repeat: bool = False
    playlist: list[PlaylistEntry] = field(default_factory=list)
    playlist_id: int = 0
    """Id of the current playlist track, 0 for none."""
    next_playlist_id: int = 1
    playlist_token: int = 0
    tracks_max: int = 1000
    seconds: int = 0
    radio_channels: list[RadioChannel] = field(default_factory=list)
    radio_id: int = 0
    radio_uri: str = ""
    radio_metadata: str = ""
    radio_token: int = 0
    channels_max: int = 100
    receiver_uri: str = ""
    receiver_metadata: str = ""
    receiver_active: bool = False
    spotify_track: Track | None = None
    metadata_override: NowPlaying | None = None
    """Set by the front panel (set_metadata); cleared when the track changes."""
    metatext_override: str | None = None
    track_count: int = 0
    details_count: int = 0
    metatext_count: int = 0
    stream_id: int = 0
    source_xml_change_count: int = 0
    pins: list[Pin] = field(default_factory=list)
    software_status: dict[str, Any] = field(default_factory=dict)
    quirks: frozenset[Quirk] = OHNET
    """How the firmware differs from the wiki (quirks.py); every quirk by default."""

    @property
    def source(self) -> Source:
        """The selected source."""
        return self.sources[self.source_index]

    @property
    def current_entry(self) -> PlaylistEntry | None:
        """The current playlist entry, if any."""
        return next((e for e in self.playlist if e.id == self.playlist_id), None)

    @property
    def current_channel(self) -> RadioChannel | None:
        """The radio preset playing, if the channel is a preset."""
        return next((c for c in self.radio_channels if c.id == self.radio_id), None)
