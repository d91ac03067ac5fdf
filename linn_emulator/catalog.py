"""Realistic content: sources, albums (with accents, quotes and ampersands), radio, pins."""

from __future__ import annotations

from typing import Any

from .model import Pin, RadioChannel, Source, SourceType, Track

MEDIA = "http://192.168.1.50:9000/kazoo"
ART = "http://192.168.1.50:9000/kazoo/artwork"


def default_sources() -> list[Source]:
    """Source list of a Selekt DSM; index 4 is hidden, so indices differ from the visible order."""
    return [
        Source("Playlist", SourceType.PLAYLIST, "Playlist"),
        Source("Radio", SourceType.RADIO, "Radio"),
        Source("Songcast", SourceType.RECEIVER, "Songcast"),
        Source("Spotify", SourceType.SPOTIFY, "Spotify"),
        Source("Digital 1", SourceType.DIGITAL, "Digital 1", visible=False),
        Source("Analog 1", SourceType.ANALOG, "Turntable"),
        Source("HDMI", SourceType.HDMI, "TV"),
    ]


def _album(
    slug: str,
    artist: str,
    album: str,
    tracks: list[tuple[str, int]],
    *,
    bit_depth: int = 16,
    sample_rate: int = 44100,
    genre: str = "",
) -> list[Track]:
    return [
        Track(
            uri=f"{MEDIA}/{slug}/{number:02d}.flac",
            title=title,
            artist=artist,
            album=album,
            art_uri=f"{ART}/{slug}.jpg",
            duration=duration,
            bit_depth=bit_depth,
            sample_rate=sample_rate,
            bitrate=bit_depth * sample_rate * 2,
            codec="FLAC",
            lossless=True,
            track_number=number,
            genre=genre,
        )
        for number, (title, duration) in enumerate(tracks, start=1)
    ]


def album_homogenic() -> list[Track]:
    """Björk, Homogenic (24/96)."""
    return _album(
        "homogenic",
        "Björk",
        "Homogenic",
        [("Hunter", 255), ("Jóga", 305), ("Bachelorette", 312)],
        bit_depth=24,
        sample_rate=96000,
        genre="Electronic",
    )


def album_re() -> list[Track]:
    """Café Tacvba, Re."""
    return _album(
        "re",
        "Café Tacvba",
        "Re",
        [("El aparato", 210), ("La ingrata", 212), ("El baile y el salón", 235)],
        genre="Rock en español",
    )


def album_bridge() -> list[Track]:
    """Simon & Garfunkel: an ampersand in the artist."""
    return _album(
        "bridge",
        "Simon & Garfunkel",
        "Bridge Over Troubled Water",
        [("Bridge Over Troubled Water", 292), ("The Boxer", 308), ("Cecilia", 175)],
    )


def album_heroes() -> list[Track]:
    """David Bowie, "Heroes": quotes in album and title."""
    return _album(
        "heroes",
        "David Bowie",
        '"Heroes"',
        [('"Heroes"', 367), ("Sons of the Silent Age", 195)],
    )


def default_playlist() -> list[Track]:
    """Build the playlist a fresh emulator starts with."""
    return [*album_homogenic(), *album_re(), *album_bridge(), *album_heroes()]


def _station(  # noqa: PLR0917
    preset: int, title: str, uri: str, art: str, metatext: str, codec: str, bitrate: int
) -> RadioChannel:
    track = Track(
        uri=uri,
        title=title,
        art_uri=art,
        codec=codec,
        bitrate=bitrate,
        lossless=codec == "FLAC",
        upnp_class="object.item.audioItem.audioBroadcast",
    )
    return RadioChannel(id=preset, track=track, metatext=metatext)


def default_radio() -> list[RadioChannel]:
    """Radio presets (TuneIn-style URIs and artwork)."""
    tune = "http://opml.radiotime.com/Tune.ashx?formats=mp3,aac,ogg,hls&partnerId=ah2rjr68&id="
    logo = "http://cdn-profiles.tunein.com"
    return [
        _station(
            1,
            "BBC Radio 3",
            f"{tune}s24941",
            f"{logo}/s24941/images/logoq.png",
            "Bach - Goldberg Variations, BWV 988: Aria",
            "AAC",
            320000,
        ),
        _station(
            2,
            "Radio Paradise (FLAC)",
            "http://stream.radioparadise.com/flac",
            f"{logo}/s13606/images/logoq.png",
            "Björk - Jóga",
            "FLAC",
            1411200,
        ),
        _station(
            3,
            "FIP",
            f"{tune}s15200",
            f"{logo}/s15200/images/logoq.png",
            'Café Tacvba - "La ingrata"',
            "AAC",
            192000,
        ),
        _station(
            4,
            "Jazz & Blues <24/7>",
            f"{tune}s99999&amp=1",
            f"{logo}/s99999/images/logoq.png",
            "Miles Davis & John Coltrane - 'So What'",
            "MP3",
            128000,
        ),
    ]


PIN_ALBUM = "playlist://album/re"


def default_pins() -> list[Pin]:
    """Six pins: radio, an album, an input, another station, two empty ones."""
    radio = default_radio()
    return [
        Pin(
            1,
            mode="radio",
            type="preset",
            uri="radio://preset/1",
            title=radio[0].track.title,
            description="Classical radio",
            artwork_uri=radio[0].track.art_uri,
        ),
        Pin(
            2,
            mode="playlist",
            type="album",
            uri=PIN_ALBUM,
            title="Re",
            description="Café Tacvba",
            artwork_uri=f"{ART}/re.jpg",
            shuffle=False,
        ),
        Pin(
            3,
            mode="source",
            type="source",
            uri="source://Analog 1",
            title="Turntable",
            description="Analog 1",
        ),
        Pin(
            4,
            mode="radio",
            type="preset",
            uri="radio://preset/3",
            title=radio[2].track.title,
            description="Radio France",
            artwork_uri=radio[2].track.art_uri,
        ),
        Pin(5),
        Pin(6),
    ]


def pin_album_tracks(uri: str) -> list[Track] | None:
    """Tracks an album pin loads."""
    if uri == PIN_ALBUM:
        return album_re()
    return None


def spotify_track() -> Track:
    """Return what Spotify Connect plays when the Spotify source is started."""
    return Track(
        uri="spotify:track:3n3Ppam7vgaVa1iaRUc9Lp",
        title="Mr. Brightside",
        artist="The Killers",
        album="Hot Fuss",
        art_uri="https://i.scdn.co/image/ab67616d0000b273ccdddd46119a4ff53eaf1f5d",
        duration=222,
        codec="OGG",
        bitrate=320000,
        lossless=False,
    )


def software_status(model: str) -> dict[str, Any]:
    """Linn Update SoftwareStatus: the shape the HA openhome update entity reads."""
    return {
        "status": "update_available",
        "current_software": {"version": "4.137.1020", "topic": "main", "channel": "release"},
        "update_info": {
            "legal": {
                "licenseurl": "http://products.linn.co.uk/VersionInfo/licenseV2.txt",
                "privacyurl": "https://www.linn.co.uk/privacy",
            },
            "releasenotesuri": "http://docs.linn.co.uk/wiki/index.php/ReleaseNotes",
            "updates": [
                {
                    "channel": "release",
                    "date": "14 Nov 2026 10:12:31",
                    "description": "Release build version 4.141.1102 (14 Nov 2026 10:12:31)",
                    "product": f"Linn {model}",
                    "version": "4.141.1102",
                }
            ],
        },
    }
