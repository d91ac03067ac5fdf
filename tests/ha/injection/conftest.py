"""One live home per batch: the emulated Linn, the assistant with the Assist API, the fake model."""

from __future__ import annotations

from collections.abc import AsyncIterator

from homeassistant.const import CONF_API_KEY
from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm
from homeassistant.setup import async_setup_component
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn.agent.const import (
    CONF_BASE_URL,
    CONF_BUDGET_DAY_COST,
    CONF_BUDGET_DAY_TOKENS,
    CONF_LLM_APIS,
    DEFAULT_OPTIONS,
)
from custom_components.linn.const import DOMAIN
from linn_emulator import LinnEmulator
from testing.fake_anthropic import FakeAnthropic

from .runner import AGENT, Home
from .world import async_setup_home

_API_KEY = "sk-ant-injection"


@pytest.fixture
async def home(
    hass: HomeAssistant, loaded_entry: MockConfigEntry, emulator: LinnEmulator
) -> AsyncIterator[Home]:
    """The assistant (Assist API enabled) beside the streamer and the high-risk entities.

    The day's token and cost budgets are off: a batch holds hundreds of conversations in
    one simulated day. The per-conversation budgets keep their defaults.
    """
    # asyncio debug mode records a traceback for every callback and future (a third of a
    # batch's CPU time); the suite is about the guard's decisions, and the other Home
    # Assistant tests keep the loop hygiene checks (as the soak does)
    hass.loop.set_debug(False)
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    await async_setup_home(hass)
    async with FakeAnthropic(api_key=_API_KEY) as fake:
        entry = MockConfigEntry(
            domain=DOMAIN,
            title="Claude assistant",
            data={CONF_API_KEY: _API_KEY, CONF_BASE_URL: fake.base_url},
            options={
                **DEFAULT_OPTIONS,
                CONF_LLM_APIS: [llm.LLM_API_ASSIST],
                CONF_BUDGET_DAY_TOKENS: 0,
                CONF_BUDGET_DAY_COST: 0,
            },
        )
        entry.add_to_hass(hass)
        assert await hass.config_entries.async_setup(entry.entry_id)
        await hass.async_block_till_done()
        assert hass.states.get(AGENT) is not None
        yield Home(hass, emulator, fake)
        await hass.config_entries.async_unload(entry.entry_id)
        await hass.async_block_till_done()
