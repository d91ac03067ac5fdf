"""The tools of other LLM APIs share one policy, set by an assistant; none goes to an admin."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from custom_components.linn.guard import (
    OTHER_API_TOOLS,
    Access,
    AgentSettings,
    Guard,
    Outcome,
    Policy,
    ToolCall,
    ToolSpec,
    Turn,
)

from .callers import ALICE
from .doubles import SPECS, FakeClock, Player, PlayerHandler

AGENT = "conversation.claude_assistant"
TURN_ON = "ext:intent__HassTurnOn"
LIVE_CONTEXT = "ext:homeassistant__GetLiveContext"
FOREIGN = {
    TURN_ON: ToolSpec(
        TURN_ON, Access.CONTROL, policy_name=OTHER_API_TOOLS, approvable=False, timeout=1.0
    ),
    LIVE_CONTEXT: ToolSpec(
        LIVE_CONTEXT, Access.READ, policy_name=OTHER_API_TOOLS, approvable=False, timeout=1.0
    ),
}
CALLER = replace(ALICE, agent_id=AGENT)


class ForeignHandler(PlayerHandler):
    """Like the assistant's handler of another API's tool: no Linn player is targeted."""

    def targets(self, arguments: Mapping[str, Any]) -> tuple[str, ...]:
        return ()


def _guard(clock: FakeClock, policy: Policy) -> Guard:
    guard = Guard({**SPECS, **FOREIGN}, clock=clock)
    settings = AgentSettings(policies={OTHER_API_TOOLS: policy})
    guard.agent_settings_for = lambda agent_id: settings if agent_id == AGENT else None
    return guard


def _asked(guard: Guard, turn: Turn) -> Turn:
    """The turn after one whose tool results carried every open request."""
    return replace(turn, asked=frozenset(r.request_id for r in guard.pending.open_requests()))


async def _call(
    guard: Guard, tool: str, player: Player, turn: Turn, caller: Any = CALLER
) -> Outcome:
    result = await guard.run(ToolCall(tool, {}, caller, turn), ForeignHandler(tool, player))
    return result.outcome


async def test_confirm_asks_for_a_change_and_runs_it_after_a_yes_but_never_for_a_read(
    clock: FakeClock,
) -> None:
    guard = _guard(clock, Policy.CONFIRM)
    player = Player()
    assert await _call(guard, TURN_ON, player, Turn("c1", 1, "turn on the lamp")) is Outcome.PENDING
    assert player.calls == []
    assert (
        await _call(guard, TURN_ON, player, _asked(guard, Turn("c1", 2, "yes"))) is Outcome.APPROVED
    )
    assert player.calls == [TURN_ON]
    # a read has nothing to confirm
    assert await _call(guard, LIVE_CONTEXT, player, Turn("c2", 1, "is it on?")) is Outcome.ALLOWED
    # another agent's calls are not governed by this assistant's settings
    other = replace(ALICE, agent_id="conversation.other")
    assert await _call(guard, TURN_ON, player, Turn("c3", 1, "on"), other) is Outcome.ALLOWED


async def test_deny_refuses_changes_and_reads(clock: FakeClock) -> None:
    guard = _guard(clock, Policy.DENY)
    player = Player()
    assert await _call(guard, TURN_ON, player, Turn("c1", 1, "turn on")) is Outcome.DENIED
    assert await _call(guard, LIVE_CONTEXT, player, Turn("c1", 1, "is it on")) is Outcome.DENIED
    assert player.calls == []
    assert guard.audit.records[-1].reason == "Denied: this action is turned off"


async def test_a_tool_no_admin_can_approve_is_refused_where_an_admin_would_be_asked(
    clock: FakeClock,
) -> None:
    guard = _guard(clock, Policy.CONFIRM)
    player = Player()
    # no conversation to confirm in: a Linn tool would go to an admin; this one cannot
    assert await _call(guard, TURN_ON, player, Turn(None)) is Outcome.DENIED
    assert player.calls == []
    assert guard.pending.open_requests() == []
    assert "no administrator can approve this tool" in guard.audit.records[-1].reason


async def test_a_yes_does_not_run_a_tool_turned_off_while_it_waited(clock: FakeClock) -> None:
    guard = _guard(clock, Policy.CONFIRM)
    player = Player()
    assert await _call(guard, TURN_ON, player, Turn("c1", 1, "turn on the lamp")) is Outcome.PENDING
    denied = AgentSettings(policies={OTHER_API_TOOLS: Policy.DENY})
    guard.agent_settings_for = lambda agent_id: denied if agent_id == AGENT else None
    assert (
        await _call(guard, TURN_ON, player, _asked(guard, Turn("c1", 2, "yes"))) is Outcome.DENIED
    )
    assert player.calls == []
    assert guard.audit.records[-1].reason.startswith("Denied: this action is turned off")
