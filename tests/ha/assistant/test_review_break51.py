"""Break-it review 51 (branch break51): names a device chooses, end to end.

The kitchen streamer's room is renamed in Linn's app (no password) and its entry reloaded,
as Home Assistant names a player after its device's room when it sets it up. The word
rules decide when the turn has no plan (here the planner's request fails: the fake has no
plan queued and answers 500).

Fixed: the kitchen renamed "Turn Off" was named by "turn off the living room", so the
model's standby of the kitchen ran (a name made only of request words is now named by no
words the rules read, guard/request_words.py). Held: the living room renamed
"Kitchen" with a zero-width space, a case or a trailing space is one more "Kitchen": both
are listed with their entity ids and "Kitchen" alone names neither (review 18 B9 covers
the exact name); a room renamed while the model plans a call renames no player before a
reload, so the call lands where it was planned.
"""

from __future__ import annotations

import asyncio
import json

from homeassistant.core import HomeAssistant
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn.guard import Outcome
from linn_emulator import LinnEmulator
from testing.fake_anthropic import FakeAnthropic, Reply, Stall, ToolUse
from testing.ha.streamers import ENTITY_ID
from testing.helpers import wait_for

from .audit_views import new_member, outcomes_of
from .chat import converse

pytestmark = pytest.mark.usefixtures("assistant")


async def _rename(hass: HomeAssistant, emulator: LinnEmulator, title: str, room: str) -> None:
    """The streamer's room renamed on the device, its entry (by title) reloaded."""
    emulator.panel.set_room(room)
    await wait_for(lambda: emulator.state.room == room)
    entry = next(e for e in hass.config_entries.async_entries("linn") if e.title == title)
    assert await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done()


async def test_a_room_named_turn_off_is_not_named_by_turn_off_the_living_room(
    hass: HomeAssistant, emulator: LinnEmulator, kitchen: LinnEmulator, fake: FakeAnthropic
) -> None:
    member = await new_member(hass)
    await _rename(hass, kitchen, "Kitchen", "Turn Off")
    assert "Turn Off" in {s.name for s in hass.states.async_all("media_player")}
    fake.script(
        Reply(tool_uses=(ToolUse("linn__standby", {"player": "Turn Off"}),)),
        Reply("Done."),
    )
    await converse(hass, "turn off the living room", member)
    await hass.async_block_till_done()
    assert outcomes_of(hass, "standby") == [Outcome.DENIED]
    assert not kitchen.state.standby


@pytest.mark.parametrize("room", ["Kitch\u200ben", "KITCHEN ", "kitchen"])
async def test_a_room_renamed_to_a_variant_of_another_players_name_names_neither(
    hass: HomeAssistant,
    emulator: LinnEmulator,
    kitchen: LinnEmulator,
    loaded_entry: MockConfigEntry,
    fake: FakeAnthropic,
    room: str,
) -> None:
    """Held: "set the kitchen to 45" after the living room took a look-alike of "Kitchen":
    both are listed with their entity ids, the model's "Kitchen" fits no listed name and
    is refused, neither player changes."""
    member = await new_member(hass)
    emulator.panel.set_room(room)
    await wait_for(lambda: emulator.state.room == room)
    assert await hass.config_entries.async_reload(loaded_entry.entry_id)
    await hass.async_block_till_done()
    fake.script(
        Reply(tool_uses=(ToolUse("linn__set_volume", {"player": "Kitchen", "volume": 45}),)),
        Reply("Done."),
    )
    await converse(hass, "set the kitchen to 45", member)
    await hass.async_block_till_done()
    result = json.loads(fake.message_requests[1].tool_results()[0]["content"])
    assert result["error"].startswith(
        "Invalid argument: player must be one of the listed players, exactly as listed"
    )
    assert emulator.state.volume == 30
    assert kitchen.state.volume == 30


async def test_a_room_renamed_during_the_turn_takes_no_players_change(
    hass: HomeAssistant, emulator: LinnEmulator, kitchen: LinnEmulator, fake: FakeAnthropic
) -> None:
    """Held: while the model plans "set the kitchen to 45", the living room streamer
    renames its room "Kitchen". Home Assistant names a player when it sets it up, so
    nothing is renamed until a reload: the call lands on the kitchen streamer."""
    member = await new_member(hass)
    fake.script(
        Stall(
            1.0,
            then=Reply(
                tool_uses=(ToolUse("linn__set_volume", {"player": "Kitchen", "volume": 45}),)
            ),
        ),
        Reply("Done."),
    )
    turn = asyncio.create_task(converse(hass, "set the kitchen to 45", member))
    emulator.panel.set_room("Kitchen")
    await wait_for(lambda: emulator.state.room == "Kitchen")
    await asyncio.sleep(0.1)  # the ProductRoom event handled by Home Assistant
    assert not turn.done(), "the rename came after the turn"
    assert hass.states.get(ENTITY_ID).name == "Living Room"
    await turn
    await hass.async_block_till_done()
    await wait_for(lambda: kitchen.state.volume == 45)
    assert emulator.state.volume == 30
    assert outcomes_of(hass, "set_volume") == [Outcome.ALLOWED]
