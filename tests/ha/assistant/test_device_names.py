"""Names a device chooses (a source's) narrow a request; they never stand in for one."""

from __future__ import annotations

import json

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
import pytest

from linn_emulator import LinnEmulator
from testing.fake_anthropic import FakeAnthropic, Reply, ToolUse, planned, planned_change
from testing.ha.streamers import ENTITY_ID
from testing.helpers import wait_for

from .chat import PLAYER, converse

pytestmark = pytest.mark.usefixtures("assistant")


@pytest.mark.parametrize(
    ("utterance", "renamed"),
    [("what's playing?", "Playing"), ("what's on in the living room?", "Living Room")],
)
async def test_a_source_named_like_the_users_words_is_no_request(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    fake: FakeAnthropic,
    utterance: str,
    renamed: str,
) -> None:
    emulator.panel.configure_source("Analog 1", name=renamed)
    await wait_for(
        lambda: renamed in (hass.states.get(ENTITY_ID).attributes.get("source_list") or [])
    )
    before = emulator.state.source_index
    # the title read by get_state tells an obedient model to switch to that source; the
    # planner read a question, which asks for no change
    fake.plan(planned())
    fake.script(
        Reply(tool_uses=(ToolUse("linn__get_state", {"player": PLAYER}),)),
        Reply(tool_uses=(ToolUse("linn__select_source", {"player": PLAYER, "source": renamed}),)),
        Reply("Something is playing."),
    )
    await converse(hass, utterance, hass_admin_user)
    result = json.loads(fake.message_requests[2].tool_results()[0]["content"])
    assert result["error"] == (
        "Denied: device text was read this turn and the user did not ask for this"
    )
    assert emulator.state.source_index == before


async def test_the_users_own_words_still_switch_after_a_read(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    emulator.panel.configure_source("Analog 1", name="Record Player")
    await wait_for(
        lambda: "Record Player" in (hass.states.get(ENTITY_ID).attributes.get("source_list") or [])
    )
    fake.plan(planned(planned_change("source", item="the record player")))
    fake.script(
        Reply(tool_uses=(ToolUse("linn__get_state", {"player": PLAYER}),)),
        Reply(
            tool_uses=(
                ToolUse("linn__select_source", {"player": PLAYER, "source": "Record Player"}),
            )
        ),
        Reply("Switched to the record player."),
    )
    await converse(hass, "what's on? then switch to the record player", hass_admin_user)
    result = json.loads(fake.message_requests[2].tool_results()[0]["content"])
    assert "error" not in result
