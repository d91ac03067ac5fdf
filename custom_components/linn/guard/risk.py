"""Dynamic risk: signals computed in code; two or more escalate a call one step."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, tzinfo
from enum import StrEnum

JUMP_POINTS = 20
SOFT_LIMIT_SHARE = 0.6


class RiskSignal(StrEnum):
    """Independent reasons for caution."""

    ABOVE_SOFT_LIMIT = "above_soft_limit"
    QUIET_HOURS = "quiet_hours"
    VOLUME_JUMP = "volume_jump"
    UNIDENTIFIED_CALLER = "unidentified_caller"
    TAINTED_TURN = "tainted_turn"


@dataclass(frozen=True, slots=True)
class QuietHours:
    """A daily period in local time; may wrap past midnight (22:00-07:00)."""

    start: time
    end: time
    tz: tzinfo

    def active(self, now: datetime) -> bool:
        """True if `now` falls inside the period."""
        local = now.astimezone(self.tz).time()
        if self.start <= self.end:
            return self.start <= local < self.end
        return local >= self.start or local < self.end


@dataclass(frozen=True, slots=True)
class RiskFacts:
    """What the tool knows about the effect of a call (volume in device units)."""

    volume_target: int | None = None
    volume_current: int | None = None
    volume_limit: int | None = None
    soft_limit_share: float = SOFT_LIMIT_SHARE

    @property
    def soft_limit(self) -> int | None:
        """The volume above which a change needs the user's confirmation."""
        if self.volume_limit is None:
            return None
        return int(self.volume_limit * self.soft_limit_share)

    @property
    def above_soft_limit(self) -> bool:
        """The call would set the volume above the soft limit."""
        soft = self.soft_limit
        return self.volume_target is not None and soft is not None and self.volume_target > soft

    @property
    def jump(self) -> bool:
        """The call raises the volume by more than JUMP_POINTS."""
        return (
            self.volume_target is not None
            and self.volume_current is not None
            and self.volume_target - self.volume_current > JUMP_POINTS
        )


def risk_signals(
    facts: RiskFacts,
    *,
    quiet_hours: bool,
    identified: bool,
    tainted: bool,
) -> frozenset[RiskSignal]:
    """Every signal that holds for a state-changing call."""
    signals: set[RiskSignal] = set()
    if facts.above_soft_limit:
        signals.add(RiskSignal.ABOVE_SOFT_LIMIT)
    if facts.jump:
        signals.add(RiskSignal.VOLUME_JUMP)
    if quiet_hours:
        signals.add(RiskSignal.QUIET_HOURS)
    if not identified:
        signals.add(RiskSignal.UNIDENTIFIED_CALLER)
    if tainted:
        signals.add(RiskSignal.TAINTED_TURN)
    return frozenset(signals)
