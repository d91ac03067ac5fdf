"""Requests for the user's yes or an admin's approval: opened, answered, expired, lapsed.

A confirmation is answered in code by the user's next words (never the model's); an
approval by an administrator out of band (resolve), and it runs after re-checks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import timedelta
import math
from typing import Any

from .call import Caller, ToolCall, Turn
from .canonical import args_hash
from .checks import permission_denial
from .clock import Clock
from .decisions import Outcome, Policy
from .execute import Executor
from .handler import InvalidArgument, ToolHandler
from .limits import RateLimiter
from .messages import (
    MSG_ASK_AGAIN,
    MSG_FORGED,
    MSG_NOT_ADMIN,
    MSG_ONE_AT_A_TIME,
    MSG_OTHER_PLAYER,
    MSG_SAID_NO,
    MSG_TOO_MANY_DECISIONS,
    MSG_TURNED_OFF,
    MSG_UNKNOWN_TOOL,
    NOTE_CONFIRMED,
    pending_message,
)
from .pending import PendingBook, PendingError, PendingKind, PendingRequest, PendingStatus
from .policy import ToolSpec
from .records import Attempt, GuardResult
from .settings import PlayerSettings
from .utterance import Answer, match_answer

type PendingListener = Callable[[PendingRequest], None]
type ResolvedListener = Callable[[PendingRequest, Outcome, Caller | None], None]


class Approvals(Executor):
    """The open requests of one guard, and the answers to them."""

    specs: dict[str, ToolSpec]
    policies: dict[str, Policy]

    def __init__(
        self,
        clock: Clock,
        *,
        pending_expiry: timedelta,
        decisions_per_minute: int,
        **limits: int,
    ) -> None:
        super().__init__(clock, **limits)
        self.pending = PendingBook(clock, expiry=pending_expiry)
        self._decision_limits = RateLimiter(clock, decisions_per_minute)
        self.pending_listeners: list[PendingListener] = []
        self.resolved_listeners: list[ResolvedListener] = []

    def settings(
        self, entity_ids: tuple[str, ...], agent_id: str | None = None
    ) -> PlayerSettings | None:
        """What governs a call on these players made by this agent (the guard's, engine.py)."""
        raise NotImplementedError

    # --- confirmation by the user's next utterance -----------------------------------

    def _answer_pending(
        self, attempt: Attempt, call: ToolCall, policy_now: Callable[[], Policy]
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
            return self._finish(attempt, Outcome.PENDING, pending_message(request), request=request)
        answer = match_answer(call.turn.utterance, call.turn.language)
        # this very chat log asked about it (not a new log under a reused conversation id)
        asked = request.request_id in call.turn.asked and request.log_id == call.turn.log_id
        if call.turn.index == request.turn + 1 and answer is Answer.YES and asked:
            if self._asked_after_device_text(request, call.caller):
                taken = self.pending.take(request.request_id, approve=False)
                self._resolved(taken, Outcome.DENIED, call.caller)
                attempt.notes.append(f"request {taken.request_id}: device text read after asking")
                return self._finish(attempt, Outcome.DENIED, MSG_ASK_AGAIN, request=taken)
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

    def _asked_after_device_text(self, request: PendingRequest, caller: Caller) -> bool:
        """The turn that asked read device text after it asked (review 49).

        No request is opened in a turn that has read device text (checks.py); one read after
        it lets the text word the model's question ("shall I turn it down?") that the yes
        answers, so the yes confirms nothing: the user asks again in a turn of their own.
        """
        asking = Turn(
            request.conversation_id, index=request.turn, utterance_id=request.utterance_id
        )
        return self.taint.is_tainted(caller, asking)

    def _confirmed_by(
        self, call: ToolCall, policy: Policy, attempt: Attempt
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

    def _open_request(
        self, attempt: Attempt, policy: Policy, arguments: Mapping[str, Any]
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
                utterance_id=attempt.turn.utterance_id,
            )
        except PendingError as err:
            return self._finish(attempt, Outcome.DENIED, f"Denied: {err.reason}")
        result = self._finish(attempt, Outcome.PENDING, pending_message(request), request=request)
        for listener in list(self.pending_listeners):
            listener(request)
        return result

    def _confirmation_open(self, attempt: Attempt) -> bool:
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

        `arguments` (what the approver was shown) must match the request exactly; `secret` (from a
        notification's button) must be the request's own. A refusal carries a `code`: unknown,
        not_yours, not_admin, forged, changed_arguments, expired, used, turned_off or changed_target
        (docs/guard.md, "Approval flow").
        """
        self.attempts += 1
        request = self.pending.get(request_id)
        attempt = Attempt(
            request.tool if request else "approval",
            approver,
            Turn(request.conversation_id if request else None),
            request.arguments if request else {},
            self.specs.get(request.tool) if request else None,
        )
        refused = self._decision_refusal(request, attempt, approver, arguments, secret)
        if refused is not None:
            return refused
        assert request is not None
        taken = self._take_decision(request, attempt, approver, approve=approve)
        if isinstance(taken, GuardResult):
            return taken
        return await self._run_approved(taken, attempt, requester, handler)

    def _decision_refusal(
        self,
        request: PendingRequest | None,
        attempt: Attempt,
        approver: Caller,
        arguments: Mapping[str, Any] | None,
        secret: str | None,
    ) -> GuardResult | None:
        """Step 1 of an answer: its rate, an admin's own request, the secret, the arguments."""
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
        return None

    def _take_decision(
        self, request: PendingRequest, attempt: Attempt, approver: Caller, *, approve: bool
    ) -> PendingRequest | GuardResult:
        """Step 2: the request answered (the approved one returned), unless it no longer can be."""
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
        return taken

    async def _run_approved(
        self,
        taken: PendingRequest,
        attempt: Attempt,
        requester: Caller,
        handler: ToolHandler | None,
    ) -> GuardResult:
        """Step 3: the approved request runs, re-checked against the device as it is now."""
        spec = self.specs.get(taken.tool)
        if spec is None or handler is None:
            return self._finish(attempt, Outcome.INVALID, MSG_UNKNOWN_TOOL, request=taken)
        # re-check against the device as it is now, with the requester's permissions now
        try:
            arguments_now = handler.validate(taken.arguments)
        except InvalidArgument as err:
            return self._finish(attempt, Outcome.INVALID, err.message, request=taken)
        targets = handler.targets(arguments_now)
        if targets != taken.entity_ids:
            # the approval is for the players the request named when it was made; a name
            # that now means another player (a device renamed itself) must not move it
            return self._finish(
                attempt, Outcome.DENIED, MSG_OTHER_PLAYER, request=taken, code="changed_target"
            )
        if (denial := permission_denial(spec, requester, targets)) is not None:
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
            attempt = Attempt(
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
            attempt = Attempt(
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
