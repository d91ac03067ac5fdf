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

from .approvals.flow import EVENT_REQUESTED, EVENT_RESOLVED
from .const import DOMAIN

REQUESTED_MESSAGE = "an assistant request is waiting for an administrator"
ANSWERED_MESSAGE = "an administrator answered an assistant request"
EXPIRED_MESSAGE = "an assistant request expired unanswered"
"""Every user reads the logbook: no request id, tool, arguments or requester here. The details
go to the admins only (their phones and the approvals card); the events keep them for admins'
automations (only admins may subscribe to them). The logbook has no translations for
described events, so these are English, like Home Assistant's own."""


@callback
def async_describe_events(
    hass: HomeAssistant,
    async_describe_event: Callable[[str, str, Callable[[Event], dict[str, Any]]], None],
) -> None:
    """Describe approval requests and their outcomes, without their details."""

    @callback
    def describe(event: Event) -> dict[str, Any]:
        data = event.data
        if event.event_type == EVENT_REQUESTED:
            message = REQUESTED_MESSAGE
        elif data.get("outcome") == "expired":
            message = EXPIRED_MESSAGE
        else:
            message = ANSWERED_MESSAGE
        return {
            LOGBOOK_ENTRY_NAME: "Linn assistant",
            LOGBOOK_ENTRY_MESSAGE: message,
            LOGBOOK_ENTRY_ENTITY_ID: data.get("entity_id"),
        }

    async_describe_event(DOMAIN, EVENT_REQUESTED, describe)
    async_describe_event(DOMAIN, EVENT_RESOLVED, describe)
