"""Any Home Assistant agent can find and play Linn media through the built-in Assist tools."""

from __future__ import annotations

from typing import Any

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import llm
import pytest

from linn_emulator import LinnEmulator
from testing.ha.assist_api import assist, async_setup_llm

pytestmark = pytest.mark.usefixtures("loaded_entry")


async def _first_found(api: llm.APIInstance, query: str) -> dict[str, Any]:
    """The first result of Assist's search_media on the living room (the search succeeds)."""
    found = await api.async_call_tool(
        llm.ToolInput(
            "media_player__search_media",
            {"search_query": query, "player_name": "Living Room"},
        )
    )
    assert not found.error, found.data
    return dict(found.data["results"][0])


async def _play(api: llm.APIInstance, item: dict[str, Any]) -> Any:
    """Assist's play_media of a search result on the living room."""
    return await api.async_call_tool(
        llm.ToolInput(
            "media_player__play_media",
            {
                "media_content_id": item["media_content_id"],
                "media_content_type": item["media_content_type"],
                "player_name": "Living Room",
            },
        )
    )


async def test_search_then_play_through_the_assist_api(
    hass: HomeAssistant, emulator: LinnEmulator, hass_admin_user: User
) -> None:
    await async_setup_llm(hass)
    api = await assist(hass, hass_admin_user)
    names = {tool.name for tool in api.tools}
    # offered only because the player supports both SEARCH_MEDIA and PLAY_MEDIA
    assert {"media_player__search_media", "media_player__play_media"} <= names

    first = await _first_found(api, "paradise")
    assert first["title"] == "Radio Paradise (FLAC)"

    played = await _play(api, first)
    assert not played.error, played.data
    assert emulator.state.sources[emulator.state.source_index].system_name == "Radio"
    assert emulator.state.radio_id == 2


async def test_a_client_without_a_user_may_search_but_not_play(
    hass: HomeAssistant, emulator: LinnEmulator
) -> None:
    """An Assist API built with no chat log and no user (a client without a user): its
    play_media reaches the player's gate, which lets an unidentified caller only read."""
    await async_setup_llm(hass)
    api = await assist(hass, None)
    first = await _first_found(api, "paradise")
    with pytest.raises(HomeAssistantError, match="cannot tell who asked"):
        await _play(api, first)
    assert emulator.state.sources[emulator.state.source_index].system_name != "Radio"
