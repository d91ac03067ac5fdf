"""What the fake model does for one request: a reply, an API error, or a stall.

A test scripts a plan (a queue of steps); an evaluation or benchmark passes a responder
that computes each step from the request it got.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class ToolUse:
    """One tool_use block of a reply."""

    name: str
    input: dict[str, Any]
    id: str | None = None
    """The block id; generated (toolu_...) when None."""


@dataclass(frozen=True, slots=True)
class Reply:
    """A model reply: text and/or tool calls, as one message."""

    text: str = ""
    tool_uses: tuple[ToolUse, ...] = ()
    stop_reason: str | None = None
    """Default: tool_use when there are tool calls, else end_turn."""
    output_tokens: int | None = None
    """Default: estimated from the reply's size."""
    chunk_words: int = 2
    """Words per text_delta when streaming."""
    stall_after_events: int | None = None
    """When streaming: send this many events, then stall for stall_seconds."""
    stall_seconds: float = 0.0
    thinking: str | None = None
    """A thinking model's thinking text when it is displayed (default: a stock sentence)."""
    redacted_thinking: bool = False
    """A thinking model also sends a redacted_thinking block."""
    thinks: bool = True
    """False: a thinking model skips thinking for this reply (adaptive thinking decides
    per step; a simple step gets none)."""
    interleaved: bool = False
    """A thinking model also thinks between its tool calls: thinking, tool_use, thinking,
    tool_use (interleaved thinking, on by default with adaptive thinking)."""

    @property
    def effective_stop_reason(self) -> str:
        """What message_delta reports."""
        if self.stop_reason is not None:
            return self.stop_reason
        return "tool_use" if self.tool_uses else "end_turn"


@dataclass(frozen=True, slots=True)
class ApiError:
    """An HTTP error in the Messages API's error format."""

    status: int
    type: str
    message: str = "scripted error"
    retry_after: float | None = None

    @classmethod
    def unauthorized(cls) -> ApiError:
        """401: the key is not valid."""
        return cls(401, "authentication_error", "invalid x-api-key")

    @classmethod
    def rate_limited(cls, retry_after: float | None = None) -> ApiError:
        """429: too many requests."""
        return cls(429, "rate_limit_error", "rate limited", retry_after)

    @classmethod
    def overloaded(cls) -> ApiError:
        """529: the API is overloaded."""
        return cls(529, "overloaded_error", "Overloaded")


@dataclass(frozen=True, slots=True)
class Stall:
    """Answer nothing for `seconds` (the client's timeout should fire), then `then`."""

    seconds: float
    then: Reply = field(default_factory=lambda: Reply("too late"))


type Step = Reply | ApiError | Stall
type PlanAnswer = dict[str, Any] | ApiError | Stall
"""A planner's answer: the plan tool's input, or a failure."""


def planned(*changes: dict[str, Any]) -> dict[str, Any]:
    """A plan tool input with these changes (see planned_change)."""
    return {"changes": list(changes)}


def planned_change(kind: str, **fields: Any) -> dict[str, Any]:
    """One planned change, every field present as strict tool use sends them."""
    return {"kind": kind, "target": None, "item": None, "volume": None, "level": None, **fields}


def is_planning(body: dict[str, Any] | None) -> bool:
    """A planning request: one that forces a tool call."""
    choice = (body or {}).get("tool_choice")
    return isinstance(choice, dict) and choice.get("type") == "tool"


type Responder = Callable[["RecordedRequest"], Step | Awaitable[Step]]


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """One request as the server received it."""

    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any] | None
    raw_body: bytes

    @property
    def api_key(self) -> str | None:
        """The key the client sent: x-api-key (anthropic 0.x) or a bearer token (2.x)."""
        if (key := self.headers.get("x-api-key")) is not None:
            return key
        scheme, _, token = self.headers.get("authorization", "").partition(" ")
        return token if scheme.lower() == "bearer" else None

    @property
    def stream(self) -> bool:
        """True when the client asked for server-sent events."""
        return bool(self.body and self.body.get("stream"))

    @property
    def system_text(self) -> str:
        """The system prompt's text, however it was sent."""
        system = (self.body or {}).get("system")
        if system is None:
            return ""
        if isinstance(system, str):
            return system
        return "\n".join(block.get("text", "") for block in system)

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The messages sent."""
        return list((self.body or {}).get("messages", []))

    @property
    def last_user_text(self) -> str:
        """The text of the last user message (tool results excluded)."""
        for message in reversed(self.messages):
            if message["role"] != "user":
                continue
            content = message["content"]
            if isinstance(content, str):
                return content
            texts = [str(b["text"]) for b in content if b.get("type") == "text"]
            if texts:
                return str(texts[-1])
        return ""

    def tool_results(self) -> list[dict[str, Any]]:
        """The tool_result blocks of the last user message."""
        if not self.messages or self.messages[-1]["role"] != "user":
            return []
        content = self.messages[-1]["content"]
        if isinstance(content, str):
            return []
        return [block for block in content if block.get("type") == "tool_result"]
