"""An assistant entry on the fake Messages API, beside the emulated streamer."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn.agent.const import DEFAULT_OPTIONS
from custom_components.linn.tools.guard_options import OPT_POLICIES
from scripts.standin_model import plan_answer, respond
from testing.fake_anthropic import FakeAnthropic, Reply, ToolUse
from testing.ha.core_agent import CORE_KEY, core_claude_agent

from .chat import AGENT, API_KEY, PLAYER, assistant_entry


@pytest.fixture
async def fake() -> AsyncIterator[FakeAnthropic]:
    """The fake Messages API (each model's own minimum cacheable length); every test leaves
    no scripted step unplayed."""
    async with FakeAnthropic(api_key=API_KEY, min_cache_tokens=None) as server:
        yield server
        assert server.unplayed == [], "scripted steps were not used"
        assert server.unplayed_plans == [], "stated plans were not used"


@pytest.fixture
def assistant_options() -> dict[str, Any]:
    """The entry's options (tests override single values)."""
    return dict(DEFAULT_OPTIONS)


@pytest.fixture
async def assistant(
    hass: HomeAssistant,
    loaded_entry: MockConfigEntry,
    fake: FakeAnthropic,
    assistant_options: dict[str, Any],
) -> AsyncIterator[MockConfigEntry]:
    """The assistant entry set up (after the streamer), as the config flow creates it."""
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    async with assistant_entry(hass, fake, "Claude assistant", assistant_options, AGENT) as entry:
        yield entry


@pytest.fixture
async def standby_the_streamer_denies(
    hass: HomeAssistant,
    assistant: MockConfigEntry,
    loaded_entry: MockConfigEntry,
    fake: FakeAnthropic,
) -> None:
    """The streamer's own policies turn standby off (the assistant set up before); the model
    asks for the living room's standby, then says "Standby is turned off for me."."""
    hass.config_entries.async_update_entry(
        loaded_entry, options={**loaded_entry.options, OPT_POLICIES: {"standby": "deny"}}
    )
    fake.script(
        Reply(tool_uses=(ToolUse("linn__standby", {"player": PLAYER}),)),
        Reply("Standby is turned off for me."),
    )


@pytest.fixture
async def core(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeAnthropic]:
    """The fake Messages API core anthropic's agent talks to (our entry has its own)."""
    async with FakeAnthropic(api_key=CORE_KEY) as server:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.base_url)
        yield server
        assert server.unplayed == [], "scripted steps were not used"


@pytest.fixture
async def core_agent(
    hass: HomeAssistant, assistant: MockConfigEntry, core: FakeAnthropic
) -> AsyncIterator[str]:
    """Core anthropic's conversation entity (Assist API), beside our assistant entry."""
    assert await async_setup_component(hass, "intent", {})
    async with core_claude_agent(hass, CORE_KEY) as agent:
        yield agent


@pytest.fixture
def standin(fake: FakeAnthropic) -> None:
    """The fake Messages API answers as the stand-in model (scripts/standin_model.py)."""
    fake.responder, fake.planner = respond, plan_answer
