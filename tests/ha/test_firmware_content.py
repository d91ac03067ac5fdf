"""What Linn firmware puts in values, through Home Assistant against the emulator's default.

Lenient metadata on the entity, empty pin and preset slots in browsing, searching, the
linn.invoke_pin action, play_media and the guarded tools, and source selection on a
device whose Product service predates SetSourceBySystemName.
"""

from __future__ import annotations

from typing import Any

from homeassistant.auth.models import User
from homeassistant.components.media_player import (
    ATTR_INPUT_SOURCE,
    ATTR_MEDIA_CONTENT_ID,
    ATTR_MEDIA_CONTENT_TYPE,
    DOMAIN as MP_DOMAIN,
    SERVICE_PLAY_MEDIA,
    SERVICE_SEARCH_MEDIA,
    SERVICE_SELECT_SOURCE,
    MediaPlayerState,
)
from homeassistant.const import ATTR_ENTITY_ID, STATE_UNAVAILABLE
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
import probatio
import pytest
from pytest_homeassistant_custom_component.typing import WebSocketGenerator

from linn_emulator import LinnEmulator
from testing.ha.assist_api import PLAYER, assist
from testing.ha.streamers import ENTITY_ID, UDN, async_setup_linn
from testing.helpers import wait_for

STATION = "Miles Davis & John Coltrane - 'So What'"


async def call(hass: HomeAssistant, service: str, domain: str = MP_DOMAIN, **data: Any) -> None:
    await hass.services.async_call(
        domain, service, {ATTR_ENTITY_ID: ENTITY_ID, **data}, blocking=True
    )


def attr(hass: HomeAssistant, name: str) -> Any:
    return hass.states.get(ENTITY_ID).attributes.get(name)


# --- lenient metadata -------------------------------------------------------------------


@pytest.mark.usefixtures("loaded_entry")
async def test_icy_metatext_with_a_bare_ampersand_is_the_title(
    hass: HomeAssistant, emulator: LinnEmulator
) -> None:
    await call(
        hass,
        SERVICE_PLAY_MEDIA,
        **{ATTR_MEDIA_CONTENT_TYPE: "linn_preset", ATTR_MEDIA_CONTENT_ID: "4"},
    )
    await wait_for(lambda: attr(hass, "media_title") == STATION)
    assert attr(hass, "media_channel") == "Jazz & Blues <24/7>"
    assert hass.states.get(ENTITY_ID).state == MediaPlayerState.PLAYING


def _channel(emulator: LinnEmulator, didl: str) -> None:
    """Another control point plays a stream with this DIDL-Lite (Radio SetChannel)."""
    emulator.panel.select_source("Radio")
    emulator.device.radio_set_channel("http://radio.example/stream", didl)


@pytest.mark.usefixtures("loaded_entry")
async def test_undeclared_prefixes_and_a_bare_less_than(
    hass: HomeAssistant, emulator: LinnEmulator
) -> None:
    _channel(
        emulator,
        "<DIDL-Lite><item>\n<dc:title>Jazz <24/7> & Blues</dc:title>\n"
        "<upnp:artist>Nina Simone</upnp:artist><upnp:album>Pastel Blues</upnp:album>\n"
        "<upnp:albumArtURI>http://art.example/x.jpg?a=1&b=2</upnp:albumArtURI>"
        "</item></DIDL-Lite>",
    )
    await wait_for(lambda: attr(hass, "media_title") == "Jazz <24/7> & Blues")
    assert attr(hass, "media_artist") == "Nina Simone"
    assert attr(hass, "media_album_name") == "Pastel Blues"
    assert attr(hass, "entity_picture")  # the proxied artwork


@pytest.mark.usefixtures("loaded_entry")
async def test_unrecoverable_metadata_is_no_metadata_and_the_player_stays(
    hass: HomeAssistant, emulator: LinnEmulator
) -> None:
    _channel(emulator, "<DIDL-Lite><item><dc:title>Before</dc:title></item></DIDL-Lite>")
    await wait_for(lambda: attr(hass, "media_title") == "Before")
    _channel(emulator, "<DIDL-Lite><item><dc:title>cut off")
    await wait_for(lambda: attr(hass, "media_title") is None)
    assert hass.states.get(ENTITY_ID).state != STATE_UNAVAILABLE
    emulator.panel.set_volume(33)
    await wait_for(lambda: attr(hass, "volume_level") == 0.33)


# --- empty slots --------------------------------------------------------------------------


async def _ws(hass_ws_client: WebSocketGenerator, hass: HomeAssistant, message: dict) -> Any:
    client = await hass_ws_client(hass)
    await client.send_json_auto_id({"entity_id": ENTITY_ID, **message})
    response = await client.receive_json()
    assert response["success"], response
    return response["result"]


@pytest.mark.usefixtures("loaded_entry")
async def test_empty_slots_are_never_browsed_or_found(
    hass: HomeAssistant, hass_ws_client: WebSocketGenerator, emulator: LinnEmulator
) -> None:
    directory = {"type": "media_player/browse_media", "media_content_type": "linn_directory"}
    pins = await _ws(hass_ws_client, hass, {**directory, "media_content_id": "pins"})
    assert [child["media_content_id"] for child in pins["children"]] == ["1", "2", "3", "4"]
    presets = await _ws(hass_ws_client, hass, {**directory, "media_content_id": "presets"})
    # 100 slots, 4 stored; the ChannelList has no <Uri>, so each plays its DIDL <res>.
    assert [child["media_content_id"] for child in presets["children"]] == ["1", "2", "3", "4"]
    assert all(child["can_play"] for child in presets["children"])
    found = await hass.services.async_call(
        MP_DOMAIN,
        SERVICE_SEARCH_MEDIA,
        {ATTR_ENTITY_ID: ENTITY_ID, "search_query": "", "media_content_id": "root"},
        blocking=True,
        return_response=True,
    )
    ids = {(item.media_content_type, item.media_content_id) for item in found[ENTITY_ID].result}
    assert ("linn_pin", "0") not in ids
    assert ("linn_preset", "0") not in ids
    assert {i for t, i in ids if t == "linn_preset"} == {"1", "2", "3", "4"}


@pytest.mark.parametrize(
    ("service", "domain", "data"),
    [
        ("invoke_pin", "linn", {"pin": 5}),  # an empty slot
        (
            SERVICE_PLAY_MEDIA,
            MP_DOMAIN,
            {ATTR_MEDIA_CONTENT_TYPE: "linn_pin", ATTR_MEDIA_CONTENT_ID: "0"},
        ),
        (
            SERVICE_PLAY_MEDIA,
            MP_DOMAIN,
            {ATTR_MEDIA_CONTENT_TYPE: "linn_preset", ATTR_MEDIA_CONTENT_ID: "0"},
        ),
    ],
    ids=["invoke_pin 5", "play_media pin 0", "play_media preset 0"],
)
@pytest.mark.usefixtures("loaded_entry")
async def test_an_empty_slot_is_refused_and_changes_nothing(
    hass: HomeAssistant, emulator: LinnEmulator, service: str, domain: str, data: dict[str, Any]
) -> None:
    before = len(emulator.actions)
    source = emulator.state.source_index
    with pytest.raises(ServiceValidationError) as err:
        await call(hass, service, domain=domain, **data)
    assert err.value.translation_domain == "linn"
    assert err.value.translation_key == "invalid_argument"
    assert "empty" in str(err.value.translation_placeholders)
    assert emulator.state.source_index == source
    assert [a.action for a in emulator.actions[before:] if a.action != "Standby"] == []


@pytest.mark.usefixtures("llm_ready")
async def test_guarded_tools_offer_no_empty_slot(
    hass: HomeAssistant, hass_admin_user: User
) -> None:
    api = await assist(hass, hass_admin_user)
    tools = {tool.name: probatio.to_openapi(tool.parameters) for tool in api.tools}
    assert tools["linn__play_pin"]["properties"]["pin"]["enum"] == [1, 2, 3, 4]
    assert tools["linn__play_radio_preset"]["properties"]["preset"]["enum"] == [1, 2, 3, 4]
    assert PLAYER in tools["linn__play_pin"]["properties"]["player"]["enum"]


# --- service versions ---------------------------------------------------------------------


@pytest.mark.parametrize("product_version", [1, 4])
async def test_select_source_on_every_product_version(
    hass: HomeAssistant, product_version: int
) -> None:
    async with LinnEmulator(port=0, udn=UDN, product_version=product_version) as emulator:
        entry = await async_setup_linn(hass, UDN, emulator.port, "Living Room")
        for name, system_name in (("Radio", "Radio"), ("Playlist", "Playlist"), ("TV", "HDMI")):
            await call(hass, SERVICE_SELECT_SOURCE, **{ATTR_INPUT_SOURCE: name})
            assert emulator.state.source.system_name == system_name
            await wait_for(lambda n=name: attr(hass, ATTR_INPUT_SOURCE) == n)
        sent = {(a.action, a.version) for a in emulator.actions if a.service == "Product"}
        assert ("SetSourceBySystemName", 2) in sent
        assert ("SetSourceBySystemName", 1) not in sent
        assert hass.states.get(ENTITY_ID).state != STATE_UNAVAILABLE
        assert await hass.config_entries.async_unload(entry.entry_id)
