"""Quality-scale rules no other test shows (quality_scale.yaml names the test of each rule)."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

from homeassistant.const import EntityCategory
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_platform, entity_registry as er
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn import PLATFORMS
from custom_components.linn.agent.setup import ASSISTANT_PLATFORMS
from custom_components.linn.const import DOMAIN
from custom_components.linn.entity import LinnEntity
from custom_components.linn.lpec import LinnDevice
from custom_components.linn.sensor import GuardSensor
from testing.ha.streamers import UDN

LINN = Path(__file__).parent.parent.parent / "custom_components" / "linn"

# entity id -> (translation key, entity category, device class); the player is the device's
# main feature and has no name of its own
EXPECTED = {
    "media_player.living_room": (None, None, "receiver"),
    "sensor.living_room_codec": ("codec", None, None),
    "sensor.living_room_bit_depth": ("bit_depth", EntityCategory.DIAGNOSTIC, None),
    "sensor.living_room_sample_rate": ("sample_rate", EntityCategory.DIAGNOSTIC, "frequency"),
    "sensor.living_room_pending_approvals": (
        "pending_approvals",
        EntityCategory.DIAGNOSTIC,
        None,
    ),
    "sensor.living_room_assistant_tool_calls_today": (
        "assistant_calls_today",
        EntityCategory.DIAGNOSTIC,
        None,
    ),
    "number.living_room_volume_limit": ("volume_limit", EntityCategory.CONFIG, None),
    "update.living_room_firmware": ("firmware", EntityCategory.CONFIG, "firmware"),
}


async def test_actions_exist_before_any_entry_is_loaded(hass: HomeAssistant) -> None:
    """action-setup: registered in async_setup, so an automation using one validates."""
    assert await async_setup_component(hass, DOMAIN, {})
    assert not hass.config_entries.async_entries(DOMAIN)
    services = set(hass.services.async_services_for_domain(DOMAIN))
    assert {"invoke_pin", "approve", "deny", "clear_assistant_memory"} <= services


async def test_every_streamer_entity_is_named_translated_categorised_and_has_an_icon(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    """entity-unique-id, has-entity-name, entity-translations, entity-category,
    entity-device-class, icon-translations, and common-modules (two shared base classes)."""
    strings = json.loads((LINN / "strings.json").read_text())["entity"]
    icons = json.loads((LINN / "icons.json").read_text())["entity"]
    entries = er.async_entries_for_config_entry(er.async_get(hass), loaded_entry.entry_id)
    seen = {}
    for entry in entries:
        domain = entry.domain
        assert entry.unique_id == UDN or entry.unique_id.startswith(f"{UDN}_")
        assert entry.has_entity_name
        if entry.translation_key is not None:
            assert strings[domain][entry.translation_key]["name"]
            # an icon of its own, unless its device class brings one
            assert entry.original_device_class or entry.translation_key in icons[domain]
        seen[entry.entity_id] = (
            entry.translation_key,
            entry.entity_category,
            entry.original_device_class,
        )
    assert seen == EXPECTED
    for platform in entity_platform.async_get_platforms(hass, DOMAIN):
        for entity in platform.entities.values():
            assert isinstance(entity, LinnEntity | GuardSensor), entity
            assert entity.should_poll is False, entity  # pushed, never polled


async def test_unloading_removes_every_listener_from_the_device(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    """entity-event-setup: entities subscribe when added and unsubscribe when removed."""
    device: LinnDevice = loaded_entry.runtime_data
    assert device._listeners
    assert device._availability_listeners
    assert await hass.config_entries.async_unload(loaded_entry.entry_id)
    await hass.async_block_till_done()
    assert device._listeners == []
    assert device._availability_listeners == []


def test_every_platform_sets_parallel_updates() -> None:
    """parallel-updates: 0 everywhere (pushed state; the device serialises its own actions)."""
    for platform in [*PLATFORMS, *ASSISTANT_PLATFORMS]:
        module = importlib.import_module(f"custom_components.linn.{platform.value}")
        assert module.PARALLEL_UPDATES == 0, platform
