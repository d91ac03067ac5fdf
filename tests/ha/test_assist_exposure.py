"""A repair issue while a player is exposed to Assist under a policy stricter than allow."""

from __future__ import annotations

from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn.assist_exposure import issue_id
from custom_components.linn.const import DOMAIN

from .conftest import ENTITY_ID


async def test_the_issue_follows_exposure_and_policies(
    hass: HomeAssistant, config_entry: MockConfigEntry
) -> None:
    assert await async_setup_component(hass, "homeassistant", {})
    config_entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(config_entry.entry_id)
    await hass.async_block_till_done()
    issues = ir.async_get(hass)
    name = issue_id(config_entry)
    async_expose_entity(hass, "conversation", ENTITY_ID, True)
    assert issues.async_get_issue(DOMAIN, name) is None  # every policy allows

    hass.config_entries.async_update_entry(
        config_entry, options={"policies": {"standby": "deny", "set_volume": "confirm"}}
    )
    await hass.async_block_till_done()
    issue = issues.async_get_issue(DOMAIN, name)
    assert issue is not None
    assert issue.translation_key == "assist_exposed"
    assert issue.translation_placeholders == {
        "player": config_entry.title,
        "entity_id": ENTITY_ID,
        "tools": "set_volume, standby",
    }

    async_expose_entity(hass, "conversation", ENTITY_ID, False)
    await hass.async_block_till_done()
    assert issues.async_get_issue(DOMAIN, name) is None
    async_expose_entity(hass, "conversation", ENTITY_ID, True)
    await hass.async_block_till_done()
    assert issues.async_get_issue(DOMAIN, name) is not None
    await hass.config_entries.async_unload(config_entry.entry_id)
    assert issues.async_get_issue(DOMAIN, name) is None
