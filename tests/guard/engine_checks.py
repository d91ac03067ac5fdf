"""What the guard's end-to-end tests (test_engine_*.py) share: the audit check after every test
and an admin's request that waits for approval.

A test module uses the check with `from .engine_checks import _audit_invariant  # noqa: F401`.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from custom_components.linn.guard import Guard, Outcome

from .callers import ADMIN
from .calls import call, check_audit_invariant
from .doubles import Player


@pytest.fixture(autouse=True)
def _audit_invariant(guard: Guard) -> Iterator[None]:
    """attempts = outcomes = records (or counted ones), and the chain verifies, after every test."""
    yield
    check_audit_invariant(guard)


async def _request_limit(guard: Guard, player: Player) -> str:
    result = await call(guard, player, "set_volume_limit", {"limit": 40}, caller=ADMIN)
    assert result.outcome is Outcome.PENDING
    assert result.request_id is not None
    return result.request_id
