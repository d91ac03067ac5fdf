"""A repair issue while a Linn player is exposed to Assist under a policy stricter than allow.

Assist's own intent tools (HassTurnOff, HassSetVolume, HassMediaPause ...) act on every
player exposed to Assist, with Home Assistant's permission checks only: the guard's
policies, soft limit, confirmations and audit log never see those calls. So while a player
whose options make a tool stricter than *allow* is exposed, the owner is told what that
means. (The `linn__*` tools, too, offer only exposed players today: issue 18 item 4.)
"""

from __future__ import annotations

from homeassistant.config_entries import (
    SIGNAL_CONFIG_ENTRY_CHANGED,
    ConfigEntry,
    ConfigEntryChange,
)
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import entity_registry as er, issue_registry as ir
from homeassistant.helpers.dispatcher import async_dispatcher_connect

from .const import DOMAIN
from .guard import Policy
from .guard.specs import TOOL_SPECS
from .guard_options import player_settings

ASSISTANT = "conversation"
NOT_AN_INTENT = frozenset({"set_volume_limit", "join"})
"""Tools no Assist intent can do: their policy says nothing about Assist's own tools."""


def issue_id(entry: ConfigEntry) -> str:
    """The repair issue of one streamer."""
    return f"assist_exposed_{entry.entry_id}"


def strict_tools(entry: ConfigEntry) -> list[str]:
    """The streamer's changing tools whose policy is stricter than allow."""
    settings = player_settings(entry.options)
    return sorted(
        name
        for name, spec in TOOL_SPECS.items()
        if spec.changes_state
        and name not in NOT_AN_INTENT
        and settings.policy(spec.policy_key) > Policy.ALLOW
    )


@callback
def async_check_exposure(hass: HomeAssistant, entry: ConfigEntry) -> None:
    """Raise or clear the streamer's issue for how it is exposed and configured now."""
    try:
        from homeassistant.components.homeassistant.exposed_entities import (  # noqa: PLC0415
            async_should_expose,
        )

        registry = er.async_get(hass)
        players = [
            e.entity_id
            for e in er.async_entries_for_config_entry(registry, entry.entry_id)
            if e.domain == "media_player"
        ]
        exposed = [p for p in players if async_should_expose(hass, ASSISTANT, p)]
    except KeyError:  # Home Assistant's exposure settings are not loaded
        exposed = []
    strict = strict_tools(entry)
    if exposed and strict:
        ir.async_create_issue(
            hass,
            DOMAIN,
            issue_id(entry),
            is_fixable=False,
            severity=ir.IssueSeverity.WARNING,
            translation_key="assist_exposed",
            translation_placeholders={
                "player": entry.title,
                "entity_id": exposed[0],
                "tools": ", ".join(strict),
            },
        )
    else:
        ir.async_delete_issue(hass, DOMAIN, issue_id(entry))


@callback
def async_watch_exposure(hass: HomeAssistant, entry: ConfigEntry) -> None:
    """Check now, on every exposure change and on every options change, until unloaded."""
    try:
        from homeassistant.components.homeassistant.exposed_entities import (  # noqa: PLC0415
            async_listen_entity_updates,
        )

        entry.async_on_unload(
            async_listen_entity_updates(hass, ASSISTANT, lambda: async_check_exposure(hass, entry))
        )
    except KeyError:
        pass

    @callback
    def entry_changed(change: ConfigEntryChange, changed: ConfigEntry) -> None:
        # not an update listener: Home Assistant expects those to reload the entry
        if change is ConfigEntryChange.UPDATED and changed.entry_id == entry.entry_id:
            async_check_exposure(hass, changed)

    entry.async_on_unload(
        async_dispatcher_connect(hass, SIGNAL_CONFIG_ENTRY_CHANGED, entry_changed)
    )
    entry.async_on_unload(lambda: ir.async_delete_issue(hass, DOMAIN, issue_id(entry)))
    async_check_exposure(hass, entry)
