"""The only place the guard meets Home Assistant: callers, turns, time, storage, repairs."""

from __future__ import annotations

from datetime import datetime
import logging
from typing import Any

from homeassistant.auth.permissions.const import POLICY_CONTROL, POLICY_READ
from homeassistant.core import Context, HomeAssistant, callback
from homeassistant.helpers import issue_registry as ir
from homeassistant.helpers.storage import Store
from homeassistant.util import dt as dt_util
from homeassistant.util.hass_dict import HassKey

from ..const import DOMAIN
from .audit import AuditLog, ChainError
from .call import Caller, Turn
from .engine import Guard
from .shortids import ShortIds
from .specs import TOOL_SPECS

_LOGGER = logging.getLogger(__name__)

STORAGE_VERSION = 1
STORAGE_KEY = f"{DOMAIN}.guard"
SAVE_DELAY = 1.0
DATA_GUARD: HassKey[GuardRuntime] = HassKey(f"{DOMAIN}_guard")


def hass_clock() -> datetime:
    """Home Assistant's notion of now (aware, local time zone)."""
    return dt_util.now()


class GuardRuntime:
    """The guard of this Home Assistant, its storage and per-conversation search ids."""

    def __init__(self, hass: HomeAssistant, guard: Guard) -> None:
        self.hass = hass
        self.guard = guard
        self.short_ids = ShortIds()
        self.store: Store[dict[str, Any]] = Store(hass, STORAGE_VERSION, STORAGE_KEY)
        guard.change_listeners.append(self._schedule_save)

    async def async_load(self) -> None:
        """Restore pending requests, today's budget counters and the audit log.

        A broken audit chain raises a repair issue.
        """
        data = await self.store.async_load() or {}
        self.guard.pending.load(data.get("pending"))
        self.guard.ledger.load(data.get("ledger"))
        if "audit" in data:
            try:
                self.guard.audit = AuditLog.load(data["audit"])
            except (ChainError, KeyError, ValueError) as err:
                _LOGGER.error(  # noqa: TRY400 - the error says it all; no traceback
                    "The Linn guard's audit log does not verify: %s", err
                )
                ir.async_create_issue(
                    self.hass,
                    DOMAIN,
                    "audit_chain_broken",
                    is_fixable=False,
                    severity=ir.IssueSeverity.ERROR,
                    translation_key="audit_chain_broken",
                    translation_placeholders={"error": str(err)},
                )
                # keep going with a fresh chain anchored to nothing: the old log stays
                # in storage under "audit_broken" for inspection
                self._broken = data["audit"]

    @callback
    def _schedule_save(self) -> None:
        self.store.async_delay_save(self._data, SAVE_DELAY)

    @callback
    def async_ledger_changed(self) -> None:
        """Counters were added outside a tool call (a model call's usage): save them soon."""
        self._schedule_save()

    def _data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "pending": self.guard.pending.to_dict(),
            "audit": self.guard.audit.to_dict(),
            "ledger": self.guard.ledger.to_dict(),
        }
        if (broken := getattr(self, "_broken", None)) is not None:
            data["audit_broken"] = broken
        return data


async def async_setup_guard(hass: HomeAssistant) -> GuardRuntime:
    """Create the guard once per Home Assistant and load its storage."""
    if (runtime := hass.data.get(DATA_GUARD)) is not None:
        return runtime
    runtime = GuardRuntime(hass, Guard(TOOL_SPECS, clock=hass_clock))
    await runtime.async_load()
    hass.data[DATA_GUARD] = runtime
    return runtime


async def async_caller(
    hass: HomeAssistant, context: Context | None, agent_id: str | None = None
) -> Caller:
    """The Home Assistant user behind a call, with their entity permissions.

    No user (an anonymous satellite, an automation): may read, never change anything.
    """
    user_id = context.user_id if context is not None else None
    user = await hass.auth.async_get_user(user_id) if user_id else None
    if user is None or not user.is_active:
        return Caller(None, can_read=_always, agent_id=agent_id)
    permissions = user.permissions
    return Caller(
        user.id,
        is_admin=user.is_admin,
        can_read=lambda entity_id: permissions.check_entity(entity_id, POLICY_READ),
        can_control=lambda entity_id: permissions.check_entity(entity_id, POLICY_CONTROL),
        agent_id=agent_id,
    )


def current_turn(language: str | None) -> Turn:
    """The conversation turn a tool runs in, from Home Assistant's current chat log.

    The utterance is the user's own last message (UserContent), never model text. Without
    a chat log (a direct API call) there is no conversation and no utterance.
    """
    try:
        from homeassistant.components.conversation.chat_log import (  # noqa: PLC0415
            UserContent,
            current_chat_log,
        )
    except ImportError:  # conversation cannot load: there is no chat log either
        return Turn(None, language=language)
    chat_log = current_chat_log.get()
    if chat_log is None:
        return Turn(None, language=language)
    user_messages = [c.content for c in chat_log.content if isinstance(c, UserContent)]
    return Turn(
        chat_log.conversation_id,
        index=len(user_messages),
        utterance=user_messages[-1] if user_messages else None,
        language=language,
    )


def _always(_entity_id: str) -> bool:
    return True
