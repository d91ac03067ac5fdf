"""DIDL-Lite track metadata: parse what devices send, build what we send."""

from __future__ import annotations

from dataclasses import dataclass
import re
from xml.etree import ElementTree as ET

from .codec import escape
from .xmlsafe import child_text, local_name, parse_xml


@dataclass(frozen=True, slots=True)
class TrackMetadata:
    """The fields of one DIDL-Lite item a media player shows; empty when unknown."""

    title: str | None = None
    artists: tuple[str, ...] = ()
    album: str | None = None
    album_art_uri: str | None = None
    duration: float | None = None
    uri: str | None = None
    upnp_class: str | None = None

    @property
    def artist(self) -> str | None:
        """The first artist, or None."""
        return self.artists[0] if self.artists else None


EMPTY_METADATA = TrackMetadata()


def parse_didl(text: str) -> TrackMetadata:
    """Parse the first item (or container) of a DIDL-Lite document; never raises."""
    root = parse_xml(text, "DIDL-Lite")
    if root is None:
        return EMPTY_METADATA
    item = next((el for el in root if local_name(el.tag) in ("item", "container")), None)
    if item is None:
        return EMPTY_METADATA
    return _item_metadata(item)


def _item_metadata(item: ET.Element) -> TrackMetadata:
    artists: list[str] = []
    res: ET.Element | None = None
    for child in item:
        name = local_name(child.tag)
        if name in ("artist", "creator") and child.text and child.text.strip():
            artist = child.text.strip()
            if artist not in artists:
                artists.append(artist)
        elif name == "res" and res is None:
            res = child
    return TrackMetadata(
        title=child_text(item, "title") or None,
        artists=tuple(artists),
        album=child_text(item, "album") or None,
        album_art_uri=child_text(item, "albumArtURI") or None,
        duration=parse_duration(res.get("duration")) if res is not None else None,
        uri=(res.text or "").strip() or None if res is not None else None,
        upnp_class=child_text(item, "class") or None,
    )


def parse_duration(value: str | None) -> float | None:
    """'H:MM:SS(.fff)' -> seconds; None if absent or malformed."""
    if not value:
        return None
    parts = value.strip().split(":")
    if len(parts) != 3:
        return None
    try:
        hours, minutes, seconds = int(parts[0]), int(parts[1]), float(parts[2])
    except ValueError:
        return None
    return hours * 3600 + minutes * 60 + seconds


_DIDL_START = re.compile(r"(?:<\?xml[^>]*\?>\s*)?<(?:[\w.-]+:)?DIDL-Lite[\s>/]")


def parse_metatext(text: str) -> str | None:
    """Metatext is DIDL-Lite on some firmware and plain text on others.

    Only a DIDL-Lite document is parsed as one: plain text may start with '<' too
    ("<3 Love Song", "<Live> ...") and stays text.
    """
    stripped = text.strip()
    if not stripped:
        return None
    if not _DIDL_START.match(stripped):
        return stripped
    metadata = parse_didl(stripped)
    parts = [part for part in (metadata.artist, metadata.title) if part]
    return " - ".join(parts) or None


def build_didl(title: str, uri: str, upnp_class: str = "object.item.audioItem.musicTrack") -> str:
    """Minimal DIDL-Lite for a URL we ask the device to play."""
    return (
        '<DIDL-Lite xmlns="urn:schemas-upnp-org:metadata-1-0/DIDL-Lite/"'
        ' xmlns:dc="http://purl.org/dc/elements/1.1/"'
        ' xmlns:upnp="urn:schemas-upnp-org:metadata-1-0/upnp/">'
        '<item id="" parentID="" restricted="True">'
        f"<dc:title>{escape(title)}</dc:title>"
        f'<res protocolInfo="*:*:*:*">{escape(uri)}</res>'
        f"<upnp:class>{escape(upnp_class)}</upnp:class>"
        "</item></DIDL-Lite>"
    )
