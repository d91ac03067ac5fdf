"""Calling the guard in tests: a call with the user's words, the next turn's "asked" set."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from custom_components.linn.guard import Caller, Guard, GuardResult, ToolCall, Turn

from .callers import ALICE
from .doubles import SPECS, Player, PlayerHandler


async def call(
    guard: Guard,
    player: Player,
    tool: str,
    arguments: Mapping[str, object] | None = None,
    *,
    caller: Caller = ALICE,
    turn: Turn | None = None,
    call_id: str | None = None,
) -> GuardResult:
    return await guard.run(
        ToolCall(
            tool,
            dict(arguments or {}),
            caller,
            turn or Turn("c1", 1, asking_for(tool, arguments or {}), "en"),
            call_id,
        ),
        PlayerHandler(tool, player) if tool in SPECS else None,
    )


def asking_for(tool: str, arguments: Mapping[str, object]) -> str:
    """Words by which a user asks for exactly this call."""
    match tool:
        case "set_volume":
            return f"set the volume to {arguments.get('volume')}"
        case "set_volume_limit":
            return f"set the volume limit to {arguments.get('limit')}"
        case "next":
            return "skip this track"
        case _:
            return tool.replace("_", " ")


def asked(guard: Guard, turn: Turn) -> Turn:
    """The turn after one whose tool results carried every open request (the chat log asked)."""
    return replace(turn, asked=frozenset(r.request_id for r in guard.pending.open_requests()))


def check_audit_invariant(guard: Guard) -> None:
    """attempts = outcomes = records (or counted ones), and the chain verifies."""
    summaries = [r for r in guard.audit.records if r.tool == "refused_calls"]
    counted = sum(r.arguments["count"] for r in summaries)
    assert guard.unrecorded_attempts == counted + sum(
        sum(c.values()) for c in guard._uncounted.values()
    )
    assert guard.attempts == guard.audit.total - len(summaries) + guard.unrecorded_attempts
    assert guard.audit.total == len(guard.audit.records)
    guard.audit.verify()
