"""Circuit breakers: a tool that keeps failing on a device stops being tried for a while."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from enum import StrEnum

from .clock import Clock

FAILURES_TO_OPEN = 5
OPEN_SECONDS = 60.0


class BreakerState(StrEnum):
    """Closed: calls pass. Open: refused. Half-open: one trial call passes."""

    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half_open"


@dataclass(slots=True)
class _Circuit:
    failures: int = 0
    opened_at: float | None = None
    trial_running: bool = False


class CircuitBreaker:
    """One circuit per key (tool x device); consecutive failures open it."""

    def __init__(
        self,
        clock: Clock,
        failures_to_open: int = FAILURES_TO_OPEN,
        open_seconds: float = OPEN_SECONDS,
    ) -> None:
        self._clock = clock
        self.failures_to_open = failures_to_open
        self.open_seconds = open_seconds
        self._circuits: dict[Hashable, _Circuit] = {}

    def state(self, key: Hashable) -> BreakerState:
        """The circuit's state now."""
        circuit = self._circuits.get(key)
        if circuit is None or circuit.opened_at is None:
            return BreakerState.CLOSED
        if self._clock().timestamp() - circuit.opened_at < self.open_seconds:
            return BreakerState.OPEN
        return BreakerState.HALF_OPEN

    def allow(self, key: Hashable) -> bool:
        """True if a call may run now (claims the single half-open trial)."""
        match self.state(key):
            case BreakerState.CLOSED:
                return True
            case BreakerState.OPEN:
                return False
        circuit = self._circuits[key]
        if circuit.trial_running:
            return False
        circuit.trial_running = True
        return True

    def success(self, key: Hashable) -> None:
        """A call succeeded: the circuit closes."""
        self._circuits.pop(key, None)

    def failure(self, key: Hashable) -> None:
        """A call failed (error or timeout): count it; a failed trial re-opens."""
        circuit = self._circuits.setdefault(key, _Circuit())
        circuit.failures += 1
        if circuit.trial_running or circuit.failures >= self.failures_to_open:
            circuit.opened_at = self._clock().timestamp()
            circuit.trial_running = False

    def release(self, key: Hashable) -> None:
        """A call that claimed the trial ended without reaching the device."""
        circuit = self._circuits.get(key)
        if circuit is not None:
            circuit.trial_running = False

    def snapshot(self) -> dict[str, str]:
        """Non-closed circuits by key, for diagnostics."""
        return {
            str(key): self.state(key).value
            for key in self._circuits
            if self.state(key) is not BreakerState.CLOSED
        }
