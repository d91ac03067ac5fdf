"""The guard settings that govern the calls an assistant makes, per streamer (diagnostics).

Answers "why did it ask me to confirm?": for each configured streamer, the settings a
call by this assistant on that player gets, asked of the guard itself (Guard.settings
with the lookups it uses on every call), so this shows what the guard enforces rather
than a second copy of the tightening. Each value says where it came from: `streamer`
(the streamer's own setting, its default included, which the assistant's did not
tighten), `assistant` (this assistant's setting made it stricter) or `minimum` (the
guard's floor for the tool, `set_volume_limit`: approve).
"""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import entity_registry as er

from ..const import DOMAIN, is_assistant_data
from ..guard import OTHER_API_TOOLS, Guard, PlayerSettings
from ..tools.ha_adapter import DATA_GUARD
from ..tools.linn_tools import TOOL_SPECS
from .runtime import AssistantConfigEntry

STREAMER = "streamer"
ASSISTANT = "assistant"
MINIMUM = "minimum"
DEFAULT = "default"


@callback
def async_effective_settings(hass: HomeAssistant, entry: AssistantConfigEntry) -> dict[str, Any]:
    """Per streamer, the settings for this assistant's calls; and its other APIs' policy."""
    runtime = hass.data.get(DATA_GUARD)
    registry = er.async_get(hass)
    agent_id = _entity_id(registry, entry.entry_id, "conversation")
    if runtime is None or agent_id is None:
        return {}
    guard = runtime.guard
    streamers = []
    for streamer in hass.config_entries.async_entries(DOMAIN):
        if is_assistant_data(streamer.data):
            continue
        player = _entity_id(registry, streamer.entry_id, "media_player")
        described: dict[str, Any] = {"title": streamer.title, "entity_id": player}
        if player is not None:
            own = guard.settings((player,)) or guard.default_settings()
            effective = guard.settings((player,), agent_id) or own
            described |= _describe(guard, effective, own)
        streamers.append(described)
    # other APIs' tools target no Linn player: only the guard's default and the assistant's
    other = guard.settings((), agent_id) or guard.default_settings()
    other_policy = other.policy(OTHER_API_TOOLS)
    return {
        "other_api_tools": {
            "policy": other_policy.name.lower(),
            "from": DEFAULT
            if other_policy == guard.default_settings().policy(OTHER_API_TOOLS)
            else ASSISTANT,
        },
        "streamers": streamers,
    }


def _entity_id(registry: er.EntityRegistry, entry_id: str, domain: str) -> str | None:
    return next(
        (
            entity.entity_id
            for entity in er.async_entries_for_config_entry(registry, entry_id)
            if entity.domain == domain
        ),
        None,
    )


def _from(effective: object, own: object) -> str:
    return STREAMER if effective == own else ASSISTANT


def _describe(guard: Guard, effective: PlayerSettings, own: PlayerSettings) -> dict[str, Any]:
    policies = {}
    for tool in TOOL_SPECS:
        policy = effective.policy(tool)
        source = _from(policy, own.policy(tool))
        floor = guard.specs[tool].min_policy if tool in guard.specs else policy
        if floor > policy:
            policy, source = floor, MINIMUM
        policies[tool] = {"policy": policy.name.lower(), "from": source}
    return {
        "policies": policies,
        "soft_limit_percent": {
            "value": round(effective.soft_limit_share * 100),
            "from": _from(effective.soft_limit_share, own.soft_limit_share),
        },
        "quiet_hours": _quiet_hours(effective, own),
        "approval_expiry_minutes": {
            "value": effective.approval_expiry.total_seconds() / 60,
            "from": _from(effective.approval_expiry, own.approval_expiry),
        },
        "notify_targets": [
            {"target": target, "from": STREAMER if target in own.notify_targets else ASSISTANT}
            for target in effective.notify_targets
        ],
    }


def _quiet_hours(effective: PlayerSettings, own: PlayerSettings) -> list[dict[str, str]]:
    """Every quiet period that applies; one the streamer has too counts as the streamer's."""
    streamers = list(own.quiet_hours)
    periods = []
    for period in effective.quiet_hours:
        source = ASSISTANT
        if period in streamers:
            streamers.remove(period)
            source = STREAMER
        periods.append(
            {"start": period.start.isoformat(), "end": period.end.isoformat(), "from": source}
        )
    return periods
