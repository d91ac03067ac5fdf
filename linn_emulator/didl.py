"""DIDL-Lite: a few fields read from control points' metadata; Icy Metatext written.

Reading uses regular expressions, no XML parser. `icy_didl` writes what ohPipeline's
Icy parser makes of a radio StreamTitle.
"""

from __future__ import annotations

from dataclasses import dataclass
import re
from xml.sax.saxutils import unescape

_ENTITIES = {"&quot;": '"', "&apos;": "'"}


@dataclass(frozen=True, slots=True)
class DidlFields:
    """The fields the emulator uses."""

    title: str = ""
    artist: str = ""
    album: str = ""
    art_uri: str = ""
    duration: int = 0


def _element(text: str, tag: str) -> str:
    match = re.search(rf"<{tag}(?:\s[^>]*)?>(.*?)</{tag}>", text, re.DOTALL)
    return unescape(match.group(1), _ENTITIES).strip() if match else ""


def _duration(text: str) -> int:
    match = re.search(r'duration="(\d+):(\d{1,2}):(\d{1,2})(?:\.\d+)?"', text)
    if not match:
        return 0
    hours, minutes, seconds = (int(group) for group in match.groups())
    return hours * 3600 + minutes * 60 + seconds


def parse_didl(text: str) -> DidlFields:
    """Title, artist, album, artwork and duration of the first item; blanks when absent."""
    if len(text) > 1_000_000:
        return DidlFields()
    return DidlFields(
        title=_element(text, "dc:title"),
        artist=_element(text, "upnp:artist") or _element(text, "dc:creator"),
        album=_element(text, "upnp:album"),
        art_uri=_element(text, "upnp:albumArtURI"),
        duration=_duration(text),
    )


def icy_didl(stream_title: str) -> str:
    """Metatext as ohPipeline's IcyObserverDidlLite writes it: the title NOT escaped."""
    return (
        "<DIDL-Lite xmlns:dc='http://purl.org/dc/elements/1.1/' "
        "xmlns:upnp='urn:schemas-upnp-org:metadata-1-0/upnp/' "
        "xmlns='urn:schemas-upnp-org:metadata-1-0/DIDL-Lite/'>"
        "<item id='' parentID='' restricted='True'><dc:title>"
        f"{stream_title}"
        "</dc:title><upnp:albumArtURI></upnp:albumArtURI>"
        "<upnp:class>object.item</upnp:class></item></DIDL-Lite>"
    )
