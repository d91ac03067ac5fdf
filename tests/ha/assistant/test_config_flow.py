"""Adding an assistant: the key checked with a real request; reauth; the options."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from aiohttp import web
from homeassistant.auth.models import User
from homeassistant.config_entries import SOURCE_USER, ConfigEntryState
from homeassistant.const import CONF_API_KEY
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn.agent import client
from custom_components.linn.agent.const import (
    CONF_BASE_URL,
    CONF_MAX_STEPS,
    CONF_MAX_TOKENS,
    CONF_MODEL,
    CONF_THINKING_EFFORT,
    DEFAULT_MODEL,
    DEFAULT_OPTIONS,
)
from custom_components.linn.const import DOMAIN
from testing.fake_anthropic import FakeAnthropic, Reply
from testing.helpers import closed_port

from .chat import API_KEY, converse, speech
from .options_flow import model_selector, open_assistant_step


async def start_assistant_flow(hass: HomeAssistant) -> str:
    assert await async_setup_component(hass, "homeassistant", {})
    result = await hass.config_entries.flow.async_init(DOMAIN, context={"source": SOURCE_USER})
    assert result["type"] is FlowResultType.MENU
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {"next_step_id": "assistant"}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "assistant"
    return str(result["flow_id"])


async def test_a_rejected_key_is_an_error_and_a_good_key_creates_the_entry(
    hass: HomeAssistant, fake: FakeAnthropic
) -> None:
    flow_id = await start_assistant_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        flow_id, {CONF_API_KEY: "sk-wrong", CONF_BASE_URL: fake.base_url}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "invalid_auth"}
    assert not hass.config_entries.async_entries(DOMAIN)

    result = await hass.config_entries.flow.async_configure(
        flow_id, {CONF_API_KEY: f" {API_KEY} ", CONF_BASE_URL: fake.base_url + "/"}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["data"] == {CONF_API_KEY: API_KEY, CONF_BASE_URL: fake.base_url}
    assert result["options"] == dict(DEFAULT_OPTIONS)
    # both checks were real requests with the key entered
    keys = [r.api_key for r in fake.requests if r.path == "/v1/models"]
    assert keys[:2] == ["sk-wrong", API_KEY]
    await hass.async_block_till_done()


@pytest.mark.parametrize(
    ("base_url", "error"),
    [
        ("ftp://example.com", {CONF_BASE_URL: "invalid_url"}),
        ("not a url", {CONF_BASE_URL: "invalid_url"}),
        ("http://127.0.0.1:{closed_port}", {"base": "api_cannot_connect"}),
    ],
    ids=["ftp", "not-a-url", "closed-port"],
)
async def test_bad_server_urls_are_errors(
    hass: HomeAssistant, base_url: str, error: dict[str, str]
) -> None:
    # the port is chosen when the test runs: a test id must be the same in every xdist worker
    base_url = base_url.format(closed_port=closed_port())
    flow_id = await start_assistant_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        flow_id, {CONF_API_KEY: API_KEY, CONF_BASE_URL: base_url}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == error


async def test_a_later_401_starts_reauth_and_raises_a_repair_then_a_new_key_fixes_it(
    hass: HomeAssistant, assistant: MockConfigEntry, fake: FakeAnthropic, hass_admin_user
) -> None:
    fake.revoke(API_KEY)
    result = await converse(hass, "play in the living room", hass_admin_user)
    assert speech(result).startswith("The assistant's API key was rejected")
    assert "limited mode" in speech(result)
    await hass.async_block_till_done()
    flows = hass.config_entries.flow.async_progress_by_handler(DOMAIN)
    assert [flow["context"]["source"] for flow in flows] == ["reauth"]
    issue_id = f"assistant_auth_{assistant.entry_id}"
    assert ir.async_get(hass).async_get_issue(DOMAIN, issue_id) is not None

    flow_id = flows[0]["flow_id"]
    result = await hass.config_entries.flow.async_configure(flow_id, {CONF_API_KEY: "sk-still-bad"})
    assert result["errors"] == {"base": "invalid_auth"}
    fake.api_keys.add("sk-new")
    result = await hass.config_entries.flow.async_configure(flow_id, {CONF_API_KEY: "sk-new"})
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "reauth_successful"
    await hass.async_block_till_done()
    assert assistant.data[CONF_API_KEY] == "sk-new"
    assert assistant.state is ConfigEntryState.LOADED
    assert ir.async_get(hass).async_get_issue(DOMAIN, issue_id) is None
    fake.script(Reply("Working again."))
    assert speech(await converse(hass, "hello", hass_admin_user)) == "Working again."


async def test_a_rejected_key_at_setup_starts_reauth(
    hass: HomeAssistant, assistant: MockConfigEntry, fake: FakeAnthropic
) -> None:
    fake.revoke(API_KEY)
    await hass.config_entries.async_reload(assistant.entry_id)
    await hass.async_block_till_done()
    assert assistant.state is ConfigEntryState.SETUP_ERROR
    flows = hass.config_entries.flow.async_progress_by_handler(DOMAIN)
    assert [flow["context"]["source"] for flow in flows] == ["reauth"]


async def test_options_list_the_models_and_accept_free_text(
    hass: HomeAssistant, assistant: MockConfigEntry
) -> None:
    result = await open_assistant_step(hass, assistant)
    selector = model_selector(result)
    assert selector.config["options"][:3] == [
        "claude-haiku-5-5",
        "claude-haiku-4-5",
        "claude-sonnet-4-5",
    ]
    assert selector.config["custom_value"] is True

    result = await hass.config_entries.options.async_configure(
        result["flow_id"],
        {**dict(DEFAULT_OPTIONS), CONF_MODEL: "my-local-model", CONF_MAX_STEPS: 3.0},
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert assistant.options[CONF_MODEL] == "my-local-model"
    assert assistant.options[CONF_MAX_STEPS] == 3


async def test_streamer_entries_get_the_guard_options_not_the_assistants(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    result = await hass.config_entries.options.async_init(loaded_entry.entry_id)
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "init"
    keys = {str(key) for key in result["data_schema"].schema}
    assert "soft_limit_percent" in keys
    assert CONF_MODEL not in keys


async def test_thinking_needs_room_in_the_max_output_tokens(
    hass: HomeAssistant, assistant: MockConfigEntry
) -> None:
    result = await open_assistant_step(hass, assistant)
    low = {**dict(DEFAULT_OPTIONS), CONF_THINKING_EFFORT: "low", CONF_MAX_TOKENS: 200.0}
    result = await hass.config_entries.options.async_configure(result["flow_id"], low)
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {CONF_MAX_TOKENS: "max_tokens_thinking"}
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], {**low, CONF_THINKING_EFFORT: "off"}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert assistant.options[CONF_MAX_TOKENS] == 200


async def test_reconfigure_checks_a_new_key_then_keeps_it_and_reloads(
    hass: HomeAssistant, assistant: MockConfigEntry, fake: FakeAnthropic, hass_admin_user: User
) -> None:
    result = await assistant.start_reconfigure_flow(hass)
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "reconfigure_assistant"
    schema = result["data_schema"].schema
    url_key = next(key for key in schema if key == CONF_BASE_URL)
    assert url_key.description == {"suggested_value": fake.base_url}
    key_key = next(key for key in schema if key == CONF_API_KEY)
    assert "suggested_value" not in (key_key.description or {})  # the key is not sent back

    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_API_KEY: "sk-wrong", CONF_BASE_URL: fake.base_url}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "invalid_auth"}
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_API_KEY: "sk-new", CONF_BASE_URL: "ftp://example.com"}
    )
    assert result["errors"] == {CONF_BASE_URL: "invalid_url"}
    assert assistant.data == {CONF_API_KEY: API_KEY, CONF_BASE_URL: fake.base_url}

    fake.api_keys.add("sk-new")
    fake.revoke(API_KEY)  # the reloaded entry must use the new key
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_API_KEY: " sk-new ", CONF_BASE_URL: fake.base_url + "/"}
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "assistant_reconfigured"
    await hass.async_block_till_done()
    assert assistant.data == {CONF_API_KEY: "sk-new", CONF_BASE_URL: fake.base_url}
    assert assistant.state is ConfigEntryState.LOADED
    fake.script(Reply("New key works."))
    assert speech(await converse(hass, "hello", hass_admin_user)) == "New key works."


async def test_reconfigure_moves_to_another_server_keeping_the_key(
    hass: HomeAssistant, assistant: MockConfigEntry, fake: FakeAnthropic, hass_admin_user: User
) -> None:
    async with FakeAnthropic(api_key=API_KEY, min_cache_tokens=None) as other:
        result = await assistant.start_reconfigure_flow(hass)
        result = await hass.config_entries.flow.async_configure(
            result["flow_id"], {CONF_BASE_URL: "http://127.0.0.1:" + str(closed_port())}
        )
        assert result["errors"] == {"base": "api_cannot_connect"}
        result = await hass.config_entries.flow.async_configure(
            result["flow_id"], {CONF_BASE_URL: other.base_url}
        )
        assert result["type"] is FlowResultType.ABORT
        assert result["reason"] == "assistant_reconfigured"
        await hass.async_block_till_done()
        assert assistant.data == {CONF_API_KEY: API_KEY, CONF_BASE_URL: other.base_url}
        # the key check went to the new server with the kept key
        assert [r.api_key for r in other.requests if r.path == "/v1/models"][:1] == [API_KEY]
        other.script(Reply("From the other server."))
        sent_before = len(fake.message_requests)
        assert speech(await converse(hass, "hello", hass_admin_user)) == "From the other server."
        assert len(fake.message_requests) == sent_before
        await hass.config_entries.async_unload(assistant.entry_id)


async def test_reconfigure_refuses_the_key_and_server_of_another_assistant(
    hass: HomeAssistant, assistant: MockConfigEntry, fake: FakeAnthropic
) -> None:
    fake.api_keys.add("sk-second")
    second = MockConfigEntry(
        domain=DOMAIN,
        title="Second assistant",
        data={CONF_API_KEY: "sk-second", CONF_BASE_URL: fake.base_url},
        options=dict(DEFAULT_OPTIONS),
    )
    second.add_to_hass(hass)
    result = await second.start_reconfigure_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_API_KEY: API_KEY, CONF_BASE_URL: fake.base_url}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "assistant_exists"}
    assert second.data[CONF_API_KEY] == "sk-second"


async def test_options_of_an_assistant_that_is_not_loaded_still_open_and_save(
    hass: HomeAssistant, assistant: MockConfigEntry, fake: FakeAnthropic
) -> None:
    fake.revoke(API_KEY)  # a rejected key leaves the entry not loaded
    await hass.config_entries.async_reload(assistant.entry_id)
    await hass.async_block_till_done()
    assert assistant.state is ConfigEntryState.SETUP_ERROR
    result = await open_assistant_step(hass, assistant)
    selector = model_selector(result)
    # the server refused the list: the current and the default model are offered
    assert selector.config["options"] == list(
        dict.fromkeys([DEFAULT_OPTIONS[CONF_MODEL], DEFAULT_MODEL])
    )
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], {**dict(DEFAULT_OPTIONS), CONF_MODEL: "claude-sonnet-4-5"}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert assistant.options[CONF_MODEL] == "claude-sonnet-4-5"


async def test_an_empty_model_is_refused(hass: HomeAssistant, assistant: MockConfigEntry) -> None:
    result = await open_assistant_step(hass, assistant)
    before = dict(assistant.options)
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], {**dict(DEFAULT_OPTIONS), CONF_MODEL: "  "}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {CONF_MODEL: "model_required"}
    assert dict(assistant.options) == before


async def test_the_same_key_and_server_twice_is_already_configured(
    hass: HomeAssistant, assistant: MockConfigEntry, fake: FakeAnthropic
) -> None:
    flow_id = await start_assistant_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        flow_id, {CONF_API_KEY: API_KEY, CONF_BASE_URL: fake.base_url}
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "already_configured"
    assert len(hass.config_entries.async_entries(DOMAIN)) == 2  # the streamer and one assistant


async def _server_error(request: web.Request) -> web.Response:
    body = {"type": "error", "error": {"type": "api_error", "message": "Internal error"}}
    return web.json_response(body, status=500)


@asynccontextmanager
async def _http_server(handler: Any) -> AsyncIterator[str]:
    """A server that answers every GET with `handler`; yields its base URL."""
    app = web.Application()
    app.router.add_get("/{tail:.*}", handler)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


@asynccontextmanager
async def _silent_server() -> AsyncIterator[str]:
    """Accepts connections and reads, but never answers."""
    writers: list[asyncio.StreamWriter] = []

    async def _hold(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writers.append(writer)
        await reader.read()

    server = await asyncio.start_server(_hold, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        for writer in writers:
            writer.close()
        server.close()
        await server.wait_closed()


async def test_a_server_error_at_the_key_check_is_api_unknown(hass: HomeAssistant) -> None:
    async with _http_server(_server_error) as base_url:
        flow_id = await start_assistant_flow(hass)
        result = await hass.config_entries.flow.async_configure(
            flow_id, {CONF_API_KEY: API_KEY, CONF_BASE_URL: base_url}
        )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "api_unknown"}


async def test_a_server_that_never_answers_the_key_check_is_api_timeout(
    hass: HomeAssistant, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The server never answers, so the outcome does not depend on how short the wait is.
    monkeypatch.setattr(client, "KEY_CHECK_TIMEOUT", 0.01)
    async with _silent_server() as base_url:
        flow_id = await start_assistant_flow(hass)
        result = await hass.config_entries.flow.async_configure(
            flow_id, {CONF_API_KEY: API_KEY, CONF_BASE_URL: base_url}
        )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "api_timeout"}
