"""The Anthropic SDK client, on Home Assistant's shared httpx client where the SDK takes it.

anthropic 0.x runs on the `httpx` package and shares Home Assistant's client. 2.x (what the
manifest's range gives a user without core's anthropic integration) runs on `httpx2` and
refuses an `httpx` client: there the integration shares one `httpx2` client of the SDK's
own kind in the same way (built once, off the loop; closed when Home Assistant closes).
"""

from __future__ import annotations

from functools import partial
import logging
from typing import Any

import anthropic
from homeassistant.const import EVENT_HOMEASSISTANT_CLOSE
from homeassistant.core import Event, HomeAssistant
from homeassistant.helpers.httpx_client import get_async_client
from homeassistant.util.hass_dict import HassKey
import httpx

from .const import KEY_CHECK_TIMEOUT, MODEL_TIMEOUT

_LOGGER = logging.getLogger(__name__)

SHARES_HTTP_CLIENT = issubclass(anthropic.DefaultAsyncHttpxClient, httpx.AsyncClient)
"""Whether this SDK takes Home Assistant's shared httpx client (0.x: yes; 2.x: httpx2, no)."""
_SDK_HTTP_CLIENT: HassKey[Any] = HassKey("linn_sdk_http_client")


async def _async_http_client(hass: HomeAssistant) -> Any:
    """Home Assistant's shared httpx client, or (2.x) the one httpx2 client of the SDK's kind."""
    if SHARES_HTTP_CLIENT:
        return get_async_client(hass)
    if _SDK_HTTP_CLIENT in hass.data:
        return hass.data[_SDK_HTTP_CLIENT]
    # the SDK's default (its limits and redirects); it loads certificates: off the loop
    client: Any = await hass.async_add_executor_job(anthropic.DefaultAsyncHttpxClient)
    if _SDK_HTTP_CLIENT in hass.data:  # another one was built meanwhile
        await client.aclose()
        return hass.data[_SDK_HTTP_CLIENT]
    hass.data[_SDK_HTTP_CLIENT] = client

    async def _close(_: Event) -> None:
        await client.aclose()

    hass.bus.async_listen_once(EVENT_HOMEASSISTANT_CLOSE, _close)
    return client


async def async_create_client(
    hass: HomeAssistant, api_key: str, base_url: str | None
) -> anthropic.AsyncAnthropic:
    """A client for Anthropic or any compatible server; retries are the agent's own.

    Built in the executor: the SDK reads platform details when it is created.
    """
    http_client = await _async_http_client(hass)
    return await hass.async_add_executor_job(
        partial(
            anthropic.AsyncAnthropic,
            api_key=api_key,
            base_url=base_url or None,
            max_retries=0,
            timeout=MODEL_TIMEOUT,
            http_client=http_client,
        )
    )


async def async_check_key(hass: HomeAssistant, api_key: str, base_url: str | None) -> str | None:
    """A real request with the key: None when it works, else the config flow's error key."""
    client = await async_create_client(hass, api_key, base_url)
    try:
        await client.models.list(timeout=KEY_CHECK_TIMEOUT)
    except anthropic.AuthenticationError, anthropic.PermissionDeniedError:
        return "invalid_auth"
    except anthropic.APITimeoutError:
        return "api_timeout"
    except anthropic.APIConnectionError:
        return "api_cannot_connect"
    except anthropic.APIError as err:
        _LOGGER.warning("The API answered the key check with an error: %s", err)
        return "api_unknown"
    return None


async def async_list_models(client: anthropic.AsyncAnthropic) -> list[str]:
    """Model ids the server offers (empty when it cannot say)."""
    try:
        page = await client.models.list(timeout=KEY_CHECK_TIMEOUT, limit=100)
    except anthropic.APIError as err:
        _LOGGER.debug("Cannot list models: %s", err)
        return []
    return [model.id for model in page.data]
