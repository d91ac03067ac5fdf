"""Setting up and unloading an assistant entry."""

from __future__ import annotations

import logging

import anthropic
from homeassistant.const import CONF_API_KEY, Platform
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ConfigEntryAuthFailed
from homeassistant.helpers import issue_registry as ir

from ..const import DOMAIN
from .client import async_create_client
from .const import CONF_BASE_URL, CONF_MODEL, KEY_CHECK_TIMEOUT, option
from .model_info import ModelCapabilities, async_fetch_capabilities, listed_capabilities
from .other_agents import async_plan_other_agents
from .reauth import auth_issue_id
from .runtime import AssistantConfigEntry, AssistantRuntime

_LOGGER = logging.getLogger(__name__)

ASSISTANT_PLATFORMS: list[Platform] = [Platform.CONVERSATION]


async def async_setup_assistant_entry(hass: HomeAssistant, entry: AssistantConfigEntry) -> bool:
    """Create the client, check the key and look up the model's capabilities.

    The key check's model list carries each listed model's capabilities: the model's
    entry there is its answer; a model not on the list's first page is asked for. An
    unreachable API still sets up (limited mode); the first turn then asks for the
    capabilities again.
    """
    client = await async_create_client(
        hass, entry.data[CONF_API_KEY], entry.data.get(CONF_BASE_URL)
    )
    capabilities: ModelCapabilities | None = None
    model = option(entry.options, CONF_MODEL)
    try:
        page = await client.models.list(timeout=KEY_CHECK_TIMEOUT)
    except (anthropic.AuthenticationError, anthropic.PermissionDeniedError) as err:
        raise ConfigEntryAuthFailed(
            translation_domain=DOMAIN,
            translation_key="assistant_auth_failed",
            translation_placeholders={"title": entry.title},
        ) from err
    except anthropic.APIError as err:
        _LOGGER.warning(
            "The assistant's API is not reachable (%s); it answers in limited mode until it is",
            err,
        )
    else:
        capabilities = listed_capabilities(getattr(page, "data", None) or [], model) or (
            await async_fetch_capabilities(client, model)
        )
    ir.async_delete_issue(hass, DOMAIN, auth_issue_id(entry.entry_id))
    entry.runtime_data = AssistantRuntime(client, capabilities=capabilities)
    await hass.config_entries.async_forward_entry_setups(entry, ASSISTANT_PLATFORMS)
    entry.async_on_unload(async_plan_other_agents(hass, entry))
    return True


async def async_unload_assistant_entry(hass: HomeAssistant, entry: AssistantConfigEntry) -> bool:
    """Unload the conversation entity (the shared httpx client stays open)."""
    return await hass.config_entries.async_unload_platforms(entry, ASSISTANT_PLATFORMS)
