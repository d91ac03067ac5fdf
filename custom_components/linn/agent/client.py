"""The Anthropic SDK client on Home Assistant's shared httpx client."""

from __future__ import annotations

from functools import partial
import logging

import anthropic
from homeassistant.core import HomeAssistant
from homeassistant.helpers.httpx_client import get_async_client

from .const import KEY_CHECK_TIMEOUT, MODEL_TIMEOUT

_LOGGER = logging.getLogger(__name__)


async def async_create_client(
    hass: HomeAssistant, api_key: str, base_url: str | None
) -> anthropic.AsyncAnthropic:
    """A client for Anthropic or any compatible server; retries are the agent's own.

    Built in the executor: the SDK reads platform details when it is created.
    """
    return await hass.async_add_executor_job(
        partial(
            anthropic.AsyncAnthropic,
            api_key=api_key,
            base_url=base_url or None,
            http_client=get_async_client(hass),
            max_retries=0,
            timeout=MODEL_TIMEOUT,
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
