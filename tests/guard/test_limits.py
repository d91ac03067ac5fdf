"""Rate limits, idempotency keys and circuit breakers, on the injectable clock."""

from __future__ import annotations

import pytest

from custom_components.linn.guard import CircuitBreaker, IdempotencyCache, RateLimiter
from custom_components.linn.guard.breaker import BreakerState
from custom_components.linn.guard.idempotency import IdempotencyConflict
from custom_components.linn.guard.limits import retry_message

from .doubles import FakeClock


def test_sliding_window(clock: FakeClock) -> None:
    limiter = RateLimiter(clock, limit=3, window=60)
    assert [limiter.hit("k") for _ in range(3)] == [None, None, None]
    clock.advance(seconds=20)
    assert limiter.hit("k") == pytest.approx(40)
    assert limiter.hit("other") is None
    clock.advance(seconds=40)
    assert limiter.hit("k") is None
    assert retry_message(39.2) == "Rate limited: try again in 40 s"


def test_idle_keys_are_forgotten(clock: FakeClock) -> None:
    limiter = RateLimiter(clock, limit=3, window=60)
    for conversation in range(1000):
        assert limiter.hit(f"c{conversation}") is None
        clock.advance(seconds=1)
    assert len(limiter) < 200  # the last minute's keys, and the sweep's slack
    assert limiter.hit("c999") is None  # a live key keeps its hits
    assert limiter.hit("c999") is None
    assert limiter.hit("c999") is not None


def test_idempotency_replays_and_refuses_changed_arguments(clock: FakeClock) -> None:
    cache = IdempotencyCache(clock)
    assert cache.lookup("id1", "h1") is None
    cache.store("id1", "h1", "allowed", {"done": True}, error=False)
    stored = cache.lookup("id1", "h1")
    assert stored is not None
    assert stored.data == {"done": True}
    with pytest.raises(IdempotencyConflict):
        cache.lookup("id1", "h2")
    clock.advance(hours=24, seconds=1)
    assert cache.lookup("id1", "h2") is None  # kept 24 h, then a new key


def test_idempotency_keeps_only_the_newest_entries(clock: FakeClock) -> None:
    cache = IdempotencyCache(clock, max_entries=3)
    for key in ("a", "b", "c", "d"):
        cache.store(key, "h", "allowed", {}, error=False)
    assert len(cache) == 3
    assert cache.lookup("a", "other") is None  # dropped: a new key now
    assert cache.lookup("d", "h") is not None
    cache.store("b", "h", "allowed", {}, error=False)  # re-stored: the newest
    cache.store("e", "h", "allowed", {}, error=False)
    assert cache.lookup("b", "h") is not None
    assert cache.lookup("c", "other") is None


def test_breaker_opens_after_five_failures_and_tries_once_when_half_open(
    clock: FakeClock,
) -> None:
    breaker = CircuitBreaker(clock)
    for _ in range(4):
        assert breaker.allow("k")
        breaker.failure("k")
    assert breaker.state("k") is BreakerState.CLOSED
    breaker.failure("k")
    assert breaker.state("k") is BreakerState.OPEN
    assert not breaker.allow("k")
    clock.advance(seconds=60)
    assert breaker.allow("k")  # the one trial
    assert not breaker.allow("k")
    breaker.failure("k")  # the trial failed: open again
    assert breaker.state("k") is BreakerState.OPEN
    clock.advance(seconds=60)
    assert breaker.allow("k")
    breaker.success("k")
    assert breaker.state("k") is BreakerState.CLOSED
    assert breaker.allow("k")
