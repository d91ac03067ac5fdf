"""Issue 19's tools through the Assist API: wake, shuffle, repeat, seek, the play queue,
members asking for the volume limit, and strict schemas on every tool."""

from __future__ import annotations

from typing import Any

from homeassistant.auth.const import GROUP_ID_USER
from homeassistant.auth.models import User
from homeassistant.components import conversation
from homeassistant.core import Context, Event, HomeAssistant
from homeassistant.helpers import chat_session, llm
from homeassistant.setup import async_setup_component
import probatio
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry, MockUser

from custom_components.linn.lpec.list_commands import PLAYLIST_READ_IDS
from custom_components.linn.player.queue import QUEUE_SEARCH_TRACKS
from custom_components.linn.tools.ha_adapter import DATA_GUARD
from custom_components.linn.tools.linn_tools import TOOLS
from custom_components.linn.tools.tool_def import SchemaFacts
from linn_emulator import LinnEmulator
from linn_emulator.model import Track
from testing.ha.assist_api import PLAYER, assist, call
from testing.helpers import wait_for

pytestmark = pytest.mark.usefixtures("llm_ready")


async def _ha_sees(hass: HomeAssistant, check: Any) -> None:
    await wait_for(lambda: check(hass.states.get("media_player.living_room")))


async def test_wake_leaves_standby_and_starts_nothing(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    emulator.panel.set_standby(True)
    await _ha_sees(hass, lambda state: state.state == "off")
    api = await assist(hass, hass_admin_user)
    result = await call(api, "wake", player=PLAYER)
    assert not result.error, result.data
    await wait_for(lambda: emulator.state.standby is False)
    assert emulator.state.source.system_name == "Playlist"  # the source it had
    assert str(emulator.state.transport_state) != "Playing"
    record = hass.data[DATA_GUARD].guard.audit.records[-1]
    assert (record.tool, str(record.outcome), record.arguments) == (
        "wake",
        "allowed",
        {"player": PLAYER},
    )


async def test_shuffle_and_repeat_where_the_source_allows_them(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    api = await assist(hass, hass_admin_user)
    result = await call(api, "set_shuffle", player=PLAYER, shuffle=True)
    assert not result.error, result.data
    result = await call(api, "set_repeat", player=PLAYER, repeat=True)
    assert not result.error, result.data
    await wait_for(lambda: emulator.state.shuffle and emulator.state.repeat)
    await call(api, "set_repeat", player=PLAYER, repeat=False)
    await wait_for(lambda: not emulator.state.repeat)

    emulator.panel.select_source("Radio")  # a live stream: no shuffle, no repeat
    await _ha_sees(hass, lambda state: state.attributes.get("source") == "Radio")
    before = len(emulator.actions)
    refused = await call(api, "set_shuffle", player=PLAYER, shuffle=False)
    assert refused.data == {
        "error": "Invalid argument: this player cannot shuffle what it plays now"
    }
    refused = await call(api, "set_repeat", player=PLAYER, repeat=True)
    assert refused.error
    assert emulator.state.shuffle is True
    assert not {a.action for a in emulator.actions[before:]} & {"SetShuffle", "SetRepeat"}


async def test_seek_back_and_to_a_position_within_the_track(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    emulator.panel.play()
    emulator.panel.pause()
    emulator.panel.seek(100)
    await _ha_sees(hass, lambda state: state.attributes.get("media_position") == 100)
    api = await assist(hass, hass_admin_user)
    result = await call(api, "seek", player=PLAYER, change=-30)
    assert result.data["position_seconds"] == 70, result.data
    await wait_for(lambda: emulator.state.seconds == 70)
    result = await call(api, "seek", player=PLAYER, change=-300)  # back past the start: 0
    await wait_for(lambda: emulator.state.seconds == 0)
    result = await call(api, "seek", player=PLAYER, position=200)
    await wait_for(lambda: emulator.state.seconds == 200)

    duration = emulator.device.now_playing().duration
    refused = [
        await call(api, "seek", player=PLAYER, position=duration + 1),
        await call(api, "seek", player=PLAYER, position=10, change=5),
        await call(api, "seek", player=PLAYER),
        await call(api, "seek", player=PLAYER, change=0),
    ]
    assert [r.data["error"] for r in refused] == [
        f"Invalid argument: position must be 0\u2013{duration} (the track's length)",
        "Invalid argument: give either position or change",
        "Invalid argument: give either position or change",
        "Invalid argument: change must be -86400\u201386400, not 0",
    ]
    emulator.panel.select_source("Radio")
    await _ha_sees(hass, lambda state: state.attributes.get("source") == "Radio")
    before = len(emulator.actions)
    radio = await call(api, "seek", player=PLAYER, change=-30)
    assert radio.data == {"error": "Invalid argument: this player cannot seek in what it plays now"}
    assert not [a for a in emulator.actions[before:] if a.action.startswith("Seek")]


def _add_tracks(emulator: LinnEmulator, titles: list[tuple[str, str]]) -> list[int]:
    ids = []
    after = emulator.state.playlist[-1].id
    for title, artist in titles:
        track = Track(uri=f"http://x/{len(ids)}.flac", title=title, artist=artist, album="Q")
        after = emulator.device.playlist_insert(after, track)
        ids.append(after)
    return ids


async def _in_turn(
    hass: HomeAssistant, user: User, text: str, tool: str, **arguments: Any
) -> list[llm.ToolResult]:
    """The search, then `tool`, in one conversation turn whose user said `text`."""
    assert await async_setup_component(hass, "conversation", {})
    user_input = conversation.ConversationInput(
        text=text,
        context=Context(user_id=user.id),
        conversation_id="queue",
        device_id=None,
        satellite_id=None,
        language="en",
        agent_id="conversation.scripted",
    )
    with (
        chat_session.async_get_chat_session(hass, "queue") as session,
        conversation.async_get_chat_log(hass, session, user_input) as chat_log,
    ):
        await chat_log.async_provide_llm_data(user_input.as_llm_context("test"), llm.LLM_API_ASSIST)
        results = []
        for step, (name, args) in enumerate(
            [("search_music", {"player": PLAYER, "query": "wires"}), (tool, arguments)]
        ):
            call_input = llm.ToolInput(f"linn__{name}", args, id=f"call-{step}")
            content = conversation.AssistantContent(
                agent_id="conversation.scripted", tool_calls=[call_input]
            )
            async for result in chat_log.async_add_assistant_content(content):
                assert isinstance(result, conversation.ToolResultContent)
                results.append(result.result)
    return results[1:]


async def _queue_holds(entry: MockConfigEntry, ids: list[int]) -> None:
    await wait_for(lambda: set(ids) <= set(entry.runtime_data.state.playlist.ids))


async def test_search_finds_queue_tracks_and_play_music_seeks_to_them(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    loaded_entry: MockConfigEntry,
) -> None:
    (wires,) = _add_tracks(emulator, [("Wires", "Athlete")])
    await _queue_holds(loaded_entry, [wires])
    api = await assist(hass, hass_admin_user)
    found = await call(api, "search_music", player=PLAYER, query="wires")
    queue_hits = [r for r in found.data["results"] if r["kind"] == "queue_track"]
    assert queue_hits == [
        {
            "id": queue_hits[0]["id"],
            "kind": "queue_track",
            "match": "title",
            "device_text": {"title": "Wires", "artist": "Athlete", "album": "Q"},
        }
    ]
    queue_before = [entry.id for entry in emulator.state.playlist]
    # the search read device text: play_music runs in a turn whose words ask to play
    (played,) = await _in_turn(
        hass, hass_admin_user, "play Wires", "play_music", player=PLAYER, item=queue_hits[0]["id"]
    )
    assert not played.error, played.data
    await wait_for(lambda: emulator.state.playlist_id == wires)
    assert [entry.id for entry in emulator.state.playlist] == queue_before  # unchanged
    assert "Insert" not in {a.action for a in emulator.actions}

    # by artist and album too, in queue order
    by_artist = await call(api, "search_music", player=PLAYER, query="björk homogenic")
    titles = [r["device_text"]["title"] for r in by_artist.data["results"]]
    assert titles[-3:] == ["Hunter", "Jóga", "Bachelorette"]


async def test_two_equal_queue_hits_are_both_offered(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    loaded_entry: MockConfigEntry,
) -> None:
    await _queue_holds(
        loaded_entry, _add_tracks(emulator, [("Wires", "Athlete"), ("Wires", "The Verve")])
    )
    api = await assist(hass, hass_admin_user)
    found = await call(api, "search_music", player=PLAYER, query="Wires")
    hits = [r for r in found.data["results"] if r["kind"] == "queue_track"]
    assert [(h["match"], h["device_text"]["artist"]) for h in hits] == [
        ("title", "Athlete"),
        ("title", "The Verve"),
    ]
    assert len({h["id"] for h in hits}) == 2


async def test_a_long_queue_is_searched_in_bounded_reads(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    loaded_entry: MockConfigEntry,
) -> None:
    emulator.state.tracks_max = 2000
    emulator.device.playlist_delete_all()
    first = emulator.device.playlist_insert(0, Track(uri="http://x/0", title="Opening"))
    after = first
    for number in range(1, 1200):
        track = Track(uri=f"http://x/{number}", title=f"Track {number}", artist="Band")
        after = emulator.device.playlist_insert(after, track)
    api = await assist(hass, hass_admin_user)
    device = loaded_entry.runtime_data
    await wait_for(lambda: len(device.state.playlist.ids) == 1200)
    emulator.actions.clear()
    found = await call(api, "search_music", player=PLAYER, query="track 1199")
    # the search looks at QUEUE_SEARCH_TRACKS tracks from the current one (the first)
    assert found.data["queue_searched"] == {"tracks": QUEUE_SEARCH_TRACKS, "of": 1200}
    assert not [r for r in found.data["results"] if r["kind"] == "queue_track"]
    reads = [a for a in emulator.actions if a.action == "ReadList" and a.service == "Playlist"]
    assert len(reads) == QUEUE_SEARCH_TRACKS // PLAYLIST_READ_IDS
    # a second search reads nothing again: the titles are kept
    emulator.actions.clear()
    again = await call(api, "search_music", player=PLAYER, query="track 999")
    assert [r["device_text"]["title"] for r in again.data["results"]][:1] == ["Track 999"]
    assert not [a for a in emulator.actions if a.action == "ReadList" and a.service == "Playlist"]


async def test_a_member_asks_for_the_volume_limit_and_an_admin_decides(
    hass: HomeAssistant,
    hass_admin_user: User,
    hass_read_only_user: User,
    emulator: LinnEmulator,
) -> None:
    group = await hass.auth.async_get_group(GROUP_ID_USER)
    member = MockUser(groups=[group]).add_to_hass(hass)
    requested: list[Event] = []
    hass.bus.async_listen("linn_approval_requested", requested.append)

    asked = await call(await assist(hass, member), "set_volume_limit", player=PLAYER, limit=60)
    assert asked.data["error"].startswith("Needs approval: request "), asked.data
    admins_own = await call(
        await assist(hass, hass_admin_user), "set_volume_limit", player=PLAYER, limit=70
    )
    assert admins_own.data["error"].startswith("Needs approval: request "), admins_own.data
    read_only = await call(
        await assist(hass, hass_read_only_user), "set_volume_limit", player=PLAYER, limit=60
    )
    assert read_only.data == {"error": "Denied: you may not control this player"}
    nobody = await assist(hass, None)  # an unidentified caller is not even offered it
    assert "linn__set_volume_limit" not in {tool.name for tool in nobody.tools}
    await hass.async_block_till_done()
    assert len(requested) == 2
    assert emulator.state.volume_limit == 80

    response = await hass.services.async_call(
        "linn",
        "approve",
        {"request_id": asked.data["request_id"]},
        blocking=True,
        return_response=True,
        context=Context(user_id=hass_admin_user.id),
    )
    assert response is not None
    assert response["outcome"] == "approved", response
    await wait_for(lambda: emulator.state.volume_limit == 60)


def _unbounded_strings(schema: Any, path: str = "") -> list[str]:
    """Paths of string schemas with neither maxLength nor enum."""
    found = []
    if isinstance(schema, dict):
        if schema.get("type") == "string" and "maxLength" not in schema and "enum" not in schema:
            found.append(path or "<root>")
        for key, value in schema.items():
            found += _unbounded_strings(value, f"{path}/{key}")
    elif isinstance(schema, list):
        for index, value in enumerate(schema):
            found += _unbounded_strings(value, f"{path}/{index}")
    return found


def test_every_string_in_every_tool_schema_is_bounded() -> None:
    facts = SchemaFacts(("Kitchen", "Living Room"), volume_max=80, limit_max=100, pins=(1,))
    unbounded = {
        tool.name: paths
        for tool in TOOLS
        if (paths := _unbounded_strings(probatio.to_openapi(tool.fields(facts))))
    }
    assert unbounded == {}


def test_the_walk_finds_an_unbounded_string() -> None:
    """The check above can fail: a bare str is found, nested ones too."""
    schema = probatio.to_openapi(
        probatio.Schema({probatio.Required("q"): str, probatio.Optional("l"): [str]})
    )
    assert _unbounded_strings(schema) == ["/properties/q", "/properties/l/items"]


async def test_the_assist_api_offers_every_new_tool(
    hass: HomeAssistant, hass_admin_user: User
) -> None:
    api = await assist(hass, hass_admin_user)
    names = {tool.name for tool in api.tools}
    assert {"linn__wake", "linn__set_shuffle", "linn__set_repeat", "linn__seek"} <= names
    assert isinstance(api, llm.APIInstance)
