"""The assistant's SDK runs on Home Assistant's shared HTTP client (inject-websession)."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from homeassistant.helpers.httpx_client import get_async_client
from pytest_homeassistant_custom_component.common import MockConfigEntry


async def test_the_assistant_uses_home_assistants_shared_http_client(
    hass: HomeAssistant, assistant: MockConfigEntry
) -> None:
    client = assistant.runtime_data.client
    assert client._client is get_async_client(hass)
