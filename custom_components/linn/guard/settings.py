"""Per-player guard settings (from each streamer's options) and how several combine.

A call that targets several players (join) gets the strictest of their settings: the
strictest policy per tool, the lowest soft limit, every quiet period, the shortest expiry
and every notify target. An assistant's own settings (AgentSettings) tighten those for the
calls that assistant makes, the same way; they never loosen them.
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


@dataclass(frozen=True, slots=True)
class AgentSettings:
    """What an assistant's owner set for the calls that assistant makes.

    Only what is set counts, and only ever as a tightening: a policy laxer than the
    player's, an empty soft limit or an empty expiry leave the player's setting as it is.
    """

    policies: Mapping[str, Policy] = field(default_factory=dict)
    soft_limit_share: float | None = None
    quiet_hours: tuple[QuietHours, ...] = ()
    approval_expiry: timedelta | None = None
    notify_targets: tuple[str, ...] = ()

    def tighten(self, base: PlayerSettings) -> PlayerSettings:
        """The players' settings made stricter by this assistant's (never laxer)."""
        tools = set(base.policies) | set(self.policies) | set(DEFAULT_POLICIES)
        return PlayerSettings(
            policies={
                tool: max(base.policy(tool), self.policies.get(tool, Policy.ALLOW))
                for tool in tools
            },
            soft_limit_share=(
                base.soft_limit_share
                if self.soft_limit_share is None
                else min(base.soft_limit_share, self.soft_limit_share)
            ),
            quiet_hours=(*base.quiet_hours, *self.quiet_hours),
            approval_expiry=(
                base.approval_expiry
                if self.approval_expiry is None
                else min(base.approval_expiry, self.approval_expiry)
            ),
            notify_targets=tuple(dict.fromkeys((*base.notify_targets, *self.notify_targets))),
        )
