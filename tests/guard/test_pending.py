"""Pending requests: bound, single-use, expiring, capped per user, storable."""

from __future__ import annotations

import json

import pytest

from custom_components.linn.guard import PendingBook, PendingKind, args_hash
from custom_components.linn.guard.pending import PendingError, PendingStatus

from .doubles import FakeClock


def _open(book: PendingBook, user: str = "alice", volume: int = 80) -> str:
    return book.create(
        PendingKind.APPROVE,
        "set_volume",
        {"volume": volume},
        user_id=user,
        conversation_id="c1",
        turn=1,
    ).request_id


def test_request_is_bound_to_the_exact_call(clock: FakeClock) -> None:
    book = PendingBook(clock)
    request = book.get(_open(book))
    assert request is not None
    assert len(request.request_id) == 2
    assert request.args_hash == args_hash("set_volume", {"volume": 80})
    found = book.find_open("alice", "c1", "set_volume", args_hash("set_volume", {"volume": 80}))
    assert found == request
    assert book.find_open("bob", "c1", "set_volume", request.args_hash) is None
    assert book.find_open("alice", "c2", "set_volume", request.args_hash) is None
    assert (
        book.find_open("alice", "c1", "set_volume", args_hash("set_volume", {"volume": 81})) is None
    )


def test_single_use(clock: FakeClock) -> None:
    book = PendingBook(clock)
    request_id = _open(book)
    assert book.take(request_id, approve=True).status is PendingStatus.APPROVED
    with pytest.raises(PendingError, match="already resolved"):
        book.take(request_id, approve=True)


def test_expires_after_five_minutes(clock: FakeClock) -> None:
    book = PendingBook(clock)
    request_id = _open(book)
    clock.advance(minutes=4, seconds=59)
    assert book.open_requests()
    clock.advance(seconds=1)
    with pytest.raises(PendingError) as err:
        book.take(request_id, approve=True)
    assert err.value.expired


def test_at_most_five_open_per_user(clock: FakeClock) -> None:
    book = PendingBook(clock)
    ids = {_open(book, volume=v) for v in range(5)}
    assert len(ids) == 5
    with pytest.raises(PendingError, match="too many"):
        _open(book, volume=99)
    _open(book, user="bob")  # another user is not affected
    book.take(ids.pop(), approve=False)
    _open(book, volume=99)  # a resolved one frees a slot


def test_survives_a_restart_through_plain_json(clock: FakeClock) -> None:
    book = PendingBook(clock)
    request_id = _open(book)
    stored = json.loads(json.dumps(book.to_dict()))
    restored = PendingBook(clock)
    restored.load(stored)
    assert restored.get(request_id) == book.get(request_id)
    assert restored.take(request_id, approve=True).arguments == {"volume": 80}


def test_only_open_requests_are_found_however_they_ended(clock: FakeClock) -> None:
    """The open ones are indexed apart from the resolved ones; every way out leaves the index."""
    book = PendingBook(clock)
    approved, denied, lapsing, expiring, also = (_open(book, volume=v) for v in range(5))
    book.take(approved, approve=True)
    book.take(denied, approve=False)
    clock.advance(minutes=4)
    later = _open(book, user="bob")
    clock.advance(minutes=1)  # the first five are due now; bob's is not
    with pytest.raises(PendingError):
        book.take(lapsing, approve=True)  # noticed by take
    assert {r.request_id for r in book.open_requests()} == {later}  # the rest by the scan
    assert [r.request_id for r in book.take_expired()] == [expiring, also]
    bob = args_hash("set_volume", {"volume": 80})
    assert book.find_open("bob", "c1", "set_volume", bob) == book.get(later)
    for volume in range(5):
        alice = args_hash("set_volume", {"volume": volume})
        assert book.find_open("alice", "c1", "set_volume", alice) is None
    assert [r.request_id for r in book.awaiting_approval()] == [later]
    assert book.get(expiring) is not None  # resolved ones are still known by id
    assert book.get(expiring).status is PendingStatus.EXPIRED  # type: ignore[union-attr]


def test_restored_requests_are_indexed_by_status(clock: FakeClock) -> None:
    book = PendingBook(clock)
    done, waiting = _open(book, volume=1), _open(book, volume=2)
    book.take(done, approve=True)
    restored = PendingBook(clock)
    restored.load(json.loads(json.dumps(book.to_dict())))
    assert [r.request_id for r in restored.open_requests()] == [waiting]
    assert restored.get(done) is not None


def test_resolved_requests_are_kept_a_day_then_dropped(clock: FakeClock) -> None:
    """Day-old requests are pruned on a schedule, not on every call."""
    book = PendingBook(clock)
    old = _open(book)
    book.take(old, approve=True)
    clock.advance(days=1, minutes=5)  # it expired 5 minutes later: a day ago exactly
    book.open_requests()
    assert book.get(old) is not None  # replaying its id is still recognised
    clock.advance(seconds=1)
    book.open_requests()  # pruned less than PRUNE_EVERY ago: not looked at again yet
    assert book.get(old) is not None
    clock.advance(minutes=10)
    book.open_requests()
    assert book.get(old) is None
    assert book.to_dict() == {"requests": []}


def test_a_clock_set_back_prunes_at_once(clock: FakeClock) -> None:
    book = PendingBook(clock)
    book.open_requests()  # pruned now
    clock.advance(days=-2)
    old = _open(book)
    book.take(old, approve=False)
    clock.advance(days=2, seconds=-1)  # a second before the last prune
    book.open_requests()
    assert book.get(old) is None
