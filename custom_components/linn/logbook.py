"""Approvals in the logbook, on the player they concern."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from homeassistant.components.logbook import (
    LOGBOOK_ENTRY_ENTITY_ID,
    LOGBOOK_ENTRY_MESSAGE,
    LOGBOOK_ENTRY_NAME,
)
from homeassistant.core import Event, HomeAssistant, callback

from .approvals import EVENT_REQUESTED, EVENT_RESOLVED
from .const import DOMAIN

OUTCOME_WORDS = {"approved": "approved", "denied": "denied", "expired": "expired"}


@callback
def async_describe_events(
    hass: HomeAssistant,
    async_describe_event: Callable[[str, str, Callable[[Event], dict[str, Any]]], None],
) -> None:
    """Describe approval requests and their outcomes."""

    @callback
    def describe(event: Event) -> dict[str, Any]:
        data = event.data
        request_id, tool = str(data.get("request_id")), str(data.get("tool"))
        if event.event_type == EVENT_REQUESTED:
            message = f"an assistant asked for approval of {tool} (request {request_id})"
        else:
            outcome = OUTCOME_WORDS.get(str(data.get("outcome")), "answered")
            message = f"request {request_id} ({tool}) was {outcome}"
        return {
            LOGBOOK_ENTRY_NAME: "Linn assistant",
            LOGBOOK_ENTRY_MESSAGE: message,
            LOGBOOK_ENTRY_ENTITY_ID: data.get("entity_id"),
        }

    async_describe_event(DOMAIN, EVENT_REQUESTED, describe)
    async_describe_event(DOMAIN, EVENT_RESOLVED, describe)
