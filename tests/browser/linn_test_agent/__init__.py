"""A scripted agent for the browser tests: calls a linn__ tool through the Assist API.

Installed only into the throw-away Home Assistant that scripts/test-browser starts; it makes
tool calls exactly as any conversation agent does, as the websocket's own user.
"""

from __future__ import annotations

from typing import Any

from homeassistant.components import websocket_api
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import config_validation as cv, llm
from homeassistant.helpers.typing import ConfigType
import probatio

DOMAIN = "linn_test_agent"
CONFIG_SCHEMA = cv.empty_config_schema(DOMAIN)


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    """Register the one command."""
    websocket_api.async_register_command(hass, ws_ask)
    return True


@websocket_api.websocket_command(
    {
        probatio.Required("type"): "linn_test_agent/ask",
        probatio.Required("tool"): str,
        probatio.Required("arguments"): dict,
        # streamers' options set the expiry in minutes; tests go below the form's minimum
        probatio.Optional("expiry_seconds"): probatio.All(int, probatio.Range(min=1)),
    }
)
@websocket_api.async_response
async def ws_ask(
    hass: HomeAssistant, connection: websocket_api.ActiveConnection, msg: dict[str, Any]
) -> None:
    """One tool call as the connected user; answers with the tool's result."""
    if "expiry_seconds" in msg:
        for entry in hass.config_entries.async_entries("linn"):
            if "host" in entry.data:  # a streamer, not an assistant
                options = {**entry.options, "approval_expiry_minutes": msg["expiry_seconds"] / 60}
                hass.config_entries.async_update_entry(entry, options=options)
    context = llm.LLMContext(
        platform=DOMAIN,
        context=Context(user_id=connection.user.id),
        language="en",
        assistant="conversation",
        device_id=None,
    )
    api = await llm.async_get_api(hass, llm.LLM_API_ASSIST, context)
    result = await api.async_call_tool(llm.ToolInput(f"linn__{msg['tool']}", msg["arguments"]))
    connection.send_result(msg["id"], {"data": result.data, "error": result.error})
