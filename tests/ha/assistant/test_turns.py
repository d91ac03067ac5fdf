"""Requests through conversation.async_converse: the emulator's state and the spoken reply."""

from __future__ import annotations

import json

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
import pytest

from custom_components.linn.guard import Outcome
from custom_components.linn.guard.ha_adapter import DATA_GUARD
from linn_emulator import LinnEmulator
from tests.fake_anthropic import FakeAnthropic, Reply, ToolUse
from tests.helpers import wait_for

from .conftest import PLAYER, converse, speech

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
