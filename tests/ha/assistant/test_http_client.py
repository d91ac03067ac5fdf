"""The assistant's SDK runs on one shared HTTP client (inject-websession): Home Assistant's own
where the SDK takes it, anthropic 0.x (the 'ha' environment). 2.x (the 'anthropic2'
environment) runs on httpx2 and refuses an httpx client: one httpx2 client of the SDK's kind is
shared in the same way and closed when Home Assistant closes (else the tests' teardown finds a
connection left open on a closed loop)."""

from __future__ import annotations

import anthropic
from homeassistant.core import HomeAssistant
from homeassistant.helpers.httpx_client import get_async_client
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn.agent.client import SHARES_HTTP_CLIENT, async_create_client
from testing.fake_anthropic import FakeAnthropic


async def test_the_assistant_uses_home_assistants_shared_http_client(
    hass: HomeAssistant, assistant: MockConfigEntry, fake: FakeAnthropic
) -> None:
    client = assistant.runtime_data.client
    assert (client._client is get_async_client(hass)) is SHARES_HTTP_CLIENT
    if not SHARES_HTTP_CLIENT:
        assert isinstance(client._client, anthropic.DefaultAsyncHttpxClient)
    # another client (a key check, a reconfigure) shares the same one
    other = await async_create_client(hass, "sk-other", fake.base_url)
    assert other._client is client._client


async def test_the_shared_http_client_closes_when_home_assistant_closes(
    hass: HomeAssistant, assistant: MockConfigEntry
) -> None:
    http_client = assistant.runtime_data.client._client
    assert not http_client.is_closed
    await hass.async_stop()
    assert http_client.is_closed
