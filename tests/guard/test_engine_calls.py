"""The guard end to end, plain calls: arguments, unknown tools, permissions, policies.

Every attempt ends in exactly one audit record (checked after each test).
"""

from __future__ import annotations

import json

import pytest

from custom_components.linn.guard import Caller, Guard, Outcome, Policy, ToolCall, Turn

from .callers import ALICE, GUEST, NOBODY
from .calls import call
from .doubles import SPECS, FakeClock, Player, PlayerHandler
from .engine_checks import _audit_invariant  # noqa: F401


async def test_allowed_call_runs_and_is_audited(guard: Guard, player: Player) -> None:
    result = await guard.run(
        ToolCall("set_volume", {"volume": 30}, ALICE, Turn("c1", 1, "volume 30", "en"), "t1"),
        PlayerHandler("set_volume", player),
    )
    assert result.outcome is Outcome.ALLOWED
    assert not result.error
    assert player.volume == 30
    record = guard.audit.records[-1]
    assert record.outcome is Outcome.ALLOWED
    assert record.arguments == {"volume": 30}
    assert record.user_id == "alice"
    assert record.entity_ids == ("media_player.living",)


async def test_invalid_arguments_change_nothing(guard: Guard, player: Player) -> None:
    for arguments in ({"volume": 101}, {"volume": "30"}, {"volume": 30, "approved": True}, {}):
        result = await guard.run(
            ToolCall("set_volume", arguments, ALICE), PlayerHandler("set_volume", player)
        )
        assert result.outcome is Outcome.INVALID
        assert result.data["error"].startswith("Invalid argument: ")
    assert player.calls == []
    assert guard.audit.records[0].arguments == {"volume": 101}
    assert guard.audit.records[2].arguments == {"volume": 30, "approved": "<redacted>"}


@pytest.mark.parametrize("arguments", [[{"volume": 30}], "volume 30", None, 30])
async def test_arguments_that_are_no_object_are_refused_and_audited(
    guard: Guard, player: Player, arguments: object
) -> None:
    """Found by fuzzing (tests/ha/test_tool_fuzz.py): a JSON list crashed the audit record."""
    result = await guard.run(
        ToolCall("set_volume", arguments, ALICE),  # type: ignore[arg-type]
        PlayerHandler("set_volume", player),
    )
    assert result.outcome is Outcome.INVALID
    assert result.data == {"error": "Invalid argument: arguments must be an object"}
    assert guard.audit.records[-1].arguments == {}
    assert player.calls == []


@pytest.mark.parametrize("volume", [2**64, float("nan"), float("-inf")])
async def test_numbers_json_cannot_store_are_redacted(
    guard: Guard, player: Player, volume: float
) -> None:
    """Found by fuzzing: the audit log must stay storable and its hashes reloadable."""
    await guard.run(
        ToolCall("set_volume", {"volume": volume}, ALICE), PlayerHandler("set_volume", player)
    )
    record = guard.audit.records[-1]
    assert record.arguments == {"volume": "<redacted>"}
    json.dumps(record.to_dict(), allow_nan=False)


async def test_unknown_tool_is_refused_and_counted(guard: Guard, player: Player) -> None:
    for _ in range(3):
        result = await guard.run(ToolCall("unlock_door", {}, ALICE), None)
        assert result.data == {"error": "Invalid: unknown tool"}
    assert guard.unknown_tool_calls == 3


@pytest.mark.parametrize(
    ("caller", "tool", "message"),
    [
        (NOBODY, "standby", "Denied: an unidentified caller may only read"),
        (GUEST, "standby", "Denied: you may not control this player"),
        (ALICE, "set_volume_limit", "Denied: only an administrator may do this"),
        (Caller("x"), "get_state", "Denied: you may not read this player"),
    ],
)
async def test_permissions(
    guard: Guard, player: Player, caller: Caller, tool: str, message: str
) -> None:
    arguments = {"limit": 50} if tool == "set_volume_limit" else {}
    result = await call(guard, player, tool, arguments, caller=caller)
    assert result.outcome is Outcome.DENIED
    assert result.data == {"error": message}
    assert player.calls == []


async def test_unidentified_caller_may_read(guard: Guard, player: Player) -> None:
    result = await call(guard, player, "get_state", caller=NOBODY)
    assert result.outcome is Outcome.ALLOWED


async def test_policy_deny_from_options(clock: FakeClock, player: Player) -> None:
    guard = Guard(SPECS, clock=clock, policies={"standby": Policy.DENY})
    result = await call(guard, player, "standby")
    assert result.data == {"error": "Denied: this action is turned off"}
    assert not player.standby
