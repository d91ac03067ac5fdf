"""An assistant's own settings: they tighten the players' for the calls it makes, never loosen."""

from __future__ import annotations

from dataclasses import replace
from datetime import time, timedelta
from zoneinfo import ZoneInfo

from custom_components.linn.guard import (
    DEFAULT_POLICIES,
    AgentSettings,
    Guard,
    Outcome,
    PendingRequest,
    PlayerSettings,
    Policy,
    QuietHours,
    ToolCall,
    Turn,
)

from .callers import ALICE
from .doubles import SPECS, FakeClock, Player, PlayerHandler

LONDON = ZoneInfo("Europe/London")
STRICT_AGENT = "conversation.kids_assistant"


def _guard(clock: FakeClock, player: PlayerSettings, agent: AgentSettings) -> Guard:
    guard = Guard(SPECS, clock=clock)
    guard.settings_for = lambda _ids: player
    guard.agent_settings_for = lambda agent_id: agent if agent_id == STRICT_AGENT else None
    return guard


def test_an_agent_tightens_and_never_loosens() -> None:
    quiet = QuietHours(time(22), time(7), LONDON)
    player = PlayerSettings(
        policies={"standby": Policy.DENY, "next": Policy.CONFIRM},
        soft_limit_share=0.5,
        approval_expiry=timedelta(minutes=3),
        notify_targets=("notify.owner",),
    )
    agent = AgentSettings(
        policies={"standby": Policy.ALLOW, "next": Policy.ALLOW, "play": Policy.APPROVE},
        soft_limit_share=0.8,
        quiet_hours=(quiet,),
        approval_expiry=timedelta(minutes=10),
        notify_targets=("notify.parent", "notify.owner"),
    )
    combined = agent.tighten(player)
    assert combined.policy("standby") is Policy.DENY  # the owner's deny stays deny
    assert combined.policy("next") is Policy.CONFIRM
    assert combined.policy("play") is Policy.APPROVE
    assert combined.policy("set_volume_limit") is Policy.APPROVE
    assert combined.soft_limit_share == 0.5
    assert combined.quiet_hours == (quiet,)
    assert combined.approval_expiry == timedelta(minutes=3)
    assert combined.notify_targets == ("notify.owner", "notify.parent")

    tighter = AgentSettings(soft_limit_share=0.3, approval_expiry=timedelta(minutes=1))
    assert tighter.tighten(player).soft_limit_share == 0.3
    assert tighter.tighten(player).approval_expiry == timedelta(minutes=1)
    # nothing set: the players' settings as they are
    neutral = AgentSettings().tighten(player)
    assert {tool: neutral.policy(tool) for tool in DEFAULT_POLICIES} == {
        tool: player.policy(tool) for tool in DEFAULT_POLICIES
    }
    assert neutral.soft_limit_share == player.soft_limit_share
    assert neutral.approval_expiry == player.approval_expiry
    assert (neutral.quiet_hours, neutral.notify_targets) == ((), ("notify.owner",))


async def test_an_agents_deny_holds_for_its_calls_only(clock: FakeClock) -> None:
    guard = _guard(clock, PlayerSettings(), AgentSettings(policies={"standby": Policy.DENY}))
    player = Player()
    strict_caller = replace(ALICE, agent_id=STRICT_AGENT)
    denied = await guard.run(
        ToolCall("standby", {}, strict_caller, Turn("c1", 1, "standby")),
        PlayerHandler("standby", player),
    )
    assert denied.data == {"error": "Denied: this action is turned off"}
    assert not player.standby
    other = await guard.run(
        ToolCall(
            "standby", {}, replace(ALICE, agent_id="conversation.other"), Turn("c2", 1, "standby")
        ),
        PlayerHandler("standby", player),
    )
    assert other.outcome is Outcome.ALLOWED
    assert player.standby


async def test_an_agent_without_player_settings_tightens_the_guards_defaults(
    clock: FakeClock,
) -> None:
    guard = Guard(SPECS, clock=clock)  # no streamer options at all
    guard.agent_settings_for = lambda _agent: AgentSettings(
        policies={"next": Policy.CONFIRM}, approval_expiry=timedelta(minutes=2)
    )
    player = Player()
    result = await guard.run(
        ToolCall("next", {}, replace(ALICE, agent_id=STRICT_AGENT), Turn("c1", 1, "next")),
        PlayerHandler("next", player),
    )
    assert result.outcome is Outcome.PENDING
    assert result.data["error"].startswith("Needs confirmation")
    assert player.track == 1
    assert result.request_id is not None
    request = guard.pending.get(result.request_id)
    assert request is not None
    assert request.agent_id == STRICT_AGENT  # its notify targets apply to the approval
    assert request.expires - request.created == timedelta(minutes=2)
    assert PendingRequest.from_dict(request.to_dict()).agent_id == STRICT_AGENT  # stored
    assert guard.settings((), STRICT_AGENT) is not None
    assert guard.settings((), None) is None


async def test_a_read_runs_unless_a_player_or_the_agent_denies_it(clock: FakeClock) -> None:
    guard = _guard(clock, PlayerSettings(), AgentSettings(policies={"get_state": Policy.DENY}))
    player = Player()
    strict = await guard.run(
        ToolCall("get_state", {}, replace(ALICE, agent_id=STRICT_AGENT), Turn("c1", 1, "x")),
        PlayerHandler("get_state", player),
    )
    assert strict.outcome is Outcome.DENIED
    assert strict.data == {"error": "Denied: this action is turned off"}
    other = await guard.run(
        ToolCall("get_state", {}, ALICE, Turn("c2", 1, "what's playing")),
        PlayerHandler("get_state", player),
    )
    assert other.outcome is Outcome.ALLOWED
    guard.settings_for = lambda _ids: PlayerSettings(policies={"get_state": Policy.DENY})
    owner_denies = await guard.run(
        ToolCall("get_state", {}, ALICE, Turn("c3", 1, "what's playing")),
        PlayerHandler("get_state", player),
    )
    assert owner_denies.outcome is Outcome.DENIED
