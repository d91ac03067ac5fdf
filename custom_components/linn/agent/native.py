"""A model message as the API returned it: every content block, in order, verbatim.

Anthropic's documentation on thinking with tools: "Pass thinking blocks back complete and
unmodified ... Echo the assistant message exactly as received: rebuilding the message or
filtering out redacted_thinking blocks triggers a 400 error." So the chat log keeps the
blocks themselves (as its AssistantContent's `native`), and the next request sends them
back as they came, instead of rebuilding the message from the chat log's text and tool
calls.
"""

from __future__ import annotations

from typing import Any, Final

THINKING_TYPES: Final = frozenset({"thinking", "redacted_thinking"})


class ModelMessage:
    """The content blocks of one model message, filled as each block completes.

    Home Assistant's chat log takes one `native` per message, set with the message's first
    delta; the stream hands this container over at once and appends to it. It is false
    while empty, as an empty list would be, so an empty reply adds nothing to the chat log.
    """

    __slots__ = ("blocks", "model")

    def __init__(self, model: str) -> None:
        """An empty message of `model` (the model's id as the request named it)."""
        self.model = model
        self.blocks: list[dict[str, Any]] = []

    def __bool__(self) -> bool:
        """True once a block has completed."""
        return bool(self.blocks)

    def __repr__(self) -> str:
        """The block types only (thinking and signatures stay out of logs)."""
        return f"ModelMessage({self.model!r}, {[block.get('type') for block in self.blocks]})"

    @property
    def has_thinking(self) -> bool:
        """A thinking or redacted_thinking block is among the blocks."""
        return any(block.get("type") in THINKING_TYPES for block in self.blocks)

    def api_blocks(self, drop_thinking: bool = False) -> list[dict[str, Any]]:
        """The blocks to send back: all of them as received, or without the thinking.

        Removing a completed turn's thinking blocks is allowed; the other blocks stay as
        they came.
        """
        if drop_thinking:
            return [dict(b) for b in self.blocks if b.get("type") not in THINKING_TYPES]
        return [dict(block) for block in self.blocks]

    def tool_use_ids(self) -> list[str]:
        """The ids of the message's tool_use blocks."""
        return [str(b["id"]) for b in self.blocks if b.get("type") == "tool_use" and "id" in b]
