"""Repair issues of earlier versions that no longer hold are removed at setup."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn.const import DOMAIN


async def test_the_old_assist_exposure_issue_goes_at_setup(
    hass: HomeAssistant, config_entry: MockConfigEntry
) -> None:
    """Before the player's gate (issue 30), a player exposed to Assist under a strict policy
    raised "exposed to Assist, which bypasses its guard policies"; Assist's intents pass the
    gate now, so that text is false, and a repair issue outlives restarts and updates."""
    config_entry.add_to_hass(hass)
    stale = f"assist_exposed_{config_entry.entry_id}"
    ir.async_create_issue(
        hass,
        DOMAIN,
        stale,
        is_fixable=False,
        severity=ir.IssueSeverity.WARNING,
        translation_key="assist_exposed",
    )
    assert await hass.config_entries.async_setup(config_entry.entry_id)
    await hass.async_block_till_done()
    assert ir.async_get(hass).async_get_issue(DOMAIN, stale) is None
    await hass.config_entries.async_unload(config_entry.entry_id)
