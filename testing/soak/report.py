"""A soak's settings (bounds and pacing) and its report (what it saw)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class SoakSettings:
    """Bounds and pacing of a soak."""

    action_bound: float
    """Seconds an HA action may take (the integration's action timeout plus margin)."""
    tool_bound: float
    """Seconds a tool call may take (the guard's timeout and its re-read, plus margin)."""
    slow_delay: float
    """The slow-response fault's delay: below the action timeout, so it is survivable."""
    reply_timeout: float
    """The integration's action (and keepalive) timeout: a reply not read within it ends
    the session, by design, even when only a starved event loop made it late."""
    detect_bound: float = 5.0
    recover_bound: float = 5.0
    """Both bounds are of the integration's own work: each wait is extended by the event
    loop's lag measured meanwhile (a starved loop runs nothing on time), up to
    `lag_allowance` times the bound more."""
    lag_allowance: float = 3.0
    lag_share: float = 0.5
    """A reply missed while a harmless fault ran is excused only when the loop lagged at
    least this share of `reply_timeout` in the `reply_timeout` before the session ended."""
    commands_per_round: int = 4
    hold: tuple[float, float] = (0.3, 1.5)
    """How long a fault lasts, seconds (uniform)."""
    lag_interval: float = 0.02


@dataclass(slots=True)
class SoakReport:
    """What a soak saw; `violations` must stay empty."""

    rounds: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    commands: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)
    detect_s: list[float] = field(default_factory=list)
    recover_s: list[float] = field(default_factory=list)
    recover_by_fault: dict[str, list[float]] = field(default_factory=dict)
    """recover_s again, by the fault that ended."""
    lag_s: list[float] = field(default_factory=list)
    memory: list[tuple[float, int]] = field(default_factory=list)
    """(seconds since start, traced bytes without the harness) from sample_memory()."""
    tasks: list[tuple[float, int]] = field(default_factory=list)
    tool_calls: int = 0
    audit_records: int = 0
    """Records of tool calls (expiries of held requests are counted apart)."""
    expiry_records: int = 0
    session_ends: list[tuple[str, str, float]] = field(default_factory=list)
    """(fault, the session's reason, loop lag in the reply timeout before) for every end."""
    lag_allowed_s: list[float] = field(default_factory=list)
    """How far each bounded wait was extended by the loop lag measured meanwhile."""
    violations: list[str] = field(default_factory=list)
