"""The linn__ tools through Home Assistant's Assist API, as any agent calls them.

Helpers for the tests (and the benchmarks in scripts/), kept out of the test modules so that no
test module imports another.
"""

from __future__ import annotations

from typing import Any

from homeassistant.auth.models import User
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import llm
from homeassistant.setup import async_setup_component

from custom_components.linn.guard import Guard
from custom_components.linn.tools.ha_adapter import DATA_GUARD, GuardRuntime
from custom_components.linn.tools.linn_tools import TOOL_SPECS

PLAYER = "Living Room"
"""The emulated streamer's name, as the tools offer it."""

UNLIMITED = 10**9


async def async_setup_llm(hass: HomeAssistant) -> None:
    """The components the Assist API needs."""
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "llm", {})


async def assist_as(
    hass: HomeAssistant, user_id: str | None, platform: str = "test"
) -> llm.APIInstance:
    """The Assist API for a conversation of this user (None: no user)."""
    context = llm.LLMContext(
        platform=platform,
        context=Context(user_id=user_id),
        language="en",
        assistant="conversation",
        device_id=None,
    )
    return await llm.async_get_api(hass, llm.LLM_API_ASSIST, context)


async def assist(hass: HomeAssistant, user: User | None) -> llm.APIInstance:
    """The Assist API for a conversation of this user (None: no user)."""
    return await assist_as(hass, user.id if user else None)


async def call_tool(api: llm.APIInstance, tool_input: llm.ToolInput) -> llm.ToolResult:
    """APIInstance.async_call_tool, as every agent calls it."""
    return await api.async_call_tool(tool_input)


async def call(api: llm.APIInstance, tool: str, **arguments: Any) -> llm.ToolResult:
    """One linn__ tool by its short name."""
    return await call_tool(api, llm.ToolInput(f"linn__{tool}", arguments))


async def assist_with_unlimited_guard(
    hass: HomeAssistant, user_id: str, platform: str = "test", **guard_options: Any
) -> tuple[llm.APIInstance, Guard]:
    """The Assist API for this user, behind a new guard whose rate limits cannot interfere."""
    await async_setup_llm(hass)
    guard = Guard(
        TOOL_SPECS,
        clock=hass.data[DATA_GUARD].guard.clock,
        writes_per_minute=UNLIMITED,
        reads_per_minute=UNLIMITED,
        calls_per_conversation=UNLIMITED,
        refusals_per_window=UNLIMITED,
        refused_calls_per_window=UNLIMITED,
        decisions_per_minute=UNLIMITED,
        **guard_options,
    )
    hass.data[DATA_GUARD] = GuardRuntime(hass, guard)
    return await assist_as(hass, user_id, platform), guard
