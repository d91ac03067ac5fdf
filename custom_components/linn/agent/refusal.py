"""A refused turn, marked in the chat log itself so that it is never sent again.

Anthropic's documentation on streaming refusals: "When you receive stop_reason: refusal, you
must reset the conversation context before continuing. You can remove or rephrase the turn
that triggered the refusal ... Attempting to continue without resetting will result in
continued refusals." The line the assistant says after a refusal carries a RefusedTurn as
its `native`: the turn from the user's words to that line is left out of every later
request. The mark lives in the chat log, not in a record beside it, so it goes when the chat
log goes (a conversation id reused for a fresh chat log) and stays while it stays.
"""

from __future__ import annotations

from collections.abc import Iterable

from homeassistant.components import conversation


class RefusedTurn:
    """The `native` of the assistant's own line after a refusal."""

    __slots__ = ()

    def __repr__(self) -> str:
        """For logs."""
        return "RefusedTurn()"


def refused_turns(content: Iterable[conversation.Content]) -> set[int]:
    """Chat-log indexes of the refused turns: each from its user content to the marked line."""
    left_out: set[int] = set()
    utterance: int | None = None
    for index, item in enumerate(content):
        if isinstance(item, conversation.UserContent):
            utterance = index
        elif isinstance(item, conversation.AssistantContent) and isinstance(
            item.native, RefusedTurn
        ):
            left_out.update(range(index if utterance is None else utterance, index + 1))
            utterance = None
    return left_out
