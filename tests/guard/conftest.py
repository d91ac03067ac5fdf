"""Guard tests: no Home Assistant, an injectable clock, a tiny in-memory player."""

from __future__ import annotations

import pytest

from custom_components.linn.guard import Guard

from .doubles import SPECS, FakeClock, Player


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def player() -> Player:
    return Player()


@pytest.fixture
def guard(clock: FakeClock) -> Guard:
    return Guard(SPECS, clock=clock)
