"""A request that names no player: the player in the satellite's area, or a question back."""

from __future__ import annotations

import json
from typing import Any

from homeassistant.auth.models import User
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import area_registry as ar, device_registry as dr, entity_registry as er
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from linn_emulator import LinnEmulator
from testing.fake_anthropic import FakeAnthropic, Reply, ToolUse
from testing.ha.streamers import ENTITY_ID
from testing.helpers import wait_for

from .chat import AGENT, PLAYER, speech

pytestmark = pytest.mark.usefixtures("assistant")
KITCHEN = "media_player.kitchen"


def place(hass: HomeAssistant, entity_id: str, area: str) -> None:
    """Put a player's device in an area (created when missing)."""
    area_id = ar.async_get(hass).async_get_or_create(area).id
    entry = er.async_get(hass).async_get(entity_id)
    assert entry is not None
    assert entry.device_id is not None
    dr.async_get(hass).async_update_device(entry.device_id, area_id=area_id)


def satellite(hass: HomeAssistant, area: str) -> str:
    """A voice satellite's device in an area."""
    owner = MockConfigEntry(domain="test")
    owner.add_to_hass(hass)
    device = dr.async_get(hass).async_get_or_create(
        config_entry_id=owner.entry_id, identifiers={("test", f"satellite-{area}")}, name="Sat"
    )
    area_id = ar.async_get(hass).async_get_or_create(area).id
    dr.async_get(hass).async_update_device(device.id, area_id=area_id)
    return device.id


async def speak(
    hass: HomeAssistant, text: str, user: User, device_id: str
) -> conversation.ConversationResult:
    return await conversation.async_converse(
        hass, text, None, Context(user_id=user.id), language="en", agent_id=AGENT,
        device_id=device_id,
    )  # fmt: skip


def facts(fake: FakeAnthropic) -> dict[str, Any]:
    text = fake.message_requests[0].messages[-1]["content"][0]["text"]
    found: dict[str, Any] = json.loads(
        text.removeprefix("<turn_facts>").removesuffix("</turn_facts>")
    )
    return found


async def test_the_player_in_the_satellites_area_is_the_default(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    place(hass, ENTITY_ID, "Lounge")
    fake.script(
        Reply(tool_uses=(ToolUse("linn__change_volume", {"player": PLAYER, "change": 5}),)),
        Reply("Louder."),
    )
    result = await speak(hass, "louder", hass_admin_user, satellite(hass, "Lounge"))
    assert speech(result) == "Louder."
    sent = facts(fake)
    assert sent["user_area"] == "Lounge"
    assert sent["default_player"] == PLAYER
    await wait_for(lambda: emulator.state.volume == 35)


async def test_an_area_without_a_player_gets_a_question_back(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    place(hass, ENTITY_ID, "Lounge")
    fake.script(Reply(tool_uses=(ToolUse("ask_user", {"question": "Which player?"}),)))
    result = await speak(hass, "louder", hass_admin_user, satellite(hass, "Bathroom"))
    assert speech(result) == "Which player?"
    assert result.continue_conversation
    sent = facts(fake)
    assert sent["user_area"] == "Bathroom"
    assert sent["default_player"] is None
    assert emulator.state.volume == 30


@pytest.mark.usefixtures("kitchen")
async def test_two_players_in_the_area_are_ambiguous_one_is_not(
    hass: HomeAssistant, hass_admin_user: User, fake: FakeAnthropic
) -> None:
    await wait_for(lambda: hass.states.get(KITCHEN) is not None)
    place(hass, ENTITY_ID, "Open plan")
    place(hass, KITCHEN, "Open plan")
    fake.script(Reply("Which one?"))
    await speak(hass, "louder", hass_admin_user, satellite(hass, "Open plan"))
    assert facts(fake)["default_player"] is None
    place(hass, KITCHEN, "Kitchen")
    fake.requests.clear()
    fake.script(Reply("Which one?"))
    await speak(hass, "louder", hass_admin_user, satellite(hass, "Kitchen"))
    assert facts(fake)["default_player"] == "Kitchen"
