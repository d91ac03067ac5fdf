"""A typed call: who asks, in which conversation turn, for which tool, with what."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .plan import NoPlan, Plan


def _nothing(_entity_id: str) -> bool:
    return False


@dataclass(frozen=True, slots=True)
class Caller:
    """The identified user (or None), with their permissions as the adapter resolved them."""

    user_id: str | None
    is_admin: bool = False
    can_read: Callable[[str], bool] = _nothing
    can_control: Callable[[str], bool] = _nothing
    agent_id: str | None = None

    @property
    def identified(self) -> bool:
        """A known Home Assistant user."""
        return self.user_id is not None


@dataclass(frozen=True, slots=True)
class Turn:
    """Where in a conversation the call happens.

    `index` counts the user's utterances so far in this chat log; `utterance` is the user's
    raw text of this turn (never model text), None when the channel does not provide it.
    """

    conversation_id: str | None
    index: int = 0
    utterance: str | None = None
    language: str | None = None
    previous_utterance: str | None = None
    """The user's raw text of the turn before in this chat log: a short answer ("the
    kitchen", "try again") goes on with that request."""
    log_id: str | None = None
    """The chat log instance (Home Assistant may reuse its conversation id for a new one)."""
    utterance_id: str | None = None
    """This turn's own utterance in its chat log: its plan is kept under it (TurnPlans), as
    two turns at once under one conversation id, or a new chat log under a reused id,
    share a turn index."""
    asked: frozenset[str] = frozenset()
    """The requests the previous turn of this very chat log asked about (its tool results
    carry their ids): only those can be confirmed in this turn. A new chat log under a
    reused conversation id (Home Assistant keeps ids like `kitchen`) asked about none."""
    plan: Plan | NoPlan | None = None
    """What a planner that saw only the user's words planned for this turn (plan.py); None
    when no planner runs for it (the word rules decide); NoPlan when it failed."""


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One attempt to run a tool."""

    tool: str
    arguments: Mapping[str, Any]
    caller: Caller
    turn: Turn = field(default_factory=lambda: Turn(None))
    call_id: str | None = None
    """The model's tool-call id: the idempotency key."""
    confirmed_by: str | None = None
    """The confirmation the user's yes has just approved, when this call is part of the
    confirmed call's work (another API's intent reaching a Linn player's service): a yes it
    would need is that one (Guard._confirmed_by checks its binding). Set only by code."""
