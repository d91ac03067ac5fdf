"""The guard: every tool call passes here; every attempt ends in exactly one audit record.

Order of checks: known tool, arguments (schema re-checked in code), idempotency key,
permission, rate limits, a pending confirmation being answered, policy with taint and
dynamic risk, circuit breaker, then execution under a timeout.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
import logging
import math
import secrets
import time
from typing import Any, Protocol

from .audit import (
    DEFAULT_MAX_READS,
    DEFAULT_MAX_RECORDS,
    DEFAULT_MAX_REFUSALS,
    REFUSALS,
    AuditLog,
    AuditRecord,
)
from .breaker import CircuitBreaker
from .call import Caller, ToolCall, Turn
from .canonical import args_hash
from .clock import Clock
from .decisions import Access, Outcome, Policy
from .idempotency import IdempotencyCache, IdempotencyConflict
from .ledger import Ledger
from .limits import RateLimiter, retry_message
from .names import names_whole
from .pending import PendingBook, PendingError, PendingKind, PendingRequest, PendingStatus
from .plan import NoPlan, Plan, PlanMismatch, plan_mismatch
from .policy import DEFAULT_POLICIES, ToolSpec
from .risk import SOFT_LIMIT_SHARE, QuietHours, RiskFacts, risk_signals
from .settings import AgentSettings, PlayerSettings
from .untrusted import clean_text
from .utterance import (
    Answer,
    has_rules,
    match_answer,
    players_named,
    request_text,
    said_digits,
    said_verbatim,
    utterance_allows_volume,
    utterance_asks_for,
    volume_numbers,
)

_LOGGER = logging.getLogger(__name__)

UNTIED_TAINT_SECONDS = 300.0
"""Without a conversation there are no turns: a change is refused this long after a read."""
NOTE_CONFIRMED = "confirmed by the user"
"""The note on the record of a change the user's own yes let run (its outcome is APPROVED)."""
NOTE_UNTIED_READ = (
    "device text was read by this caller without a chat log: an administrator decides"
)
TAINT_KEEP_SECONDS = 3600.0
"""A turn's taint lasts the turn; after an hour it is only memory (one per conversation)."""
CONVERSATION_TAINT_SECONDS = 86400.0
"""How long a conversation that read untrusted text is remembered as such."""

REFUSALS_PER_WINDOW = 30
REFUSAL_WINDOW = 600.0
"""Each user's refused attempts are recorded one by one up to 30 per 10 minutes; beyond
that they are counted in one summary record, so a flood cannot push the user's own earlier
refusals out of their quota (500) for hours."""
REFUSED_CALLS_PER_WINDOW = 120
"""After 120 refused calls in 10 minutes, a user's calls are refused at once until the
window frees. A model misled by device text cannot get there (a conversation may make 60
calls in 10 minutes); a client flooding the tools directly (an MCP client) does."""
CONVERSATION_WINDOW = 600.0
USER_CONVERSATIONS = 2
"""By default one user may make two conversations' worth of tool calls in 10 minutes over
all their conversations: starting a new conversation does not reset a user's limit."""
DECISIONS_PER_MINUTE = 20
"""Approvals and denials one user may send a minute (an admin answers a handful)."""

MSG_UNKNOWN_TOOL = "Invalid: unknown tool"
MSG_NOT_AN_OBJECT = "Invalid argument: arguments must be an object"
MSG_ID_REUSED = "Invalid argument: this call id was already used with other arguments"
MSG_NO_USER = "Denied: an unidentified caller may only read"
MSG_NOT_ADMIN = "Denied: only an administrator may do this"
MSG_NO_CONTROL = "Denied: you may not control this player"
MSG_NO_READ = "Denied: you may not read this player"
MSG_TURNED_OFF = "Denied: this action is turned off"
MSG_SAID_NO = "Denied: the user said no"
MSG_TOO_MANY_REFUSED = "Rate limited: too many refused calls; try again in {seconds} s"
MSG_TOO_MANY_DECISIONS = "Rate limited: too many answers to requests; try again in {seconds} s"
MSG_FORGED = "Denied: this answer did not come from the request's own notification"
MSG_NOT_ASKED = "Denied: device text was read this turn and the user did not ask for this"
MSG_NOT_THIS_VOLUME = (
    "Denied: device text was read this turn and the user did not ask for this volume"
)
MSG_NOT_ASKED_CONVERSATION = (
    "Denied: device text was read in this conversation and the user did not ask for this"
)
MSG_NOT_THIS_PLAYER = (
    "Denied: device text was read in this conversation and the user did not name this player"
)
MSG_NOT_ASKED_WORDS = "Denied: the user's own words do not ask for this"
MSG_NOT_THIS_PLAYER_WORDS = "Denied: the user's own words name another player"
MSG_NOT_THIS_VOLUME_WORDS = "Denied: the user's own words do not ask for this volume"
MSG_SAY_THE_VOLUME = (
    "Denied: this volume needs the user's yes; the user must say the level they want"
)
MSG_ASK_AGAIN = (
    "Denied: device text was read this turn; the user must ask for this again in a new turn"
)
MSG_ONE_AT_A_TIME = (
    "Denied: another request already waits for the user's yes; ask about one at a time, "
    "and call this again after the user answered"
)
MSG_OTHER_PLAYER = "Denied: the request's player is no longer the one it was made for"
MSG_TIMED_OUT = "Timed out: the player did not answer in time; its state was re-read"
MSG_FAILED = "Failed: the player did not carry out the command"
MSG_NOT_RECORDED = "Failed: the guard could not record the call, so it did not run it"
MSG_INTERRUPTED = (
    "Failed: Home Assistant stopped while this ran; the player may or may not have done it"
)
MSG_CANCELLED = "Failed: the call was cancelled; the player may or may not have done it"
MSG_MEMORY_AFTER_DEVICE_TEXT = (
    "Denied: this conversation has read device text, so it cannot change remembered facts; "
    "the user may ask again in a new conversation"
)
MSG_MEMORY_NOT_ASKED = "Denied: only the user's own request can change remembered facts"
MSG_MEMORY_NOT_SAID = (
    "Denied: a fact is remembered only in the user's own words: use the words they said"
)


class InvalidArgument(Exception):
    """Arguments failed the schema or the live device's limits; the message is categorical."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message if message.startswith("Invalid") else f"Invalid argument: {message}"


class ToolFailure(Exception):
    """The device refused or failed; the message is categorical (no device text)."""

    def __init__(self, message: str = MSG_FAILED) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True, slots=True)
class PlayerTerms:
    """The players a change targets and the others offered, by the names a user says.

    From a handler's optional `player_terms(arguments)`: each target must be one the
    user's words name, or one they imply (players_named); before device text every target
    is implied unless the words name another player.
    """

    targets: tuple[tuple[str, ...], ...]
    """Per target player (in order: the player, then join's members): its names."""
    others: tuple[tuple[str, ...], ...]
    """Per other player offered: its names."""
    implied: tuple[bool, ...]
    """Per target: the words need not name it (the only player; the satellite's area's)."""


class ToolHandler(Protocol):
    """How one tool is checked and run; implemented outside the guard."""

    def validate(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """The arguments after the schema and live-device checks, or InvalidArgument."""

    def targets(self, arguments: Mapping[str, Any]) -> tuple[str, ...]:
        """The entity ids the call reads or changes."""

    def risk_facts(self, arguments: Mapping[str, Any]) -> RiskFacts:
        """What the call would do to the volume, if anything."""

    def utterance_terms(self, arguments: Mapping[str, Any]) -> Sequence[str]:
        """User-visible names of what the call targets (source, preset, player)."""

    async def execute(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Run it; ToolFailure, InvalidArgument or TimeoutError on failure."""

    async def reread(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """The targets' state now (after a timeout)."""


@dataclass(frozen=True, slots=True)
class GuardResult:
    """What the caller gets back, and the audit record of the attempt."""

    outcome: Outcome
    data: dict[str, Any]
    record: AuditRecord | None
    """None for a refusal beyond the user's limit: it is counted in a summary record."""
    request_id: str | None = None
    code: str | None = None
    """Why an approval or denial by an admin did not go through (resolve only)."""

    @property
    def error(self) -> bool:
        """True unless the tool ran (or a stored run was replayed)."""
        return self.outcome not in (Outcome.ALLOWED, Outcome.APPROVED) and not (
            self.outcome is Outcome.DUPLICATE and "error" not in self.data
        )


@dataclass(slots=True)
class _Attempt:
    """The bookkeeping of one attempt until its record is written."""

    tool: str
    caller: Caller
    turn: Turn
    arguments: Mapping[str, Any]
    spec: ToolSpec | None
    started: float = field(default_factory=time.perf_counter)
    args_hash: str = ""
    entity_ids: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)
    attempt_id: str | None = None
    """Set when a change was written ahead (the journal's entry for it)."""


class Journal(Protocol):
    """Where the record of a change is written, and flushed, before the change runs."""

    async def begin(self, attempt_id: str, intent: Mapping[str, Any]) -> None:
        """Persist `intent` (the attempt as it will be recorded) before it executes."""

    def end(self, attempt_id: str) -> None:
        """The attempt's final record is in the log (saved with the log from now on)."""


type PendingListener = Callable[[PendingRequest], None]
type ResolvedListener = Callable[[PendingRequest, Outcome, Caller | None], None]
type SettingsLookup = Callable[[tuple[str, ...]], PlayerSettings | None]
type AgentSettingsLookup = Callable[[str], AgentSettings | None]


def _no_settings(_entity_ids: tuple[str, ...]) -> PlayerSettings | None:
    return None


def _no_agent_settings(_agent_id: str) -> AgentSettings | None:
    return None


class Guard:
    """The policy engine for one Home Assistant instance (all Linn players)."""

    def __init__(
        self,
        specs: Mapping[str, ToolSpec],
        *,
        clock: Clock,
        policies: Mapping[str, Policy] | None = None,
        quiet_hours: QuietHours | None = None,
        soft_limit_share: float = SOFT_LIMIT_SHARE,
        writes_per_minute: int = 20,
        reads_per_minute: int = 60,
        calls_per_conversation: int = 60,
        calls_per_user: int | None = None,
        pending_expiry: timedelta = timedelta(minutes=5),
        audit_max_records: int = DEFAULT_MAX_RECORDS,
        audit_max_refusals: int = DEFAULT_MAX_REFUSALS,
        audit_max_reads: int = DEFAULT_MAX_READS,
        refusals_per_window: int = REFUSALS_PER_WINDOW,
        refused_calls_per_window: int = REFUSED_CALLS_PER_WINDOW,
        decisions_per_minute: int = DECISIONS_PER_MINUTE,
    ) -> None:
        self.specs = dict(specs)
        self.clock = clock
        self.policies = {**DEFAULT_POLICIES, **(policies or {})}
        self.quiet_hours = quiet_hours
        self.soft_limit_share = soft_limit_share
        self.pending = PendingBook(clock, expiry=pending_expiry)
        self.audit = AuditLog(audit_max_records, audit_max_refusals, audit_max_reads)
        self.journal: Journal | None = None
        """Set by the adapter: a change's record is flushed there before it runs."""
        self.ledger = Ledger(clock)
        self.breaker = CircuitBreaker(clock)
        self.idempotency = IdempotencyCache(clock)
        self._write_limits = RateLimiter(clock, writes_per_minute)
        self._read_limits = RateLimiter(clock, reads_per_minute)
        self._conversation_limits = RateLimiter(
            clock, calls_per_conversation, window=CONVERSATION_WINDOW
        )
        """Per user and conversation: another user's calls under the same id (an
        automation's `kitchen`) do not count against this user's."""
        self._user_limits = RateLimiter(
            clock,
            calls_per_user
            if calls_per_user is not None
            else USER_CONVERSATIONS * calls_per_conversation,
            window=CONVERSATION_WINDOW,
        )
        """Per user over all their conversations: a new conversation id resets nothing."""
        self._refusal_limits = RateLimiter(clock, refusals_per_window, window=REFUSAL_WINDOW)
        """Refused attempts recorded one by one, per user; beyond it they are counted."""
        self._refused_calls = RateLimiter(clock, refused_calls_per_window, window=REFUSAL_WINDOW)
        """Refused attempts per user; beyond it every call of the user is refused at once."""
        self._decision_limits = RateLimiter(clock, decisions_per_minute)
        self._uncounted: dict[str | None, dict[tuple[str, str], int]] = {}
        """Per user: refused attempts beyond the limit, by (tool, outcome), not yet recorded."""
        self.unrecorded_attempts = 0
        """Refused attempts counted in a summary record instead of one record each."""
        self._taint: dict[tuple[str | None, str | None], tuple[int, float]] = {}
        self._taint_sweep_at = 64
        self._tainted_conversations: dict[str, float] = {}
        self._conversations_that_read: dict[str, float] = {}
        """Conversations in which a read (not a change's result) brought in device text."""
        self._untied_reads: dict[str | None, float] = {}
        """Per user: the last read of device text by a caller with no chat log (an MCP
        client's session keeps the text in its model's context as long as a conversation)."""
        self.unknown_tool_calls = 0
        self.attempts = 0
        self.pending_listeners: list[PendingListener] = []
        self.resolved_listeners: list[ResolvedListener] = []
        self.change_listeners: list[Callable[[], None]] = []
        self.settings_for: SettingsLookup = _no_settings
        """Per-player settings (the streamers' options); None: the values above."""
        self.agent_settings_for: AgentSettingsLookup = _no_agent_settings
        """An assistant's own settings by its agent id (its options); they only tighten."""

    def settings(
        self, entity_ids: tuple[str, ...], agent_id: str | None = None
    ) -> PlayerSettings | None:
        """What governs a call on these players made by this agent (None: the defaults).

        The strictest of the players' settings and the calling agent's: an agent's
        settings can tighten a player's, never loosen them.
        """
        base = self.settings_for(entity_ids)
        agent = self.agent_settings_for(agent_id) if agent_id is not None else None
        if agent is None:
            return base
        return agent.tighten(base if base is not None else self.default_settings())

    def default_settings(self) -> PlayerSettings:
        """The guard's own values, where no player's settings apply."""
        return PlayerSettings(
            policies=self.policies,
            soft_limit_share=self.soft_limit_share,
            quiet_hours=(self.quiet_hours,) if self.quiet_hours is not None else (),
            approval_expiry=self.pending.expiry,
        )

    # --- the call path --------------------------------------------------------------

    async def run(self, call: ToolCall, handler: ToolHandler | None) -> GuardResult:
        """Check and (maybe) run one call; always returns, with one audit record."""
        self.attempts += 1
        spec = self.specs.get(call.tool)
        # a model's JSON may be a list or a string: nothing below may read it as a mapping
        is_object = isinstance(call.arguments, Mapping)
        attempt = _Attempt(
            call.tool, call.caller, call.turn, call.arguments if is_object else {}, spec
        )
        if (wait := self._refused_calls.blocked(call.caller.user_id)) is not None:
            message = MSG_TOO_MANY_REFUSED.format(seconds=max(1, math.ceil(wait)))
            return self._finish(attempt, Outcome.RATE_LIMITED, message)
        if spec is None or handler is None:
            self.unknown_tool_calls += 1
            return self._finish(attempt, Outcome.INVALID, MSG_UNKNOWN_TOOL)
        if not is_object:
            return self._finish(attempt, Outcome.INVALID, MSG_NOT_AN_OBJECT)
        try:
            arguments = handler.validate(call.arguments)
        except InvalidArgument as err:
            return self._finish(attempt, Outcome.INVALID, err.message)
        attempt.arguments = arguments
        attempt.args_hash = args_hash(spec.name, arguments)
        attempt.entity_ids = handler.targets(arguments)

        key = (call.caller.user_id, call.call_id) if call.call_id else None
        if key is not None:
            try:
                stored = self.idempotency.lookup(key, attempt.args_hash)
            except IdempotencyConflict:
                return self._finish(attempt, Outcome.INVALID, MSG_ID_REUSED)
            if stored is not None:
                attempt.notes.append(f"replay of {stored.outcome}")
                if spec.reads_untrusted and not stored.error:
                    # the stored device text reaches the model again: taint as the first did
                    self._mark_tainted(call.caller, call.turn, read=not spec.changes_state)
                return self._finish(attempt, Outcome.DUPLICATE, None, data=stored.data)

        if (denial := self._permission_denial(spec, call.caller, attempt.entity_ids)) is not None:
            return self._finish(attempt, Outcome.DENIED, denial)
        if (wait := self._rate_limit(spec, call)) is not None:
            return self._finish(attempt, Outcome.RATE_LIMITED, retry_message(wait))

        if (
            spec.user_words_only
            and (denial := self._user_words_denial(spec, handler, call)) is not None
        ):
            return self._finish(attempt, Outcome.DENIED, denial)
        if spec.changes_state:
            answered = self._answer_pending(
                attempt, call, lambda: self._decide(spec, handler, arguments, call, attempt)
            )
            if isinstance(answered, GuardResult):
                return answered
            if answered is None:
                policy = self._decide(spec, handler, arguments, call, attempt)
                if policy is Policy.DENY:
                    return self._finish(attempt, Outcome.DENIED, MSG_TURNED_OFF)
                if refusal := self._taint_refusal(spec, handler, arguments, call, policy):
                    return self._finish(attempt, Outcome.DENIED, refusal)
                if (
                    policy is not Policy.ALLOW
                    and (answered := self._confirmed_by(call, policy, attempt)) is None
                ):
                    result = self._open_request(attempt, policy, arguments)
                    if key is not None and result.outcome is Outcome.PENDING:
                        self.idempotency.store(
                            key, attempt.args_hash, "pending", result.data, error=True
                        )
                    return result
            success = Outcome.APPROVED if answered is not None else Outcome.ALLOWED
            request_id = answered.request_id if answered is not None else None
            result = await self._execute(attempt, handler, arguments, success, request_id)
        else:
            if self._turned_off(spec, call, attempt):
                return self._finish(attempt, Outcome.DENIED, MSG_TURNED_OFF)
            result = await self._execute(attempt, handler, arguments, Outcome.ALLOWED, None)
        if key is not None:
            self.idempotency.store(
                key, attempt.args_hash, result.outcome, result.data, error=result.error
            )
        return result

    def _permission_denial(
        self, spec: ToolSpec, caller: Caller, entity_ids: tuple[str, ...]
    ) -> str | None:
        if caller.is_admin:
            return None
        if spec.access is Access.ADMIN:
            return MSG_NOT_ADMIN if caller.identified else MSG_NO_USER
        if spec.access is Access.CONTROL:
            if not caller.identified:
                return MSG_NO_USER
            if not all(caller.can_control(entity_id) for entity_id in entity_ids):
                return MSG_NO_CONTROL
            return None
        if not all(caller.can_read(entity_id) for entity_id in entity_ids):
            return MSG_NO_READ
        return None

    def _turned_off(self, spec: ToolSpec, call: ToolCall, attempt: _Attempt) -> bool:
        """A policy (a player's or the agent's) denies the tool now.

        A read runs at once unless this holds; a confirmed change is checked again, since
        the owner may have turned the tool off while it waited for the user's yes.
        """
        settings = self.settings(attempt.entity_ids, call.caller.agent_id)
        if settings is not None:
            return settings.policy(spec.policy_key) is Policy.DENY
        return self.policies.get(spec.policy_key, Policy.ALLOW) is Policy.DENY

    def _denied_now(self, request: PendingRequest) -> bool:
        """The policy for a waiting request's tool is deny now (its players' or its agent's).

        An admin's approval answers the request as it was asked; if the owner has since
        turned the tool off, the approval must not run it (as a confirmation must not).
        """
        spec = self.specs.get(request.tool)
        if spec is None:
            return False
        settings = self.settings(request.entity_ids, request.agent_id)
        if settings is not None:
            return settings.policy(spec.policy_key) is Policy.DENY
        return self.policies.get(spec.policy_key, Policy.ALLOW) is Policy.DENY

    def _rate_limit(self, spec: ToolSpec, call: ToolCall) -> float | None:
        limiter = self._write_limits if spec.changes_state else self._read_limits
        user_id = call.caller.user_id
        wait = limiter.blocked((user_id, spec.name))
        if wait is None:
            wait = self._user_limits.blocked(user_id)
        if wait is None and call.turn.conversation_id is not None:
            wait = self._conversation_limits.blocked((user_id, call.turn.conversation_id))
        if wait is not None:
            return wait
        # counted only when every limit lets the call through: a refused call uses none
        limiter.hit((user_id, spec.name))
        self._user_limits.hit(user_id)
        if call.turn.conversation_id is not None:
            self._conversation_limits.hit((user_id, call.turn.conversation_id))
        return None

    def _user_words_denial(
        self, spec: ToolSpec, handler: ToolHandler | None, call: ToolCall
    ) -> str | None:
        """Why a call that only the user's own words may cause cannot run, if it cannot.

        Untrusted text read at any point of the conversation stays in the model's context,
        so the whole conversation counts, not only this turn; without a conversation, the
        last minutes do. The text the call writes (`utterance_terms`: a fact) must be the
        user's own words as they said them: names no user typed (a player's, a room's, an
        entity's) reach the model in every request, and one of them could otherwise dictate
        a fact that later turns take for the user's preference.
        """
        if self.conversation_read_untrusted(call.caller, call.turn):
            return MSG_MEMORY_AFTER_DEVICE_TEXT
        if not utterance_asks_for(
            call.turn.utterance, spec.action or "", language=call.turn.language
        ):
            return MSG_MEMORY_NOT_ASKED
        terms = handler.utterance_terms(call.arguments) if handler is not None else ()
        if not all(said_verbatim(term, call.turn.utterance) for term in terms):
            return MSG_MEMORY_NOT_SAID
        return None

    # --- confirmation by the user's next utterance -----------------------------------

    def _answer_pending(
        self, attempt: _Attempt, call: ToolCall, policy_now: Callable[[], Policy]
    ) -> PendingRequest | GuardResult | None:
        """An open request for exactly this call: confirmed, still waiting, refused, or lapsed.

        Returns the request when the user's raw utterance in the next turn said yes, a
        result when the call must stop here, None when there is no such request.

        A yes answers the request as it was asked; the policy as it is now (`policy_now`:
        the owner's options, the soft limit, the risk signals) may have become stricter
        while it waited, and the stricter one holds: turned off, the yes runs nothing;
        needing an administrator now, the yes becomes a request for one.
        """
        request = self.pending.find_open(
            call.caller.user_id, call.turn.conversation_id, attempt.tool, attempt.args_hash
        )
        if request is None:
            return None
        if request.kind is PendingKind.APPROVE or call.turn.index == request.turn:
            return self._finish(
                attempt, Outcome.PENDING, _pending_message(request), request=request
            )
        answer = match_answer(call.turn.utterance, call.turn.language)
        # this very chat log asked about it (not a new log under a reused conversation id)
        asked = request.request_id in call.turn.asked and request.log_id == call.turn.log_id
        if call.turn.index == request.turn + 1 and answer is Answer.YES and asked:
            if (now := policy_now()) > Policy.CONFIRM:
                taken = self.pending.take(request.request_id, approve=False)
                self._resolved(taken, Outcome.DENIED, call.caller)
                attempt.notes.append(f"request {taken.request_id}: the policy is stricter now")
                if now is Policy.DENY:
                    return self._finish(attempt, Outcome.DENIED, MSG_TURNED_OFF, request=taken)
                return self._open_request(attempt, now, attempt.arguments)
            taken = self.pending.take(request.request_id, approve=True)
            attempt.notes.append(NOTE_CONFIRMED)
            self._resolved(taken, Outcome.APPROVED, call.caller)
            return taken
        taken = self.pending.take(request.request_id, approve=False)
        self._resolved(taken, Outcome.DENIED, call.caller)
        if answer is Answer.NO and call.turn.index == request.turn + 1 and asked:
            return self._finish(attempt, Outcome.DENIED, MSG_SAID_NO, request=taken)
        attempt.notes.append(f"request {taken.request_id} lapsed without a yes")
        return None

    def _confirmed_by(
        self, call: ToolCall, policy: Policy, attempt: _Attempt
    ) -> PendingRequest | None:
        """The confirmation the user's yes has just approved, if it answers this call.

        Another API's call (an Assist intent) that waited for the user's yes runs in code
        when they say it, and may reach a Linn player's service: that change is decided as
        the Linn tool, in the turn that asked (its words and plan, `call.turn`), and a yes
        it needs (`policy` confirm; never an admin's approval) is the one the user gave.
        Only a confirmation of this user, this chat log and this turn counts, and only once
        approved (`call.confirmed_by` is set by code only while the approved call runs).
        """
        if call.confirmed_by is None or policy is not Policy.CONFIRM:
            return None
        request = self.pending.get(call.confirmed_by)
        turn = call.turn
        if (
            request is None
            or request.kind is not PendingKind.CONFIRM
            or request.status is not PendingStatus.APPROVED
            or request.user_id != call.caller.user_id
            or request.conversation_id is None
            or request.conversation_id != turn.conversation_id
            or request.log_id != turn.log_id
            or request.turn != turn.index
        ):
            return None
        attempt.notes += [NOTE_CONFIRMED, f"the yes to {request.tool}"]
        return request

    def _decide(
        self,
        spec: ToolSpec,
        handler: ToolHandler,
        arguments: Mapping[str, Any],
        call: ToolCall,
        attempt: _Attempt,
    ) -> Policy:
        settings = self.settings(attempt.entity_ids, call.caller.agent_id)
        if settings is not None:
            policy = settings.policy(spec.policy_key)
            soft_limit_share = settings.soft_limit_share
            quiet = settings.quiet(self.clock())
        else:
            policy = self.policies.get(spec.policy_key, Policy.ALLOW)
            soft_limit_share = self.soft_limit_share
            quiet = self.quiet_hours is not None and self.quiet_hours.active(self.clock())
        if policy is Policy.DENY:
            return policy
        if policy < spec.min_policy:
            attempt.notes.append(f"at least {spec.min_policy.name.lower()} for this tool")
            policy = spec.min_policy
        if _without_word_rules(spec, call.turn) and policy < Policy.CONFIRM:
            attempt.notes.append("no word rules for this language: the user's yes")
            policy = Policy.CONFIRM
        if self._no_plan_after_read(spec, call) and policy < Policy.CONFIRM:
            attempt.notes.append("no plan for this turn after device text: the user's yes")
            policy = Policy.CONFIRM
        facts = handler.risk_facts(arguments)
        if facts.soft_limit_share != soft_limit_share:
            facts = RiskFacts(
                facts.volume_target, facts.volume_current, facts.volume_limit, soft_limit_share
            )
        if facts.above_soft_limit and policy < Policy.CONFIRM:
            policy = Policy.CONFIRM
            attempt.notes.append("volume above the soft limit")
        tainted = self.is_tainted(call.caller, call.turn)
        signals = risk_signals(
            facts, quiet_hours=quiet, identified=call.caller.identified, tainted=tainted
        )
        if len(signals) >= 2:
            attempt.notes.append("risk: " + ", ".join(sorted(signals)))
            policy = policy.escalated()
        if policy is Policy.CONFIRM and call.turn.conversation_id is None:
            attempt.notes.append("no conversation to confirm in")
            policy = Policy.APPROVE
        if policy < Policy.APPROVE and self._untied_read_before(call.caller, call.turn):
            # no words to check and device text in the client's context for its session
            attempt.notes.append(NOTE_UNTIED_READ)
            policy = Policy.APPROVE
        if policy is Policy.APPROVE and not spec.approvable:
            attempt.notes.append("no administrator can approve this tool")
            policy = Policy.DENY
        return policy

    def _taint_refusal(
        self,
        spec: ToolSpec,
        handler: ToolHandler,
        arguments: Mapping[str, Any],
        call: ToolCall,
        policy: Policy,
    ) -> str | None:
        """Why a change the model makes must not run or ask, if so.

        Every change a model makes rests on the user's own words of this turn (or, for a
        short answer such as "the kitchen", of the turn before): they must ask for this
        kind of action in a clause that is no question; a name the call targets (a source)
        only narrows it. The model's request carries names no user chose (player, area and
        entity names, which devices report), so no turn is trusted blindly. A volume must
        follow the words: a volume the user said, or the direction they asked for. Once
        device text was read in the conversation, a named target must be one the user
        said too (before, a model may translate "Plattenspieler" to the "Turntable" source).
        The change's players must never be other than the ones the words name: when they
        name a player, a change of another is refused even before device text, since a
        player's name (set in Linn's app) may itself carry an instruction.

        After a read brought device text in, in this turn or an earlier one of the
        conversation, that text stays in the model's context. In the turn that read it, a
        change that needs a yes or an admin is refused (its arguments may come from the
        text; a request raised by device text is the approval flood an attacker wants);
        the user can ask again in a turn of their own. In any turn, such a change may ask
        only for a volume the user said, not one picked in the direction they asked for.

        A tool with no action kind (another API's unknown tool) has no words to check: it
        is refused in a conversation that read device text when its spec says so. Another
        API's tool with a kind (a known Assist intent) is checked as a Linn change, with
        every name it targets (`every_term`); in a language without word rules and no plan
        it is refused there, since its question would be the model's own words.
        """
        read_here = self.is_tainted(call.caller, call.turn)
        read_before = self._conversation_read_text(call.turn)
        turn = call.turn
        if spec.action is None:
            read_before = read_before or self._untied_read_before(call.caller, turn)
            if read_here or (spec.conversation_taint and read_before):
                return MSG_NOT_ASKED if read_here else MSG_NOT_ASKED_CONVERSATION
            return None
        if turn.utterance is None and not (read_here or read_before):
            return None  # no chat log (a direct call): there are no words to check
        lang = turn.language
        if _without_word_rules(spec, turn) or self._no_plan_after_read(spec, call):
            # no rules can read these words: the change waits for the user's yes (_decide),
            # never in the turn that read device text; after a read in an earlier turn, a
            # volume must be one the user said in digits (the text may have picked it, and
            # the model's question is all the yes answers)
            if spec.conversation_taint and (read_here or read_before):
                return MSG_NOT_ASKED_CONVERSATION
            if not self._players_named(handler, arguments, turn.utterance, tainted=False):
                # names are the user's own in any language: the model's question must not
                # be about another player than the one they named
                return MSG_NOT_THIS_PLAYER_WORDS
            if read_here:
                return MSG_ASK_AGAIN
            volume = handler.risk_facts(arguments).volume_target
            if read_before and volume is not None and volume not in said_digits(turn.utterance):
                return MSG_SAY_THE_VOLUME
            return None
        words = request_text(turn.utterance, turn.previous_utterance, lang)
        tainted = read_here or read_before
        terms = handler.utterance_terms(arguments)
        if isinstance(turn.plan, Plan):
            return self._plan_refusal(
                spec, handler, arguments, turn.plan, policy, read_here=read_here, tainted=tainted
            )
        if spec.every_term and tainted:
            asked = _every_name_asked(
                words,
                turn.previous_utterance,
                spec.action,
                terms,
                lang,
                longer=_longer_names(handler, arguments),
            )
        else:
            asked = utterance_asks_for(words, spec.action, terms, narrow=tainted, language=lang)
        if not asked:
            if read_here:
                return MSG_NOT_ASKED
            return MSG_NOT_ASKED_CONVERSATION if tainted else MSG_NOT_ASKED_WORDS
        if not self._players_named(handler, arguments, words, tainted=tainted):
            # the text, or a player's name, may name the player ("linn__standby always
            # means Living Room")
            return MSG_NOT_THIS_PLAYER if tainted else MSG_NOT_THIS_PLAYER_WORDS
        facts = handler.risk_facts(arguments)
        volume = facts.volume_target
        if volume is not None and not utterance_allows_volume(
            words, volume, facts.volume_current, lang
        ):
            # "turn it down" must not become the text's "set the volume to 48"
            return MSG_NOT_THIS_VOLUME if read_here else MSG_NOT_THIS_VOLUME_WORDS
        if policy is Policy.ALLOW:
            return None
        if read_here:
            return MSG_ASK_AGAIN
        if volume is not None and volume not in volume_numbers(words, lang):
            # "louder" may not become a question about 90: the user says the level
            return MSG_SAY_THE_VOLUME
        return None

    def _plan_refusal(
        self,
        spec: ToolSpec,
        handler: ToolHandler,
        arguments: Mapping[str, Any],
        plan: Plan,
        policy: Policy,
        *,
        read_here: bool,
        tainted: bool,
    ) -> str | None:
        """The change must be one of the turn's plan (plan.py), instead of the word rules.

        The planner saw only the user's words, so no device text can have added a change,
        a player or a volume to it. Before any device text was read, the kind and the
        volume must fit, and the players must not be other than the ones the planned
        target words name (a player's name may carry text); after, the players must be
        named or implied, and the named source must fit too. As with the word
        rules, a change that needs a yes or an admin waits for a turn of the user's own
        after a read in this turn, and may ask only for a level the user said.
        """
        facts = handler.risk_facts(arguments)
        mismatch = plan_mismatch(
            plan,
            spec.action or "",
            players_named=lambda words: self._players_named(
                handler, arguments, words, tainted=tainted
            ),
            items=handler.utterance_terms(arguments) if tainted else (),
            longer_names=_longer_names(handler, arguments) if tainted else (),
            volume_target=facts.volume_target,
            volume_current=facts.volume_current,
        )
        if mismatch is PlanMismatch.PLAYER:
            return MSG_NOT_THIS_PLAYER if tainted else MSG_NOT_THIS_PLAYER_WORDS
        if mismatch is PlanMismatch.VOLUME:
            return MSG_NOT_THIS_VOLUME if read_here else MSG_NOT_THIS_VOLUME_WORDS
        if mismatch is not None:
            if not tainted:
                return MSG_NOT_ASKED_WORDS
            return MSG_NOT_ASKED if read_here else MSG_NOT_ASKED_CONVERSATION
        if policy is Policy.ALLOW:
            return None
        if read_here:
            return MSG_ASK_AGAIN
        if facts.volume_target is not None and not any(
            change.level == facts.volume_target for change in plan.changes
        ):
            return MSG_SAY_THE_VOLUME
        return None

    def _no_plan_after_read(self, spec: ToolSpec, call: ToolCall) -> bool:
        """The planner failed for a turn of a conversation that read device text."""
        return (
            spec.action is not None
            and isinstance(call.turn.plan, NoPlan)
            and (self.is_tainted(call.caller, call.turn) or self._conversation_read_text(call.turn))
        )

    @staticmethod
    def _players_named(
        handler: ToolHandler, arguments: Mapping[str, Any], words: str | None, *, tainted: bool
    ) -> bool:
        """The change's players are ones the user's words name or imply (PlayerTerms).

        Before device text every target counts as implied, unless the words name another
        player: "pause" from the phone app stays the model's pick, but "put the kitchen in
        standby" cannot land on the living room, whatever a player's name tells the model
        (a room renamed in Linn's app, which asks no password, reaches every request).
        After device text only the only player and the satellite's area's are implied.
        """
        lookup: Callable[[Mapping[str, Any]], PlayerTerms | None] | None = getattr(
            handler, "player_terms", None
        )
        terms = lookup(arguments) if lookup is not None else None
        if terms is None:
            return True  # a handler with no players (another API's, memory)
        implied = terms.implied if tainted else (True,) * len(terms.targets)
        return players_named(words, terms.targets, terms.others, implied)

    def _open_request(
        self, attempt: _Attempt, policy: Policy, arguments: Mapping[str, Any]
    ) -> GuardResult:
        kind = PendingKind.CONFIRM if policy is Policy.CONFIRM else PendingKind.APPROVE
        if kind is PendingKind.CONFIRM and self._confirmation_open(attempt):
            # one yes answers the whole previous turn: with two questions open, it would
            # confirm both, whatever the model's question said
            attempt.notes.append("another confirmation is open in this turn")
            return self._finish(attempt, Outcome.DENIED, MSG_ONE_AT_A_TIME)
        settings = self.settings(attempt.entity_ids, attempt.caller.agent_id)
        try:
            request = self.pending.create(
                kind,
                attempt.tool,
                arguments,
                user_id=attempt.caller.user_id,
                conversation_id=attempt.turn.conversation_id,
                turn=attempt.turn.index,
                entity_ids=attempt.entity_ids,
                expiry=settings.approval_expiry if settings is not None else None,
                agent_id=attempt.caller.agent_id,
                log_id=attempt.turn.log_id,
            )
        except PendingError as err:
            return self._finish(attempt, Outcome.DENIED, f"Denied: {err.reason}")
        result = self._finish(attempt, Outcome.PENDING, _pending_message(request), request=request)
        for listener in list(self.pending_listeners):
            listener(request)
        return result

    def _confirmation_open(self, attempt: _Attempt) -> bool:
        """Whether this turn of this chat log already opened a confirmation for this user."""
        turn = attempt.turn
        return any(
            request.kind is PendingKind.CONFIRM
            and request.user_id == attempt.caller.user_id
            and request.conversation_id == turn.conversation_id
            and request.turn == turn.index
            and request.log_id == turn.log_id
            for request in self.pending.open_requests()
        )

    # --- out-of-band approval ----------------------------------------------------------

    async def resolve(
        self,
        request_id: str,
        *,
        approver: Caller,
        approve: bool,
        requester: Caller,
        handler: ToolHandler | None,
        arguments: Mapping[str, Any] | None = None,
        secret: str | None = None,
    ) -> GuardResult:
        """An admin approves or denies a request; an approved one runs after re-checks.

        `arguments` (what the approver was shown) must match the request exactly. An answer
        from a notification's button carries `secret`, which must be the request's own
        random secret: anyone can read a request's id and arguments, only the admin's
        notification holds its secret. A refusal carries a `code`: unknown, not_yours,
        not_admin, forged, changed_arguments, expired, used, turned_off or changed_target.

        An approved request runs on the players it targeted when it was made (their entity
        ids): a handler resolves names afresh, and when they now name other players (a
        device that renamed itself), it does not run.
        """
        self.attempts += 1
        request = self.pending.get(request_id)
        attempt = _Attempt(
            request.tool if request else "approval",
            approver,
            Turn(request.conversation_id if request else None),
            request.arguments if request else {},
            self.specs.get(request.tool) if request else None,
        )
        wait = self._refused_calls.blocked(approver.user_id)
        if wait is None:
            wait = self._decision_limits.hit(approver.user_id)
        if wait is not None:
            message = MSG_TOO_MANY_DECISIONS.format(seconds=max(1, math.ceil(wait)))
            return self._finish(attempt, Outcome.RATE_LIMITED, message, code="rate_limited")
        if request is None:
            return self._finish(
                attempt, Outcome.INVALID, "Invalid: unknown request", code="unknown"
            )
        attempt.args_hash = request.args_hash
        attempt.entity_ids = request.entity_ids
        attempt.notes.append(f"requested by {request.user_id}")
        if request.kind is not PendingKind.APPROVE:
            return self._finish(
                attempt, Outcome.DENIED, "Denied: only the user can confirm this",
                request=request, code="not_yours",
            )  # fmt: skip
        if not approver.is_admin:
            return self._finish(
                attempt, Outcome.DENIED, MSG_NOT_ADMIN, request=request, code="not_admin"
            )
        if secret is not None and not request.secret_matches(secret):
            return self._finish(attempt, Outcome.DENIED, MSG_FORGED, request=request, code="forged")
        if args_hash(request.tool, request.arguments) != request.args_hash or (
            arguments is not None and args_hash(request.tool, arguments) != request.args_hash
        ):
            return self._finish(
                attempt, Outcome.DENIED, "Denied: the arguments differ from the request",
                request=request, code="changed_arguments",
            )  # fmt: skip
        was_open = request.status is PendingStatus.OPEN
        turned_off = approve and was_open and self._denied_now(request)
        try:
            taken = self.pending.take(request.request_id, approve=approve and not turned_off)
        except PendingError as err:
            outcome = Outcome.EXPIRED if err.expired else Outcome.DENIED
            result = self._finish(
                attempt, outcome, f"Denied: {err.reason}", request=request,
                code="expired" if err.expired else "used",
            )  # fmt: skip
            if err.expired and was_open:
                self._resolved(request, Outcome.EXPIRED, approver)
            return result
        if turned_off:
            # the owner made the tool stricter while it waited: the approval cannot run it
            self._resolved(taken, Outcome.DENIED, approver)
            return self._finish(
                attempt, Outcome.DENIED, MSG_TURNED_OFF, request=taken, code="turned_off"
            )
        if not approve:
            self._resolved(taken, Outcome.DENIED, approver)
            return self._finish(
                attempt, Outcome.DENIED, "Denied by an administrator", request=taken
            )
        self._resolved(taken, Outcome.APPROVED, approver)
        spec = self.specs.get(request.tool)
        if spec is None or handler is None:
            return self._finish(attempt, Outcome.INVALID, MSG_UNKNOWN_TOOL, request=taken)
        # re-check against the device as it is now, with the requester's permissions now
        try:
            arguments_now = handler.validate(request.arguments)
        except InvalidArgument as err:
            return self._finish(attempt, Outcome.INVALID, err.message, request=taken)
        targets = handler.targets(arguments_now)
        if targets != request.entity_ids:
            # the approval is for the players the request named when it was made; a name
            # that now means another player (a device renamed itself) must not move it
            return self._finish(
                attempt, Outcome.DENIED, MSG_OTHER_PLAYER, request=taken, code="changed_target"
            )
        if (denial := self._permission_denial(spec, requester, targets)) is not None:
            return self._finish(attempt, Outcome.DENIED, denial, request=taken)
        return await self._execute(
            attempt, handler, arguments_now, Outcome.APPROVED, taken.request_id
        )

    def expire_due(self) -> list[GuardResult]:
        """Expire overdue requests, one audit record each."""
        results = []
        self.record_uncounted()
        self.pending.expire_due()
        for request in self.pending.take_expired():
            self.attempts += 1
            attempt = _Attempt(
                request.tool, Caller(request.user_id), Turn(request.conversation_id),
                request.arguments, self.specs.get(request.tool),
            )  # fmt: skip
            attempt.args_hash = request.args_hash
            attempt.entity_ids = request.entity_ids
            self._resolved(request, Outcome.EXPIRED, None)
            results.append(
                self._finish(attempt, Outcome.EXPIRED, "Expired: nobody answered", request=request)
            )
        return results

    def lapse(self, requests: list[PendingRequest], caller: Caller) -> list[GuardResult]:
        """Confirmations the user's next words did not answer lapse now, one record each.

        Only the very next turn's yes can confirm a request, so an unanswered one is dead;
        left open it would count against the user's open requests until it expires.
        """
        results = []
        for request in requests:
            if request.kind is not PendingKind.CONFIRM or request.user_id != caller.user_id:
                continue
            try:
                taken = self.pending.take(request.request_id, approve=False)
            except PendingError:
                continue  # answered or expired meanwhile
            self.attempts += 1
            attempt = _Attempt(
                request.tool, caller, Turn(request.conversation_id), request.arguments,
                self.specs.get(request.tool),
            )  # fmt: skip
            attempt.args_hash = request.args_hash
            attempt.entity_ids = request.entity_ids
            self._resolved(taken, Outcome.DENIED, caller)
            reason = "Denied: the user went on without a yes"
            results.append(self._finish(attempt, Outcome.DENIED, reason, request=taken))
        return results

    def _resolved(self, request: PendingRequest, outcome: Outcome, by: Caller | None) -> None:
        for listener in list(self.resolved_listeners):
            listener(request, outcome, by)

    # --- execution -----------------------------------------------------------------------

    async def _execute(
        self,
        attempt: _Attempt,
        handler: ToolHandler,
        arguments: Mapping[str, Any],
        success: Outcome,
        request_id: str | None,
    ) -> GuardResult:
        assert attempt.spec is not None
        spec = attempt.spec
        breaker_key = (spec.name, attempt.entity_ids[0] if attempt.entity_ids else "")
        if not self.breaker.allow(breaker_key):
            wait = self.breaker.open_seconds
            return self._finish(
                attempt,
                Outcome.FAILED,
                f"Unavailable: this keeps failing on the player; try again in {math.ceil(wait)} s",
                request_id=request_id,
            )
        if spec.changes_state and self.journal is not None:
            # the record of a change is on disk before the change runs: a crash while it
            # runs leaves the attempt in the log (as interrupted), never nothing
            attempt.attempt_id = secrets.token_hex(8)
            try:
                await self.journal.begin(attempt.attempt_id, self._intent(attempt, request_id))
            except Exception:
                self.breaker.release(breaker_key)
                _LOGGER.exception("The guard could not write ahead the record of %s", spec.name)
                attempt.attempt_id = None
                return self._finish(
                    attempt, Outcome.FAILED, MSG_NOT_RECORDED, request_id=request_id
                )
        try:
            async with asyncio.timeout(spec.timeout):
                data = await handler.execute(arguments)
        except asyncio.CancelledError:
            # the caller gave up (a cancelled conversation turn): still one record
            self.breaker.release(breaker_key)
            self._finish(attempt, Outcome.FAILED, MSG_CANCELLED, request_id=request_id)
            raise
        except TimeoutError:
            self.breaker.failure(breaker_key)
            state = await self._reread(handler, arguments, spec.timeout)
            return self._finish(
                attempt, Outcome.TIMED_OUT, MSG_TIMED_OUT, request_id=request_id,
                extra={"state": state} if state is not None else None,
            )  # fmt: skip
        except InvalidArgument as err:
            self.breaker.release(breaker_key)
            return self._finish(attempt, Outcome.INVALID, err.message, request_id=request_id)
        except ToolFailure as err:
            self.breaker.failure(breaker_key)
            return self._finish(attempt, Outcome.FAILED, err.message, request_id=request_id)
        except Exception:
            _LOGGER.exception("Tool %s failed unexpectedly", spec.name)
            self.breaker.failure(breaker_key)
            return self._finish(attempt, Outcome.FAILED, MSG_FAILED, request_id=request_id)
        self.breaker.success(breaker_key)
        if spec.reads_untrusted:
            self._mark_tainted(attempt.caller, attempt.turn, read=not spec.changes_state)
        return self._finish(attempt, success, None, data=data, request_id=request_id)

    async def _reread(
        self, handler: ToolHandler, arguments: Mapping[str, Any], seconds: float
    ) -> dict[str, Any] | None:
        try:
            async with asyncio.timeout(seconds):
                return await handler.reread(arguments)
        except Exception:  # noqa: BLE001 - the state is a courtesy; the timed-out outcome stands
            return None

    # --- taint ---------------------------------------------------------------------------

    def _taint_key(self, caller: Caller, turn: Turn) -> tuple[str | None, str | None]:
        return (turn.conversation_id, None if turn.conversation_id else caller.user_id)

    def _mark_tainted(
        self, caller: Caller, turn: Turn, *, read: bool, this_turn: bool = True
    ) -> None:
        now = self.clock().timestamp()
        if len(self._taint) > self._taint_sweep_at:
            self._taint = {k: v for k, v in self._taint.items() if now - v[1] < TAINT_KEEP_SECONDS}
            self._taint_sweep_at = max(64, 2 * len(self._taint))
        if this_turn:
            self._taint[self._taint_key(caller, turn)] = (turn.index, now)
        if turn.conversation_id is None and read:
            self._untied_reads = {
                user: at
                for user, at in self._untied_reads.items()
                if now - at < CONVERSATION_TAINT_SECONDS
            }
            self._untied_reads[caller.user_id] = now
        if turn.conversation_id is not None:
            marks = [self._tainted_conversations]
            if read:
                marks.append(self._conversations_that_read)
            for conversations in marks:
                conversations[turn.conversation_id] = now
                stale = [
                    key
                    for key, at in conversations.items()
                    if now - at > CONVERSATION_TAINT_SECONDS
                ]
                for key in stale:
                    del conversations[key]

    def request_carries_untrusted_text(self, caller: Caller, turn: Turn) -> None:
        """The model's request in this turn carries text no user chose; call before it runs.

        For an agent that sends names a device or another integration picked (Home
        Assistant's Assist prompt and its exposed entities' and areas' names, player names,
        turn facts): the turn, and the rest of its conversation, follow the rules of
        a conversation that read device text from its first tool call on: another API's
        change tool (which has no words to check) is refused, and a Linn change that needs
        a yes or an admin may only ask for a volume the user said. Every Linn change needs
        the user's words in any case. Without a conversation, the caller's next day
        (_untied_read_before).
        """
        self._mark_tainted(caller, turn, read=True, this_turn=turn.conversation_id is None)

    def tool_results_carry_untrusted_text(
        self, caller: Caller, turn: Turn, *, this_turn: bool
    ) -> None:
        """Results of tools no guard saw reached the model (another agent's GetLiveContext).

        Taken as device text read: in this turn (`this_turn`) it taints the turn, and the
        conversation from then on; in an earlier turn of the conversation, the conversation.
        """
        self._mark_tainted(caller, turn, read=True, this_turn=this_turn)

    @property
    def tainted_conversations(self) -> int:
        """Turns (per conversation, or per caller without one) whose taint is remembered."""
        return len(self._taint)

    def conversation_read_untrusted(self, caller: Caller, turn: Turn) -> bool:
        """True when any turn of this conversation (or, without one, the caller's last day) did."""
        if turn.conversation_id is None:
            return self.is_tainted(caller, turn) or self._untied_read_before(caller, turn)
        return turn.conversation_id in self._tainted_conversations

    def _untied_read_before(self, caller: Caller, turn: Turn) -> bool:
        """A caller with no chat log read device text in the last day (after the refusal).

        Such a client (Home Assistant's MCP server, a script calling the tools) has no turns
        and no words to check, and its model keeps the text for the whole session: within
        UNTIED_TAINT_SECONDS a change is refused, after it an administrator decides, for as
        long as a conversation is remembered as having read device text.
        """
        if turn.conversation_id is not None:
            return False
        at = self._untied_reads.get(caller.user_id)
        return at is not None and self.clock().timestamp() - at < CONVERSATION_TAINT_SECONDS

    def _conversation_read_text(self, turn: Turn) -> bool:
        """True when a read in any turn of this conversation brought in device text.

        A change's result (another API's intent response: names, not titles) taints only
        its own turn, so "turn on the kitchen light" does not block the next request.
        """
        return turn.conversation_id in self._conversations_that_read

    def is_tainted(self, caller: Caller, turn: Turn) -> bool:
        """True when this turn (or, without a conversation, the last minutes) read device text."""
        marked = self._taint.get(self._taint_key(caller, turn))
        if marked is None:
            return False
        index, at = marked
        if turn.conversation_id is None:
            return self.clock().timestamp() - at < UNTIED_TAINT_SECONDS
        return index == turn.index

    # --- records ---------------------------------------------------------------------------

    def _finish(
        self,
        attempt: _Attempt,
        outcome: Outcome,
        message: str | None,
        *,
        data: dict[str, Any] | None = None,
        request: PendingRequest | None = None,
        request_id: str | None = None,
        extra: dict[str, Any] | None = None,
        code: str | None = None,
    ) -> GuardResult:
        request_id = request.request_id if request is not None else request_id
        if message is not None:
            data = {"error": message, **(extra or {})}
            if outcome is Outcome.PENDING and request_id is not None:
                data["request_id"] = request_id
        user_id = attempt.caller.user_id
        record: AuditRecord | None = None
        if outcome in REFUSALS:
            self._refused_calls.hit(user_id)
        if outcome in REFUSALS and self._refusal_limits.hit(user_id) is not None:
            # beyond the user's limit: counted, so a flood cannot rotate records away
            counts = self._uncounted.setdefault(user_id, {})
            key = (clean_text(attempt.tool, 64) or "", str(outcome))
            counts[key] = counts.get(key, 0) + 1
            self.unrecorded_attempts += 1
        else:
            self._record_uncounted(user_id)
            record = self._append(attempt, outcome, message, request_id)
        self.ledger.add(
            attempt.turn.conversation_id,
            entity_ids=attempt.entity_ids,
            user_id=attempt.caller.user_id,
            tool_calls=1,
        )
        if record is not None:
            for listener in list(self.change_listeners):
                listener()
        return GuardResult(outcome, data or {}, record, request_id, code)

    def _append(
        self, attempt: _Attempt, outcome: Outcome, message: str | None, request_id: str | None
    ) -> AuditRecord:
        record = self.audit.append(
            **self._intent(attempt, request_id),
            outcome=outcome,
            reason="; ".join([*([message] if message else []), *attempt.notes]) or "ok",
            latency_ms=round((time.perf_counter() - attempt.started) * 1000, 3),
            attempt_id=attempt.attempt_id,
            read=attempt.spec is not None and not attempt.spec.changes_state,
        )
        if attempt.attempt_id is not None and self.journal is not None:
            self.journal.end(attempt.attempt_id)
        return record

    def _intent(self, attempt: _Attempt, request_id: str | None) -> dict[str, Any]:
        """What a record says about the attempt itself (all but its outcome)."""
        spec = attempt.spec
        return {
            "ts": self.clock().isoformat(),
            "tool": clean_text(attempt.tool, 64) or "",
            "user_id": attempt.caller.user_id,
            "agent_id": attempt.caller.agent_id,
            "conversation_id": attempt.turn.conversation_id,
            "arguments": _redact(attempt.arguments, spec.logged_fields if spec else frozenset()),
            "args_hash": attempt.args_hash,
            "request_id": request_id,
            "entity_ids": attempt.entity_ids,
        }

    def _record_uncounted(self, user_id: str | None) -> None:
        """One summary record of the user's refused attempts that were only counted."""
        counts = self._uncounted.pop(user_id, None)
        if not counts:
            return
        total = sum(counts.values())
        detail = ", ".join(f"{tool} {kind} x{n}" for (tool, kind), n in sorted(counts.items()))
        self.audit.append(
            ts=self.clock().isoformat(),
            outcome=Outcome.RATE_LIMITED,
            tool="refused_calls",
            user_id=user_id,
            agent_id=None,
            conversation_id=None,
            arguments={"count": total},
            args_hash="",
            reason=f"{total} refused attempts beyond the limit, counted, not recorded one by "
            f"one: {detail}",
            latency_ms=0.0,
        )

    def record_uncounted(self, *, now: bool = False) -> None:
        """Summary records for users whose counted refusals ended (the periodic check).

        A user still over the limit gets theirs later (one summary per flood, not one every
        check), unless `now` (Home Assistant stops).
        """
        for user_id in list(self._uncounted):
            if now or self._refusal_limits.blocked(user_id) is None:
                self._record_uncounted(user_id)
                for listener in list(self.change_listeners):
                    listener()

    def record_interrupted(self, intent: Mapping[str, Any], attempt_id: str) -> AuditRecord:
        """The record of a change that was written ahead but never finished (a crash)."""
        self.attempts += 1
        fields = {key: intent.get(key) for key in _INTENT_FIELDS}
        fields["arguments"] = dict(intent.get("arguments") or {})
        fields["entity_ids"] = tuple(intent.get("entity_ids") or ())
        return self.audit.append(
            **fields,
            outcome=Outcome.FAILED,
            reason=MSG_INTERRUPTED,
            latency_ms=0.0,
            attempt_id=attempt_id,
        )


_INTENT_FIELDS = (
    "ts",
    "tool",
    "user_id",
    "agent_id",
    "conversation_id",
    "args_hash",
    "request_id",
)


def _every_name_asked(
    words: str | None,
    previous: str | None,
    action: str,
    terms: Sequence[str],
    language: str | None,
    *,
    longer: Sequence[str] = (),
) -> bool:
    """The words ask for the action, and for every name: in them or in the previous request.

    A name counts from the user's previous utterance only where that asked for the same
    kind of change with it ("living room volume 25", then "now 20"), and only whole: not
    inside a longer name of `longer` ("the front door light" names no "Front Door").
    """
    if not utterance_asks_for(words, action, (), language=language):
        return False
    return all(
        (
            utterance_asks_for(words, action, (term,), language=language)
            and names_whole(words, term, longer)
        )
        or (
            utterance_asks_for(previous, action, (term,), language=language)
            and names_whole(previous, term, longer)
        )
        for term in terms
    )


def _longer_names(handler: ToolHandler, arguments: Mapping[str, Any]) -> Sequence[str]:
    """Every other name a user could say (a handler's optional `other_names`)."""
    lookup: Callable[[Mapping[str, Any]], Sequence[str]] | None = getattr(
        handler, "other_names", None
    )
    return lookup(arguments) if lookup is not None else ()


def _without_word_rules(spec: ToolSpec, turn: Turn) -> bool:
    """A model's change checked against words in a language the guard has no rules for.

    A turn with a plan is checked against the plan instead, in any language: the planner
    read the words.
    """
    return (
        spec.action is not None
        and turn.utterance is not None
        and not isinstance(turn.plan, Plan)
        and not has_rules(turn.language)
    )


def _pending_message(request: PendingRequest) -> str:
    if request.kind is PendingKind.CONFIRM:
        return (
            f"Needs confirmation: ask the user to say yes to request {request.request_id}, "
            "then call the tool again with the same arguments"
        )
    return f"Needs approval: request {request.request_id} was sent to an admin"


def _redact(arguments: Mapping[str, Any], logged: frozenset[str]) -> dict[str, Any]:
    redacted: dict[str, Any] = {}
    for key, value in list(arguments.items())[:20]:
        name = clean_text(str(key), 40) or "?"
        if key in logged and _json_safe_number(value):
            redacted[name] = value
        elif key in logged and isinstance(value, str):
            redacted[name] = clean_text(value, 64)
        else:
            redacted[name] = "<redacted>"
    return redacted


JSON_SAFE_INTEGER = 2**53
"""Larger integers do not survive storage (Home Assistant's JSON writer refuses them)."""


def _json_safe_number(value: Any) -> bool:
    """A number the audit log can store and reload unchanged (no 2**64, NaN or infinity)."""
    if isinstance(value, bool):
        return True
    if isinstance(value, int):
        return abs(value) <= JSON_SAFE_INTEGER
    return isinstance(value, float) and math.isfinite(value)
