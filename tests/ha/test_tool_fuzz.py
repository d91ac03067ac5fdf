"""Property-based fuzzing of every linn__ tool through Home Assistant's Assist API.

Per tool: VALID argument sets that must be accepted (run, or held for confirmation or
approval where the policy says so) and INVALID ones that must be refused with a
categorical message and no device change. Hypothesis draws the sets (derandomized, no
database: the same sets on every run); one Home Assistant with two emulated players over
TCP runs them all, as any agent calls a tool.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
import dataclasses
from typing import Any

from homeassistant.auth.models import User
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import llm
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn.guard import Caller
from custom_components.linn.tools.ha_adapter import DATA_GUARD, async_caller
from custom_components.linn.tools.media import MSG_SOURCE
from linn_emulator import LinnEmulator
from testing.ha.assist_api import assist_with_unlimited_guard
from testing.ha.streamers import OTHER_UDN, UDN, async_setup_linn

from .tool_arguments import (
    FIELDS,
    PlayerFacts,
    World,
    draw_batch,
    invalid_sets,
    pools,
    valid,
)

VALID = 500
INVALID = 1500
LIVING_ROOM = "Living Room"
KITCHEN = "Kitchen"
KITCHEN_LIMIT = 60
SOFT_LIMIT_SHARE = 0.6

# The commands the tools send (lpec/device.py, lpec/list_commands.py); none may reach a device
# for a refused call.
TOOL_ACTIONS = frozenset(
    {
        "SetStandby", "SetSourceBySystemName", "SetVolume", "SetMute", "Play", "Pause", "Stop",
        "Next", "Previous", "InvokeId", "SetId", "SetSender", "SetValue", "Insert", "SeekId",
        "SetShuffle", "SetRepeat", "SeekSecondAbsolute",
    }
)  # fmt: skip

_PLAYER = {"player must be one of the listed players", "player is required"}
_ALWAYS = {"unexpected field", "arguments must be an object"}
MESSAGES: dict[str, set[str]] = {
    "get_state": {"player must be one of the listed players"},
    "set_volume": {"volume is required", "volume must be 0\u201380", "volume must be 0\u201360"},
    "change_volume": {"change is required", "change must be -20\u201320, not 0"},
    "mute": {"muted is required", "muted must be true or false"},
    "select_source": {"source is required", MSG_SOURCE},
    "play_pin": {"pin is required", "pin must be one of the pin ids"},
    "play_radio_preset": {"preset is required", "preset must be one of the preset ids"},
    "search_music": {"query is required", "query must be 1\u2013100 characters"},
    "play_music": {
        "item is required",
        "item must be an id like m1",
        "item must be an id from search_music in this conversation",
        "item was found on another player",
    },
    "join": {
        "members is required",
        "members must be other listed players, each once",
        "members must be other players, each once",
    },
    "set_volume_limit": {"limit is required", "limit must be within the player's range"},
    "set_shuffle": {"shuffle is required", "shuffle must be true or false"},
    "set_repeat": {"repeat is required", "repeat must be true or false"},
    "seek": {
        "position must be 0\u201386400",
        "change must be -86400\u201386400, not 0",
        "give either position or change",
    },
}
"""Every refusal an invalid call may get, besides the player and unexpected-field ones."""


@pytest.fixture
async def emulator() -> AsyncIterator[LinnEmulator]:
    """The living room, without the position clock (its ticks are noise here)."""
    async with LinnEmulator(port=0, udn=UDN, tick_interval=3600) as emu:
        yield emu


@pytest.fixture
async def kitchen(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> AsyncIterator[LinnEmulator]:
    """A second player with a lower volume limit, so limits differ per player."""
    async with LinnEmulator(
        port=0, udn=OTHER_UDN, room=KITCHEN, volume_limit=KITCHEN_LIMIT, tick_interval=3600
    ) as emu:
        entry = await async_setup_linn(hass, OTHER_UDN, emu.port, KITCHEN)
        yield emu
        assert await hass.config_entries.async_unload(entry.entry_id)


@pytest.fixture
async def api(hass: HomeAssistant, hass_admin_user: User, kitchen: LinnEmulator) -> llm.APIInstance:
    """The Assist API for an admin, with a guard whose rate limits cannot interfere."""
    api, _guard = await assist_with_unlimited_guard(hass, hass_admin_user.id)
    return api


def _projection(emu: LinnEmulator) -> tuple[Any, ...]:
    """What a tool can change on a device (cheap enough to compare after every call)."""
    s = emu.state
    return (
        s.standby, s.source_index, s.transport_state, s.volume, s.mute, s.volume_limit,
        s.playlist_id, s.radio_id, s.radio_uri, s.receiver_uri, s.receiver_active,
    )  # fmt: skip


def _snapshot(emu: LinnEmulator) -> dict[str, Any]:
    state = dataclasses.asdict(emu.state)
    state.pop("seconds")
    return state


async def _call(api: llm.APIInstance, tool: str, arguments: Any) -> llm.ToolResult:
    return await api.async_call_tool(llm.ToolInput(f"linn__{tool}", arguments))


TAINT_REFUSAL = "Denied: device text was read this turn and the user did not ask for this"


def _pending_id(result: llm.ToolResult) -> str | None:
    error = str(result.data.get("error", ""))
    if error.startswith(("Needs approval: request ", "Needs confirmation: ")):
        return str(result.data["request_id"])
    return None


def _expect_pending(
    tool: str, arguments: dict[str, Any], world: World, emus: dict[str, LinnEmulator]
) -> bool:
    """Whether the default policy holds this valid call for a yes (independent oracle)."""
    if tool == "set_volume_limit":
        return True  # approve, always
    if tool in {"set_volume", "change_volume"}:
        player = world.player(arguments["player"])
        soft = int(player.ceiling * SOFT_LIMIT_SHARE)
        return _volume_target(tool, arguments, player, emus) > soft
    return False


def _volume_target(
    tool: str, arguments: dict[str, Any], player: PlayerFacts, emus: dict[str, LinnEmulator]
) -> int:
    if tool == "set_volume":
        return int(arguments["volume"])
    current = emus[player.name].state.volume
    return max(0, min(player.ceiling, current + arguments["change"]))


def _check_effect(
    tool: str, arguments: dict[str, Any], target: int | None, emus: dict[str, LinnEmulator]
) -> None:
    """The device did what an allowed call asked (where it is observable in one field)."""
    state = emus[arguments["player"]].state if "player" in arguments else None
    match tool:
        case "set_volume" | "change_volume":
            assert state is not None
            assert state.volume == target, (arguments, state.volume)
        case "mute":
            assert state is not None
            assert state.mute is arguments["muted"]
        case "select_source":
            assert state is not None
            assert state.source.name == arguments["source"]
        case "standby":
            assert state is not None
            assert state.standby
        case "wake":
            assert state is not None
            assert state.standby is False
        case "set_shuffle":
            assert state is not None
            assert state.shuffle is arguments["shuffle"]
        case "set_repeat":
            assert state is not None
            assert state.repeat is arguments["repeat"]
        case "seek":
            assert state is not None
            assert state.seconds == arguments["position"]
        case "play_radio_preset":
            assert state is not None
            assert state.radio_id == arguments["preset"]
        case "join":
            for member in arguments["members"]:
                assert emus[member].state.receiver_uri == emus[arguments["player"]].sender_uri


async def _issue_search_ids(api: llm.APIInstance, world: World) -> World:
    """play_music needs ids from search_music in this conversation: search each player."""
    players = []
    for player in world.players:
        result = await _call(api, "search_music", {"player": player.name, "query": "a"})
        assert not result.error, result.data
        items = tuple(item["id"] for item in result.data["results"])
        assert items, f"nothing found on {player.name}"
        players.append(dataclasses.replace(player, items=items))
    return World(tuple(players))


GROUPS = {
    "reads": ("get_state", "search_music"),
    "transport": ("play", "pause", "stop", "next", "previous"),
    "volume": ("set_volume", "change_volume", "mute"),
    "sources": ("select_source", "play_pin", "play_radio_preset"),
    "grouping_and_power": ("join", "unjoin", "standby", "wake"),
    "modes_and_seek": ("set_shuffle", "set_repeat", "seek"),
    "approval_and_search_ids": ("set_volume_limit", "play_music"),
}
"""One Home Assistant per group: its setup costs as much as fuzzing one tool."""


def test_every_tool_is_fuzzed() -> None:
    assert sorted(t for tools in GROUPS.values() for t in tools) == sorted(FIELDS)


@pytest.mark.parametrize("group", GROUPS)
async def test_fuzzed_arguments_through_the_assist_api(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    kitchen: LinnEmulator,
    api: llm.APIInstance,
    group: str,
) -> None:
    emus = {LIVING_ROOM: emulator, KITCHEN: kitchen}
    admin = await async_caller(hass, Context(user_id=hass_admin_user.id))
    # asyncio debug mode records a traceback for every callback: several times the cost
    # here, and loop hygiene is what the other tests check
    hass.loop.set_debug(False)
    for tool in GROUPS[group]:
        await _fuzz(hass, api, admin, emus, tool)


def _refusals(tool: str, world: World) -> set[str]:
    """Every refusal an invalid call of this tool may get."""
    refusals = {f"Invalid argument: {m}" for m in MESSAGES.get(tool, set()) | _PLAYER | _ALWAYS}
    if tool == "seek":  # beyond the current track's length
        refusals |= {
            f"Invalid argument: position must be 0\u2013{p.duration} (the track's length)"
            for p in world.players
        }
    return refusals


async def _fuzz(
    hass: HomeAssistant,
    api: llm.APIInstance,
    admin: Caller,
    emus: dict[str, LinnEmulator],
    tool: str,
) -> None:
    world = World(tuple(PlayerFacts.of(name, emu) for name, emu in sorted(emus.items())))
    if tool == "play_music":
        world = await _issue_search_ids(api, world)
    valid_sets = draw_batch(valid(tool, world), VALID)
    values, keys = pools(world)
    refused_sets = invalid_sets(tool, world, valid_sets, values, keys, INVALID)
    guard = hass.data[DATA_GUARD].guard

    outcomes = {"allowed": 0, "pending": 0, "refused": 0}
    for arguments in valid_sets:
        pending = _expect_pending(tool, arguments, world, emus)
        target = (
            _volume_target(tool, arguments, world.player(arguments["player"]), emus)
            if tool in {"set_volume", "change_volume"}
            else None
        )
        before = {name: _projection(emu) for name, emu in emus.items()}
        result = await _call(api, tool, arguments)
        request_id = _pending_id(result)
        if tool == "play_music":
            # the search that issued the id read device text, and a direct call has no
            # utterance that asks for it: refused without raising a request
            assert result.data == {"error": TAINT_REFUSAL}, (tool, arguments, result.data)
            assert {name: _projection(emu) for name, emu in emus.items()} == before, arguments
            outcomes["refused"] += 1
            continue
        if request_id is None:
            assert not result.error, (tool, arguments, result.data)
            assert not pending, (tool, arguments, "ran without confirmation")
            _check_effect(tool, arguments, target, emus)
            outcomes["allowed"] += 1
            continue
        assert pending, (tool, arguments, result.data)
        assert {name: _projection(emu) for name, emu in emus.items()} == before, arguments
        outcomes["pending"] += 1
        # an admin says no, so the per-user cap on open requests never interferes
        denied = await guard.resolve(
            request_id, approver=admin, approve=False, requester=admin, handler=None
        )
        assert denied.data == {"error": "Denied by an administrator"}
    assert sum(outcomes.values()) == VALID
    if tool not in {"set_volume", "change_volume", "set_volume_limit", "play_music"}:
        assert outcomes["allowed"] == VALID, (tool, outcomes)

    await hass.async_block_till_done()
    snapshots = {name: _snapshot(emu) for name, emu in emus.items()}
    actions = {name: len(emu.actions) for name, emu in emus.items()}
    refusals = _refusals(tool, world)
    if tool == "get_state":
        refusals.discard("Invalid argument: player is required")
    assert len(refused_sets) == INVALID
    for arguments in refused_sets:
        before = {name: _projection(emu) for name, emu in emus.items()}
        result = await _call(api, tool, arguments)
        assert result.error, (tool, arguments, result.data)
        assert result.data.keys() == {"error"}, (tool, arguments, result.data)
        assert result.data["error"] in refusals, (tool, arguments, result.data)
        assert {name: _projection(emu) for name, emu in emus.items()} == before, arguments

    await hass.async_block_till_done()
    assert {name: _snapshot(emu) for name, emu in emus.items()} == snapshots
    for name, emu in emus.items():
        sent = {action.action for action in emu.actions[actions[name] :]}
        assert not sent & TOOL_ACTIONS, (tool, name, sent)
    assert guard.attempts == guard.audit.total
