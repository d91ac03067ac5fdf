"""The guard: a policy engine between any caller (an LLM agent) and the Linn tools.

Pure Python, no Home Assistant imports (its Home Assistant glue is in `tools/`): it takes
a typed call and returns a decision plus an audit record, so every control is unit-testable
without Home Assistant.
"""

from .audit import AuditLog, AuditRecord, ChainError, verify_chain
from .breaker import CircuitBreaker
from .call import Caller, ToolCall, Turn
from .canonical import args_hash, canonical_json
from .clock import Clock, system_clock
from .decisions import Access, Outcome, Policy
from .engine import Guard
from .handler import InvalidArgument, NoPlayerTargets, PlayerTerms, ToolFailure, ToolHandler
from .idempotency import IdempotencyCache
from .ledger import Ledger
from .limits import RateLimiter
from .pending import PendingBook, PendingKind, PendingRequest
from .policy import DEFAULT_POLICIES, OTHER_API_TOOLS, ToolSpec
from .records import GuardResult
from .risk import QuietHours, RiskFacts, RiskSignal
from .settings import AgentSettings, PlayerSettings, strictest
from .untrusted import clean_text
from .utterance import Answer, match_answer, utterance_asks_for

__all__ = [
    "DEFAULT_POLICIES",
    "OTHER_API_TOOLS",
    "Access",
    "AgentSettings",
    "Answer",
    "AuditLog",
    "AuditRecord",
    "Caller",
    "ChainError",
    "CircuitBreaker",
    "Clock",
    "Guard",
    "GuardResult",
    "IdempotencyCache",
    "InvalidArgument",
    "Ledger",
    "NoPlayerTargets",
    "Outcome",
    "PendingBook",
    "PendingKind",
    "PendingRequest",
    "PlayerSettings",
    "PlayerTerms",
    "Policy",
    "QuietHours",
    "RateLimiter",
    "RiskFacts",
    "RiskSignal",
    "ToolCall",
    "ToolFailure",
    "ToolHandler",
    "ToolSpec",
    "Turn",
    "args_hash",
    "canonical_json",
    "clean_text",
    "match_answer",
    "strictest",
    "system_clock",
    "utterance_asks_for",
    "verify_chain",
]
