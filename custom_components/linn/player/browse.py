"""Browsing and searching: pins, radio presets, sources and Home Assistant media.

Each directory of ours says `can_search`: HA's media browser then shows a search box
there and sends the search to this player, and the LLM search tool may search inside
it; async_search keeps to the directory. Inside Home Assistant's media the browser
asks media_source itself.
"""

from __future__ import annotations

from homeassistant.components import media_source
from homeassistant.components.media_player import (
    BrowseError,
    BrowseMedia,
    MediaClass,
    MediaType,
    SearchError,
    SearchMedia,
    SearchMediaQuery,
)
from homeassistant.core import HomeAssistant

from ..const import DOMAIN, MEDIA_TYPE_PIN, MEDIA_TYPE_PRESET, MEDIA_TYPE_SOURCE
from ..lpec import LinnDevice, Service, SourceType

ROOT = "root"
PINS = "pins"
PRESETS = "presets"
SOURCES = "sources"
DIRECTORY_TYPE = "linn_directory"


def _directory(
    content_id: str,
    title: str,
    children: list[BrowseMedia] | None = None,
    *,
    can_search: bool = True,
) -> BrowseMedia:
    return BrowseMedia(
        media_class=MediaClass.DIRECTORY,
        media_content_id=content_id,
        media_content_type=DIRECTORY_TYPE,
        title=title,
        can_play=False,
        can_expand=True,
        children=children,
        children_media_class=MediaClass.DIRECTORY if content_id == ROOT else None,
        can_search=can_search,
    )


def _playable(
    media_class: MediaClass,
    content_type: str,
    content_id: str,
    title: str,
    thumbnail: str | None = None,
) -> BrowseMedia:
    """One of the device's own items: played as it is, never opened."""
    return BrowseMedia(
        media_class=media_class,
        media_content_id=content_id,
        media_content_type=content_type,
        title=title,
        can_play=True,
        can_expand=False,
        thumbnail=thumbnail,
    )


def _is_media_source_root(content_id: str) -> bool:
    return content_id.rstrip("/") == media_source.URI_SCHEME.rstrip("/")


async def _pins(device: LinnDevice) -> list[BrowseMedia]:
    if not device.state.has_pins:
        return []
    pins = await device.read_pins()
    return [
        _playable(MediaClass.PLAYLIST, MEDIA_TYPE_PIN, str(pin.id), pin.title, pin.artwork_uri)
        for pin in pins
        if pin.title
    ]


async def _presets(device: LinnDevice) -> list[BrowseMedia]:
    if Service.RADIO not in device.state.services:
        return []
    presets = await device.read_presets()
    return [
        _playable(
            MediaClass.CHANNEL,
            MEDIA_TYPE_PRESET,
            str(preset.id),
            preset.title or f"Preset {preset.id}",
            preset.metadata.album_art_uri,
        )
        for preset in presets
        if preset.uri
    ]


def _sources(device: LinnDevice) -> list[BrowseMedia]:
    return [
        _playable(
            MediaClass.DIRECTORY if source.kind is SourceType.PLAYLIST else MediaClass.MUSIC,
            MEDIA_TYPE_SOURCE,
            source.system_name,
            source.name,
        )
        for source in device.state.product.visible_sources
    ]


def _is_audio(item: BrowseMedia) -> bool:
    return item.media_content_type.startswith("audio/") or item.media_class in (
        MediaClass.DIRECTORY,
        MediaClass.APP,
        MediaClass.MUSIC,
        MediaClass.PODCAST,
        MediaClass.ALBUM,
        MediaClass.ARTIST,
        MediaClass.PLAYLIST,
        MediaClass.TRACK,
        MediaClass.CHANNEL,
    )


async def async_browse(
    hass: HomeAssistant,
    device: LinnDevice,
    media_content_type: MediaType | str | None,
    media_content_id: str | None,
) -> BrowseMedia:
    """Browse the device's own lists, or Home Assistant's media sources."""
    if media_content_id and media_source.is_media_source_id(media_content_id):
        return await media_source.async_browse_media(
            hass, media_content_id, content_filter=_is_audio
        )
    match media_content_id:
        case None | "" | "root":
            children: list[BrowseMedia] = []
            if device.state.has_pins:
                children.append(_directory(PINS, "Pins"))
            if Service.RADIO in device.state.services:
                children.append(_directory(PRESETS, "Radio presets"))
            children.append(_directory(SOURCES, "Sources"))
            if media_source.DOMAIN in hass.config.components:
                # Opened, it is media_source's own root, which says whether it can search.
                children.append(_directory(media_source.URI_SCHEME, "Media", can_search=False))
            return _directory(ROOT, device.state.product.room or "Linn", children)
        case "pins":
            return _directory(PINS, "Pins", await _pins(device))
        case "presets":
            return _directory(PRESETS, "Radio presets", await _presets(device))
        case "sources":
            return _directory(SOURCES, "Sources", _sources(device))
    raise BrowseError(
        translation_domain=DOMAIN,
        translation_key="unknown_media_content_id",
        translation_placeholders={"media_content_id": str(media_content_id)},
    )


async def _search_media_sources(
    hass: HomeAssistant, query: SearchMediaQuery, within: str | None
) -> list[BrowseMedia]:
    """Search one media source, or each one that can search (the root cannot)."""
    if within and not _is_media_source_root(within):
        targets = [within]
    else:
        try:
            root = await media_source.async_browse_media(hass, None)
        except BrowseError:  # media_source is not loaded
            return []
        if _is_media_source_root(root.media_content_id):
            targets = [child.media_content_id for child in root.children or []]
        else:  # with a single media source, the root opens straight into it
            targets = [root.media_content_id]
    found: list[BrowseMedia] = []
    for target in targets:
        try:
            found.extend((await media_source.async_search_media(hass, target, query)).result)
        except BrowseError:
            continue  # this source does not support search
    return found


def _matches(item: BrowseMedia, words: list[str]) -> bool:
    title = item.title.casefold()
    return all(word in title for word in words)


async def async_search(
    hass: HomeAssistant, device: LinnDevice, query: SearchMediaQuery
) -> SearchMedia:
    """Case-insensitive word match within the browsed directory (everything at the root)."""
    words = query.search_query.casefold().split()
    within = query.media_content_id
    candidates: list[BrowseMedia] = []
    media: list[BrowseMedia] = []
    match within:
        case None | "" | "root":
            candidates = [*await _pins(device), *await _presets(device), *_sources(device)]
            media = await _search_media_sources(hass, query, None)
        case "pins":
            candidates = await _pins(device)
        case "presets":
            candidates = await _presets(device)
        case "sources":
            candidates = _sources(device)
        case _ if media_source.is_media_source_id(within):
            media = await _search_media_sources(hass, query, within)
        case _:
            raise SearchError(
                translation_domain=DOMAIN,
                translation_key="unknown_media_content_id",
                translation_placeholders={"media_content_id": within},
            )
    results = [item for item in candidates if _matches(item, words)]
    results.extend(item for item in media if _is_audio(item))
    if query.media_filter_classes:
        results = [item for item in results if item.media_class in query.media_filter_classes]
    return SearchMedia(result=results)
