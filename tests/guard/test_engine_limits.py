"""The guard end to end, limits: rate limits, idempotency, timeouts, breakers, write-ahead.

Every attempt ends in exactly one audit record (checked after each test).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

import pytest

from custom_components.linn.guard import Guard, Outcome, Turn
from custom_components.linn.guard.engine import DECISIONS_PER_MINUTE
from custom_components.linn.guard.records import (
    REFUSAL_WINDOW,
    REFUSALS_PER_WINDOW,
    REFUSED_CALLS_PER_WINDOW,
)

from .callers import ADMIN, ALICE, BOB, NOBODY
from .calls import call
from .doubles import FakeClock, Player
from .engine_checks import _audit_invariant, _request_limit  # noqa: F401

# --- rate limits, idempotency, timeouts, breakers ------------------------------------------


async def test_writes_are_rate_limited_per_user_and_tool(
    guard: Guard, clock: FakeClock, player: Player
) -> None:
    for _ in range(20):
        assert (await call(guard, player, "next")).outcome is Outcome.ALLOWED
    limited = await call(guard, player, "next")
    assert limited.data == {"error": "Rate limited: try again in 60 s"}
    assert player.track == 21
    assert (await call(guard, player, "next", caller=BOB)).outcome is Outcome.ALLOWED
    clock.advance(seconds=60)
    assert (await call(guard, player, "next")).outcome is Outcome.ALLOWED


async def test_same_call_id_replays_without_running_again(guard: Guard, player: Player) -> None:
    first = await call(guard, player, "next", call_id="tool-1")
    second = await call(guard, player, "next", call_id="tool-1")
    assert second.outcome is Outcome.DUPLICATE
    assert second.data == first.data
    assert not second.error
    assert player.track == 2


async def test_a_replayed_read_taints_the_turn_it_is_replayed_in(
    guard: Guard, player: Player
) -> None:
    """The replay hands the model the stored device text again: the same taint applies."""
    await call(guard, player, "get_state", turn=Turn("c1", 1, "what's playing?"), call_id="r1")
    turn = Turn("c1", 2, "ok thanks")
    replay = await call(guard, player, "get_state", turn=turn, call_id="r1")
    assert replay.outcome is Outcome.DUPLICATE
    assert replay.data["device_text"] == {"title": "Song"}
    assert guard.is_tainted(ALICE, turn)
    result = await call(guard, player, "standby", turn=turn)
    assert result.outcome is Outcome.DENIED
    assert not player.standby


async def test_same_call_id_with_other_arguments_is_an_error(guard: Guard, player: Player) -> None:
    await call(guard, player, "set_volume", {"volume": 30}, call_id="tool-1")
    result = await call(guard, player, "set_volume", {"volume": 31}, call_id="tool-1")
    assert result.outcome is Outcome.INVALID
    assert player.volume == 30


async def test_timeout_is_reported_and_state_reread(guard: Guard, player: Player) -> None:
    player.hang = True
    result = await call(guard, player, "set_volume", {"volume": 30})
    assert result.outcome is Outcome.TIMED_OUT
    assert result.data == {
        "error": "Timed out: the player did not answer in time; its state was re-read",
        "state": {"volume": 20},
    }


async def test_a_cancelled_call_still_ends_in_one_record(guard: Guard, player: Player) -> None:
    player.hang = True
    task = asyncio.create_task(call(guard, player, "standby"))
    async with asyncio.timeout(2):
        while not player.calls:
            await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    (record,) = guard.audit.records
    assert record.outcome is Outcome.FAILED
    assert record.reason.startswith("Failed: the call was cancelled")
    assert guard.attempts == 1


async def test_breaker_opens_after_five_failures(
    guard: Guard, clock: FakeClock, player: Player
) -> None:
    player.fail = 5
    for _ in range(5):
        result = await call(guard, player, "next")
        assert result.data == {"error": "Failed: the player did not carry out the command"}
    refused = await call(guard, player, "next")
    assert refused.data["error"].startswith("Unavailable")
    assert len(player.calls) == 5
    clock.advance(seconds=60)
    assert (await call(guard, player, "next")).outcome is Outcome.ALLOWED


async def test_every_outcome_kind_keeps_the_invariant(
    guard: Guard, clock: FakeClock, player: Player
) -> None:
    await call(guard, player, "next")
    await call(guard, player, "nope")
    await call(guard, player, "standby", caller=NOBODY)
    await _request_limit(guard, player)
    clock.advance(minutes=6)
    guard.expire_due()
    outcomes = {record.outcome for record in guard.audit.records}
    assert outcomes == {
        Outcome.ALLOWED,
        Outcome.INVALID,
        Outcome.DENIED,
        Outcome.PENDING,
        Outcome.EXPIRED,
    }


async def test_a_flood_of_refused_calls_is_counted_not_recorded_one_by_one(
    guard: Guard, player: Player, clock: FakeClock
) -> None:
    bobs = await call(guard, player, "next", caller=BOB)
    first = await call(guard, player, "set_volume_limit", {"limit": 1})  # alice: not an admin
    assert first.outcome is Outcome.DENIED
    for _ in range(2000):
        await call(guard, player, "set_volume_limit", {"limit": 1})
    records = guard.audit.records
    assert bobs.record in records
    assert first.record in records
    assert len(records) == 1 + REFUSALS_PER_WINDOW  # bob's, and alice's first 30 refusals
    # over the limit of refused calls, even an allowed call is refused until the window frees
    blocked = await call(guard, player, "next")
    assert blocked.outcome is Outcome.RATE_LIMITED
    assert blocked.record is None
    assert player.track == 2

    clock.advance(seconds=REFUSAL_WINDOW)
    guard.expire_due()  # the periodic check: one summary of what was only counted
    summary = guard.audit.records[-1]
    assert summary.tool == "refused_calls"
    assert summary.user_id == "alice"
    assert summary.arguments == {"count": 2000 - REFUSALS_PER_WINDOW + 2}
    denied = REFUSED_CALLS_PER_WINDOW - REFUSALS_PER_WINDOW
    assert f"set_volume_limit denied x{denied}" in summary.reason
    assert f"set_volume_limit rate_limited x{2001 - REFUSED_CALLS_PER_WINDOW}" in summary.reason
    assert (await call(guard, player, "next")).outcome is Outcome.ALLOWED


async def test_approval_decisions_are_rate_limited_per_user(guard: Guard, player: Player) -> None:
    for _ in range(DECISIONS_PER_MINUTE):
        result = await guard.resolve(
            "Z9", approver=ADMIN, approve=True, requester=ADMIN, handler=None
        )
        assert result.code == "unknown"
    result = await guard.resolve("Z9", approver=ADMIN, approve=True, requester=ADMIN, handler=None)
    assert (result.outcome, result.code) == (Outcome.RATE_LIMITED, "rate_limited")
    other = await guard.resolve("Z9", approver=BOB, approve=True, requester=BOB, handler=None)
    assert other.code == "unknown"


class _Journal:
    """Records what was written ahead, and whether the player had already acted."""

    def __init__(self, player: Player, fail: bool = False) -> None:
        self.player = player
        self.fail = fail
        self.begun: list[tuple[str, dict[str, object], list[str]]] = []
        self.ended: list[str] = []

    async def begin(self, attempt_id: str, intent: Mapping[str, object]) -> None:
        if self.fail:
            raise OSError("disk full")
        self.begun.append((attempt_id, dict(intent), list(self.player.calls)))

    def end(self, attempt_id: str) -> None:
        self.ended.append(attempt_id)


async def test_a_change_is_written_ahead_before_it_runs(guard: Guard, player: Player) -> None:
    journal = _Journal(player)
    guard.journal = journal
    await call(guard, player, "get_state", turn=Turn("c1", 1, "what's on?"))  # not written ahead
    result = await call(guard, player, "set_volume", {"volume": 30}, turn=Turn("c1", 2, "30"))
    ((attempt_id, intent, calls_before),) = journal.begun
    assert calls_before == ["get_state"]  # the player had not been told yet
    assert intent["tool"] == "set_volume"
    assert intent["arguments"] == {"volume": 30}
    assert journal.ended == [attempt_id]
    assert result.record is not None
    assert result.record.attempt_id == attempt_id


async def test_a_change_that_cannot_be_written_ahead_does_not_run(
    guard: Guard, player: Player
) -> None:
    guard.journal = _Journal(player, fail=True)
    result = await call(guard, player, "set_volume", {"volume": 30})
    assert result.outcome is Outcome.FAILED
    assert player.volume == 20
    assert player.calls == []


async def test_refusals_a_misled_model_can_make_do_not_lock_the_user_out(
    guard: Guard, player: Player
) -> None:
    """A conversation makes at most 60 calls in 10 minutes: two of them, all refused, still
    leave the user their next call (their refusals beyond 30 are only counted)."""
    for _ in range(REFUSED_CALLS_PER_WINDOW - 1):
        await call(guard, player, "set_volume_limit", {"limit": 1})
    assert (await call(guard, player, "next")).outcome is Outcome.ALLOWED
    assert player.track == 2
