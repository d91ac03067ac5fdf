"""What happened in one turn, read from its chat log.

`first` is the chat-log index of the turn's first item: what was there before the turn
began belongs to the turns before it.
"""

from __future__ import annotations

from homeassistant.components import conversation

from .native import ModelMessage
from .replies import has_visible_text
from .tools import ASK_USER


def this_turn(chat_log: conversation.ChatLog, first: int) -> list[conversation.Content]:
    """The chat log's items of this turn."""
    return chat_log.content[first:]


def tools_ran(chat_log: conversation.ChatLog, first: int) -> bool:
    """A tool ran this turn."""
    return any(isinstance(c, conversation.ToolResultContent) for c in this_turn(chat_log, first))


def spoken(chat_log: conversation.ChatLog) -> bool:
    """The chat log ends with something said (visible text)."""
    last = chat_log.content[-1]
    return (
        isinstance(last, conversation.AssistantContent)
        and bool(last.content)
        and has_visible_text(str(last.content))
    )


def asked(chat_log: conversation.ChatLog, first: int) -> str | None:
    """The question of an accepted ask_user call in the model's last message, if any.

    A question the tool refused (empty, too long) is no question: the model hears why
    and goes on.
    """
    for index in range(len(chat_log.content) - 1, first - 1, -1):
        content = chat_log.content[index]
        if isinstance(content, conversation.AssistantContent) and content.tool_calls:
            for call in content.tool_calls:
                if call.tool_name == ASK_USER and not refused(chat_log, first, call.id):
                    question = str(call.tool_args.get("question", ""))
                    return question if has_visible_text(question) else None
            return None
    return None


def refused(chat_log: conversation.ChatLog, first: int, tool_call_id: str) -> bool:
    """The tool call's result in this turn is an error."""
    return any(
        isinstance(c, conversation.ToolResultContent)
        and c.tool_call_id == tool_call_id
        and c.result.error
        for c in this_turn(chat_log, first)
    )


def waits_for_user(chat_log: conversation.ChatLog, first: int) -> bool:
    """A confirmation or approval is pending, or the model asked a question."""
    for content in this_turn(chat_log, first):
        if isinstance(content, conversation.ToolResultContent) and (
            content.tool_name == ASK_USER or "request_id" in content.result.data
        ):
            return True
    return False


def last_utterance(chat_log: conversation.ChatLog) -> int | None:
    """The chat-log index of the last user utterance."""
    return max(
        (
            index
            for index, item in enumerate(chat_log.content)
            if isinstance(item, conversation.UserContent)
        ),
        default=None,
    )


def active_model_message(chat_log: conversation.ChatLog, first: int) -> int | None:
    """The chat-log index of this turn's last model message (the active tool loop's)."""
    for index in range(len(chat_log.content) - 1, first - 1, -1):
        item = chat_log.content[index]
        if isinstance(item, conversation.AssistantContent) and isinstance(
            item.native, ModelMessage
        ):
            return index
    return None
