"""What the break-it reviews' tests share: who asks, what the guard recorded, an Assist API
inside a conversation's chat log."""

from __future__ import annotations

from collections.abc import AsyncIterator
import contextlib

from homeassistant.auth.const import GROUP_ID_USER
from homeassistant.auth.models import User
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import chat_session, llm

from custom_components.linn.guard import Outcome
from custom_components.linn.tools.ha_adapter import DATA_GUARD


async def new_member(hass: HomeAssistant) -> User:
    """A household member: a user who is not an admin."""
    return await hass.auth.async_create_user("Member", group_ids=[GROUP_ID_USER])


def outcomes_of(hass: HomeAssistant, tool: str) -> list[Outcome]:
    """The outcomes the guard recorded for one tool, oldest first."""
    return [r.outcome for r in hass.data[DATA_GUARD].guard.audit.records if r.tool == tool]


@contextlib.asynccontextmanager
async def assist_in_chat_log(
    hass: HomeAssistant, text: str, context: Context, device_id: str | None = None
) -> AsyncIterator[llm.APIInstance]:
    """The Assist API of a turn of the default agent saying `text`, inside its chat log (as
    an agent's tool calls run): what a model calls through it runs in that conversation."""
    user_input = conversation.ConversationInput(
        text=text,
        context=context,
        conversation_id=None,
        device_id=device_id,
        satellite_id=None,
        language="en",
        agent_id="conversation.home_assistant",
    )
    with (
        chat_session.async_get_chat_session(hass) as session,
        conversation.async_get_chat_log(hass, session, user_input),
    ):
        yield await llm.async_get_api(
            hass,
            llm.LLM_API_ASSIST,
            llm.LLMContext(
                platform="conversation",
                context=context,
                language="en",
                assistant=conversation.DOMAIN,
                device_id=device_id,
            ),
        )
