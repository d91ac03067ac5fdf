"""Pending requests: a call waiting for the user's yes (confirm) or an admin (approve).

Each is bound to user, conversation, tool and the hash of the exact arguments; it is
single-use and expires. The book serialises to plain data for Home Assistant's Store.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime, timedelta
from enum import StrEnum
import hmac
import secrets
from typing import Any

from .canonical import args_hash
from .clock import Clock

DEFAULT_EXPIRY = timedelta(minutes=5)
MAX_PENDING_PER_USER = 5
KEEP_RESOLVED = timedelta(days=1)
"""Resolved requests are kept this long so a replayed id is recognised."""
PRUNE_EVERY = timedelta(minutes=10)
"""Day-old requests are looked for at most this often (not on every call)."""
_ID_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # no I or O: read aloud, they look like 1 and 0
SECRET_BYTES = 16


def new_secret() -> str:
    """A request's secret: 128 random bits, hex (no relation to its id or arguments)."""
    return secrets.token_hex(SECRET_BYTES)


class PendingKind(StrEnum):
    """Who may resolve the request."""

    CONFIRM = "confirm"  # the same user, in the next turn of the same conversation
    APPROVE = "approve"  # an admin, out of band


class PendingStatus(StrEnum):
    """Where a request is in its life; only OPEN can change."""

    OPEN = "open"
    APPROVED = "approved"
    DENIED = "denied"
    EXPIRED = "expired"


class PendingError(Exception):
    """A request cannot be created or resolved; `reason` is short and categorical."""

    def __init__(self, reason: str, *, expired: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.expired = expired


@dataclass(frozen=True, slots=True)
class PendingRequest:
    """One request, with the exact arguments it was made with."""

    request_id: str
    kind: PendingKind
    tool: str
    arguments: dict[str, Any]
    args_hash: str
    user_id: str | None
    conversation_id: str | None
    turn: int
    created: datetime
    expires: datetime
    entity_ids: tuple[str, ...] = ()
    status: PendingStatus = PendingStatus.OPEN
    agent_id: str | None = None
    """The agent that made the call: its own settings (notify targets) apply too."""
    log_id: str | None = None
    """The chat log instance it was asked in: only a yes in that same log confirms it."""
    utterance_id: str | None = None
    """The utterance of the turn that asked (its taint: device text read after the question
    was asked means the yes answers a question the text may have worded)."""
    secret: str = field(default_factory=new_secret, repr=False)
    """A random token only the admin's actionable notification carries (never shown)."""

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data."""
        data = asdict(self)
        data["created"] = self.created.isoformat()
        data["expires"] = self.expires.isoformat()
        data["entity_ids"] = list(self.entity_ids)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PendingRequest:
        """Inverse of to_dict."""
        return cls(
            request_id=data["request_id"],
            kind=PendingKind(data["kind"]),
            tool=data["tool"],
            arguments=dict(data["arguments"]),
            args_hash=data["args_hash"],
            user_id=data["user_id"],
            conversation_id=data["conversation_id"],
            turn=int(data["turn"]),
            created=datetime.fromisoformat(data["created"]),
            expires=datetime.fromisoformat(data["expires"]),
            entity_ids=tuple(data.get("entity_ids", ())),
            status=PendingStatus(data.get("status", PendingStatus.OPEN)),
            agent_id=data.get("agent_id"),
            log_id=data.get("log_id"),
            utterance_id=data.get("utterance_id"),
            # stored before requests had one: a fresh secret, so an old button never works
            secret=str(data.get("secret") or new_secret()),
        )

    def secret_matches(self, candidate: str) -> bool:
        """True when `candidate` is this request's secret (compared in constant time)."""
        return hmac.compare_digest(candidate.encode(), self.secret.encode())


class PendingBook:
    """The open and recently resolved requests."""

    def __init__(
        self,
        clock: Clock,
        *,
        expiry: timedelta = DEFAULT_EXPIRY,
        max_per_user: int = MAX_PENDING_PER_USER,
    ) -> None:
        self._clock = clock
        self.expiry = expiry
        self.max_per_user = max_per_user
        self._requests: dict[str, PendingRequest] = {}
        """Every kept request by id: open ones, and resolved ones for a day."""
        self._open: dict[str, PendingRequest] = {}
        """The open ones only (a handful): what every call's checks look through."""
        self._pruned: datetime | None = None
        self._unreported: list[PendingRequest] = []

    # --- queries --------------------------------------------------------------------

    def get(self, request_id: str) -> PendingRequest | None:
        """A request by id (case-insensitive), whatever its status."""
        return self._requests.get(request_id.strip().upper())

    def open_requests(self) -> list[PendingRequest]:
        """Open requests that have not expired."""
        self.expire_due()
        return list(self._open.values())

    def awaiting_approval(self) -> list[PendingRequest]:
        """Open, unexpired requests for an admin, without changing anything."""
        now = self._clock()
        return [r for r in self._open.values() if r.kind is PendingKind.APPROVE and now < r.expires]

    def find_open(
        self, user_id: str | None, conversation_id: str | None, tool: str, hash_: str
    ) -> PendingRequest | None:
        """The open request with exactly this binding, if any."""
        return next(
            (
                r
                for r in self.open_requests()
                if r.user_id == user_id
                and r.conversation_id == conversation_id
                and r.tool == tool
                and r.args_hash == hash_
            ),
            None,
        )

    # --- changes --------------------------------------------------------------------

    def create(
        self,
        kind: PendingKind,
        tool: str,
        arguments: Mapping[str, Any],
        *,
        user_id: str | None,
        conversation_id: str | None,
        turn: int,
        entity_ids: tuple[str, ...] = (),
        expiry: timedelta | None = None,
        agent_id: str | None = None,
        log_id: str | None = None,
        utterance_id: str | None = None,
    ) -> PendingRequest:
        """Open a request; PendingError when the user already has too many open."""
        open_for_user = [r for r in self.open_requests() if r.user_id == user_id]
        if len(open_for_user) >= self.max_per_user:
            raise PendingError("too many requests are waiting")
        now = self._clock()
        request = PendingRequest(
            request_id=self._new_id(),
            kind=kind,
            tool=tool,
            arguments=dict(arguments),
            args_hash=args_hash(tool, arguments),
            user_id=user_id,
            conversation_id=conversation_id,
            turn=turn,
            created=now,
            expires=now + (expiry if expiry is not None else self.expiry),
            entity_ids=entity_ids,
            agent_id=agent_id,
            log_id=log_id,
            utterance_id=utterance_id,
        )
        self._keep(request)
        return request

    def take(self, request_id: str, *, approve: bool) -> PendingRequest:
        """Resolve an open request once: approved (to execute) or denied.

        PendingError when it is unknown, already resolved, or expired.
        """
        request = self.get(request_id)
        if request is None:
            raise PendingError("unknown request")
        if request.status is PendingStatus.OPEN and self._clock() >= request.expires:
            self._keep(replace(request, status=PendingStatus.EXPIRED))
            raise PendingError("the request has expired", expired=True)
        if request.status is PendingStatus.EXPIRED:
            raise PendingError("the request has expired", expired=True)
        if request.status is not PendingStatus.OPEN:
            raise PendingError("the request was already resolved")
        status = PendingStatus.APPROVED if approve else PendingStatus.DENIED
        resolved = replace(request, status=status)
        self._keep(resolved)
        return resolved

    def expire_due(self) -> list[PendingRequest]:
        """Mark overdue open requests expired; return them (for the audit log)."""
        now = self._clock()
        expired = [
            replace(r, status=PendingStatus.EXPIRED)
            for r in self._open.values()
            if now >= r.expires
        ]
        for request in expired:
            self._keep(request)
        self._unreported.extend(expired)
        # (a clock set back prunes at once: the interval is measured from the last prune)
        if self._pruned is None or not self._pruned <= now < self._pruned + PRUNE_EVERY:
            self._prune(now)
        return expired

    def _prune(self, now: datetime) -> None:
        """Drop requests that ended more than a day ago (an open one has expired first)."""
        horizon = now - KEEP_RESOLVED
        for request_id in [k for k, r in self._requests.items() if r.expires < horizon]:
            del self._requests[request_id]
            self._open.pop(request_id, None)
        self._pruned = now

    def _keep(self, request: PendingRequest) -> None:
        """Store a new or changed request, and index it as open or not."""
        self._requests[request.request_id] = request
        if request.status is PendingStatus.OPEN:
            self._open[request.request_id] = request
        else:
            self._open.pop(request.request_id, None)

    def take_expired(self) -> list[PendingRequest]:
        """Requests that expired since the last call (whoever noticed): to audit once each."""
        expired, self._unreported = self._unreported, []
        return expired

    def _new_id(self) -> str:
        length = 2
        while True:
            for _ in range(20):
                candidate = secrets.choice(_ID_LETTERS) + "".join(
                    secrets.choice("23456789") for _ in range(length - 1)
                )
                if candidate not in self._requests:
                    return candidate
            length += 1

    # --- storage --------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """For Home Assistant's Store."""
        return {"requests": [r.to_dict() for r in self._requests.values()]}

    def load(self, data: Mapping[str, Any] | None) -> None:
        """Restore what to_dict saved (a restart loses no request)."""
        self._requests = {}
        self._open = {}
        self._pruned = None
        for item in (data or {}).get("requests", []):
            self._keep(PendingRequest.from_dict(item))
