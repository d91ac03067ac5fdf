"""The guard's options on each streamer entry, and the lookup the guard uses per call.

Policies are about a player, so each streamer's entry holds the settings for its own
tools; a call that targets several players gets the strictest of their settings. An
assistant entry holds the same options for the calls it makes (`agent_settings`): they
tighten the players' settings, never loosen them.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import time, timedelta
from typing import Any, Final

from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import entity_registry as er
from homeassistant.util import dt as dt_util

from ..const import DOMAIN
from ..guard import OTHER_API_TOOLS, AgentSettings, PlayerSettings, Policy, QuietHours, strictest
from ..guard.pending import DEFAULT_EXPIRY
from ..guard.policy import DEFAULT_POLICIES
from ..guard.risk import SOFT_LIMIT_SHARE
from .linn_tools import TOOL_SPECS

OPT_POLICIES: Final = "policies"
OPT_SOFT_LIMIT: Final = "soft_limit_percent"
OPT_QUIET_START: Final = "quiet_hours_start"
OPT_QUIET_END: Final = "quiet_hours_end"
OPT_EXPIRY: Final = "approval_expiry_minutes"
OPT_NOTIFY: Final = "notify_target"
GUARD_OPTIONS: Final = (
    OPT_POLICIES,
    OPT_SOFT_LIMIT,
    OPT_QUIET_START,
    OPT_QUIET_END,
    OPT_EXPIRY,
    OPT_NOTIFY,
)

DEFAULT_SOFT_LIMIT = round(SOFT_LIMIT_SHARE * 100)
DEFAULT_EXPIRY_MINUTES = round(DEFAULT_EXPIRY.total_seconds() / 60)
POLICY_CHOICES: Final = ("allow", "confirm", "approve", "deny")
TOOL_MIN_POLICY: Final = {"set_volume_limit": Policy.APPROVE}


READ_POLICY_CHOICES: Final = ("allow", "deny")
"""A read runs at once or not at all: there is nothing to confirm or approve."""


OTHER_API_POLICY_CHOICES: Final = ("allow", "confirm", "deny")
"""No *approve*: an administrator's approval runs only Linn tools (the guard refuses
where it would ask an admin for another API's tool)."""


def policy_choices(tool: str) -> list[str]:
    """The policies an owner may pick for a tool (none laxer than its minimum)."""
    if tool == OTHER_API_TOOLS:
        return list(OTHER_API_POLICY_CHOICES)
    spec = TOOL_SPECS.get(tool)
    if spec is not None and not spec.changes_state:
        return list(READ_POLICY_CHOICES)
    floor = TOOL_MIN_POLICY.get(tool, Policy.ALLOW)
    return [name for name in POLICY_CHOICES if Policy.parse(name) >= floor]


def default_policy(tool: str) -> str:
    """The default policy of a tool, as an option value."""
    return DEFAULT_POLICIES.get(tool, Policy.ALLOW).name.lower()


def _policies(options: Mapping[str, Any]) -> dict[str, Policy]:
    """The policies the options set, for known tools and known values only."""
    return {
        tool: Policy.parse(name)
        for tool, name in (options.get(OPT_POLICIES) or {}).items()
        if tool in DEFAULT_POLICIES and name in POLICY_CHOICES
    }


def _quiet_hours(options: Mapping[str, Any]) -> tuple[QuietHours, ...]:
    start, end = options.get(OPT_QUIET_START), options.get(OPT_QUIET_END)
    if not start or not end or start == end:
        return ()
    return (
        QuietHours(
            time.fromisoformat(start), time.fromisoformat(end), dt_util.get_default_time_zone()
        ),
    )


def _notify_targets(options: Mapping[str, Any]) -> tuple[str, ...]:
    notify = options.get(OPT_NOTIFY)
    return (notify,) if notify else ()


def player_settings(options: Mapping[str, Any]) -> PlayerSettings:
    """One entry's options as guard settings; missing or bad values fall back to defaults."""
    return PlayerSettings(
        policies=dict(DEFAULT_POLICIES) | _policies(options),
        soft_limit_share=float(options.get(OPT_SOFT_LIMIT, DEFAULT_SOFT_LIMIT)) / 100,
        quiet_hours=_quiet_hours(options),
        approval_expiry=timedelta(minutes=float(options.get(OPT_EXPIRY, DEFAULT_EXPIRY_MINUTES))),
        notify_targets=_notify_targets(options),
    )


def agent_settings(options: Mapping[str, Any]) -> AgentSettings:
    """An assistant entry's guard options: only what is set, to tighten the players'."""
    soft_limit = options.get(OPT_SOFT_LIMIT)
    expiry = options.get(OPT_EXPIRY)
    return AgentSettings(
        policies=_policies(options),
        soft_limit_share=float(soft_limit) / 100 if soft_limit is not None else None,
        quiet_hours=_quiet_hours(options),
        approval_expiry=timedelta(minutes=float(expiry)) if expiry is not None else None,
        notify_targets=_notify_targets(options),
    )


@callback
def async_settings_lookup(hass: HomeAssistant) -> Any:
    """For Guard.settings_for: the strictest settings of the entries owning these players."""

    @callback
    def settings_for(entity_ids: tuple[str, ...]) -> PlayerSettings | None:
        registry = er.async_get(hass)
        found = []
        for entity_id in entity_ids:
            entity = registry.async_get(entity_id)
            if entity is None or entity.platform != DOMAIN or entity.config_entry_id is None:
                continue
            entry = hass.config_entries.async_get_entry(entity.config_entry_id)
            if entry is not None:
                found.append(player_settings(entry.options))
        return strictest(found)

    return settings_for
