"""Per-player settings (the streamers' options) as the guard applies them."""

from __future__ import annotations

from dataclasses import replace
from datetime import time, timedelta
from zoneinfo import ZoneInfo

from custom_components.linn.guard import (
    Guard,
    Outcome,
    PlayerSettings,
    Policy,
    QuietHours,
    ToolCall,
    Turn,
    strictest,
)

from .callers import ADMIN, ALICE
from .doubles import SPECS, FakeClock, Player, PlayerHandler

LONDON = ZoneInfo("Europe/London")


def _guard(clock: FakeClock, settings: dict[str, PlayerSettings]) -> Guard:
    guard = Guard(SPECS, clock=clock)
    guard.settings_for = lambda ids: strictest(settings[e] for e in ids if e in settings)
    return guard


async def test_each_player_has_its_own_policy(clock: FakeClock) -> None:
    kids = PlayerSettings(policies={"standby": Policy.DENY})
    guard = _guard(clock, {"media_player.kids": kids, "media_player.living": PlayerSettings()})
    kids_player, living_player = Player(), Player()
    denied = await guard.run(
        ToolCall("standby", {}, ALICE, Turn("c1", 1, "standby")),
        PlayerHandler("standby", kids_player, "media_player.kids"),
    )
    allowed = await guard.run(
        ToolCall("standby", {}, ALICE, Turn("c1", 1, "standby")),
        PlayerHandler("standby", living_player, "media_player.living"),
    )
    assert denied.data == {"error": "Denied: this action is turned off"}
    assert not kids_player.standby
    assert allowed.outcome is Outcome.ALLOWED
    assert living_player.standby


def test_several_players_combine_to_the_strictest() -> None:
    quiet = QuietHours(time(22), time(7), LONDON)
    loose = PlayerSettings(notify_targets=("notify.a",), approval_expiry=timedelta(minutes=9))
    strict = PlayerSettings(
        policies={"join": Policy.CONFIRM},
        soft_limit_share=0.4,
        quiet_hours=(quiet,),
        approval_expiry=timedelta(minutes=2),
        notify_targets=("notify.b", "notify.a"),
    )
    combined = strictest([loose, strict])
    assert combined is not None
    assert combined.policy("join") is Policy.CONFIRM
    assert combined.policy("set_volume_limit") is Policy.APPROVE
    assert combined.soft_limit_share == 0.4
    assert combined.quiet_hours == (quiet,)
    assert combined.approval_expiry == timedelta(minutes=2)
    assert combined.notify_targets == ("notify.a", "notify.b")
    assert strictest([]) is None


async def test_soft_limit_share_and_expiry_come_from_the_players_settings(
    clock: FakeClock,
) -> None:
    settings = PlayerSettings(soft_limit_share=0.3, approval_expiry=timedelta(minutes=1))
    guard = _guard(clock, {"media_player.living": settings})
    player = Player(volume=25)
    result = await guard.run(
        ToolCall("set_volume", {"volume": 35}, ALICE, Turn("c1", 1, "volume 35")),
        PlayerHandler("set_volume", player),
    )
    assert result.outcome is Outcome.PENDING  # 35 > 30 % of 100
    assert result.request_id is not None
    request = guard.pending.get(result.request_id)
    assert request is not None
    assert request.expires - request.created == timedelta(minutes=1)
    assert player.volume == 25


async def test_quiet_hours_from_the_settings_are_a_risk_signal(clock: FakeClock) -> None:
    always_quiet = QuietHours(time(0), time(23, 59), LONDON)
    guard = _guard(clock, {"media_player.living": PlayerSettings(quiet_hours=(always_quiet,))})
    player = Player(volume=10)
    result = await guard.run(  # a jump of 25 in quiet hours: two signals
        ToolCall("set_volume", {"volume": 35}, ALICE, Turn("c1", 1, "volume 35")),
        PlayerHandler("set_volume", player),
    )
    assert result.outcome is Outcome.PENDING
    assert "quiet_hours" in result.record.reason


async def test_no_option_lets_a_tool_below_its_minimum_policy(clock: FakeClock) -> None:
    specs = {
        **SPECS,
        "set_volume_limit": replace(SPECS["set_volume_limit"], min_policy=Policy.APPROVE),
    }
    guard = Guard(specs, clock=clock)
    guard.settings_for = lambda _ids: PlayerSettings(policies={"set_volume_limit": Policy.ALLOW})
    player = Player()
    result = await guard.run(
        ToolCall("set_volume_limit", {"limit": 50}, ADMIN, Turn("c1", 1, "limit 50")),
        PlayerHandler("set_volume_limit", player),
    )
    assert result.outcome is Outcome.PENDING
    assert result.data["error"].startswith("Needs approval")
    assert player.limit == 100
