"""Per-player guard settings (from each streamer's options) and how several combine.

A call that targets several players (join) gets the strictest of their settings: the
strictest policy per tool, the lowest soft limit, every quiet period, the shortest expiry
and every notify target.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from .decisions import Policy
from .pending import DEFAULT_EXPIRY
from .policy import DEFAULT_POLICIES
from .risk import SOFT_LIMIT_SHARE, QuietHours


@dataclass(frozen=True, slots=True)
class PlayerSettings:
    """What an owner set for one player's tools."""

    policies: Mapping[str, Policy] = field(default_factory=lambda: dict(DEFAULT_POLICIES))
    soft_limit_share: float = SOFT_LIMIT_SHARE
    quiet_hours: tuple[QuietHours, ...] = ()
    approval_expiry: timedelta = DEFAULT_EXPIRY
    notify_targets: tuple[str, ...] = ()

    def policy(self, tool: str) -> Policy:
        """The policy of one tool (allow when the tool is not listed)."""
        return self.policies.get(tool, DEFAULT_POLICIES.get(tool, Policy.ALLOW))

    def quiet(self, now: datetime) -> bool:
        """True inside any quiet period."""
        return any(period.active(now) for period in self.quiet_hours)


def strictest(settings: Iterable[PlayerSettings]) -> PlayerSettings | None:
    """The combination of several players' settings; None when there are none."""
    items = list(settings)
    if not items:
        return None
    if len(items) == 1:
        return items[0]
    tools = {tool for item in items for tool in item.policies} | set(DEFAULT_POLICIES)
    return PlayerSettings(
        policies={tool: max(item.policy(tool) for item in items) for tool in tools},
        soft_limit_share=min(item.soft_limit_share for item in items),
        quiet_hours=tuple(period for item in items for period in item.quiet_hours),
        approval_expiry=min(item.approval_expiry for item in items),
        notify_targets=tuple(
            dict.fromkeys(target for item in items for target in item.notify_targets)
        ),
    )
