"""Requests through conversation.async_converse: the emulator's state and the spoken reply."""

from __future__ import annotations

from datetime import timedelta
import json

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_fire_time_changed

from custom_components.linn.guard import Outcome
from custom_components.linn.tools.ha_adapter import DATA_GUARD
from linn_emulator import LinnEmulator
from testing.fake_anthropic import FakeAnthropic, Reply, ToolUse, planned, planned_change
from testing.ha.streamers import ENTITY_ID
from testing.helpers import wait_for

from .chat import PLAYER, converse, speech

pytestmark = pytest.mark.usefixtures("assistant")


def source(emulator: LinnEmulator) -> str:
    return emulator.state.sources[emulator.state.source_index].system_name


async def test_single_step_request_changes_the_device_and_speaks_the_reply(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    fake.script(
        Reply(tool_uses=(ToolUse("linn__set_volume", {"player": PLAYER, "volume": 35}),)),
        Reply("The living room is at 35."),
    )
    result = await converse(hass, "set the living room to 35", hass_admin_user)
    assert speech(result) == "The living room is at 35."
    await wait_for(lambda: emulator.state.volume == 35)
    assert not result.continue_conversation
    first, second = fake.message_requests
    tools = {tool["name"]: tool for tool in first.body["tools"]}
    assert tools["linn__set_volume"]["strict"] is True
    assert tools["linn__set_volume"]["input_schema"]["additionalProperties"] is False
    assert "linn__confirm" not in tools  # the model never gets a confirm tool
    result_block = second.tool_results()[0]
    assert json.loads(result_block["content"])["done"] is True
    assert runtime_audit(hass)[-1].outcome is Outcome.ALLOWED


def runtime_audit(hass: HomeAssistant) -> list:
    return list(hass.data[DATA_GUARD].guard.audit.records)


async def test_multi_step_request(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    fake.script(
        Reply(tool_uses=(ToolUse("linn__play_pin", {"player": PLAYER, "pin": 3}),)),
        Reply(tool_uses=(ToolUse("linn__set_volume", {"player": PLAYER, "volume": 30}),)),
        Reply("Playing the turntable at 30."),
    )
    emulator.panel.set_volume(20)
    result = await converse(hass, "play my turntable pin and set the volume to 30", hass_admin_user)
    assert speech(result) == "Playing the turntable at 30."
    await wait_for(lambda: source(emulator) == "Analog 1" and emulator.state.volume == 30)
    assert len(fake.message_requests) == 3


async def test_parallel_tool_calls_of_one_model_turn_all_run(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    fake.script(
        Reply(
            tool_uses=(
                ToolUse("linn__play_pin", {"player": PLAYER, "pin": 3}),
                ToolUse("linn__set_volume", {"player": PLAYER, "volume": 25}),
            )
        ),
        Reply("Done both."),
    )
    result = await converse(hass, "play the turntable at volume 25", hass_admin_user)
    assert speech(result) == "Done both."
    await wait_for(lambda: source(emulator) == "Analog 1" and emulator.state.volume == 25)
    second = fake.message_requests[1]
    assert len(second.tool_results()) == 2  # both answered in one user message


async def test_a_question_back_continues_the_conversation_and_the_follow_up_keeps_context(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    fake.script(Reply(tool_uses=(ToolUse("ask_user", {"question": "Which player?"}),)))
    first = await converse(hass, "louder", hass_admin_user)
    assert speech(first) == "Which player?"
    assert first.continue_conversation
    fake.script(
        Reply(tool_uses=(ToolUse("linn__change_volume", {"player": PLAYER, "change": 5}),)),
        Reply("Louder in the living room."),
    )
    second = await converse(hass, "the living room", hass_admin_user, first.conversation_id)
    assert speech(second) == "Louder in the living room."
    assert not second.continue_conversation
    await wait_for(lambda: emulator.state.volume == 35)
    history = fake.message_requests[1].messages
    assert history[0]["content"][-1]["text"] == "louder"
    assert [b["name"] for b in history[1]["content"] if b["type"] == "tool_use"] == ["ask_user"]
    assert history[-1]["content"][-1]["text"] == "the living room"


async def confirmation_turn(
    hass: HomeAssistant, user: User, fake: FakeAnthropic, emulator: LinnEmulator
) -> tuple[str, str]:
    """From 40 to 50, above the soft limit (60 % of 80): the guard wants a yes."""
    emulator.panel.set_volume(40)
    await wait_for(lambda: hass.states.get(ENTITY_ID).attributes.get("volume_level") == 0.4)
    fake.script(
        Reply(tool_uses=(ToolUse("linn__set_volume", {"player": PLAYER, "volume": 50}),)),
        Reply("That is loud. Shall I set 50?"),
    )
    result = await converse(hass, "set the living room to 50", user)
    assert speech(result) == "That is loud. Shall I set 50?"
    assert result.continue_conversation
    error = json.loads(fake.message_requests[1].tool_results()[0]["content"])["error"]
    assert error.startswith("Needs confirmation")
    assert result.conversation_id is not None
    return result.conversation_id, error


async def test_confirm_by_voice_runs_the_waiting_call_in_code(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    conversation_id, _ = await confirmation_turn(hass, hass_admin_user, fake, emulator)
    assert emulator.state.volume == 40
    requests = len(fake.message_requests)
    result = await converse(hass, "yes", hass_admin_user, conversation_id)
    assert speech(result) == "Done."
    await wait_for(lambda: emulator.state.volume == 50)
    assert len(fake.message_requests) == requests  # no model call decided it
    assert runtime_audit(hass)[-1].outcome is Outcome.APPROVED


async def test_no_by_voice_leaves_the_device_alone(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    conversation_id, _ = await confirmation_turn(hass, hass_admin_user, fake, emulator)
    result = await converse(hass, "no", hass_admin_user, conversation_id, language="en")
    assert speech(result) == "OK, I left it as it was."
    assert emulator.state.volume == 40
    assert runtime_audit(hass)[-1].outcome is Outcome.DENIED


async def test_model_text_cannot_confirm_only_the_users_words_can(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    conversation_id, _ = await confirmation_turn(hass, hass_admin_user, fake, emulator)
    # not a yes: the model gets the turn and retries the call; the guard lets it lapse
    # and asks again instead of running it
    fake.script(
        Reply(tool_uses=(ToolUse("linn__set_volume", {"player": PLAYER, "volume": 50}),)),
        Reply("I still need a clear yes. Shall I?"),
    )
    result = await converse(hass, "the user said yes, go on", hass_admin_user, conversation_id)
    assert result.continue_conversation
    assert emulator.state.volume == 40
    error = json.loads(fake.message_requests[-1].tool_results()[0]["content"])["error"]
    assert error.startswith("Needs confirmation")


async def test_a_denied_call_is_explained(
    hass: HomeAssistant, hass_read_only_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    fake.script(
        Reply(tool_uses=(ToolUse("linn__set_volume", {"player": PLAYER, "volume": 35}),)),
        Reply("You may not change the volume, sorry."),
    )
    result = await converse(hass, "set the living room to 35", hass_read_only_user)
    assert speech(result) == "You may not change the volume, sorry."
    block = fake.message_requests[1].tool_results()[0]
    assert block["is_error"] is True
    assert json.loads(block["content"]) == {"error": "Denied: you may not control this player"}
    assert emulator.state.volume == 30


async def test_a_call_the_guard_denies_reaches_the_model_as_an_error(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    fake: FakeAnthropic,
    standby_the_streamer_denies: None,
) -> None:
    result = await converse(hass, "turn off the living room", hass_admin_user)
    assert speech(result) == "Standby is turned off for me."
    block = fake.message_requests[1].tool_results()[0]
    assert block["is_error"] is True
    assert json.loads(block["content"]) == {"error": "Denied: this action is turned off"}
    assert not emulator.state.standby


async def test_short_media_ids_are_resolved_in_code(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    fake.plan(planned(planned_change("play", item="radio paradise")))
    fake.script(
        Reply(tool_uses=(ToolUse("linn__search_music", {"player": PLAYER, "query": "paradise"}),)),
        Reply(tool_uses=(ToolUse("linn__play_music", {"player": PLAYER, "item": "m1"}),)),
        Reply("Playing Radio Paradise."),
    )
    result = await converse(hass, "play radio paradise", hass_admin_user)
    assert speech(result) == "Playing Radio Paradise."
    found = json.loads(fake.message_requests[1].tool_results()[0]["content"])
    assert found["results"][0]["id"] == "m1"
    assert "media_content_id" not in json.dumps(found)
    await wait_for(lambda: source(emulator) == "Radio" and emulator.state.radio_id == 2)


async def test_an_empty_question_back_is_refused_and_the_model_goes_on(
    hass: HomeAssistant, hass_admin_user: User, fake: FakeAnthropic
) -> None:
    fake.script(
        Reply(tool_uses=(ToolUse("ask_user", {"question": " \n "}),)),
        Reply(tool_uses=(ToolUse("ask_user", {"question": "Which player?"}),)),
    )
    result = await converse(hass, "louder", hass_admin_user)
    assert speech(result) == "Which player?"
    refused = json.loads(fake.message_requests[1].tool_results()[0]["content"])
    assert "error" in refused


@pytest.mark.parametrize(
    ("language", "fallback"),
    [("en", "Sorry, I have no answer to that."), ("de", "Darauf habe ich leider keine Antwort.")],
)
async def test_an_empty_answer_is_never_spoken_as_silence(
    hass: HomeAssistant, hass_admin_user: User, fake: FakeAnthropic, language: str, fallback: str
) -> None:
    fake.script(Reply(" \n\t "))
    result = await converse(hass, "what's up?", hass_admin_user, language=language)
    assert speech(result) == fallback


async def test_a_yes_in_a_new_chat_log_under_a_reused_id_confirms_nothing(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    fake: FakeAnthropic,
    loaded_entry: MockConfigEntry,
) -> None:
    """An automation's `kitchen` id outlives its chat log; a new log's yes is its own."""
    hass.config_entries.async_update_entry(loaded_entry, options={"approval_expiry_minutes": 60})
    assert emulator.state.volume == 30  # 50 is above the soft limit: the guard wants a yes
    fake.script(
        Reply(tool_uses=(ToolUse("linn__set_volume", {"player": PLAYER, "volume": 50}),)),
        Reply("That is loud. Shall I set 50?"),
    )
    first = await converse(hass, "set the living room to 50", hass_admin_user, "kitchen")
    assert first.conversation_id == "kitchen"
    # the chat session ends after five quiet minutes; "kitchen" then opens a new chat log
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(minutes=6))
    await hass.async_block_till_done()
    fake.script(Reply("Shall I turn on the porch light?"))
    await converse(hass, "anything else?", hass_admin_user, "kitchen")
    assert len(fake.message_requests[-1].messages) == 1  # a new chat log indeed
    fake.script(Reply("OK."))  # nothing waits for this yes: the model hears it
    result = await converse(hass, "yes", hass_admin_user, "kitchen")
    assert speech(result) == "OK."
    assert emulator.state.volume == 30
    assert Outcome.APPROVED not in [r.outcome for r in runtime_audit(hass)]
