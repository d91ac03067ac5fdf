"""What each conversation sent, so that the thinking sent back stays bound to its prefix.

Why, and what a record keeps (docs/assistant.md, "Thinking and messages sent back (for
contributors)").
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
import hashlib
import json
from typing import Any

from homeassistant.components import conversation

from .messages import BuiltMessages

CONVERSATIONS = 64


@dataclass(frozen=True, slots=True)
class SentRequest:
    """Digests of one request: its model and fixed part, and each message."""

    model: str
    prefix: str
    """System prompt, tools and request parameters (thinking, effort)."""
    messages: tuple[str, ...]

    def first_change(self, now: SentRequest) -> int | None:
        """The index of the first message of `now` that differs from this request.

        0 when the model or the fixed part changed; None when every message this request
        sent is sent again unchanged (newer messages after them are not changes).
        """
        if now.model != self.model or now.prefix != self.prefix:
            return 0
        for index, digest in enumerate(self.messages):
            if index >= len(now.messages) or now.messages[index] != digest:
                return index
        return None


@dataclass(slots=True)
class ConversationRecord:
    """What the turns of one conversation keep between model calls."""

    facts: dict[int, str] = field(default_factory=dict)
    """The turn facts sent with each user utterance, by its chat-log index. Earlier
    utterances are sent again with the facts they had, so the history the API cached is
    matched byte for byte on the next turn."""
    sent: SentRequest | None = None
    """The last request of the conversation."""
    dropped: set[int] = field(default_factory=set)
    """Chat-log indexes of model messages sent back without their thinking."""
    seen: list[conversation.Content] = field(default_factory=list)
    """The chat log's entries when the last request was built: the positions above are
    positions in these."""
    trim_before: int = 0
    """Tool results and turn facts before this chat-log index are left out (a budget got
    near). It only moves forward, so the trimmed history stays byte-stable and cached."""

    def follow(self, content: Sequence[conversation.Content]) -> None:
        """Forget what does not hold for the chat log `content`.

        Positions from its first entry that is not the one the record saw go; everything
        goes when it is another chat log.
        """
        same = _same_entries(self.seen, content)
        if self.seen and same <= _first_entry(self.seen):
            self.facts.clear()
            self.dropped.clear()
            self.sent = None
            self.trim_before = 0
        else:
            self.facts = {index: text for index, text in self.facts.items() if index < same}
            self.dropped = {index for index in self.dropped if index < same}
            self.trim_before = min(self.trim_before, same)
        self.seen = list(content)


class ConversationStore:
    """Records per conversation, the newest kept (facts and thinking evicted together)."""

    def __init__(self, conversations: int = CONVERSATIONS) -> None:
        """Keep the records of at most `conversations` conversations."""
        self._conversations = conversations
        self._records: OrderedDict[str, ConversationRecord] = OrderedDict()

    def get(
        self, conversation_id: str, content: Sequence[conversation.Content]
    ) -> ConversationRecord:
        """The record of the conversation's chat log `content`.

        A new one when it has none (the oldest goes over the cap); emptied when the record
        is of an earlier chat log.
        """
        record = self._records.get(conversation_id)
        if record is None:
            record = self._records[conversation_id] = ConversationRecord()
        record.follow(content)
        self._records.move_to_end(conversation_id)
        while len(self._records) > self._conversations:
            self._records.popitem(last=False)
        return record


def digest(value: Any) -> str:
    """A digest of a request part as the API reads it (cache breakpoints left out)."""
    text = json.dumps(_without_cache_control(value), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def messages_to_send(
    record: ConversationRecord,
    content: Sequence[conversation.Content],
    model: str,
    fixed: dict[str, Any],
    build: Callable[[set[int]], BuiltMessages],
    *,
    active: int | None,
) -> BuiltMessages:
    """The messages of the next request, with the thinking dropped that a change unbound.

    `content` is the chat log the messages are built from; `fixed` is the request without
    its messages; `build` makes the messages with the thinking of the given chat-log
    indexes dropped; `active` is the chat-log index of the active tool loop's last model
    message, whose thinking is never dropped (not even when an earlier request dropped
    it). The record then holds this request.
    """
    dropped = set(record.dropped)
    if active is not None:
        dropped.discard(active)
    built = build(dropped)
    if record.sent is None:
        unbound = _thinking_from(built, 0)
    else:
        change = record.sent.first_change(_sent(model, fixed, built.messages))
        unbound = set() if change is None else _thinking_from(built, change)
    if active is not None:
        unbound.discard(active)
    if unbound:
        dropped |= unbound
        built = build(dropped)
    record.dropped = dropped
    record.sent = _sent(model, fixed, built.messages)
    record.seen = list(content)
    return built


def _same_entries(seen: Sequence[conversation.Content], now: Sequence[conversation.Content]) -> int:
    """How many leading entries of `now` are the very entries seen.

    The system prompt is rebuilt every turn: it counts as the same.
    """
    for index, (before, after) in enumerate(zip(seen, now, strict=False)):
        if before is not after and not (
            isinstance(before, conversation.SystemContent)
            and isinstance(after, conversation.SystemContent)
        ):
            return index
    return min(len(seen), len(now))


def _first_entry(content: Sequence[conversation.Content]) -> int:
    """The index of the first entry that is not the system prompt."""
    for index, item in enumerate(content):
        if not isinstance(item, conversation.SystemContent):
            return index
    return len(content)


def _thinking_from(built: BuiltMessages, first: int) -> set[int]:
    return {index for kept in built.thinking_at[first:] for index in kept}


def _sent(model: str, fixed: dict[str, Any], messages: Sequence[dict[str, Any]]) -> SentRequest:
    return SentRequest(
        model=model,
        prefix=digest(fixed),
        messages=tuple(digest(message) for message in messages),
    )


def _without_cache_control(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_cache_control(v) for k, v in value.items() if k != "cache_control"}
    if isinstance(value, list):
        return [_without_cache_control(v) for v in value]
    return value
