"""The guard end to end, approval by an admin: once, unchanged, in time, never by the model.

Every attempt ends in exactly one audit record (checked after each test).
"""

from __future__ import annotations

import pytest

from custom_components.linn.guard import Caller, Guard, Outcome, Turn

from .callers import ADMIN, ALICE, GUEST
from .calls import call
from .doubles import FakeClock, Player, PlayerHandler
from .engine_checks import _audit_invariant, _request_limit  # noqa: F401

# --- approval by an admin ---------------------------------------------------------------


async def test_approved_request_runs_once(guard: Guard, player: Player) -> None:
    request_id = await _request_limit(guard, player)
    handler = PlayerHandler("set_volume_limit", player)
    approved = await guard.resolve(
        request_id, approver=ADMIN, approve=True, requester=ADMIN, handler=handler
    )
    assert approved.outcome is Outcome.APPROVED
    assert player.limit == 40
    twice = await guard.resolve(
        request_id, approver=ADMIN, approve=True, requester=ADMIN, handler=handler
    )
    assert twice.data == {"error": "Denied: the request was already resolved"}
    assert player.calls == ["set_volume_limit"]


@pytest.mark.parametrize(
    ("approver", "arguments", "minutes", "message"),
    [
        (ALICE, None, 0, "Denied: only an administrator may do this"),
        (ADMIN, {"limit": 100}, 0, "Denied: the arguments differ from the request"),
        (ADMIN, None, 5, "Denied: the request has expired"),
    ],
)
async def test_approval_abuse_is_refused(
    guard: Guard,
    clock: FakeClock,
    player: Player,
    approver: Caller,
    arguments: dict[str, int] | None,
    minutes: int,
    message: str,
) -> None:
    request_id = await _request_limit(guard, player)
    clock.advance(minutes=minutes)
    result = await guard.resolve(
        request_id,
        approver=approver,
        approve=True,
        requester=ADMIN,
        handler=PlayerHandler("set_volume_limit", player),
        arguments=arguments,
    )
    assert result.data == {"error": message}
    assert player.limit == 100


async def test_a_confirm_request_cannot_be_approved_out_of_band(
    guard: Guard, player: Player
) -> None:
    player.volume = 50
    pending = await call(
        guard, player, "set_volume", {"volume": 65}, turn=Turn("c1", 1, "volume 65")
    )
    result = await guard.resolve(
        pending.request_id or "",
        approver=ADMIN,
        approve=True,
        requester=ALICE,
        handler=PlayerHandler("set_volume", player),
    )
    assert result.outcome is Outcome.DENIED
    assert player.volume == 50


async def test_approval_rechecks_the_requesters_permission_now(
    guard: Guard, player: Player
) -> None:
    player.volume = 10
    pending = await call(guard, player, "set_volume", {"volume": 65}, turn=Turn(None))
    result = await guard.resolve(
        pending.request_id or "",
        approver=ADMIN,
        approve=True,
        requester=GUEST,  # alice lost control since
        handler=PlayerHandler("set_volume", player),
    )
    assert result.data == {"error": "Denied: you may not control this player"}
    assert player.volume == 10


async def test_model_retry_does_not_approve_itself(guard: Guard, player: Player) -> None:
    request_id = await _request_limit(guard, player)
    for index in range(2, 5):
        result = await call(
            guard,
            player,
            "set_volume_limit",
            {"limit": 40},
            caller=ADMIN,
            turn=Turn("c1", index, "yes"),
        )
        assert result.request_id == request_id
    assert player.limit == 100


async def test_expiry_is_audited(guard: Guard, clock: FakeClock, player: Player) -> None:
    await _request_limit(guard, player)
    clock.advance(minutes=6)
    (expired,) = guard.expire_due()
    assert expired.outcome is Outcome.EXPIRED


async def test_five_pending_per_user(guard: Guard, player: Player) -> None:
    player.volume = 0
    for volume in range(61, 66):
        result = await call(guard, player, "set_volume", {"volume": volume}, turn=Turn(None))
        assert result.outcome is Outcome.PENDING
    result = await call(guard, player, "set_volume", {"volume": 70}, turn=Turn(None))
    assert result.data == {"error": "Denied: too many requests are waiting"}
