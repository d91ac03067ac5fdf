"""What the guard can decide, and how an attempt can end."""

from __future__ import annotations

from enum import IntEnum, StrEnum


class Policy(IntEnum):
    """Per-tool policy, ordered by strictness so risk can escalate one step."""

    ALLOW = 0
    CONFIRM = 1
    APPROVE = 2
    DENY = 3

    def escalated(self) -> Policy:
        """One step stricter: allow -> confirm -> approve; approve and deny stay."""
        if self in (Policy.ALLOW, Policy.CONFIRM):
            return Policy(self + 1)
        return self

    @classmethod
    def parse(cls, name: str) -> Policy:
        """From the option value ("allow", "confirm", "approve", "deny")."""
        return cls[name.upper()]


class Access(StrEnum):
    """The permission a tool needs on its target players."""

    READ = "read"
    CONTROL = "control"
    ADMIN = "admin"


class Outcome(StrEnum):
    """The final outcome of one attempt; every attempt has exactly one."""

    ALLOWED = "allowed"
    DENIED = "denied"
    PENDING = "pending"
    APPROVED = "approved"
    EXPIRED = "expired"
    RATE_LIMITED = "rate_limited"
    INVALID = "invalid"
    TIMED_OUT = "timed_out"
    FAILED = "failed"
    DUPLICATE = "duplicate"
