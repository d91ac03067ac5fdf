"""An assistant entry on the fake Messages API, and a turn of conversation with it.

The entry's API key, its conversation agent and the streamer's name the tests talk about;
the fixtures that set the entry up are in conftest.py.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from homeassistant.auth.models import User
from homeassistant.components import conversation
from homeassistant.const import CONF_API_KEY
from homeassistant.core import Context, HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn.agent.const import CONF_BASE_URL
from custom_components.linn.const import DOMAIN
from linn_emulator import LinnEmulator
from testing.fake_anthropic import FakeAnthropic
from testing.helpers import wait_for

API_KEY = "sk-ant-test"
AGENT = "conversation.claude_assistant"
PLAYER = "Living Room"


@asynccontextmanager
async def assistant_entry(
    hass: HomeAssistant,
    fake: FakeAnthropic,
    title: str,
    options: dict[str, Any],
    agent: str,
) -> AsyncIterator[MockConfigEntry]:
    """An assistant entry on the fake set up (its agent exists), unloaded on exit."""
    entry = MockConfigEntry(
        domain=DOMAIN,
        title=title,
        data={CONF_API_KEY: API_KEY, CONF_BASE_URL: fake.base_url},
        options=options,
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert hass.states.get(agent) is not None
    yield entry
    await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()


async def converse(
    hass: HomeAssistant,
    text: str,
    user: User | None,
    conversation_id: str | None = None,
    language: str = "en",
) -> conversation.ConversationResult:
    """One utterance to the assistant, as an Assist pipeline sends it."""
    return await conversation.async_converse(
        hass,
        text,
        conversation_id,
        Context(user_id=user.id if user else None),
        language=language,
        agent_id=AGENT,
    )


def speech(result: conversation.ConversationResult) -> str:
    """What the satellite says."""
    return str(result.response.speech["plain"]["speech"])


async def panel_volume(hass: HomeAssistant, emulator: LinnEmulator, volume: int) -> None:
    """Turn the emulator's knob to `volume` and wait until a media player shows it."""
    emulator.panel.set_volume(volume)
    await wait_for(
        lambda: any(
            s.attributes.get("volume_level") == volume / 100
            for s in hass.states.async_all("media_player")
        )
    )
    await hass.async_block_till_done()
