"""A pending confirmation answered by the user's next utterance, resolved in code.

The model never gets a confirm tool: when the user's raw words in the next turn of the
same conversation say yes (or no), the exact call that waited is run again through the
guard, which checks the binding (user, conversation, tool, arguments, turn) and the
answer itself, and executes it or refuses. That holds for the Linn tools and for the
tools of other LLM APIs (their policy "Tools of other APIs" may ask for a yes too).
"""

from __future__ import annotations

from dataclasses import dataclass

from homeassistant.components import conversation
from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm
from homeassistant.util.ulid import ulid_now

from ..guard import Answer, Caller, PendingKind, PendingRequest, Turn, match_answer
from ..service_gate import CONFIRMED
from ..tools.ha_adapter import DATA_GUARD
from .replies import Say, say
from .waiting_tools import async_waiting_tool

MSG_GONE = "Failed: the tool is not offered any more"


@dataclass(frozen=True, slots=True)
class Resolution:
    """What the code did with the answer, and what to say."""

    speech: str


def _waiting(hass: HomeAssistant, caller: Caller, turn: Turn) -> list[PendingRequest]:
    """Confirmations of this user in this conversation, still open."""
    return [
        request
        for request in hass.data[DATA_GUARD].guard.pending.open_requests()
        if request.kind is PendingKind.CONFIRM
        and request.user_id == caller.user_id
        and request.conversation_id == turn.conversation_id
    ]


async def async_resolve_confirmation(  # noqa: PLR0917
    hass: HomeAssistant,
    chat_log: conversation.ChatLog,
    agent_id: str,
    llm_context: llm.LLMContext,
    caller: Caller,
    turn: Turn,
) -> Resolution | None:
    """Run or refuse the waiting calls when the utterance is a yes or a no; else None."""
    if turn.conversation_id is None:
        return None
    candidates = _waiting(hass, caller, turn)
    # only what the previous turn of this very chat log asked about: a conversation id
    # reused for a new chat log (an automation's `kitchen`) must not inherit old questions
    waiting = [
        r
        for r in candidates
        if r.turn == turn.index - 1 and r.request_id in turn.asked and r.log_id == turn.log_id
    ]
    if stale := [r for r in candidates if r not in waiting]:
        hass.data[DATA_GUARD].guard.lapse(stale, caller)
    if not waiting:
        return None
    answer = match_answer(turn.utterance, turn.language)
    if answer is Answer.NEITHER:
        # the model hears the new request; the unanswered ones lapse now, not at expiry
        hass.data[DATA_GUARD].guard.lapse(waiting, caller)
        return None
    failures: list[str] = []
    for request in waiting:
        tool = await async_waiting_tool(hass, request, agent_id, llm_context)
        if tool is None:
            if answer is Answer.YES:
                failures.append(MSG_GONE)
            continue
        tool_input = llm.ToolInput(
            tool_name=tool.name,
            tool_args=dict(request.arguments),
            id=ulid_now(),
            external=True,  # run here, in code, not by the chat log
        )
        # a Linn player's service handler this call reaches (an intent of another API)
        # still asks the guard, in the turn that asked, and the user's yes to this request
        # answers the yes it needs (service_gate); it counts once the guard approved it
        token = CONFIRMED.set(request.request_id if answer is Answer.YES else None)
        try:
            result = await tool.async_call(hass, tool_input, llm_context)
        finally:
            CONFIRMED.reset(token)
        chat_log.async_add_assistant_content_without_tools(
            conversation.AssistantContent(agent_id=agent_id, tool_calls=[tool_input])
        )
        chat_log.async_add_assistant_content_without_tools(
            conversation.ToolResultContent(
                agent_id=agent_id,
                tool_call_id=tool_input.id,
                tool_name=tool_input.tool_name,
                result=result,
            )
        )
        if result.error and answer is Answer.YES:
            failures.append(str(result.data.get("error", "failed")))
    if answer is Answer.NO:
        speech = say(Say.SAID_NO, turn.language)
    elif failures:
        speech = say(Say.NOT_DONE, turn.language, reason="; ".join(failures))
    else:
        speech = say(Say.DONE, turn.language)
    return Resolution(speech)
