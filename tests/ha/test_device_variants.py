"""Devices that lack services: features and state come from what the device has."""

from __future__ import annotations

from collections.abc import AsyncIterator

from homeassistant.components.media_player import (
    ATTR_GROUP_MEMBERS,
    ATTR_INPUT_SOURCE,
    DOMAIN as MP_DOMAIN,
    SERVICE_SELECT_SOURCE,
    MediaPlayerEntityFeature as Feature,
    MediaPlayerState,
)
from homeassistant.const import (
    ATTR_ENTITY_ID,
    SERVICE_MEDIA_PAUSE,
    SERVICE_MEDIA_PLAY,
)
from homeassistant.core import HomeAssistant
import pytest
from pytest_homeassistant_custom_component.typing import WebSocketGenerator

from linn_emulator import LinnEmulator, PlaybackState
from testing.ha.streamers import async_setup_linn
from testing.helpers import wait_for

ENTITY = "media_player.study"
# An older DS: no source-independent Transport, no pins, no radio, no Songcast.
OLD_DS = {"Product", "Volume", "Playlist", "Info", "Time"}


@pytest.fixture
async def old_ds(hass: HomeAssistant) -> AsyncIterator[LinnEmulator]:
    async with LinnEmulator(port=0, room="Study", services=OLD_DS, tick_interval=0.05) as emu:
        entry = await async_setup_linn(hass, emu.udn, emu.port)
        yield emu
        assert await hass.config_entries.async_unload(entry.entry_id)


def features(hass: HomeAssistant) -> Feature:
    return Feature(hass.states.get(ENTITY).attributes["supported_features"])


async def test_without_transport_features_follow_the_source(
    hass: HomeAssistant, old_ds: LinnEmulator
) -> None:
    playlist = features(hass)
    assert Feature.NEXT_TRACK in playlist
    assert Feature.SHUFFLE_SET in playlist
    assert Feature.GROUPING not in playlist
    assert ATTR_GROUP_MEMBERS not in hass.states.get(ENTITY).attributes

    await hass.services.async_call(
        MP_DOMAIN, SERVICE_MEDIA_PLAY, {ATTR_ENTITY_ID: ENTITY}, blocking=True
    )
    assert old_ds.state.transport_state == PlaybackState.PLAYING
    assert [a.service for a in old_ds.actions if a.action == "Play"] == ["Playlist"]
    await wait_for(lambda: hass.states.get(ENTITY).state == MediaPlayerState.PLAYING)
    await hass.services.async_call(
        MP_DOMAIN, SERVICE_MEDIA_PAUSE, {ATTR_ENTITY_ID: ENTITY}, blocking=True
    )
    await wait_for(lambda: hass.states.get(ENTITY).state == MediaPlayerState.PAUSED)

    await hass.services.async_call(
        MP_DOMAIN,
        SERVICE_SELECT_SOURCE,
        {ATTR_ENTITY_ID: ENTITY, ATTR_INPUT_SOURCE: "Turntable"},
        blocking=True,
    )
    await wait_for(lambda: hass.states.get(ENTITY).attributes.get(ATTR_INPUT_SOURCE) == "Turntable")
    # an external input: no transport of its own, the player is simply on
    assert hass.states.get(ENTITY).state == MediaPlayerState.ON
    assert not features(hass) & (Feature.PLAY | Feature.PAUSE | Feature.NEXT_TRACK)


async def test_without_pins_or_radio_the_root_offers_what_exists(
    hass: HomeAssistant, hass_ws_client: WebSocketGenerator, old_ds: LinnEmulator
) -> None:
    client = await hass_ws_client(hass)
    await client.send_json_auto_id({"type": "media_player/browse_media", "entity_id": ENTITY})
    response = await client.receive_json()
    assert response["success"], response
    # no pins, no radio, and media_source is not loaded here
    assert [c["title"] for c in response["result"]["children"]] == ["Sources"]


async def test_search_without_pins_or_radio_finds_sources(
    hass: HomeAssistant, old_ds: LinnEmulator
) -> None:
    result = await hass.services.async_call(
        MP_DOMAIN,
        "search_media",
        {ATTR_ENTITY_ID: ENTITY, "search_query": "turn"},
        blocking=True,
        return_response=True,
    )
    assert [(i.media_content_type, i.title) for i in result[ENTITY].result] == [
        ("linn_source", "Turntable")
    ]
