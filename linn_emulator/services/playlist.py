"""Playlist:1: the queue of tracks of the Playlist source."""

from __future__ import annotations

import base64
import struct
from xml.sax.saxutils import escape as xml_escape

from ..didl import parse_didl
from ..errors import JSON_CORRUPT, DeviceError
from ..model import SourceType, Track
from .base import Args, ArgType, EmulatedService, fmt_bool

PLAYLIST_PROTOCOL_INFO = (
    "http-get:*:audio/x-flac:*,http-get:*:audio/wav:*,http-get:*:audio/wave:*,"
    "http-get:*:audio/x-wav:*,http-get:*:audio/mpeg:*,http-get:*:audio/x-mpeg:*,"
    "http-get:*:audio/mp1:*,http-get:*:audio/aiff:*,http-get:*:audio/x-aiff:*,"
    "http-get:*:audio/x-m4a:*,http-get:*:audio/aac:*,http-get:*:audio/x-scpls:*,"
    "http-get:*:text/xml:*,http-get:*:audio/ogg:*,http-get:*:audio/x-ogg:*,"
    "http-get:*:application/ogg:*,tidalhifi.com:*:*:*,qobuz.com:*:*:*"
)


def id_array(ids: list[int]) -> str:
    """Base64 of big-endian uint32 ids."""
    return base64.b64encode(struct.pack(f">{len(ids)}I", *ids)).decode("ascii")


def track_list(entries: list[tuple[int, str, str]]) -> str:
    """<TrackList> as ReadList returns it (metadata escaped inside the XML)."""
    parts = ["<TrackList>"]
    for entry_id, uri, metadata in entries:
        parts.append(
            f"<Entry><Id>{entry_id}</Id><Uri>{xml_escape(uri)}</Uri>"
            f"<Metadata>{xml_escape(metadata)}</Metadata></Entry>"
        )
    parts.append("</TrackList>")
    return "".join(parts)


def parse_id_list(text: str) -> list[int]:
    """Space-separated ids, as ReadList takes them."""
    try:
        return [int(part) for part in text.split()]
    except ValueError:
        raise DeviceError(JSON_CORRUPT, "Invalid id list") from None


class PlaylistService(EmulatedService):
    """urn:av-openhome-org:service:Playlist:1."""

    name = "Playlist"
    version = 1

    def setup(self) -> None:
        """Declare the actions."""
        d = self.device
        value = [("Value", ArgType.UINT)]
        self.add("Play", self.call(d.playlist_play))
        self.add("Pause", self.call(self._pause))
        self.add("Stop", self.call(self._stop))
        self.add("Next", self.call(self._next))
        self.add("Previous", self.call(self._previous))
        self.add("SetRepeat", self._set_repeat, [("Value", ArgType.BOOL)])
        self.getter("Repeat", "Value", "Repeat")
        self.add("SetShuffle", self._set_shuffle, [("Value", ArgType.BOOL)])
        self.getter("Shuffle", "Value", "Shuffle")
        self.add("SeekSecondAbsolute", self._seek_absolute, value)
        self.add("SeekSecondRelative", self._seek_relative, [("Value", ArgType.INT)])
        self.add("SeekId", self._seek_id, value)
        self.add("SeekIndex", self._seek_index, value)
        self.getter("TransportState", "Value", "TransportState")
        self.getter("Id", "Value", "Id")
        self.add("Read", self._read, [("Id", ArgType.UINT)], ("Uri", "Metadata"))
        self.add("ReadList", self._read_list, [("IdList", ArgType.STRING)], ("TrackList",))
        self.add(
            "Insert",
            self._insert,
            [("AfterId", ArgType.UINT), ("Uri", ArgType.STRING), ("Metadata", ArgType.STRING)],
            ("NewId",),
        )
        self.add("DeleteId", self._delete_id, value)
        self.add("DeleteAll", self.call(d.playlist_delete_all))
        self.getter("TracksMax", "Value", "TracksMax")
        self.add(
            "IdArray",
            lambda _a: [str(self.state.playlist_token), self.variables()["IdArray"]],
            outputs=("Token", "Array"),
        )
        self.add(
            "IdArrayChanged",
            lambda a: [fmt_bool(a.int("Token") != self.state.playlist_token)],
            [("Token", ArgType.UINT)],
            ("Value",),
        )
        self.getter("ProtocolInfo", "Value", "ProtocolInfo")

    def _active(self) -> bool:
        return self.state.source.type is SourceType.PLAYLIST

    def _pause(self) -> None:
        if self._active():
            self.device.pause()

    def _stop(self) -> None:
        if self._active():
            self.device.stop()

    def _next(self) -> None:
        if self._active():
            self.device.next()

    def _previous(self) -> None:
        if self._active():
            self.device.previous()

    def _set_repeat(self, args: Args) -> list[str]:
        self.device.set_repeat(args.bool("Value"))
        return []

    def _set_shuffle(self, args: Args) -> list[str]:
        self.device.set_shuffle(args.bool("Value"))
        return []

    def _seek_absolute(self, args: Args) -> list[str]:
        self.device.seek_second_absolute(args.int("Value"))
        return []

    def _seek_relative(self, args: Args) -> list[str]:
        self.device.seek_second_relative(args.int("Value"))
        return []

    def _seek_id(self, args: Args) -> list[str]:
        self.device.playlist_seek_id(args.int("Value"))
        return []

    def _seek_index(self, args: Args) -> list[str]:
        self.device.playlist_seek_index(args.int("Value"))
        return []

    def _read(self, args: Args) -> list[str]:
        entry = self.device.playlist_entry(args.int("Id"))
        return [entry.track.uri, entry.track.didl()]

    def _read_list(self, args: Args) -> list[str]:
        wanted = parse_id_list(args.str("IdList"))
        by_id = {entry.id: entry for entry in self.state.playlist}
        found = [(i, by_id[i].track.uri, by_id[i].track.didl()) for i in wanted if i in by_id]
        return [track_list(found)]

    def _insert(self, args: Args) -> list[str]:
        track = track_from_didl(args.str("Uri"), args.str("Metadata"))
        return [str(self.device.playlist_insert(args.int("AfterId"), track))]

    def _delete_id(self, args: Args) -> list[str]:
        self.device.playlist_delete(args.int("Value"))
        return []

    def variables(self) -> dict[str, str]:
        """Every evented variable."""
        s = self.state
        transport = self.device.transport_state_of(SourceType.PLAYLIST)
        return {
            "TransportState": str(transport),
            "Repeat": fmt_bool(s.repeat),
            "Shuffle": fmt_bool(s.shuffle),
            "Id": str(s.playlist_id),
            "IdArray": id_array([entry.id for entry in s.playlist]),
            "TracksMax": str(s.tracks_max),
            "ProtocolInfo": PLAYLIST_PROTOCOL_INFO,
        }


def track_from_didl(uri: str, metadata: str) -> Track:
    """Build a track inserted by a control point: DIDL kept verbatim, a few fields read."""
    fields = parse_didl(metadata)
    return Track(
        uri=uri,
        title=fields.title or uri,
        artist=fields.artist,
        album=fields.album,
        art_uri=fields.art_uri,
        duration=fields.duration,
        metadata=metadata,
    )
