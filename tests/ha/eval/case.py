"""The case format of the task suite: data, one table per category under cases/.

A case is what a person says (one or more turns), who says it and from which room, what
the scripted model does in offline mode, which tool calls the guard must see, and what the
emulated players and the spoken reply must look like afterwards.

Offline mode plays each turn's `plan` on the fake Messages API; live mode sends the same
turns to a real model with no plan, so only what does not depend on the model's wording
is checked there (`code_says`, the tool calls that change something, the final state).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from testing.fake_anthropic import ApiError, Reply, Stall, Step, ToolUse, planned_change

LIVING = "Living Room"
KITCHEN = "Kitchen"

type Caller = Literal["admin", "user", "read_only", "unknown"]
"""admin; a household user (may control, not an admin); a read-only user; no user at all
(an anonymous satellite)."""
type FaultKind = Literal["drop", "reboot", "slow", "slow_ok"]


@dataclass(frozen=True, slots=True)
class Call:
    """A tool call the guard saw: its name, outcome and some of its logged arguments."""

    tool: str
    outcome: str = "allowed"
    """The guard's outcome; "a|b" accepts either."""
    args: Mapping[str, Any] = field(default_factory=dict)
    changes: bool = True
    """Changes a device (or asks a person): required in live mode too. Reads are optional
    there, since a real model may look before it acts."""


def call(tool: str, outcome: str = "allowed", **args: Any) -> Call:
    """A change the guard must see (tool names without the linn__ prefix)."""
    return Call(tool, outcome, args)


def read(tool: str = "get_state", outcome: str = "allowed", **args: Any) -> Call:
    """A read (get_state, search_music): checked offline, optional live."""
    return Call(tool, outcome, args, changes=False)


def ask(outcome: str = "allowed") -> Call:
    """The model asked the person a question."""
    return Call("ask_user", outcome)


def use(tool: str, **args: Any) -> Reply:
    """A model message with one Linn tool call."""
    return Reply(tool_uses=(ToolUse(f"linn__{tool}", args),))


def uses(*calls: tuple[str, dict[str, Any]]) -> Reply:
    """A model message with parallel Linn tool calls."""
    return Reply(tool_uses=tuple(ToolUse(f"linn__{name}", args) for name, args in calls))


def asks(question: str) -> Reply:
    """A model message that asks the person."""
    return Reply(tool_uses=(ToolUse("ask_user", {"question": question}),))


def says(text: str) -> Reply:
    """A model message that only speaks."""
    return Reply(text)


@dataclass(frozen=True, slots=True)
class Turn:
    """One utterance and what must follow it."""

    text: str
    plan: tuple[Step, ...] = ()
    """The scripted model for this turn (offline): one step per model call."""
    calls: tuple[Call, ...] = ()
    """The tool calls the guard must see in this turn, in order."""
    says: tuple[str, ...] = ()
    """Substrings of the reply (offline: the scripted text comes back through the stack)."""
    code_says: tuple[str, ...] = ()
    """Substrings the code speaks itself (confirmations, limited mode): checked live too."""
    model_sees: tuple[str, ...] = ()
    """Substrings of the tool results sent back to the model (offline)."""
    continues: bool | None = None
    """Whether the satellite must listen again (continue_conversation)."""
    new_conversation: bool = False
    """Start a new conversation with this turn instead of following up."""
    model_calls: int | None = None
    """Model requests this turn must make (default: the plan's length offline)."""
    planned: tuple[dict[str, Any], ...] | None = None
    """What the planner answers for this turn (offline): the changes the user's words ask
    for (change()). None: no plan is stated, and the fake answers none (a turn that read
    device text then needs the user's yes for a change)."""


@dataclass(frozen=True, slots=True)
class Fault:
    """A device fault in the middle of a request: after the model's `at_response`-th
    response arrives (its tool calls not yet run), the player misbehaves."""

    kind: FaultKind
    player: str = LIVING
    at_response: int = 1


@dataclass(frozen=True, slots=True)
class Setup:
    """The world before the first turn."""

    volume: Mapping[str, int] = field(default_factory=dict)
    source: Mapping[str, str] = field(default_factory=dict)
    """System names (Playlist, Radio, Analog 1 ...)."""
    playing: tuple[str, ...] = ()
    """Players that play before the request."""
    metadata: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    rename_source: Mapping[str, str] = field(default_factory=dict)
    """Living room sources renamed in Konfig: system name -> the name the user sees."""
    standby: tuple[str, ...] = ()
    """Players in standby before the request."""
    repeat: tuple[str, ...] = ()
    """Players whose Playlist repeats before the request."""
    queue: Mapping[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    """(title, artist) of tracks added at the end of a player's play queue."""
    paused_at: Mapping[str, int] = field(default_factory=dict)
    """Players paused at this many seconds into their current track."""
    policies: Mapping[str, str] = field(default_factory=dict)
    """Guard policies per tool on every streamer entry."""
    assistant: Mapping[str, Any] = field(default_factory=dict)
    """Assistant options (budgets, max steps)."""
    model_timeout: float | None = None


@dataclass(frozen=True, slots=True)
class Expect:
    """The world after the last turn (and after an admin's decision)."""

    players: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Per player: volume, source, standby, radio_id, transport, mute, volume_limit, title,
    artist, shuffle, repeat, seconds, queue_length."""
    open_requests: int | None = None
    """Approval or confirmation requests still open."""
    user_area_in_facts: str | None = None
    """The turn facts sent to the model name this as the user's area."""
    reauth: bool = False
    """A reauth flow was started (the key was rejected)."""


@dataclass(frozen=True, slots=True)
class Case:
    """One task."""

    id: str
    category: str
    turns: tuple[Turn, ...]
    caller: Caller = "admin"
    satellite: str | None = None
    """The area of the voice satellite the person speaks to (None: no satellite)."""
    language: str = "en"
    setup: Setup = field(default_factory=Setup)
    fault: Fault | None = None
    decision: Literal["approve", "deny"] | None = None
    """An admin answers the open approval request through linn.approve / linn.deny."""
    expect: Expect = field(default_factory=Expect)
    live: bool = True
    """False: needs scripted API behaviour (errors, stalls) a real API cannot be asked for."""


__all__ = [
    "KITCHEN",
    "LIVING",
    "ApiError",
    "Call",
    "Case",
    "Expect",
    "Fault",
    "Reply",
    "Setup",
    "Stall",
    "ToolUse",
    "Turn",
    "ask",
    "asks",
    "call",
    "read",
    "says",
    "use",
    "uses",
]


def change(kind: str, **fields: Any) -> dict[str, Any]:
    """One change the planner read in the user's words (the plan tool's fields)."""
    return planned_change(kind, **fields)
