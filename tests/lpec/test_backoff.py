"""Reconnect backoff: doubling, capped, jittered."""

from __future__ import annotations

import pytest

from custom_components.linn.lpec.backoff import Backoff


def test_backoff_doubles_up_to_the_cap_with_jitter() -> None:
    backoff = Backoff(0.5, 4.0)
    ceilings = [0.5, 1.0, 2.0, 4.0, 4.0, 4.0]
    for ceiling in ceilings:
        delay = backoff.next_delay()
        assert ceiling * 0.5 <= delay <= ceiling
    backoff.reset()
    assert backoff.next_delay() <= 0.5


def test_backoff_survives_many_attempts() -> None:
    backoff = Backoff(0.1, 30.0)
    for _ in range(10_000):
        assert backoff.next_delay() <= 30.0


@pytest.mark.parametrize(("minimum", "maximum"), [(0, 1), (2, 1), (-1, 5)])
def test_backoff_rejects_bad_bounds(minimum: float, maximum: float) -> None:
    with pytest.raises(ValueError, match="minimum"):
        Backoff(minimum, maximum)
