"""The lenient XML parser on its own: what firmware sends, and what stays refused."""

from __future__ import annotations

import pytest

from custom_components.linn.lpec.didl import parse_didl, parse_metatext
from custom_components.linn.lpec.xmlsafe import MAX_REPAIR_CHARS, escape_leaf_text, parse_xml


def icy(stream_title: str) -> str:
    """Metatext as ohPipeline's IcyObserverDidlLite builds it (Media/Protocol/Icy.cpp)."""
    return (
        "<DIDL-Lite xmlns:dc='http://purl.org/dc/elements/1.1/' "
        "xmlns:upnp='urn:schemas-upnp-org:metadata-1-0/upnp/' "
        "xmlns='urn:schemas-upnp-org:metadata-1-0/DIDL-Lite/'>"
        f"<item id='' parentID='' restricted='True'><dc:title>{stream_title}"
        "</dc:title><upnp:albumArtURI></upnp:albumArtURI>"
        "<upnp:class>object.item</upnp:class></item></DIDL-Lite>"
    )


@pytest.mark.parametrize(
    "title",
    [
        "Simon & Garfunkel - The Boxer",
        "<3 Love Song - The Band",
        "Jazz <24/7> & Blues",
        "AT&T <b>Live</b> & more",
        "Tom &amp; Jerry",  # already escaped: stays one ampersand
        "R&B; Classics",
    ],
)
def test_icy_stream_titles(title: str) -> None:
    expected = title.replace("&amp;", "&")
    assert parse_metatext(icy(title)) == expected


def test_undeclared_prefixes() -> None:
    metadata = parse_didl(
        "<DIDL-Lite><item><dc:title>Hunter</dc:title><upnp:artist>Björk</upnp:artist>"
        "<upnp:album>Homogenic</upnp:album><upnp:albumArtURI>http://a/b.jpg</upnp:albumArtURI>"
        "<res protocolInfo='http-get:*:audio/x-flac:*' duration='0:04:15'>http://a/1.flac</res>"
        "</item></DIDL-Lite>"
    )
    assert (metadata.title, metadata.artist, metadata.album) == ("Hunter", "Björk", "Homogenic")
    assert metadata.album_art_uri == "http://a/b.jpg"
    assert metadata.uri == "http://a/1.flac"
    assert metadata.duration == 255


@pytest.mark.parametrize(
    "text",
    [
        '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">]><DIDL-Lite><item><dc:title>&a;</dc:title>'
        "</item></DIDL-Lite>",
        '<!DOCTYPE x SYSTEM "http://example.invalid/x.dtd"><DIDL-Lite/>',
        "<DIDL-Lite><item><dc:title>no end",
        "<DIDL-Lite><item><dc:title>" + "&" * MAX_REPAIR_CHARS + "</dc:title></item></DIDL-Lite>",
    ],
    ids=["internal entity", "external DTD", "truncated", "too large to repair"],
)
def test_refused_or_unrecoverable(text: str) -> None:
    assert parse_xml(text, "test") is None
    assert parse_didl(text).title is None


class _CountingFind(str):
    """A str that counts its find() calls."""

    calls = 0

    def find(self, *args: object) -> int:  # type: ignore[override]
        type(self).calls += 1
        return super().find(*args)  # type: ignore[arg-type]


def test_repairing_many_unclosed_elements_scans_once_per_name() -> None:
    """A hostile stream title full of opening tags must not cost a scan per tag."""
    text = _CountingFind("<DIDL-Lite><item>" + "<dc:title>x" * (MAX_REPAIR_CHARS // 11))
    _CountingFind.calls = 0
    escape_leaf_text(text)
    assert _CountingFind.calls == 1
