"""The audit log is hash-chained: any change, insertion or deletion is detected."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, strategies as st
import pytest

from custom_components.linn.guard import (
    AuditLog,
    AuditRecord,
    ChainError,
    Guard,
    Outcome,
    Turn,
    verify_chain,
)

from .callers import ALICE
from .calls import call, check_audit_invariant
from .doubles import SPECS, FakeClock, Player


def _log(count: int, max_records: int = 100) -> AuditLog:
    log = AuditLog(max_records)
    for index in range(count):
        log.append(
            ts=f"2026-10-01T12:00:{index:02d}+00:00",
            outcome=Outcome.ALLOWED,
            tool="set_volume",
            user_id="alice",
            agent_id=None,
            conversation_id="c1",
            arguments={"volume": index},
            args_hash=f"{index:064x}",
            reason="ok",
            latency_ms=0.1,
        )
    return log


def test_chain_verifies_and_survives_storage() -> None:
    log = _log(10)
    assert log.verify() == 10
    restored = AuditLog.load(json.loads(json.dumps(log.to_dict())))
    assert restored.head == log.head
    assert restored.total == 10


FIELDS = ["seq", "ts", "outcome", "tool", "user_id", "arguments", "reason", "prev_hash", "hash"]


@given(
    index=st.integers(0, 9),
    field=st.sampled_from(FIELDS),
    new=st.one_of(st.text(max_size=5), st.integers(), st.sampled_from(list(Outcome))),
)
def test_any_change_to_any_record_is_detected(index: int, field: str, new: Any) -> None:
    data = _log(10).to_dict()
    record = data["records"][index]
    if field == "arguments":
        new = {"volume": new}
    if field == "outcome" and not isinstance(new, Outcome):
        new = Outcome.DENIED
    if record[field] == new:
        return
    record[field] = new
    with pytest.raises((ChainError, ValueError)):
        AuditLog.load(data)


@given(st.integers(0, 9))
def test_deleting_a_record_is_detected(index: int) -> None:
    data = _log(10).to_dict()
    del data["records"][index]
    with pytest.raises(ChainError):
        AuditLog.load(data)


def test_inserting_a_forged_record_is_detected() -> None:
    data = _log(3).to_dict()
    forged = dict(data["records"][1])
    forged["outcome"] = "approved"
    data["records"].insert(2, forged)
    with pytest.raises(ChainError):
        AuditLog.load(data)


def test_rotation_keeps_a_verifiable_tail() -> None:
    log = _log(25, max_records=10)
    assert len(log.records) == 10
    assert log.records[0].seq == 16
    assert log.verify() == 10
    assert log.total == 25
    with pytest.raises(ChainError):  # the tail does not verify from the genesis
        verify_chain(log.records)


def test_a_rebuilt_record_with_a_fresh_hash_still_breaks_the_next_link() -> None:
    log = _log(5)
    records = list(log.records)
    content = records[2].content() | {"outcome": "approved"}
    from custom_components.linn.guard.audit import record_hash

    records[2] = AuditRecord.from_dict({**content, "hash": record_hash(content)})
    with pytest.raises(ChainError) as err:
        verify_chain(records)
    assert err.value.index == 3


def _append(
    log: AuditLog, user: str | None, outcome: Outcome = Outcome.ALLOWED, *, read: bool = False
) -> AuditRecord:
    return log.append(
        ts="2026-10-01T12:00:00+00:00", outcome=outcome, tool="get_state" if read else "next",
        user_id=user, agent_id=None, conversation_id=None, arguments={}, args_hash="",
        reason="ok", latency_ms=0.0, read=read,
    )  # fmt: skip


def test_one_users_volume_drops_only_their_own_records_and_never_their_refusals() -> None:
    log = AuditLog(max_records=10, max_refusals=5)
    bobs = [_append(log, "bob") for _ in range(3)]
    refusal = _append(log, "alice", Outcome.DENIED)
    for _ in range(5000):
        _append(log, "alice")
    kept = log.records
    assert all(record in kept for record in [*bobs, refusal])
    assert len([r for r in kept if r.user_id == "alice"]) == 11  # 10 calls, 1 refusal
    assert log.verify() == 14
    assert log.total == 5004
    restored = AuditLog.load(json.loads(json.dumps(log.to_dict())), 10, 5)
    assert restored.head == log.head
    assert restored.verify() == 14


def test_a_flood_of_refusals_drops_only_the_same_users_oldest_refusals() -> None:
    log = AuditLog(max_records=10, max_refusals=5)
    bob = _append(log, "bob", Outcome.DENIED)
    mine = _append(log, "alice")
    for _ in range(100):
        _append(log, "alice", Outcome.INVALID)
    assert bob in log.records
    assert mine in log.records
    assert log.verify() == 7


def test_a_record_deleted_inside_the_kept_log_is_still_detected() -> None:
    log = AuditLog(max_records=3, max_refusals=3)
    _append(log, "bob")
    for _ in range(12):
        _append(log, "alice")
    data = log.to_dict()
    assert data["gaps"]  # dropped records between kept ones
    del data["records"][2]
    with pytest.raises(ChainError):
        AuditLog.load(data, 3, 3)


def test_reads_have_their_own_quota_and_never_drop_a_change() -> None:
    log = AuditLog(max_records=10, max_refusals=5, max_reads=20)
    change = _append(log, "alice")
    reads = [_append(log, "alice", read=True) for _ in range(1000)]
    kept = log.records
    assert change in kept
    assert reads[-20:] == [r for r in kept if r.read]
    assert log.verify() == 21
    restored = AuditLog.load(json.loads(json.dumps(log.to_dict())), 10, 5, 20)
    assert restored.head == log.head
    assert [r.read for r in restored.records].count(True) == 20
    # changes still rotate only changes: the newest reads stay
    for _ in range(30):
        _append(log, "alice")
    assert len([r for r in log.records if r.read]) == 20


def test_a_read_flag_changed_afterwards_is_detected() -> None:
    log = AuditLog()
    _append(log, "alice", read=True)
    data = log.to_dict()
    data["records"][0]["read"] = False  # moved into the change quota to push changes out
    with pytest.raises(ChainError):
        AuditLog.load(data)


async def test_a_members_reads_never_rotate_their_change_out_of_the_log(
    clock: FakeClock, player: Player
) -> None:
    guard = Guard(SPECS, clock=clock, audit_max_records=50, reads_per_minute=1000)
    player.volume = 20
    change = await call(guard, player, "set_volume", {"volume": 40}, caller=ALICE)
    assert change.outcome is Outcome.ALLOWED
    for i in range(50):
        await call(guard, player, "get_state", caller=ALICE, turn=Turn(f"r{i}", 1, "status"))
    assert change.record in guard.audit.records
    check_audit_invariant(guard)
