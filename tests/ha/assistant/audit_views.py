"""What the assistant's tests (the break-it reviews' first) share: who asks, what the guard
recorded, an Assist API inside a conversation's chat log, a model's usual calls."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
import contextlib
from typing import Any

from homeassistant.auth.const import GROUP_ID_USER
from homeassistant.auth.models import User
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import chat_session, llm
from homeassistant.setup import async_setup_component

from custom_components.linn.guard import Outcome
from custom_components.linn.tools.ha_adapter import DATA_GUARD
from linn_emulator import LinnEmulator
from testing.fake_anthropic import FakeAnthropic, Reply, ToolUse, planned, planned_change
from testing.ha.core_agent import CORE_KEY, core_claude_agent
from testing.ha.injected_titles import show_title


async def new_member(hass: HomeAssistant) -> User:
    """A household member: a user who is not an admin."""
    return await hass.auth.async_create_user("Member", group_ids=[GROUP_ID_USER])


def outcomes_of(hass: HomeAssistant, tool: str) -> list[Outcome]:
    """The outcomes the guard recorded for one tool, oldest first."""
    return [r.outcome for r in hass.data[DATA_GUARD].guard.audit.records if r.tool == tool]


def tool_results(recorded: Any) -> int:
    """How many tool results a recorded Messages request carries (a model's turn so far)."""
    return sum(
        1
        for message in recorded.body["messages"]
        if isinstance(message.get("content"), list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    )


def conversation_input(
    text: str, context: Context, agent_id: str, device_id: str | None = None
) -> conversation.ConversationInput:
    """What a pipeline hands an agent for a new conversation in English: `text`, said by the
    user of `context`."""
    return conversation.ConversationInput(
        text=text,
        context=context,
        conversation_id=None,
        device_id=device_id,
        satellite_id=None,
        language="en",
        agent_id=agent_id,
    )


@contextlib.asynccontextmanager
async def assist_in_chat_log(
    hass: HomeAssistant,
    text: str,
    context: Context,
    device_id: str | None = None,
    conversation_id: str | None = None,
) -> AsyncIterator[llm.APIInstance]:
    """The Assist API of a turn of the default agent saying `text`, inside its chat log (as
    an agent's tool calls run): what a model calls through it runs in that conversation
    (a new one, or `conversation_id`)."""
    user_input = conversation_input(text, context, "conversation.home_assistant", device_id)
    with (
        chat_session.async_get_chat_session(hass, conversation_id) as session,
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


@contextlib.asynccontextmanager
async def other_agent_turn(
    hass: HomeAssistant, text: str, user: User, conversation_id: str
) -> AsyncIterator[Callable[[str, dict[str, Any]], Awaitable[Any]]]:
    """A turn of another agent (the default agent's chat log, the Assist API) saying `text`
    under `conversation_id`: yields call(tool, arguments), as that agent's model calls the
    Linn tools (named without their API's prefix)."""
    async with assist_in_chat_log(
        hass, text, Context(user_id=user.id), conversation_id=conversation_id
    ) as api:
        names = {tool.name.rsplit("__", 1)[-1]: tool.name for tool in api.tools}

        async def call(tool: str, arguments: dict[str, Any]) -> Any:
            return await api.async_call_tool(
                llm.ToolInput(tool_name=names[tool], tool_args=arguments)
            )

        yield call


async def mcp_api(
    hass: HomeAssistant, user_id: str
) -> Callable[[str, dict[str, Any]], Awaitable[Any]]:
    """The Assist API as a client with no chat log sees it (Home Assistant's MCP server: a
    user's own model): call(tool, arguments), the tool named without its API's prefix."""
    llm_context = llm.LLMContext(
        platform="mcp_server",
        context=Context(user_id=user_id),
        language="en",
        assistant=conversation.DOMAIN,
        device_id=None,
    )
    api = await llm.async_get_api(hass, llm.LLM_API_ASSIST, llm_context)
    names = {tool.name.rsplit("__", 1)[-1]: tool.name for tool in api.tools}

    async def call(tool: str, arguments: dict[str, Any]) -> Any:
        return await api.async_call_tool(llm.ToolInput(tool_name=names[tool], tool_args=arguments))

    return call


def assist_sets_volume_25() -> Reply:
    """The model's call of Assist's HassSetVolume: the Living Room to 25."""
    return Reply(
        tool_uses=(
            ToolUse("media_player__HassSetVolume", {"name": "Living Room", "volume_level": 25}),
        )
    )


def live_context_then(tool_use: ToolUse) -> tuple[Reply, ...]:
    """A model's exchange: it reads Assist's GetLiveContext (the players' titles among it),
    then makes `tool_use`, then says "Done."."""
    return (
        Reply(tool_uses=(ToolUse("homeassistant__GetLiveContext", {}),)),
        Reply(tool_uses=(tool_use,)),
        Reply("Done."),
    )


async def core_claude_turns_off_the_living_room(
    hass: HomeAssistant, emulator: LinnEmulator, core: FakeAnthropic, title: str, said: str
) -> str:
    """No assistant entry of ours: the living room's radio shows `title`, a member says `said`
    to core Claude, which reads the title through GetLiveContext and calls HassTurnOff on the
    Living Room. Returns what core Claude was sent after the read (the title among it)."""
    for component in ("homeassistant", "conversation", "intent"):
        assert await async_setup_component(hass, component, {})
    await show_title(hass, emulator, title)
    member = await new_member(hass)
    async with core_claude_agent(hass, CORE_KEY) as agent:
        core.script(*live_context_then(ToolUse("intent__HassTurnOff", {"name": "Living Room"})))
        await converse_with(hass, agent, member, said)
        return core.message_requests[1].raw_body.decode()


async def local_intents(hass: HomeAssistant, user: User, agent_id: str, text: str) -> None:
    """A voice pipeline whose agent is `agent_id`, with "Prefer handling commands locally":
    the default agent's local intents run in the chat log before that agent's turn."""
    user_input = conversation_input(text, Context(user_id=user.id), agent_id)
    with (
        chat_session.async_get_chat_session(hass) as session,
        conversation.async_get_chat_log(hass, session, user_input) as chat_log,
    ):
        await conversation.async_handle_intents(hass, user_input, chat_log)
    await hass.async_block_till_done()


async def converse_with(hass: HomeAssistant, agent_id: str, user: User, text: str) -> None:
    """`user` says `text` to the agent `agent_id` in a new conversation; all it set off ends."""
    await conversation.async_converse(hass, text, None, Context(user_id=user.id), agent_id=agent_id)
    await hass.async_block_till_done()


def level_planner(said: str, level: int) -> Callable[[Any], dict[str, Any]]:
    """A fake planner: a volume of `level` for the request that holds `said`, else no change."""

    def plan(recorded: Any) -> dict[str, Any]:
        if said in recorded.raw_body.decode():
            return planned(planned_change("volume", volume="level", level=level))
        return planned()

    return plan
