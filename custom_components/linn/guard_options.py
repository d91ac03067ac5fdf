"""The guard's options on each streamer entry, and the lookup the guard uses per call.

Policies are about a player, so each streamer's entry holds the settings for its own
tools; a call that targets several players gets the strictest of their settings.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import time, timedelta
from typing import Any, Final

from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import entity_registry as er
from homeassistant.util import dt as dt_util

from .const import DOMAIN
from .guard import PlayerSettings, Policy, QuietHours, strictest
from .guard.pending import DEFAULT_EXPIRY
from .guard.policy import DEFAULT_POLICIES
from .guard.risk import SOFT_LIMIT_SHARE

OPT_POLICIES: Final = "policies"
OPT_SOFT_LIMIT: Final = "soft_limit_percent"
OPT_QUIET_START: Final = "quiet_hours_start"
OPT_QUIET_END: Final = "quiet_hours_end"
OPT_EXPIRY: Final = "approval_expiry_minutes"
OPT_NOTIFY: Final = "notify_target"

DEFAULT_SOFT_LIMIT = round(SOFT_LIMIT_SHARE * 100)
DEFAULT_EXPIRY_MINUTES = round(DEFAULT_EXPIRY.total_seconds() / 60)
POLICY_CHOICES: Final = ("allow", "confirm", "approve", "deny")
TOOL_MIN_POLICY: Final = {"set_volume_limit": Policy.APPROVE}


def policy_choices(tool: str) -> list[str]:
    """The policies an owner may pick for a tool (none laxer than its minimum)."""
    floor = TOOL_MIN_POLICY.get(tool, Policy.ALLOW)
    return [name for name in POLICY_CHOICES if Policy.parse(name) >= floor]


def default_policy(tool: str) -> str:
    """The default policy of a tool, as an option value."""
    return DEFAULT_POLICIES.get(tool, Policy.ALLOW).name.lower()


def player_settings(options: Mapping[str, Any]) -> PlayerSettings:
    """One entry's options as guard settings; missing or bad values fall back to defaults."""
    policies = dict(DEFAULT_POLICIES)
    for tool, name in (options.get(OPT_POLICIES) or {}).items():
        if tool in DEFAULT_POLICIES and name in POLICY_CHOICES:
            policies[tool] = Policy.parse(name)
    quiet: tuple[QuietHours, ...] = ()
    start, end = options.get(OPT_QUIET_START), options.get(OPT_QUIET_END)
    if start and end and start != end:
        quiet = (
            QuietHours(
                time.fromisoformat(start), time.fromisoformat(end), dt_util.get_default_time_zone()
            ),
        )
    notify = options.get(OPT_NOTIFY)
    return PlayerSettings(
        policies=policies,
        soft_limit_share=float(options.get(OPT_SOFT_LIMIT, DEFAULT_SOFT_LIMIT)) / 100,
        quiet_hours=quiet,
        approval_expiry=timedelta(minutes=float(options.get(OPT_EXPIRY, DEFAULT_EXPIRY_MINUTES))),
        notify_targets=(notify,) if notify else (),
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
