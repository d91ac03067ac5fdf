"""Searching the current Playlist (the play queue) by title, artist and album, bounded.

A queue can hold thousands of tracks (TracksMax; ohPipeline's ReadList takes any number of
ids). A search looks at no more than QUEUE_SEARCH_TRACKS of them: the current track and the
ones after it, wrapping round to the start, so a queue of 1,000+ tracks is cut at a known
place. Titles are read with Playlist ReadList, PLAYLIST_READ_IDS ids a request, and kept per
device for the ids the queue still holds, so a later search reads only the tracks added
since. The kept texts are cleaned and capped (QUEUE_TEXT_CHARS), and they are dropped when the
device becomes unavailable: after a reboot the device numbers its tracks afresh.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal
import weakref

from ..guard.untrusted import clean_text
from ..lpec import LinnDevice, Service

QUEUE_SEARCH_TRACKS = 1000
"""Tracks one search looks at, from the current one on (wrapping)."""
QUEUE_HITS = 10
"""Hits one search returns at most."""
QUEUE_TEXT_CHARS = 100
MEDIA_TYPE_QUEUE = "linn_queue_track"
"""A search hit's media type: the content id is the track's Playlist id."""


@dataclass(frozen=True, slots=True)
class QueueTrack:
    """One queue track's texts (device text, cleaned and capped)."""

    title: str
    artist: str
    album: str


@dataclass(frozen=True, slots=True)
class QueueHit:
    """A queue track that matches, and how well."""

    track_id: int
    track: QueueTrack
    match: Literal["title", "words"]
    """title: the query is the whole title; words: every word is in title, artist or album."""


@dataclass(frozen=True, slots=True)
class QueueSearch:
    """What one search found, and how much of the queue it looked at."""

    hits: tuple[QueueHit, ...]
    searched: int
    queue_length: int


_known: weakref.WeakKeyDictionary[LinnDevice, dict[int, QueueTrack]] = weakref.WeakKeyDictionary()


def _window(ids: tuple[int, ...], current: int | None) -> list[int]:
    """Up to QUEUE_SEARCH_TRACKS ids from the current track on, wrapping round."""
    start = ids.index(current) if current in ids else 0
    ordered = ids[start:] + ids[:start]
    return list(ordered[:QUEUE_SEARCH_TRACKS])


def _tracks(device: LinnDevice) -> dict[int, QueueTrack]:
    known = _known.get(device)
    if known is None:
        known = _known[device] = {}

        def forget(available: bool) -> None:
            if not available:
                known.clear()

        device.add_availability_listener(forget)
    return known


def _text(value: str | None) -> str:
    return clean_text(value, QUEUE_TEXT_CHARS) or ""


async def async_search_queue(device: LinnDevice, query: str) -> QueueSearch:
    """Queue tracks whose title, artist and album hold every word of the query."""
    playlist = device.state.playlist
    if Service.PLAYLIST not in device.state.services or not playlist.ids:
        return QueueSearch((), 0, 0)
    window = _window(playlist.ids, playlist.current_id)
    known = _tracks(device)
    for gone in set(known) - set(playlist.ids):
        del known[gone]
    missing = [track_id for track_id in window if track_id not in known]
    if missing:
        for track_id, metadata in (await device.read_playlist(missing)).items():
            known[track_id] = QueueTrack(
                _text(metadata.title), _text(metadata.artist), _text(metadata.album)
            )
    wanted = " ".join(query.casefold().split())
    words = wanted.split()
    hits: list[QueueHit] = []
    for track_id in window:
        track = known.get(track_id)
        if track is None or not words:
            continue
        title = track.title.casefold()
        if " ".join(title.split()) == wanted:
            hits.append(QueueHit(track_id, track, "title"))
        elif all(word in f"{title} {track.artist} {track.album}".casefold() for word in words):
            hits.append(QueueHit(track_id, track, "words"))
    hits.sort(key=lambda hit: hit.match != "title")  # stable: queue order within each
    return QueueSearch(tuple(hits[:QUEUE_HITS]), len(window), len(playlist.ids))
