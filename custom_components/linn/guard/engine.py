"""The guard: every tool call passes here; every attempt ends in exactly one audit record.

Order of checks (run's steps): known tool, arguments (schema re-checked in code),
idempotency key, permission, rate limits, a pending confirmation being answered, policy
with taint and dynamic risk, the user's words and the turn's plan, circuit breaker, then
execution under a timeout. The steps live in their own modules: the refusal texts in
messages.py, the taint book in taint.py, the word and plan checks in checks.py, the
requests for a yes or an approval in approval.py, execution in execute.py and the records
in records.py; this class orchestrates them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import timedelta
import math
from typing import Any

from .approval import Approvals
from .audit import DEFAULT_MAX_READS, DEFAULT_MAX_RECORDS, DEFAULT_MAX_REFUSALS
from .call import Caller, ToolCall, Turn
from .canonical import args_hash
from .checks import (
    no_plan_after_read,
    permission_denial,
    taint_refusal,
    user_words_denial,
    without_word_rules,
)
from .clock import Clock
from .decisions import Outcome, Policy
from .handler import InvalidArgument, ToolHandler
from .idempotency import IdempotencyCache, IdempotencyConflict
from .limits import RateLimiter, retry_message
from .messages import (
    MSG_ID_REUSED,
    MSG_NOT_AN_OBJECT,
    MSG_TOO_MANY_REFUSED,
    MSG_TURNED_OFF,
    MSG_UNKNOWN_TOOL,
    NOTE_UNTIED_READ,
)
from .pending import PendingRequest
from .policy import DEFAULT_POLICIES, ToolSpec
from .records import REFUSALS_PER_WINDOW, REFUSED_CALLS_PER_WINDOW, Attempt, GuardResult
from .risk import SOFT_LIMIT_SHARE, QuietHours, RiskFacts, risk_signals
from .settings import AgentSettings, PlayerSettings
from .steps import TurnVolumes

CONVERSATION_WINDOW = 600.0
USER_CONVERSATIONS = 2
"""By default one user may make two conversations' worth of tool calls in 10 minutes over
all their conversations: starting a new conversation does not reset a user's limit."""
DECISIONS_PER_MINUTE = 20
"""Approvals and denials one user may send a minute (an admin answers a handful)."""

type SettingsLookup = Callable[[tuple[str, ...]], PlayerSettings | None]
type AgentSettingsLookup = Callable[[str], AgentSettings | None]


def _no_settings(_entity_ids: tuple[str, ...]) -> PlayerSettings | None:
    return None


def _no_agent_settings(_agent_id: str) -> AgentSettings | None:
    return None


class Guard(Approvals):
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
        super().__init__(
            clock,
            pending_expiry=pending_expiry,
            decisions_per_minute=decisions_per_minute,
            audit_max_records=audit_max_records,
            audit_max_refusals=audit_max_refusals,
            audit_max_reads=audit_max_reads,
            refusals_per_window=refusals_per_window,
            refused_calls_per_window=refused_calls_per_window,
        )
        self.specs = dict(specs)
        self.policies = {**DEFAULT_POLICIES, **(policies or {})}
        self.quiet_hours = quiet_hours
        self.soft_limit_share = soft_limit_share
        self.idempotency = IdempotencyCache(clock)
        self.turn_volumes = TurnVolumes(clock)
        """The lowest volume each player had at a change of a turn: a jump is measured from
        it, so steps of 20 in one turn add up (steps.py)."""
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
        self.unknown_tool_calls = 0
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
        attempt = Attempt(
            call.tool, call.caller, call.turn, call.arguments if is_object else {}, spec
        )
        if (refused := self._admit(call, spec, handler, attempt, is_object=is_object)) is not None:
            return refused
        assert spec is not None
        assert handler is not None
        arguments = attempt.arguments
        key = (call.caller.user_id, call.call_id) if call.call_id else None
        if key is not None and (replayed := self._replay(key, spec, call, attempt)) is not None:
            return replayed
        if (refused := self._caller_refusal(spec, handler, call, attempt)) is not None:
            return refused
        if spec.changes_state:
            answered = self._decide_change(spec, handler, call, attempt, key)
            if isinstance(answered, GuardResult):
                return answered
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

    def _admit(
        self,
        call: ToolCall,
        spec: ToolSpec | None,
        handler: ToolHandler | None,
        attempt: Attempt,
        *,
        is_object: bool,
    ) -> GuardResult | None:
        """Step 1: a caller not locked out, a known tool, valid arguments (set on `attempt`)."""
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
        return None

    def _replay(
        self, key: tuple[str | None, str], spec: ToolSpec, call: ToolCall, attempt: Attempt
    ) -> GuardResult | None:
        """Step 2: a call id used before answers with its stored result (or is refused)."""
        try:
            stored = self.idempotency.lookup(key, attempt.args_hash)
        except IdempotencyConflict:
            return self._finish(attempt, Outcome.INVALID, MSG_ID_REUSED)
        if stored is None:
            return None
        attempt.notes.append(f"replay of {stored.outcome}")
        if spec.reads_untrusted and not stored.error:
            # the stored device text reaches the model again: taint as the first did
            self.taint.mark(call.caller, call.turn, read=not spec.changes_state)
        return self._finish(attempt, Outcome.DUPLICATE, None, data=stored.data)

    def _caller_refusal(
        self, spec: ToolSpec, handler: ToolHandler, call: ToolCall, attempt: Attempt
    ) -> GuardResult | None:
        """Step 3: the caller's permission, their rate limits, a memory change's words."""
        if (denial := permission_denial(spec, call.caller, attempt.entity_ids)) is not None:
            return self._finish(attempt, Outcome.DENIED, denial)
        if (wait := self._rate_limit(spec, call)) is not None:
            return self._finish(attempt, Outcome.RATE_LIMITED, retry_message(wait))
        if (
            spec.user_words_only
            and (denial := user_words_denial(spec, handler, call, self.taint)) is not None
        ):
            return self._finish(attempt, Outcome.DENIED, denial)
        return None

    def _decide_change(
        self,
        spec: ToolSpec,
        handler: ToolHandler,
        call: ToolCall,
        attempt: Attempt,
        key: tuple[str | None, str] | None,
    ) -> PendingRequest | GuardResult | None:
        """Step 4, for a change: the yes it runs on, a result that stops it, or None to run.

        A pending confirmation answered in this turn, then the policy with taint and risk,
        the checks against the user's words and plan (checks.py), and a request for the
        user's yes or an admin's approval when the policy needs one.
        """
        arguments = attempt.arguments
        answered = self._answer_pending(
            attempt, call, lambda: self._decide(spec, handler, arguments, call, attempt)
        )
        if answered is not None:
            return answered
        policy = self._decide(spec, handler, arguments, call, attempt)
        if policy is Policy.DENY:
            return self._finish(attempt, Outcome.DENIED, MSG_TURNED_OFF)
        if refusal := taint_refusal(spec, handler, arguments, call, policy, taint=self.taint):
            return self._finish(attempt, Outcome.DENIED, refusal)
        if policy is Policy.ALLOW:
            return None
        if (confirmed := self._confirmed_by(call, policy, attempt)) is not None:
            return confirmed
        result = self._open_request(attempt, policy, arguments)
        if key is not None and result.outcome is Outcome.PENDING:
            self.idempotency.store(key, attempt.args_hash, "pending", result.data, error=True)
        return result

    def _turned_off(self, spec: ToolSpec, call: ToolCall, attempt: Attempt) -> bool:
        """A policy (a player's or the agent's) denies the tool now.

        A read runs at once unless this holds; a confirmed change is checked again, since
        the owner may have turned the tool off while it waited for the user's yes.
        """
        settings = self.settings(attempt.entity_ids, call.caller.agent_id)
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

    def _decide(
        self,
        spec: ToolSpec,
        handler: ToolHandler,
        arguments: Mapping[str, Any],
        call: ToolCall,
        attempt: Attempt,
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
        if without_word_rules(spec, call.turn) and policy < Policy.CONFIRM:
            attempt.notes.append("no word rules for this language: the user's yes")
            policy = Policy.CONFIRM
        if no_plan_after_read(spec, call, self.taint) and policy < Policy.CONFIRM:
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
        if facts.volume_target is not None and facts.volume_current is not None:
            lowest = self.turn_volumes.lowest(call, attempt.entity_ids, facts.volume_current)
            facts = RiskFacts(
                facts.volume_target, lowest, facts.volume_limit, facts.soft_limit_share
            )
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
        if policy < Policy.APPROVE and self.taint.untied_read_before(call.caller, call.turn):
            # no words to check and device text in the client's context for its session
            attempt.notes.append(NOTE_UNTIED_READ)
            policy = Policy.APPROVE
        if policy is Policy.APPROVE and not spec.approvable:
            attempt.notes.append("no administrator can approve this tool")
            policy = Policy.DENY
        return policy

    # --- taint (the book is taint.py) ------------------------------------------------------

    def request_carries_untrusted_text(self, caller: Caller, turn: Turn) -> None:
        """The model's request in this turn carries text no user chose; call before it runs.

        The turn and its conversation are then treated as having read device text (docs/security.md,
        "How the guard reads the user's words (as the code does it)").
        """
        self.taint.mark(caller, turn, read=True, this_turn=turn.conversation_id is None)

    def tool_results_carry_untrusted_text(
        self, caller: Caller, turn: Turn, *, this_turn: bool
    ) -> None:
        """Results of tools no guard saw reached the model (another agent's GetLiveContext).

        Taken as device text read: in this turn (`this_turn`) it taints the turn, and the
        conversation from then on; in an earlier turn of the conversation, the conversation.
        """
        self.taint.mark(caller, turn, read=True, this_turn=this_turn)

    @property
    def tainted_conversations(self) -> int:
        """Turns (per conversation, or per caller without one) whose taint is remembered."""
        return len(self.taint)

    def conversation_read_untrusted(self, caller: Caller, turn: Turn) -> bool:
        """True when any turn of this conversation (or, without one, the caller's last day) did."""
        return self.taint.conversation_read_untrusted(caller, turn)

    def is_tainted(self, caller: Caller, turn: Turn) -> bool:
        """True when this turn (or, without a conversation, the last minutes) read device text."""
        return self.taint.is_tainted(caller, turn)
