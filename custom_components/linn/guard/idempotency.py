"""Idempotency on the caller's tool-call id: one execution per key."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from .clock import Clock

KEEP_FOR = timedelta(hours=24)
MAX_ENTRIES = 1000
"""Every call from the Assist API has its own id: without a cap an agent calling in a loop
would grow the cache for a day (the fault soak measured it). A retry comes within seconds."""


class IdempotencyConflict(Exception):
    """The same key came back with different arguments."""


@dataclass(frozen=True, slots=True)
class StoredOutcome:
    """What the first call with this key produced."""

    args_hash: str
    outcome: str
    data: dict[str, Any]
    error: bool
    stored_at: float


class IdempotencyCache:
    """Stored outcomes by key, kept `keep_for`; the newest `max_entries` of them."""

    def __init__(
        self, clock: Clock, keep_for: timedelta = KEEP_FOR, max_entries: int = MAX_ENTRIES
    ) -> None:
        self._clock = clock
        self._keep_for = keep_for.total_seconds()
        self._max_entries = max_entries
        self._entries: dict[Hashable, StoredOutcome] = {}

    def lookup(self, key: Hashable, args_hash: str) -> StoredOutcome | None:
        """The stored outcome for the same arguments; IdempotencyConflict for others."""
        self._prune()
        stored = self._entries.get(key)
        if stored is None:
            return None
        if stored.args_hash != args_hash:
            raise IdempotencyConflict
        return stored

    def store(
        self, key: Hashable, args_hash: str, outcome: str, data: dict[str, Any], error: bool
    ) -> None:
        """Remember the outcome of a call that ran (or is pending)."""
        self._entries.pop(key, None)  # re-stored: now the newest
        self._entries[key] = StoredOutcome(
            args_hash, outcome, data, error, self._clock().timestamp()
        )
        while len(self._entries) > self._max_entries:
            del self._entries[next(iter(self._entries))]

    def __len__(self) -> int:
        return len(self._entries)

    def _prune(self) -> None:
        horizon = self._clock().timestamp() - self._keep_for
        if self._entries and next(iter(self._entries.values())).stored_at < horizon:
            self._entries = {k: v for k, v in self._entries.items() if v.stored_at >= horizon}
