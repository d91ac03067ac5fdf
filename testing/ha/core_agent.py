"""Home Assistant's own Claude agent (core `anthropic`), added through its config flow.

It reaches a fake Messages API the way a user could point it elsewhere: the SDK's
ANTHROPIC_BASE_URL environment variable, which the caller sets.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from homeassistant.const import CONF_API_KEY
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType

CORE_KEY = "sk-ant-core-test"
"""The API key core anthropic's agent is set up with in tests (its fake checks it)."""


@asynccontextmanager
async def core_claude_agent(hass: HomeAssistant, api_key: str) -> AsyncIterator[str]:
    """Core anthropic's conversation entity id; its entry is unloaded on exit."""
    result = await hass.config_entries.flow.async_init("anthropic", context={"source": "user"})
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_API_KEY: api_key}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    await hass.async_block_till_done()
    (agent,) = [
        state.entity_id
        for state in hass.states.async_all("conversation")
        if state.attributes.get("friendly_name") == "Claude conversation"
    ]
    yield agent
    await hass.config_entries.async_unload(result["result"].entry_id)
    await hass.async_block_till_done()
