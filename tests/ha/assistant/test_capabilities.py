"""The model's capabilities at setup: one request when the model is listed, a partial
answer counted as none, and a notice (info) when the thinking option cannot be applied."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
import logging
from typing import Any

from homeassistant.auth.models import User
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn.agent.const import CONF_MODEL, CONF_THINKING_EFFORT, DEFAULT_OPTIONS
from custom_components.linn.diagnostics import async_get_config_entry_diagnostics
from scripts.standin_model import HELP, MODEL_ID, respond
from testing.fake_anthropic import FakeAnthropic, Reply

from .chat import AGENT, API_KEY, assistant_entry, converse, speech

THINKING = "claude-haiku-5-5"
OPTIONS = {**DEFAULT_OPTIONS, CONF_MODEL: THINKING}


@asynccontextmanager
async def assistant_on(
    hass: HomeAssistant, server: FakeAnthropic, options: dict[str, Any] = OPTIONS
) -> AsyncIterator[MockConfigEntry]:
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    async with assistant_entry(hass, server, "Claude assistant", options, AGENT) as entry:
        assert entry.state is ConfigEntryState.LOADED
        yield entry


def model_paths(server: FakeAnthropic) -> list[str]:
    return [r.path for r in server.requests if r.path.startswith("/v1/models")]


@pytest.mark.usefixtures("loaded_entry")
async def test_a_listed_model_takes_its_capabilities_from_the_key_checks_list(
    hass: HomeAssistant,
) -> None:
    async with (
        FakeAnthropic(api_key=API_KEY) as server,
        assistant_on(hass, server) as entry,
    ):
        assert model_paths(server) == ["/v1/models"]
        assert entry.runtime_data.capabilities is not None
        assert entry.runtime_data.capabilities.adaptive_thinking


@pytest.mark.usefixtures("loaded_entry")
async def test_a_model_not_listed_is_asked_for(hass: HomeAssistant) -> None:
    listed = (("claude-sonnet-5-5", "Claude Sonnet 5.5"),)
    async with (
        FakeAnthropic(api_key=API_KEY, models=listed) as server,
        assistant_on(hass, server) as entry,
    ):
        assert model_paths(server) == ["/v1/models", f"/v1/models/{THINKING}"]
        capabilities = entry.runtime_data.capabilities
        assert capabilities is not None
        assert capabilities.source == "not_reported"  # the fake does not know it


PARTIAL = [
    {"thinking": {"supported": True}},
    {"thinking": "yes", "effort": {"supported": True}},
    {"effort": {"supported": True}, "thinking": {"supported": True, "types": {"adaptive": {}}}},
]


@pytest.mark.parametrize("capabilities", PARTIAL)
@pytest.mark.usefixtures("loaded_entry")
async def test_a_partial_capabilities_answer_counts_as_none(
    hass: HomeAssistant, hass_admin_user: User, capabilities: dict[str, Any]
) -> None:
    async with (
        FakeAnthropic(api_key=API_KEY, capabilities=capabilities) as server,
        assistant_on(hass, server) as entry,
    ):
        server.script(Reply("Hello."))
        assert speech(await converse(hass, "hello", hass_admin_user)) == "Hello."
        (request,) = server.message_requests
        assert "thinking" not in request.body
        thinking = (await async_get_config_entry_diagnostics(hass, entry))["thinking"]
        assert thinking["capabilities"]["source"] == "not_reported"
        assert thinking["option_not_applied"] == "capabilities_unknown"


@pytest.mark.usefixtures("loaded_entry")
async def test_an_option_that_cannot_be_applied_is_said_once(
    hass: HomeAssistant, hass_admin_user: User, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="custom_components.linn")
    options = {**OPTIONS, CONF_THINKING_EFFORT: "off"}
    async with (
        FakeAnthropic(api_key=API_KEY, capabilities=False) as server,
        assistant_on(hass, server, options) as entry,
    ):
        server.script(Reply("Hello."), Reply("Hello again."))
        first = await converse(hass, "hello", hass_admin_user)
        await converse(hass, "hello again", hass_admin_user, first.conversation_id)
        notices = [r for r in caplog.records if "cannot be applied" in r.getMessage()]
        assert [r.levelname for r in notices] == ["INFO"]
        assert "(off)" in notices[0].getMessage()
        thinking = (await async_get_config_entry_diagnostics(hass, entry))["thinking"]
        assert thinking["option_not_applied"] == "capabilities_unknown"


@pytest.mark.usefixtures("loaded_entry")
async def test_known_capabilities_warn_nothing(
    hass: HomeAssistant, hass_admin_user: User, caplog: pytest.LogCaptureFixture
) -> None:
    async with FakeAnthropic(api_key=API_KEY) as server, assistant_on(hass, server):
        server.script(Reply("Hello."))
        await converse(hass, "hello", hass_admin_user)
    assert "cannot be applied" not in caplog.text


@pytest.mark.usefixtures("loaded_entry")
async def test_a_stand_in_start_logs_no_warning(
    hass: HomeAssistant, hass_admin_user: User, caplog: pytest.LogCaptureFixture
) -> None:
    """scripts/develop's stand-in, as scripts/standin_model.py serves it, and the assistant as
    its config flow adds it (the default options): the stand-in does not report the default
    model's capabilities, so the default effort (low) cannot be applied. An expected state of
    every start, said once at info, not a warning."""
    caplog.set_level(logging.INFO, logger="custom_components.linn")
    standin = ((MODEL_ID, "Local rule-based stand-in"),)
    async with (
        FakeAnthropic(api_key=API_KEY, responder=respond, models=standin) as server,
        assistant_on(hass, server, dict(DEFAULT_OPTIONS)),
    ):
        assert speech(await converse(hass, "tell me a joke", hass_admin_user)) == HELP
    warned = [
        r.getMessage()
        for r in caplog.records
        if r.name.startswith("custom_components.linn") and r.levelno >= logging.WARNING
    ]
    assert warned == []
    notices = [r for r in caplog.records if "cannot be applied" in r.getMessage()]
    assert [(r.levelname, "(low)" in r.getMessage()) for r in notices] == [("INFO", True)]
