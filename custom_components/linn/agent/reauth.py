"""The API rejected an assistant's key: a reauth flow and a repair issue."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir

from ..const import DOMAIN
from .runtime import AssistantConfigEntry


def auth_issue_id(entry_id: str) -> str:
    """The repair issue raised when the API rejects the key."""
    return f"assistant_auth_{entry_id}"


def start_reauth(hass: HomeAssistant, entry: AssistantConfigEntry) -> None:
    """Start the entry's reauth flow and raise its repair issue."""
    entry.async_start_reauth(hass)
    ir.async_create_issue(
        hass,
        DOMAIN,
        auth_issue_id(entry.entry_id),
        is_fixable=False,
        severity=ir.IssueSeverity.ERROR,
        translation_key="assistant_auth_failed",
        translation_placeholders={"title": entry.title},
    )
