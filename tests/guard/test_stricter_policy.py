"""A yes or an admin's decision answers a request as it was asked; the stricter policy now holds."""

from __future__ import annotations

from custom_components.linn.guard import Guard, GuardResult, Outcome, PendingKind, Policy, Turn
from custom_components.linn.guard.pending import PendingStatus
from custom_components.linn.guard.settings import PlayerSettings

from .callers import ADMIN
from .calls import asked, call, check_audit_invariant
from .doubles import SPECS, FakeClock, Player, PlayerHandler


def _guard(clock: FakeClock, policies: dict[str, Policy]) -> Guard:
    """A guard whose player settings are `policies` as they are at each call."""
    guard = Guard(SPECS, clock=clock)
    guard.settings_for = lambda _ids: PlayerSettings(policies={**guard.policies, **policies})
    return guard


async def _yes_after_a_stricter_policy(
    clock: FakeClock, player: Player, stricter: Policy
) -> tuple[Guard, GuardResult, GuardResult]:
    """set_volume 65 is asked for, the owner makes set_volume stricter, then the user says yes.

    Returns the guard, the first call's result and the yes's result.
    """
    policies: dict[str, Policy] = {}
    guard = _guard(clock, policies)
    player.volume = 50
    turn = Turn("c1", 1, "volume 65", "en", log_id="L")
    first = await call(guard, player, "set_volume", {"volume": 65}, turn=turn)
    policies["set_volume"] = stricter
    yes = asked(guard, Turn("c1", 2, "yes", "en", log_id="L"))
    result = await call(guard, player, "set_volume", {"volume": 65}, turn=yes)
    return guard, first, result


async def test_a_yes_does_not_stand_in_for_an_admin_once_the_tool_needs_one(
    clock: FakeClock, player: Player
) -> None:
    # the owner: only with an admin's approval now
    guard, first, result = await _yes_after_a_stricter_policy(clock, player, Policy.APPROVE)
    assert first.outcome is Outcome.PENDING
    assert result.outcome is Outcome.PENDING  # the stricter policy: a request for an admin
    assert result.data["error"].startswith("Needs approval")
    assert player.volume == 50
    old = guard.pending.get(first.request_id or "")
    assert old is not None
    assert old.status is PendingStatus.DENIED
    (waiting,) = guard.pending.awaiting_approval()
    assert waiting.kind is PendingKind.APPROVE
    assert waiting.arguments == {"volume": 65}
    # an admin's approval runs it
    approved = await guard.resolve(
        waiting.request_id,
        approver=ADMIN,
        approve=True,
        requester=ADMIN,
        handler=PlayerHandler("set_volume", player),
    )
    assert approved.outcome is Outcome.APPROVED
    assert player.volume == 65
    check_audit_invariant(guard)


async def test_a_yes_runs_nothing_once_the_tool_is_turned_off(
    clock: FakeClock, player: Player
) -> None:
    guard, _, result = await _yes_after_a_stricter_policy(clock, player, Policy.DENY)
    assert result.data == {"error": "Denied: this action is turned off"}
    assert not guard.pending.open_requests()
    assert player.volume == 50
    check_audit_invariant(guard)


async def test_an_approval_runs_nothing_once_the_tool_is_turned_off(
    clock: FakeClock, player: Player
) -> None:
    policies: dict[str, Policy] = {}
    guard = _guard(clock, policies)
    request = await call(guard, player, "set_volume_limit", {"limit": 40}, caller=ADMIN)
    assert request.outcome is Outcome.PENDING
    policies["set_volume_limit"] = Policy.DENY
    result = await guard.resolve(
        request.request_id or "",
        approver=ADMIN,
        approve=True,
        requester=ADMIN,
        handler=PlayerHandler("set_volume_limit", player),
    )
    assert result.code == "turned_off"
    assert player.limit == 100
    check_audit_invariant(guard)
