"""The only place the guard meets Home Assistant: callers, turns, time, storage, repairs."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
import logging
from typing import Any

from homeassistant.auth.permissions.const import POLICY_CONTROL, POLICY_READ
from homeassistant.const import EVENT_HOMEASSISTANT_FINAL_WRITE
from homeassistant.core import CALLBACK_TYPE, Context, Event, HassJob, HomeAssistant, callback
from homeassistant.helpers import issue_registry as ir, llm
from homeassistant.helpers.event import async_call_later
from homeassistant.helpers.storage import Store
from homeassistant.util import dt as dt_util
from homeassistant.util.hass_dict import HassKey

from ..const import DOMAIN
from ..guard.audit import AuditLog, ChainError
from ..guard.call import Caller, Turn
from ..guard.engine import Guard
from ..guard.turn_plans import TurnPlans
from .linn_tools import TOOL_SPECS
from .shortids import ShortIds

_LOGGER = logging.getLogger(__name__)

STORAGE_VERSION = 1
STORAGE_KEY = f"{DOMAIN}.guard"
ANCHOR_KEY = f"{DOMAIN}.guard_anchor"
EVIDENCE_KEY = f"{DOMAIN}.guard_audit_broken"
"""Broken audit logs, each as it was found, kept apart from the guard's state: no save of
the state touches them; only an admin's "start a new log" in the repair flow removes them."""
"""A second, small file: the audit chain's head and count, and the changes written ahead."""
SAVE_DELAY = 1.0
AUDIT_ISSUE = "audit_chain_broken"
DATA_GUARD: HassKey[GuardRuntime] = HassKey(f"{DOMAIN}_guard")


def hass_clock() -> datetime:
    """Home Assistant's notion of now (aware, local time zone)."""
    return dt_util.now()


class GuardRuntime:
    """The guard of this Home Assistant, its storage and per-conversation search ids.

    Two stores: the guard's state (pending requests, ledger, audit log), saved a second
    after a change, and the anchor: the head hash and count of the audit chain as last
    saved, plus every change's record written (and flushed) before the change runs. The
    anchor tells a log whose newest records (or all of it) went missing; a change whose
    final record never reached the log is recorded as interrupted on the next start.
    """

    def __init__(self, hass: HomeAssistant, guard: Guard) -> None:
        self.hass = hass
        self.guard = guard
        self.short_ids = ShortIds()
        self.plans = TurnPlans()
        # the state (up to thousands of audit records) is encoded off the event loop, from
        # a snapshot taken in it; the anchor is small, and written with an fsync
        self.store: Store[dict[str, Any]] = Store(
            hass, STORAGE_VERSION, STORAGE_KEY, serialize_in_event_loop=False
        )
        self.anchor_store: Store[dict[str, Any]] = Store(
            hass, STORAGE_VERSION, ANCHOR_KEY, atomic_writes=True
        )
        self.evidence_store: Store[dict[str, Any]] = Store(
            hass, STORAGE_VERSION, EVIDENCE_KEY, atomic_writes=True
        )
        self._saved: tuple[str, int] = (guard.audit.head, guard.audit.total)
        """The audit chain's head and count in the last completed save of the state."""
        self._open: dict[str, dict[str, Any]] = {}
        """Changes written ahead whose final record is not in a completed save yet."""
        self._ended: set[str] = set()
        self._save_lock = asyncio.Lock()
        self._save_timer: CALLBACK_TYPE | None = None
        guard.change_listeners.append(self._schedule_save)
        guard.journal = self

    async def async_load(self) -> None:
        """Restore pending requests, today's budget counters and the audit log.

        A log that does not verify, or that does not reach its anchor (newest records or
        the whole log deleted, the anchor deleted), raises a repair issue that stays until
        an admin acknowledges it.
        """
        self._keep_audit_issue_in_view()
        data = await self.store.async_load() or {}
        anchor = await self.anchor_store.async_load()
        self.guard.pending.load(data.get("pending"))
        self.guard.ledger.load(data.get("ledger"))
        if "audit_broken" in data:
            # an older version kept the broken log in the state, where a save dropped it
            await self._async_keep_evidence(data["audit_broken"], "kept by an older version")
        if "audit" in data:
            try:
                self.guard.audit = AuditLog.load(data["audit"])
            except (ChainError, KeyError, TypeError, ValueError) as err:
                # keep going with a fresh chain: the old log is kept apart as evidence
                await self._async_keep_evidence(data["audit"], str(err))
                self._raise_issue(str(err))
        if (problem := _anchor_problem(self.guard.audit, data, anchor)) is not None:
            self._raise_issue(problem)
        recorded = {r.attempt_id for r in self.guard.audit.records if r.attempt_id}
        for attempt_id, intent in (anchor or {}).get("open", {}).items():
            if attempt_id not in recorded:
                self.guard.record_interrupted(intent, attempt_id)
        self._saved = (self.guard.audit.head, self.guard.audit.total)
        await self.async_save()

    def _keep_audit_issue_in_view(self) -> None:
        """Undo any ignore of the broken-log issue: only its fix flow ends it.

        Home Assistant's `repairs/ignore_issue` lets any user hide an issue, and the fix
        flow (an admin's acknowledgement) is the only end the guard promises.
        """

        @callback
        def _ignored(event: Event[ir.EventIssueRegistryUpdatedData]) -> None:
            issue = ir.async_get(self.hass).async_get_issue(DOMAIN, AUDIT_ISSUE)
            if issue is not None and issue.dismissed_version is not None:
                _LOGGER.warning("The broken audit log's repair issue was ignored: raised again")
                ir.async_ignore_issue(self.hass, DOMAIN, AUDIT_ISSUE, False)

        @callback
        def _is_ours(event_data: ir.EventIssueRegistryUpdatedData) -> bool:
            return event_data["domain"] == DOMAIN and event_data["issue_id"] == AUDIT_ISSUE

        self.hass.bus.async_listen(
            ir.EVENT_REPAIRS_ISSUE_REGISTRY_UPDATED, _ignored, event_filter=_is_ours
        )
        issue = ir.async_get(self.hass).async_get_issue(DOMAIN, AUDIT_ISSUE)
        if issue is not None and issue.dismissed_version is not None:
            ir.async_ignore_issue(self.hass, DOMAIN, AUDIT_ISSUE, False)

    async def _async_keep_evidence(self, audit: Any, error: str) -> None:
        """Store a broken log as found, beside any kept before (written before going on)."""
        kept = await self.evidence_store.async_load() or {}
        logs = [
            *kept.get("logs", []),
            {"found": hass_clock().isoformat(), "error": error, "audit": audit},
        ]
        await self.evidence_store.async_save({"logs": logs})

    async def async_evidence_count(self) -> int:
        """How many broken logs are kept."""
        kept = await self.evidence_store.async_load() or {}
        return len(kept.get("logs", []))

    async def async_discard_evidence(self) -> None:
        """An admin chose a new log: the broken ones go."""
        await self.evidence_store.async_remove()

    def _raise_issue(self, error: str) -> None:
        _LOGGER.error("The Linn guard's audit log does not verify: %s", error)
        ir.async_create_issue(
            self.hass,
            DOMAIN,
            AUDIT_ISSUE,
            is_fixable=True,
            is_persistent=True,  # until an admin acknowledges it, across restarts
            severity=ir.IssueSeverity.ERROR,
            translation_key=AUDIT_ISSUE,
            translation_placeholders={"error": error},
        )

    # --- the journal (Guard.journal) ----------------------------------------------------

    async def begin(self, attempt_id: str, intent: Mapping[str, Any]) -> None:
        """Flush a change's record to the anchor store before the change runs."""
        self._open[attempt_id] = {
            key: list(value) if isinstance(value, tuple) else value for key, value in intent.items()
        }
        await self.anchor_store.async_save(self._anchor_data())

    @callback
    def end(self, attempt_id: str) -> None:
        """The change's final record is in the log; it leaves the anchor after the next save."""
        self._ended.add(attempt_id)

    # --- saving ----------------------------------------------------------------------------

    @callback
    def _schedule_save(self) -> None:
        if self._save_timer is None:
            # cancelled when Home Assistant stops: the final write saves everything then
            job = HassJob(self._on_save_timer, "linn guard save", cancel_on_shutdown=True)
            self._save_timer = async_call_later(self.hass, SAVE_DELAY, job)

    @callback
    def _on_save_timer(self, _now: datetime) -> None:
        self._save_timer = None
        self.hass.async_create_task(self.async_save(), eager_start=True)

    @callback
    def async_ledger_changed(self) -> None:
        """Counters were added outside a tool call (a model call's usage): save them soon."""
        self._schedule_save()

    async def async_save(self) -> None:
        """Save the state, then the anchor (so the anchor never runs ahead of the log)."""
        async with self._save_lock:
            if self._save_timer is not None:
                self._save_timer()
                self._save_timer = None
            ended = set(self._ended)
            saved = (self.guard.audit.head, self.guard.audit.total)
            await self.store.async_save(self._data())
            self._saved = saved
            for attempt_id in ended:
                self._open.pop(attempt_id, None)
            self._ended -= ended
            await self.anchor_store.async_save(self._anchor_data())

    def _anchor_data(self) -> dict[str, Any]:
        head, total = self._saved
        return {"head": head, "total": total, "open": dict(self._open)}

    def _data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "pending": self.guard.pending.to_dict(),
            "audit": self.guard.audit.to_dict(),
            "ledger": self.guard.ledger.to_dict(),
            "anchored": True,
        }
        return data


def _anchor_problem(
    audit: AuditLog, data: Mapping[str, Any], anchor: Mapping[str, Any] | None
) -> str | None:
    """Why the loaded log does not reach its anchor, if it does not."""
    if anchor is None:
        # a log saved before there were anchors has none yet; later ones always have one
        return "its anchor is missing" if data.get("anchored") else None
    total, head = int(anchor.get("total", 0)), str(anchor.get("head", ""))
    if audit.total < total:
        missing = total - audit.total
        return f"the newest {missing} of {total} records are missing"
    known = audit.hash_of(total)
    if known is not None and known != head:
        return f"record {total} is not the one its anchor holds"
    return None


async def async_setup_guard(hass: HomeAssistant) -> GuardRuntime:
    """Create the guard once per Home Assistant and load its storage."""
    if (runtime := hass.data.get(DATA_GUARD)) is not None:
        return runtime
    runtime = GuardRuntime(hass, Guard(TOOL_SPECS, clock=hass_clock))
    await runtime.async_load()
    hass.data[DATA_GUARD] = runtime

    async def final_write(_event: Event) -> None:
        runtime.guard.record_uncounted(now=True)
        await runtime.async_save()

    hass.bus.async_listen_once(EVENT_HOMEASSISTANT_FINAL_WRITE, final_write)
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


async def async_tool_caller(
    hass: HomeAssistant, llm_context: llm.LLMContext, agent_id: str | None = None
) -> Caller:
    """The caller of an LLM tool (async_caller): for the tool's agent, else the context's."""
    return await async_caller(
        hass, llm_context.context, agent_id or getattr(llm_context, "agent_id", None)
    )


async def async_planned_turn(
    hass: HomeAssistant, language: str | None, tool: str, caller: Caller, earlier: int = 0
) -> Turn:
    """The current turn, with its plan when `tool` is a change and a planner runs for it.

    A read does not wait for the plan; a change does (TurnPlans). Another agent's turn is
    planned here from its user's utterance (its chat log's) when an assistant entry can.
    `earlier`: a turn before the current one (current_turn).
    """
    turn = current_turn(language, earlier)
    runtime = hass.data.get(DATA_GUARD)
    spec = runtime.guard.specs.get(tool) if runtime is not None else None
    if runtime is None or spec is None or spec.action is None:
        return turn
    runtime.plans.ensure(turn, turn.utterance, caller)
    plan = await runtime.plans.async_plan_for(turn)
    return replace(turn, plan=plan) if plan is not None else turn


def active_chat_log() -> Any:
    """Home Assistant's chat log of the conversation turn this code runs in, or None.

    Imported here, not at the top: the conversation component may be unable to load, and
    then no turn can run either.
    """
    try:
        from homeassistant.components.conversation.chat_log import (  # noqa: PLC0415
            current_chat_log,
        )
    except ImportError:
        return None
    return current_chat_log.get()


def current_turn(language: str | None, earlier: int = 0) -> Turn:
    """The conversation turn a tool runs in, from Home Assistant's current chat log.

    The utterance is the user's own last message (UserContent), never model text. Without
    a chat log (a direct API call) there is no conversation and no utterance. `earlier`:
    the turn that many turns before the current one of this chat log, as it was then (a
    call the user's yes confirmed is decided in the turn that asked for it).
    """
    chat_log = active_chat_log()
    if chat_log is None:
        return Turn(None, language=language)
    from homeassistant.components.conversation.chat_log import (  # noqa: PLC0415
        ToolResultContent,
        UserContent,
    )

    users = [i for i, c in enumerate(chat_log.content) if isinstance(c, UserContent)]
    if earlier:
        users = users[:-earlier]
    # what the previous turn of this chat log asked about: the requests its results opened
    previous = chat_log.content[users[-2] + 1 : users[-1]] if len(users) >= 2 else []
    asked = frozenset(
        str(c.result.data["request_id"])
        for c in previous
        if isinstance(c, ToolResultContent) and "request_id" in c.result.data
    )
    last = chat_log.content[users[-1]] if users else None
    before = chat_log.content[users[-2]] if len(users) >= 2 else None
    return Turn(
        chat_log.conversation_id,
        index=len(users),
        utterance=last.content if isinstance(last, UserContent) else None,
        previous_utterance=before.content if isinstance(before, UserContent) else None,
        language=language,
        log_id=content_id(chat_log.content[users[0]]) if users else None,
        utterance_id=content_id(last) if last is not None else None,
        asked=asked,
    )


def turn_bounds(earlier: int = 0) -> tuple[Any, int, int] | None:
    """The current chat log and where the turn of current_turn(_, earlier) lies in it.

    (chat log, start, end): its content[start:end] is that turn, from the user's words on.
    None without a chat log.
    """
    chat_log = active_chat_log()
    if chat_log is None:
        return None
    from homeassistant.components.conversation.chat_log import UserContent  # noqa: PLC0415

    users = [i for i, c in enumerate(chat_log.content) if isinstance(c, UserContent)]
    kept = users[:-earlier] if earlier else users
    start = kept[-1] if kept else 0
    end = users[len(kept)] if len(kept) < len(users) else len(chat_log.content)
    return chat_log, start, end


def content_id(item: Any) -> str:
    """One item of a chat log (an utterance), the same in every turn's copy of the log.

    Home Assistant copies the chat log for each turn (a new object, a new `created`), but
    the content items are the same objects: the first utterance names the chat log
    instance (a new log under a reused conversation id starts with a new one), the last
    one its turn (two turns at once under one id each add their own).
    """
    return f"{item.created.isoformat()}/{id(item):x}"


def _always(_entity_id: str) -> bool:
    return True
