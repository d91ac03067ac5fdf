"""The approvals card's websocket API.

`linn/approvals/subscribe` streams the open admin requests and the last audit records,
pushed on every guard change and at each request's expiry (no polling). `linn/approvals/decide`
approves or denies one request through the guard's own approval path (`Guard.resolve`),
which refuses anyone but an admin, audits every attempt and re-checks the call first.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from homeassistant.components import websocket_api
from homeassistant.core import CALLBACK_TYPE, Context, HomeAssistant, callback
from homeassistant.helpers.event import async_track_point_in_utc_time
import probatio

from ..tools.ha_adapter import DATA_GUARD, GuardRuntime, async_caller
from .flow import async_decide
from .snapshot import Viewer, build_snapshot

SUBSCRIBE = "linn/approvals/subscribe"
DECIDE = "linn/approvals/decide"
DEFAULT_AUDIT_COUNT = 10
MAX_AUDIT_COUNT = 50
# Requests do not record the assistant they came through; Assist's own id is the default one.


@callback
def async_setup_websocket_api(hass: HomeAssistant) -> None:
    """Register the card's commands."""
    websocket_api.async_register_command(hass, ws_subscribe)
    websocket_api.async_register_command(hass, ws_decide)


def _runtime(
    hass: HomeAssistant, connection: websocket_api.ActiveConnection, msg_id: int
) -> GuardRuntime | None:
    runtime = hass.data.get(DATA_GUARD)
    if runtime is None:
        connection.send_error(msg_id, "not_ready", "The Linn guard is not running")
    return runtime


@websocket_api.websocket_command(
    {
        probatio.Required("type"): SUBSCRIBE,
        probatio.Optional("audit_count", default=DEFAULT_AUDIT_COUNT): probatio.All(
            int, probatio.Range(min=0, max=MAX_AUDIT_COUNT)
        ),
    }
)
@websocket_api.async_response
async def ws_subscribe(
    hass: HomeAssistant, connection: websocket_api.ActiveConnection, msg: dict[str, Any]
) -> None:
    """Send the state now and after every change, until the client unsubscribes."""
    if (runtime := _runtime(hass, connection, msg["id"])) is None:
        return
    guard = runtime.guard
    viewer = Viewer(connection.user.id, connection.user.is_admin)
    audit_count: int = msg["audit_count"]
    expiry_timer: CALLBACK_TYPE | None = None
    queued = False

    async def send_snapshot() -> None:
        nonlocal expiry_timer, queued
        queued = False
        names = {user.id: user.name or user.id for user in await hass.auth.async_get_users()}
        snapshot = build_snapshot(hass, guard, viewer, names, audit_count)
        connection.send_message(websocket_api.event_message(msg["id"], snapshot))
        if expiry_timer is not None:
            expiry_timer()
            expiry_timer = None
        if snapshot["pending"]:
            next_expiry = min(datetime.fromisoformat(r["expires"]) for r in snapshot["pending"])
            expiry_timer = async_track_point_in_utc_time(hass, on_expiry, next_expiry)

    @callback
    def on_change() -> None:
        nonlocal queued
        if not queued:  # one snapshot for a burst of changes
            queued = True
            hass.async_create_task(send_snapshot(), eager_start=False)

    @callback
    def on_expiry(_now: datetime) -> None:
        nonlocal expiry_timer
        expiry_timer = None
        on_change()

    @callback
    def unsubscribe() -> None:
        if on_change in guard.change_listeners:
            guard.change_listeners.remove(on_change)
        if expiry_timer is not None:
            expiry_timer()

    guard.change_listeners.append(on_change)
    connection.subscriptions[msg["id"]] = unsubscribe
    connection.send_result(msg["id"])
    await send_snapshot()


@websocket_api.websocket_command(
    {
        probatio.Required("type"): DECIDE,
        probatio.Required("request_id"): probatio.All(str, probatio.Length(min=1, max=8)),
        probatio.Required("approve"): bool,
    }
)
@websocket_api.async_response
async def ws_decide(
    hass: HomeAssistant, connection: websocket_api.ActiveConnection, msg: dict[str, Any]
) -> None:
    """Approve or deny a request as the connected user; the guard decides who may."""
    if _runtime(hass, connection, msg["id"]) is None:
        return
    approver = await async_caller(hass, Context(user_id=connection.user.id))
    result = await async_decide(hass, msg["request_id"], approve=msg["approve"], approver=approver)
    connection.send_result(
        msg["id"],
        {
            "request_id": msg["request_id"],
            "outcome": str(result.outcome),
            "message": result.data.get("error"),
        },
    )
