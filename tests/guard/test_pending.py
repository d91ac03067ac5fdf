"""Pending requests: bound, single-use, expiring, capped per user, storable."""

from __future__ import annotations

import json

import pytest

from custom_components.linn.guard import PendingBook, PendingKind, args_hash
from custom_components.linn.guard.pending import PendingError, PendingStatus

from .conftest import FakeClock


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
