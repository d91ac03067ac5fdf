"""The guarded linn__ tools through Home Assistant's own Assist API, as any agent calls them."""

from __future__ import annotations

import json
import re
from typing import Any

from homeassistant.auth.models import User
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import llm
import probatio
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn.guard import Guard, Outcome
from custom_components.linn.llm import LinnHandler
from custom_components.linn.tools.ha_adapter import DATA_GUARD, GuardRuntime, async_caller
from custom_components.linn.tools.linn_tools import TOOL_SPECS, TOOLS_BY_NAME
from custom_components.linn.tools.tool_def import SchemaFacts
from linn_emulator import LinnEmulator
from testing.ha.assist_api import PLAYER, assist, call, call_tool
from testing.ha.injected_titles import INJECTIONS, show_title
from testing.ha.streamers import ENTITY_ID
from testing.helpers import wait_for

pytestmark = pytest.mark.usefixtures("llm_ready")


def runtime(hass: HomeAssistant) -> GuardRuntime:
    return hass.data[DATA_GUARD]


async def test_tools_are_offered_with_strict_schemas_and_true_annotations(
    hass: HomeAssistant, hass_admin_user: User
) -> None:
    api = await assist(hass, hass_admin_user)
    tools = {tool.name: tool for tool in api.tools if tool.name.startswith("linn__")}
    assert set(tools) == {f"linn__{name}" for name in TOOL_SPECS}
    schema = probatio.to_openapi(tools["linn__set_volume"].parameters)
    assert schema["additionalProperties"] is False
    assert schema["required"] == ["player", "volume"]
    assert schema["properties"]["player"]["enum"] == [PLAYER]
    assert schema["properties"]["volume"] == {
        "type": "integer",
        "minimum": 0,
        "maximum": 80,
        "description": "The new volume",
    }
    assert tools["linn__get_state"].annotations.read_only
    assert not tools["linn__set_volume"].annotations.read_only
    assert tools["linn__set_volume"].annotations.idempotent
    assert not tools["linn__next"].annotations.idempotent
    assert tools["linn__standby"].annotations.destructive


async def test_set_volume_changes_the_device(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    api = await assist(hass, hass_admin_user)
    result = await call(api, "set_volume", player=PLAYER, volume=35)
    assert not result.error, result.data
    await wait_for(lambda: emulator.state.volume == 35)
    assert runtime(hass).guard.audit.records[-1].outcome is Outcome.ALLOWED


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"player": PLAYER, "volume": 81}, "Invalid argument: volume must be 0\u201380"),
        ({"player": PLAYER, "volume": True}, "Invalid argument: volume must be 0\u201380"),
        ({"player": PLAYER, "volume": "30"}, "Invalid argument: volume must be 0\u201380"),
        (
            {"player": "Kitchen", "volume": 30},
            "Invalid argument: player must be one of the listed players",
        ),
        ({"player": PLAYER}, "Invalid argument: volume is required"),
        ({"player": PLAYER, "volume": 30, "approved": True}, "Invalid argument: unexpected field"),
    ],
)
async def test_invalid_arguments_are_refused_with_no_device_change(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    arguments: dict[str, Any],
    message: str,
) -> None:
    api = await assist(hass, hass_admin_user)
    result = await call_tool(api, llm.ToolInput("linn__set_volume", arguments))
    assert result.error
    assert result.data == {"error": message}
    assert emulator.state.volume == 30


async def test_volume_limit_is_a_hard_ceiling(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    loaded_entry: MockConfigEntry,
) -> None:
    emulator.panel.set_volume_limit(40)
    await wait_for(lambda: hass.states.get("number.living_room_volume_limit").state == "40.0")
    api = await assist(hass, hass_admin_user)
    result = await call(api, "set_volume", player=PLAYER, volume=41)
    assert result.data == {"error": "Invalid argument: volume must be 0\u201340"}
    # soft limit at 100 %: no confirmation, only the ceiling applies
    hass.config_entries.async_update_entry(loaded_entry, options={"soft_limit_percent": 100})
    result = await call(api, "change_volume", player=PLAYER, change=20)  # 30 -> 40 at most
    assert not result.error, result.data
    await wait_for(lambda: emulator.state.volume == 40)


async def test_read_only_user_may_read_but_not_control(
    hass: HomeAssistant, hass_read_only_user: User, emulator: LinnEmulator
) -> None:
    api = await assist(hass, hass_read_only_user)
    state = await call(api, "get_state")
    assert not state.error
    assert state.data["players"][0]["volume"] == 30
    result = await call(api, "standby", player=PLAYER)
    assert result.data == {"error": "Denied: you may not control this player"}
    assert emulator.state.standby is False


async def test_no_user_gets_read_only_tools(hass: HomeAssistant, emulator: LinnEmulator) -> None:
    api = await assist(hass, None)
    names = {tool.name for tool in api.tools if tool.name.startswith("linn__")}
    assert names == {"linn__get_state", "linn__search_music"}
    caller = await async_caller(hass, Context())
    assert not caller.identified


async def test_device_text_is_data_cleaned_and_capped(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    emulator.panel.select_source("Radio")
    emulator.panel.set_metatext("Evil\u202e title\u200b " + "x" * 500)
    await wait_for(lambda: "Evil" in str(hass.states.get(ENTITY_ID).attributes.get("media_title")))
    api = await assist(hass, hass_admin_user)
    result = await call(api, "get_state", player=PLAYER)
    text = result.data["players"][0]["device_text"]
    assert text["title"].startswith("Evil title x")
    assert len(text["title"]) == 200
    assert "device_text" in result.data["note"]


async def obedient_agent(api: llm.APIInstance) -> list[llm.ToolResult]:
    """A scripted model that obeys any tool call it reads in a tool result."""
    state = await call(api, "get_state")
    results = []
    for match in re.finditer(r"linn__(\w+)(?: (\w+)=([\w ]+\w))?", json.dumps(state.data)):
        tool, key, value = match.groups()
        arguments: dict[str, Any] = {"player": PLAYER}
        if key:
            arguments[key] = int(value) if value.isdigit() else value
        results.append(await call(api, tool, **arguments))
    return results


@pytest.mark.parametrize("goal", INJECTIONS)
async def test_injected_title_changes_nothing_with_an_obedient_agent(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, goal: str
) -> None:
    await show_title(hass, emulator, INJECTIONS[goal])
    source_before = emulator.state.source_index
    api = await assist(hass, hass_admin_user)
    results = await obedient_agent(api)
    assert len(results) == 1  # the agent did try
    assert results[0].error
    assert results[0].data["error"].startswith("Denied: device text was read this turn")
    assert not hass.data[DATA_GUARD].guard.pending.open_requests()  # no request raised
    assert emulator.state.volume == 30
    assert emulator.state.standby is False
    assert emulator.state.source_index == source_before


async def test_set_volume_limit_needs_an_admin_approval_that_survives_a_restart(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    api = await assist(hass, hass_admin_user)
    result = await call(api, "set_volume_limit", player=PLAYER, limit=50)
    assert result.data["error"].startswith("Needs approval")
    request_id = result.data["request_id"]
    assert emulator.state.volume_limit == 80

    # restart: what is stored is all a new guard knows
    old = runtime(hass)
    await old.async_save()
    restarted = GuardRuntime(hass, Guard(TOOL_SPECS, clock=old.guard.clock))
    await restarted.async_load()
    assert restarted.guard.audit.head == old.guard.audit.head

    handler = LinnHandler(
        hass, TOOLS_BY_NAME["set_volume_limit"], "conversation", restarted, "user:x"
    )
    admin = await async_caller(hass, Context(user_id=hass_admin_user.id))
    approved = await restarted.guard.resolve(
        request_id, approver=admin, approve=True, requester=admin, handler=handler
    )
    assert approved.outcome is Outcome.APPROVED, approved.data
    await wait_for(lambda: emulator.state.volume_limit == 50)
    again = await restarted.guard.resolve(
        request_id, approver=admin, approve=True, requester=admin, handler=handler
    )
    assert again.outcome is Outcome.DENIED


async def test_audit_records_every_attempt(hass: HomeAssistant, hass_admin_user: User) -> None:
    api = await assist(hass, hass_admin_user)
    # the request first: after get_state has read device text, it would be refused instead
    await call(api, "set_volume_limit", player=PLAYER, limit=10)
    await call(api, "get_state")
    await call(api, "set_volume", player=PLAYER, volume=999)
    guard = runtime(hass).guard
    assert guard.attempts == guard.audit.total == 3
    assert [r.outcome for r in guard.audit.records] == [
        Outcome.PENDING,
        Outcome.ALLOWED,
        Outcome.INVALID,
    ]
    guard.audit.verify()


@pytest.mark.parametrize("volume", [2**64, -(2**70), float("nan"), float("inf")])
async def test_audit_log_survives_a_restart_after_absurd_numbers(
    hass: HomeAssistant, hass_admin_user: User, volume: float
) -> None:
    """Found by fuzzing: 2**64 broke the store's save, NaN the chain after a reload."""
    api = await assist(hass, hass_admin_user)
    result = await call(api, "set_volume", player=PLAYER, volume=volume)
    assert result.data == {"error": "Invalid argument: volume must be 0\u201380"}
    old = runtime(hass)
    assert old.guard.audit.records[-1].arguments["volume"] == "<redacted>"
    await old.async_save()
    restarted = GuardRuntime(hass, Guard(TOOL_SPECS, clock=old.guard.clock))
    await restarted.async_load()
    assert restarted.guard.audit.head == old.guard.audit.head
    assert not getattr(restarted, "_broken", None)


async def test_play_music_refuses_an_id_with_a_trailing_newline(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    """Found by fuzzing: Python's `$` let "m1\\n" through; the model's schema does not."""
    api = await assist(hass, hass_admin_user)
    found = await call(api, "search_music", player=PLAYER, query="a")
    item = found.data["results"][0]["id"]
    result = await call(api, "play_music", player=PLAYER, item=f"{item}\n")
    assert result.data == {"error": "Invalid argument: item must be an id like m1"}
    schema = probatio.to_openapi(TOOLS_BY_NAME["play_music"].fields(SchemaFacts(())))
    assert schema["properties"]["item"]["pattern"] == "^m[1-9][0-9]{0,2}(?!\\n)$"


async def test_empty_pins_are_not_offered(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    """Found by fuzzing: pin 5 is empty; invoking it failed on the device.

    The first play_pin reads which pins are empty; the schema offered afterwards omits them.
    """
    api = await assist(hass, hass_admin_user)
    result = await call(api, "play_pin", player=PLAYER, pin=5)
    assert result.data == {"error": "Invalid argument: pin must be one of the pin ids"}
    assert runtime(hass).guard.audit.records[-1].outcome is Outcome.INVALID
    assert not any(action.action == "InvokeId" for action in emulator.actions)
    api = await assist(hass, hass_admin_user)
    tool = next(tool for tool in api.tools if tool.name == "linn__play_pin")
    assert probatio.to_openapi(tool.parameters)["properties"]["pin"]["enum"] == [1, 2, 3, 4]
