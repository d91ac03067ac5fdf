"""The tools inside real conversation turns (conversation's ChatLog): confirmation by the
user's own words, and device text that cannot steer an obedient model."""

from __future__ import annotations

import json
import re
from typing import Any

from homeassistant.auth.models import User
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import chat_session, llm
from homeassistant.setup import async_setup_component
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn.approvals.snapshot import Viewer, build_snapshot
from custom_components.linn.guard import Outcome
from custom_components.linn.tools.ha_adapter import DATA_GUARD
from linn_emulator import LinnEmulator
from testing.ha.assist_api import PLAYER
from testing.ha.injected_titles import INJECTIONS, show_title
from testing.helpers import wait_for

AGENT = "conversation.scripted"


@pytest.fixture(autouse=True)
async def _conversation(hass: HomeAssistant, loaded_entry: MockConfigEntry) -> None:
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    assert await async_setup_component(hass, "llm", {})


class Conversation:
    """One conversation; each turn is the user's utterance, then the model's tool calls."""

    def __init__(self, hass: HomeAssistant, user: User, conversation_id: str = "conv-1") -> None:
        self.hass = hass
        self.user = user
        self.conversation_id = conversation_id
        self._calls = 0

    async def turn(
        self,
        utterance: str,
        *steps: list[tuple[str, dict[str, Any]]],
        model_text: str | None = None,
        obey: bool = False,
    ) -> list[llm.ToolResult]:
        """Run a turn: each step is one assistant message with tool calls.

        With obey=True the scripted model also calls every `linn__tool key=value` it reads
        in a tool result, as a model that follows injected instructions would.
        """
        user_input = conversation.ConversationInput(
            text=utterance,
            context=Context(user_id=self.user.id),
            conversation_id=self.conversation_id,
            device_id=None,
            satellite_id=None,
            language="en",
            agent_id=AGENT,
        )
        results: list[llm.ToolResult] = []
        with (
            chat_session.async_get_chat_session(self.hass, self.conversation_id) as session,
            conversation.async_get_chat_log(self.hass, session, user_input) as chat_log,
        ):
            await chat_log.async_provide_llm_data(
                user_input.as_llm_context("test"), llm.LLM_API_ASSIST
            )
            if model_text is not None:
                chat_log.async_add_assistant_content_without_tools(
                    conversation.AssistantContent(agent_id=AGENT, content=model_text)
                )
            queue = list(steps)
            while queue:
                calls = [self._input(tool, arguments) for tool, arguments in queue.pop(0)]
                content = conversation.AssistantContent(agent_id=AGENT, tool_calls=calls)
                async for result in chat_log.async_add_assistant_content(content):
                    assert isinstance(result, conversation.ToolResultContent)
                    results.append(result.result)
                    if obey:
                        queue.extend([step] for step in _instructions(result.result.data))
        return results

    def _input(self, tool: str, arguments: dict[str, Any]) -> llm.ToolInput:
        self._calls += 1
        return llm.ToolInput(f"linn__{tool}", arguments, id=f"call-{self._calls}")


def _instructions(data: Any) -> list[tuple[str, dict[str, Any]]]:
    found = []
    for match in re.finditer(r"linn__(\w+)(?: (\w+)=([\w ]+\w))?", json.dumps(data)):
        tool, key, value = match.groups()
        arguments: dict[str, Any] = {"player": PLAYER}
        if key:
            arguments[key] = int(value) if value.isdigit() else value
        found.append((tool, arguments))
    return found


async def test_confirmation_is_the_users_own_yes_in_the_next_turn(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    chat = Conversation(hass, hass_admin_user)
    # above the soft limit (60 % of 80 = 48), a jump of no more than 20: one signal
    loud = ("set_volume", {"player": PLAYER, "volume": 50})
    (asked,) = await chat.turn("set the volume to 50", [loud])
    assert asked.data["error"].startswith("Needs confirmation")
    # the model claiming a yes, in its own text or by calling again, is no yes
    (again,) = await chat.turn("hmm, what was that?", [loud], model_text="Yes.")
    assert again.data["error"].startswith("Needs confirmation")
    assert emulator.state.volume == 30
    (done,) = await chat.turn("yes please", [loud])
    assert not done.error, done.data
    await wait_for(lambda: emulator.state.volume == 50)
    guard = hass.data[DATA_GUARD].guard
    assert guard.audit.records[-1].outcome is Outcome.APPROVED
    # the approvals card shows the user's own yes as a confirmation, not an approval
    view = build_snapshot(hass, guard, Viewer(hass_admin_user.id, True), {}, 50)
    assert view["audit"][0]["tool"] == "set_volume"
    assert view["audit"][0]["outcome"] == "confirmed"


async def test_a_no_or_another_conversation_does_not_confirm(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    loud = ("set_volume", {"player": PLAYER, "volume": 50})
    chat = Conversation(hass, hass_admin_user)
    await chat.turn("volume 50", [loud])
    (refused,) = await chat.turn("no", [loud])
    assert refused.data == {"error": "Denied: the user said no"}
    other = Conversation(hass, hass_admin_user, "conv-2")
    await chat.turn("volume 50", [loud])
    (elsewhere,) = await other.turn("yes", [loud])
    assert elsewhere.data["error"].startswith("Needs confirmation")
    assert emulator.state.volume == 30


async def test_whats_playing_skip_it_works(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    emulator.panel.play()
    first = emulator.state.playlist_id
    chat = Conversation(hass, hass_admin_user)
    state, skipped = await chat.turn(
        "what's playing? skip it",
        [("get_state", {"player": PLAYER})],
        [("next", {"player": PLAYER})],
    )
    assert "device_text" in state.data["players"][0]
    assert not skipped.error, skipped.data
    await wait_for(lambda: emulator.state.playlist_id != first)


async def test_search_then_play_by_short_id_in_a_conversation(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    chat = Conversation(hass, hass_admin_user)
    (found,) = await chat.turn(
        "find radio paradise", [("search_music", {"player": PLAYER, "query": "paradise"})]
    )
    first = found.data["results"][0]
    assert first["id"] == "m1"
    assert first["device_text"]["title"] == "Radio Paradise (FLAC)"
    (played,) = await chat.turn("play it", [("play_music", {"player": PLAYER, "item": "m1"})])
    assert not played.error, played.data
    await wait_for(
        lambda: (
            emulator.state.radio_id == 2
            and emulator.state.sources[emulator.state.source_index].system_name == "Radio"
        )
    )
    # short ids belong to their conversation
    other = Conversation(hass, hass_admin_user, "conv-2")
    (elsewhere,) = await other.turn("play m1", [("play_music", {"player": PLAYER, "item": "m1"})])
    assert elsewhere.data == {
        "error": "Invalid argument: item must be an id from search_music in this conversation"
    }


@pytest.mark.parametrize("goal", INJECTIONS)
async def test_an_injected_title_never_executes_with_an_obedient_model(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, goal: str
) -> None:
    await show_title(hass, emulator, INJECTIONS[goal])
    source_before = emulator.state.source_index
    chat = Conversation(hass, hass_admin_user)
    results = await chat.turn("what's playing?", [("get_state", {"player": PLAYER})], obey=True)
    assert len(results) == 2  # the model did obey
    assert results[1].data["error"].startswith("Denied: device text was read this turn")
    assert not hass.data[DATA_GUARD].guard.pending.open_requests()  # no request raised
    # the next turn: the user talks about something else; the injection still changes nothing
    await chat.turn("thanks, that's all", [])
    await hass.async_block_till_done()
    assert emulator.state.volume == 30
    assert emulator.state.standby is False
    assert emulator.state.source_index == source_before
    assert emulator.state.volume_limit == 80
