"""Browsing and searching pins, presets, sources and Home Assistant media."""

from __future__ import annotations

from pathlib import Path

from homeassistant.components.media_player import (
    ATTR_MEDIA_CONTENT_ID,
    ATTR_MEDIA_CONTENT_TYPE,
    DOMAIN as MP_DOMAIN,
    SERVICE_PLAY_MEDIA,
    SERVICE_SEARCH_MEDIA,
)
from homeassistant.const import ATTR_ENTITY_ID
from homeassistant.core import HomeAssistant
from homeassistant.core_config import async_process_ha_core_config
from homeassistant.setup import async_setup_component
import pytest
from pytest_homeassistant_custom_component.typing import WebSocketGenerator

from linn_emulator import LinnEmulator
from testing.ha.streamers import ENTITY_ID

pytestmark = pytest.mark.usefixtures("loaded_entry")


@pytest.fixture
async def media_dir(hass: HomeAssistant, tmp_path: Path) -> Path:
    """A local media folder with one FLAC file, served by media_source."""
    (tmp_path / "Jóga (live).flac").write_bytes(b"fLaC")
    (tmp_path / "holiday.jpg").write_bytes(b"\xff\xd8")
    hass.config.media_dirs = {"local": str(tmp_path)}
    assert await async_setup_component(hass, "media_source", {})
    await hass.async_block_till_done()
    return tmp_path


async def browse(
    hass_ws_client: WebSocketGenerator, hass: HomeAssistant, content_id: str | None = None
) -> dict:
    client = await hass_ws_client(hass)
    message: dict = {"type": "media_player/browse_media", "entity_id": ENTITY_ID}
    if content_id is not None:
        message |= {"media_content_id": content_id, "media_content_type": "linn_directory"}
    await client.send_json_auto_id(message)
    response = await client.receive_json()
    assert response["success"], response
    return response["result"]


async def test_root_lists_the_four_kinds(
    hass: HomeAssistant, hass_ws_client: WebSocketGenerator, media_dir: Path
) -> None:
    root = await browse(hass_ws_client, hass)
    titles = [child["title"] for child in root["children"]]
    assert titles == ["Pins", "Radio presets", "Sources", "Media"]


async def ws_search(
    hass_ws_client: WebSocketGenerator, hass: HomeAssistant, within: str, query: str
) -> dict:
    """Search as HA's media browser does from the directory being shown."""
    client = await hass_ws_client(hass)
    await client.send_json_auto_id(
        {
            "type": "media_player/search_media",
            "entity_id": ENTITY_ID,
            "media_content_type": "linn_directory",
            "media_content_id": within,
            "search_query": query,
        }
    )
    return await client.receive_json()


async def test_own_directories_offer_search_media_sources_speak_for_themselves(
    hass: HomeAssistant, hass_ws_client: WebSocketGenerator, media_dir: Path
) -> None:
    root = await browse(hass_ws_client, hass)
    assert root["can_search"] is True
    assert {child["title"]: child["can_search"] for child in root["children"]} == {
        "Pins": True,
        "Radio presets": True,
        "Sources": True,
        "Media": False,  # opened, media_source's own root answers for itself
    }
    for content_id in ("pins", "presets", "sources"):
        assert (await browse(hass_ws_client, hass, content_id))["can_search"] is True


@pytest.mark.parametrize(
    ("within", "expected"),
    [
        ("root", ["BBC Radio 3", "BBC Radio 3", "Radio Paradise (FLAC)", "Radio"]),
        ("pins", ["BBC Radio 3"]),
        ("presets", ["BBC Radio 3", "Radio Paradise (FLAC)"]),
        ("sources", ["Radio"]),
    ],
)
async def test_search_keeps_to_the_directory_it_was_started_in(
    hass: HomeAssistant, hass_ws_client: WebSocketGenerator, within: str, expected: list[str]
) -> None:
    response = await ws_search(hass_ws_client, hass, within, "radio")
    assert response["success"], response
    assert [item["title"] for item in response["result"]["result"]] == expected


async def test_search_in_an_unknown_directory_is_a_clear_error(
    hass: HomeAssistant, hass_ws_client: WebSocketGenerator
) -> None:
    response = await ws_search(hass_ws_client, hass, "nonsense", "radio")
    assert response["success"] is False
    assert "nonsense is not a folder of this streamer" in response["error"]["message"]


async def test_pins_are_playable_with_artwork(
    hass: HomeAssistant, hass_ws_client: WebSocketGenerator, emulator: LinnEmulator
) -> None:
    pins = await browse(hass_ws_client, hass, "pins")
    assert [pin["title"] for pin in pins["children"]] == [
        "BBC Radio 3",
        "Re",
        "Turntable",
        "FIP",
    ]  # empty pins 5 and 6 are not offered
    first = pins["children"][0]
    assert first["can_play"] is True
    assert first["media_content_type"] == "linn_pin"
    assert first["thumbnail"].endswith("/s24941/images/logoq.png")

    await hass.services.async_call(
        MP_DOMAIN,
        SERVICE_PLAY_MEDIA,
        {
            ATTR_ENTITY_ID: ENTITY_ID,
            ATTR_MEDIA_CONTENT_TYPE: first["media_content_type"],
            ATTR_MEDIA_CONTENT_ID: first["media_content_id"],
        },
        blocking=True,
    )
    assert emulator.state.radio_id == 1


async def test_presets_and_sources(hass: HomeAssistant, hass_ws_client: WebSocketGenerator) -> None:
    presets = await browse(hass_ws_client, hass, "presets")
    assert [p["title"] for p in presets["children"]] == [
        "BBC Radio 3",
        "Radio Paradise (FLAC)",
        "FIP",
        "Jazz & Blues <24/7>",
    ]
    sources = await browse(hass_ws_client, hass, "sources")
    assert "TV" in [s["title"] for s in sources["children"]]
    assert "Digital 1" not in [s["title"] for s in sources["children"]]


async def test_ha_media_is_browsable_audio_only(
    hass: HomeAssistant, hass_ws_client: WebSocketGenerator, media_dir: Path
) -> None:
    local = await browse(hass_ws_client, hass, "media-source://media_source/local/.")
    titles = [child["title"] for child in local["children"]]
    assert "Jóga (live).flac" in titles
    assert "holiday.jpg" not in titles


async def search(hass: HomeAssistant, query: str, **extra: object) -> list[tuple[str, str]]:
    """The media player's search_media action: (content type, title) of each item found."""
    result = await hass.services.async_call(
        MP_DOMAIN,
        SERVICE_SEARCH_MEDIA,
        {ATTR_ENTITY_ID: ENTITY_ID, "search_query": query, **extra},
        blocking=True,
        return_response=True,
    )
    return [(item.media_content_type, item.title) for item in result[ENTITY_ID].result]


async def test_search_covers_device_and_ha_media(hass: HomeAssistant, media_dir: Path) -> None:
    assert await search(hass, "radio") == [
        ("linn_pin", "BBC Radio 3"),
        ("linn_preset", "BBC Radio 3"),
        ("linn_preset", "Radio Paradise (FLAC)"),
        ("linn_source", "Radio"),
    ]

    assert [title for _, title in await search(hass, "jóga")] == ["Jóga (live).flac"]


async def test_unknown_browse_id_is_an_error(
    hass: HomeAssistant, hass_ws_client: WebSocketGenerator
) -> None:
    client = await hass_ws_client(hass)
    await client.send_json_auto_id(
        {
            "type": "media_player/browse_media",
            "entity_id": ENTITY_ID,
            "media_content_id": "nonsense",
            "media_content_type": "linn_directory",
        }
    )
    response = await client.receive_json()
    assert response["success"] is False


async def test_play_ha_media_resolves_and_signs_the_url(
    hass: HomeAssistant, emulator: LinnEmulator, media_dir: Path
) -> None:
    await async_process_ha_core_config(hass, {"internal_url": "http://192.0.2.20:8123"})
    await hass.services.async_call(
        MP_DOMAIN,
        SERVICE_PLAY_MEDIA,
        {
            ATTR_ENTITY_ID: ENTITY_ID,
            ATTR_MEDIA_CONTENT_TYPE: "music",
            ATTR_MEDIA_CONTENT_ID: "media-source://media_source/local/Jóga (live).flac",
        },
        blocking=True,
    )
    current = next(e for e in emulator.state.playlist if e.id == emulator.state.playlist_id)
    # an absolute URL the streamer can fetch, with Home Assistant's signature
    assert current.track.uri.startswith("http://192.0.2.20:8123/media/local/")
    assert "authSig=" in current.track.uri


async def test_search_filters_by_class_and_within_a_media_source(
    hass: HomeAssistant, media_dir: Path
) -> None:
    found = await search(hass, "radio", media_filter_classes=["channel"])
    assert found == [("linn_preset", "BBC Radio 3"), ("linn_preset", "Radio Paradise (FLAC)")]

    found = await search(hass, "live", media_content_id="media-source://media_source/local/.")
    assert [title for _, title in found] == ["Jóga (live).flac"]


async def test_search_skips_media_sources_that_cannot_search(
    hass: HomeAssistant, media_dir: Path
) -> None:
    # the camera media source cannot search; the local one still answers
    assert await async_setup_component(hass, "camera", {})
    assert [title for _, title in await search(hass, "jóga")] == ["Jóga (live).flac"]
