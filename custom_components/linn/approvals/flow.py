"""Out-of-band approval: actions, notifications, events, the phone's answer, expiry.

Each decision goes through Guard.resolve; who sees what, and why (docs/guard.md, "Approval
flow").
"""

from __future__ import annotations

from datetime import timedelta
import logging
import re
from typing import Any, Final

from homeassistant.components import persistent_notification
from homeassistant.const import EVENT_HOMEASSISTANT_STOP
from homeassistant.core import (
    Context,
    Event,
    HomeAssistant,
    ServiceCall,
    ServiceResponse,
    SupportsResponse,
    callback,
)
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError
from homeassistant.helpers import translation
from homeassistant.helpers.dispatcher import async_dispatcher_send
from homeassistant.helpers.event import async_track_time_interval
from homeassistant.util.hass_dict import HassKey
import probatio

from ..const import DOMAIN
from ..guard import Caller, GuardResult, Outcome, PendingKind, PendingRequest
from ..guard.engine import AgentSettingsLookup
from ..llm import LinnHandler, tool_definition
from ..tools.guard_options import async_settings_lookup
from ..tools.ha_adapter import DATA_GUARD, GuardRuntime, async_caller, async_setup_guard

_LOGGER = logging.getLogger(__name__)

SERVICE_APPROVE: Final = "approve"
SERVICE_DENY: Final = "deny"
ATTR_REQUEST_ID: Final = "request_id"
ATTR_ARGUMENTS: Final = "arguments"
EVENT_REQUESTED: Final = "linn_approval_requested"
EVENT_RESOLVED: Final = "linn_approval_resolved"
EVENT_MOBILE_ACTION: Final = "mobile_app_notification_action"
SIGNAL_GUARD_CHANGED: Final = "linn_guard_changed"
EXPIRY_CHECK: Final = timedelta(seconds=10)
_ACTION = re.compile(r"^LINN_(APPROVE|DENY)_([A-Z0-9]{2,8})_([0-9a-f]{32})$")
"""A phone's answer: the verb, the request id and the request's secret (see PendingRequest)."""
_STARTED: HassKey[bool] = HassKey(f"{DOMAIN}_approvals_started")
WAITING_NOTIFICATION_ID: Final = f"{DOMAIN}_approval_waiting"
"""The one persistent notification, seen by every user: no requester, arguments or id."""

SERVICE_SCHEMA = probatio.Schema(
    {
        probatio.Required(ATTR_REQUEST_ID): probatio.All(
            str, probatio.Strip, probatio.Length(min=2, max=8)
        ),
        probatio.Optional(ATTR_ARGUMENTS): dict,
    }
)


async def async_setup_guarded_tools(
    hass: HomeAssistant, agent_settings_for: AgentSettingsLookup
) -> GuardRuntime:
    """The guard (from storage) with its settings lookups and its approval wiring.

    `agent_settings_for` gives an assistant's own settings by the agent id its calls (and
    requests) carry; the wiring in __init__.py hands it over from agent/, which approvals/
    never imports.
    """
    fresh = DATA_GUARD not in hass.data
    runtime = await async_setup_guard(hass)
    if fresh:
        runtime.guard.settings_for = async_settings_lookup(hass)
        runtime.guard.agent_settings_for = agent_settings_for
        runtime.guard.pending_listeners.append(lambda r: _on_requested(hass, runtime, r))
        runtime.guard.resolved_listeners.append(
            lambda r, outcome, by: _on_resolved(hass, runtime, r, outcome, by)
        )
        runtime.guard.change_listeners.append(
            lambda: async_dispatcher_send(hass, SIGNAL_GUARD_CHANGED)
        )
        runtime.guard.expire_due()  # what expired while Home Assistant was down
        # persistent notifications are not kept across a restart; stored requests are
        _async_update_waiting(hass, runtime)
    if not hass.data.get(_STARTED):
        hass.data[_STARTED] = True
        _async_register(hass)
    return runtime


@callback
def _async_register(hass: HomeAssistant) -> None:
    async def handle(call: ServiceCall) -> ServiceResponse:
        approver = await async_caller(hass, call.context)
        request_id: str = call.data[ATTR_REQUEST_ID].upper()
        approve = call.service == SERVICE_APPROVE
        result = await async_decide(
            hass, request_id, approve=approve, approver=approver,
            arguments=call.data.get(ATTR_ARGUMENTS),
        )  # fmt: skip
        placeholders = {ATTR_REQUEST_ID: request_id}
        if result.code is not None:
            raise ServiceValidationError(
                translation_domain=DOMAIN,
                translation_key=f"approval_{result.code}",
                translation_placeholders=placeholders,
            )
        if approve and result.outcome is not Outcome.APPROVED:
            raise HomeAssistantError(
                translation_domain=DOMAIN,
                translation_key="approval_failed",
                translation_placeholders={**placeholders, "error": result.data.get("error", "")},
            )
        return {ATTR_REQUEST_ID: request_id, "outcome": str(result.outcome)}

    for name in (SERVICE_APPROVE, SERVICE_DENY):
        hass.services.async_register(
            DOMAIN, name, handle, schema=SERVICE_SCHEMA, supports_response=SupportsResponse.OPTIONAL
        )

    async def on_mobile_action(event: Event) -> None:
        match = _ACTION.match(str(event.data.get("action", "")))
        if match is None:
            return
        verb, request_id, secret = match.groups()
        approver = await async_caller(hass, event.context)
        result = await async_decide(
            hass, request_id, approve=verb == "APPROVE", approver=approver,
            secret=secret,
        )  # fmt: skip
        if (result.error and result.outcome is not Outcome.DENIED) or result.code is not None:
            _LOGGER.warning(
                "A phone's answer to request %s was refused: %s",
                request_id,
                result.data.get("error"),
            )

    @callback
    def expire(_now: Any) -> None:
        if (runtime := hass.data.get(DATA_GUARD)) is not None:
            runtime.guard.expire_due()

    unsubscribe = [
        hass.bus.async_listen(EVENT_MOBILE_ACTION, on_mobile_action),
        async_track_time_interval(hass, expire, EXPIRY_CHECK, name="linn approval expiry"),
    ]

    @callback
    def stop(_event: Event) -> None:
        for unsub in unsubscribe:
            unsub()

    hass.bus.async_listen_once(EVENT_HOMEASSISTANT_STOP, stop)


async def async_decide(
    hass: HomeAssistant,
    request_id: str,
    *,
    approve: bool,
    approver: Caller,
    arguments: dict[str, Any] | None = None,
    secret: str | None = None,
) -> GuardResult:
    """Approve or deny one request through the guard (which audits every attempt)."""
    runtime = hass.data[DATA_GUARD]
    request = runtime.guard.pending.get(request_id)
    handler = None
    requester = Caller(None)
    if request is not None:
        requester = await async_caller(hass, Context(user_id=request.user_id))
        if (definition := tool_definition(request.tool)) is not None:
            conversation = request.conversation_id or f"user:{request.user_id}"
            handler = LinnHandler(
                hass, definition, None, runtime, conversation, entity_ids=request.entity_ids
            )
    return await runtime.guard.resolve(
        request_id,
        approver=approver,
        approve=approve,
        requester=requester,
        handler=handler,
        arguments=arguments,
        secret=secret,
    )


def _event_data(request: PendingRequest) -> dict[str, Any]:
    return {
        ATTR_REQUEST_ID: request.request_id,
        "tool": request.tool,
        "entity_id": request.entity_ids[0] if request.entity_ids else None,
        "entity_ids": list(request.entity_ids),
        "user_id": request.user_id,
    }


def _notification_id(request: PendingRequest) -> str:
    return f"{DOMAIN}_approval_{request.request_id}"


def _text(hass: HomeAssistant, key: str, **placeholders: str) -> str:
    """A notification text of strings.json's `common` section, in the system's language.

    Not `exceptions`: hassfest allows only a `message` there and these are no errors; `common`
    holds plain strings, and Home Assistant's translation cache loads every section of ours.
    """
    strings = translation.async_get_cached_translations(
        hass, hass.config.language, "common", DOMAIN
    )
    template = strings.get(f"component.{DOMAIN}.common.{key}") or key
    try:
        return template.format(**placeholders)
    except KeyError, IndexError, ValueError:
        return template


@callback
def _async_update_waiting(hass: HomeAssistant, runtime: GuardRuntime) -> None:
    """The generic notice while any request waits for an admin; gone when none is left.

    Shown again on each new request (also after someone dismissed it), always the same text.
    """
    if runtime.guard.pending.awaiting_approval():
        persistent_notification.async_create(
            hass,
            _text(hass, "approval_notification_waiting_message"),
            _text(hass, "approval_notification_waiting_title"),
            WAITING_NOTIFICATION_ID,
        )
    else:
        persistent_notification.async_dismiss(hass, WAITING_NOTIFICATION_ID)


@callback
def _on_requested(hass: HomeAssistant, runtime: GuardRuntime, request: PendingRequest) -> None:
    if request.kind is not PendingKind.APPROVE:
        return
    hass.bus.async_fire(
        EVENT_REQUESTED, {**_event_data(request), "expires": request.expires.isoformat()}
    )
    _async_update_waiting(hass, runtime)
    hass.async_create_task(_async_announce(hass, runtime, request), eager_start=True)


async def _async_announce(
    hass: HomeAssistant, runtime: GuardRuntime, request: PendingRequest
) -> None:
    """The request's details, in an actionable notification to each notify target only."""
    user = await hass.auth.async_get_user(request.user_id) if request.user_id else None
    placeholders = {
        ATTR_REQUEST_ID: request.request_id,
        "requester": (user.name if user else None) or request.user_id or "?",
        "tool": request.tool,
        "players": ", ".join(request.entity_ids) or "-",
        "arguments": ", ".join(f"{k}={v}" for k, v in request.arguments.items()) or "-",
        "expires": request.expires.strftime("%H:%M:%S"),
    }
    title = _text(hass, "approval_notification_title", **placeholders)
    message = _text(hass, "approval_notification_message", **placeholders)
    settings = runtime.guard.settings(request.entity_ids, request.agent_id)
    # only this notification carries the secret: a button rebuilt from the request's public
    # id and arguments (by anyone who sends the admin a notification) cannot approve it
    suffix = f"{request.request_id}_{request.secret}"
    actions = [
        {"action": f"LINN_APPROVE_{suffix}", "title": _text(hass, "approval_action_approve")},
        {"action": f"LINN_DENY_{suffix}", "title": _text(hass, "approval_action_deny")},
    ]
    for target in settings.notify_targets if settings is not None else ():
        data = {
            "title": title,
            "message": message,
            "data": {"tag": _notification_id(request), "actions": actions},
        }
        await _async_notify(hass, target, data)


async def _async_notify(hass: HomeAssistant, target: str, data: dict[str, Any]) -> None:
    try:
        await hass.services.async_call("notify", target, data, blocking=True)
    except HomeAssistantError as err:
        _LOGGER.warning("Could not notify %s of an approval request: %s", target, err)


@callback
def _on_resolved(
    hass: HomeAssistant,
    runtime: GuardRuntime,
    request: PendingRequest,
    outcome: Outcome,
    by: Caller | None,
) -> None:
    if request.kind is not PendingKind.APPROVE:
        return
    hass.bus.async_fire(
        EVENT_RESOLVED,
        {
            **_event_data(request),
            "outcome": str(outcome),
            "resolved_by": by.user_id if by else None,
        },
    )
    _async_update_waiting(hass, runtime)
    settings = runtime.guard.settings(request.entity_ids, request.agent_id)
    for target in settings.notify_targets if settings is not None else ():
        clear = {"message": "clear_notification", "data": {"tag": _notification_id(request)}}
        hass.async_create_task(_async_notify(hass, target, clear), eager_start=True)
