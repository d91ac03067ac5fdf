"""Every Linn tool through the Assist API, as any agent calls it, checked on the device."""

from __future__ import annotations

from dataclasses import replace

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm
import pytest

from custom_components.linn.guard import Outcome
from custom_components.linn.tools.ha_adapter import DATA_GUARD
from linn_emulator import LinnEmulator, PlaybackState
from testing.ha.assist_api import PLAYER, assist, call, call_tool
from testing.ha.streamers import ENTITY_ID
from testing.helpers import wait_for

KITCHEN_ID = "media_player.kitchen"


pytestmark = pytest.mark.usefixtures("llm_ready")


def source_of(emulator: LinnEmulator) -> str:
    return emulator.state.sources[emulator.state.source_index].system_name


async def test_play_pin_and_radio_preset(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    api = await assist(hass, hass_admin_user)
    assert not (await call(api, "play_pin", player=PLAYER, pin=3)).error
    await wait_for(lambda: source_of(emulator) == "Analog 1")
    assert not (await call(api, "play_radio_preset", player=PLAYER, preset=3)).error
    await wait_for(lambda: source_of(emulator) == "Radio" and emulator.state.radio_id == 3)
    refused = await call(api, "play_radio_preset", player=PLAYER, preset=9)
    assert refused.data == {"error": "Invalid argument: preset must be one of the preset ids"}
    assert emulator.state.radio_id == 3


async def test_transport_mute_change_volume_and_standby(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    api = await assist(hass, hass_admin_user)
    assert not (await call(api, "play", player=PLAYER)).error
    await wait_for(lambda: emulator.state.transport_state == PlaybackState.PLAYING)
    first = emulator.state.playlist_id
    assert not (await call(api, "next", player=PLAYER)).error
    await wait_for(lambda: emulator.state.playlist_id != first)
    assert not (await call(api, "previous", player=PLAYER)).error
    await wait_for(lambda: emulator.state.playlist_id == first)
    assert not (await call(api, "pause", player=PLAYER)).error
    await wait_for(lambda: emulator.state.transport_state == PlaybackState.PAUSED)
    assert not (await call(api, "stop", player=PLAYER)).error
    await wait_for(lambda: emulator.state.transport_state == PlaybackState.STOPPED)

    assert not (await call(api, "mute", player=PLAYER, muted=True)).error
    await wait_for(lambda: emulator.state.mute)
    result = await call(api, "change_volume", player=PLAYER, change=-12)
    assert result.data["volume"] == 18
    await wait_for(lambda: emulator.state.volume == 18)
    assert (await call(api, "change_volume", player=PLAYER, change=0)).error

    assert not (await call(api, "standby", player=PLAYER)).error
    await wait_for(lambda: emulator.state.standby)


async def test_join_and_unjoin(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, kitchen: LinnEmulator
) -> None:
    emulator.panel.play()
    kitchen.panel.select_source("Radio")
    await wait_for(lambda: hass.states.get(KITCHEN_ID).attributes.get("source") == "Radio")
    api = await assist(hass, hass_admin_user)
    refused = await call(api, "join", player=PLAYER, members=[PLAYER])
    assert refused.data == {"error": "Invalid argument: members must be other players, each once"}
    joined = await call(api, "join", player=PLAYER, members=["Kitchen"])
    assert not joined.error, joined.data
    await wait_for(lambda: kitchen.state.receiver_uri == emulator.sender_uri)
    assert source_of(kitchen) == "Songcast"
    assert hass.data[DATA_GUARD].guard.audit.records[-1].entity_ids == (ENTITY_ID, KITCHEN_ID)

    assert not (await call(api, "unjoin", player="Kitchen")).error
    await wait_for(lambda: source_of(kitchen) == "Radio")


async def test_rate_limit(hass: HomeAssistant, hass_admin_user: User) -> None:
    api = await assist(hass, hass_admin_user)
    for volume in range(20):
        assert not (await call(api, "set_volume", player=PLAYER, volume=20 + volume % 5)).error
    limited = await call(api, "set_volume", player=PLAYER, volume=20)
    assert limited.data["error"].startswith("Rate limited: try again in ")
    assert limited.data["error"].endswith(" s")
    assert hass.data[DATA_GUARD].guard.audit.records[-1].outcome is Outcome.RATE_LIMITED
    assert not (await call(api, "get_state")).error  # reads have their own budget


async def test_idempotency_on_the_tool_call_id(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    api = await assist(hass, hass_admin_user)
    emulator.panel.play()
    first = emulator.state.playlist_id
    skip = llm.ToolInput("linn__next", {"player": PLAYER}, id="call-1")
    assert not (await call_tool(api, skip)).error
    await wait_for(lambda: emulator.state.playlist_id != first)
    after_one = emulator.state.playlist_id
    again = await call_tool(api, skip)
    assert not again.error
    assert hass.data[DATA_GUARD].guard.audit.records[-1].outcome is Outcome.DUPLICATE
    other = llm.ToolInput("linn__set_volume", {"player": PLAYER, "volume": 40}, id="call-1")
    conflict = await call_tool(api, other)
    assert conflict.data == {
        "error": "Invalid argument: this call id was already used with other arguments"
    }
    await hass.async_block_till_done()
    assert emulator.state.playlist_id == after_one
    assert emulator.state.volume == 30


async def test_timeout_rereads_state_and_repeated_failures_open_the_breaker(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    guard = hass.data[DATA_GUARD].guard
    guard.specs["mute"] = replace(guard.specs["mute"], timeout=0.1)  # not 3 s in a test
    api = await assist(hass, hass_admin_user)
    emulator.faults.response_delay = 0.5
    for _ in range(5):
        result = await call(api, "mute", player=PLAYER, muted=True)
        assert result.data["error"] == (
            "Timed out: the player did not answer in time; its state was re-read"
        )
        assert result.data["state"]["players"][0]["player"] == PLAYER
    emulator.faults.response_delay = 0.0
    opened = await call(api, "mute", player=PLAYER, muted=False)
    assert opened.data["error"].startswith("Unavailable: this keeps failing on the player")
    outcomes = [r.outcome for r in guard.audit.records]
    assert outcomes == [Outcome.TIMED_OUT] * 5 + [Outcome.FAILED]
    assert guard.attempts == guard.audit.total == 6
