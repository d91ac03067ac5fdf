"""Conversation limits and budgets are a user's own: keyed by user and conversation, and
capped per user over all conversations (a new conversation id resets nothing)."""

from __future__ import annotations

import pytest

from custom_components.linn.guard import Guard, Ledger, Outcome, Turn

from .callers import ALICE, BOB
from .calls import call, check_audit_invariant
from .doubles import SPECS, FakeClock, Player


async def test_another_users_calls_under_the_same_conversation_id_do_not_lock_a_user_out(
    guard: Guard, player: Player
) -> None:
    """An automation's conversation id (`kitchen`) is shared; its limit is not."""
    for _ in range(60):
        await call(guard, player, "get_state", caller=BOB, turn=Turn("kitchen", 1, "status"))
    result = await call(guard, player, "standby", caller=ALICE, turn=Turn("kitchen", 2, "standby"))
    assert result.outcome is Outcome.ALLOWED
    bob = await call(guard, player, "get_state", caller=BOB, turn=Turn("kitchen", 2, "status"))
    assert bob.outcome is Outcome.RATE_LIMITED  # Bob's own limit holds
    check_audit_invariant(guard)


async def test_a_new_conversation_id_does_not_reset_a_users_limit(
    clock: FakeClock, player: Player
) -> None:
    guard = Guard(SPECS, clock=clock, calls_per_conversation=5, reads_per_minute=1000)
    outcomes = []
    for conversation in range(4):
        for _ in range(5):
            turn = Turn(f"c{conversation}", 1, "status")
            outcomes.append((await call(guard, player, "get_state", turn=turn)).outcome)
    # two conversations' worth (10) run; a third and fourth conversation get nothing more
    assert outcomes.count(Outcome.ALLOWED) == 10
    assert outcomes[10:] == [Outcome.RATE_LIMITED] * 10
    # another user is not affected, and the window frees the user again
    other = await call(guard, player, "get_state", caller=BOB, turn=Turn("c9", 1, "status"))
    assert other.outcome is Outcome.ALLOWED
    clock.advance(minutes=10)
    again = await call(guard, player, "get_state", turn=Turn("c5", 1, "status"))
    assert again.outcome is Outcome.ALLOWED
    check_audit_invariant(guard)


async def test_a_users_ledger_counts_over_every_conversation(guard: Guard, player: Player) -> None:
    for conversation in ("c1", "c2", "kitchen"):
        await call(guard, player, "get_state", turn=Turn(conversation, 1, "status"))
    await call(guard, player, "get_state", caller=BOB, turn=Turn("kitchen", 1, "status"))
    assert guard.ledger.for_user(ALICE.user_id or "")["tool_calls"] == 3
    assert guard.ledger.for_user(BOB.user_id or "")["tool_calls"] == 1
    assert guard.ledger.for_conversation("kitchen", ALICE.user_id)["tool_calls"] == 1
    # kept across a restart (today's counters are stored)
    restored = Guard(SPECS, clock=guard.clock)
    restored.ledger.load(guard.ledger.to_dict())
    assert restored.ledger.for_user(ALICE.user_id or "")["tool_calls"] == 3
    check_audit_invariant(guard)


def test_the_callers_with_no_user_are_counted_together_and_kept() -> None:
    """Their counters are stored under "" (no user id is empty) and restored as None."""
    clock = FakeClock()
    ledger = Ledger(clock)
    ledger.add("kitchen", weighted_tokens=5)
    ledger.add("hall", weighted_tokens=7)
    ledger.add("kitchen", user_id="alice", weighted_tokens=1)
    assert ledger.for_user(None)["weighted_tokens"] == 12
    stored = ledger.to_dict()
    assert stored["users"][""] == {"weighted_tokens": 12}
    restored = Ledger(clock)
    restored.load(stored)
    assert restored.for_user(None)["weighted_tokens"] == 12
    assert restored.for_user("alice")["weighted_tokens"] == 1


def test_a_reservation_counts_while_its_call_runs_and_is_released_however_it_ends() -> None:
    """Ledger.reserved: for the user, their conversation and today, never for another."""
    ledger = Ledger(FakeClock())
    ledger.add("kitchen", user_id="alice", weighted_tokens=5)
    with ledger.reserved("kitchen", {"weighted_tokens": 10}, user_id="alice"):
        assert ledger.for_user("alice", reserved=True)["weighted_tokens"] == 15
        assert ledger.for_conversation("kitchen", "alice", reserved=True)["weighted_tokens"] == 15
        assert ledger.for_conversation("hall", "alice", reserved=True) == {}
        assert ledger.for_user("bob", reserved=True) == {}
        assert ledger.for_user(None, reserved=True) == {}
        assert ledger.totals_today(reserved=True)["weighted_tokens"] == 15
        assert ledger.for_user("alice")["weighted_tokens"] == 5  # spent only

    def fails() -> None:
        with ledger.reserved(None, {"weighted_tokens": 10}):
            assert ledger.for_user(None, reserved=True)["weighted_tokens"] == 10
            raise RuntimeError

    with pytest.raises(RuntimeError):
        fails()
    assert ledger.totals_today(reserved=True) == ledger.totals_today() == {"weighted_tokens": 5}
    assert "_reserved" not in ledger.to_dict()
