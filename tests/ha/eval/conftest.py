"""The home every case runs in: two emulated players in two areas, users, satellites."""

from __future__ import annotations

from collections.abc import AsyncIterator

from homeassistant.auth.const import GROUP_ID_USER
from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar, device_registry as dr, entity_registry as er
from homeassistant.setup import async_setup_component
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry, MockUser

from linn_emulator import LinnEmulator
from testing.ha.streamers import OTHER_UDN, async_setup_linn

from .case import KITCHEN, LIVING
from .results import write_if_asked
from .world import ENTITIES, World


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Write the CSV when LINN_EVAL_CSV asks for it (scripts/eval)."""
    path = write_if_asked()
    if path is not None:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(f"eval: results written to {path}")


@pytest.fixture
async def kitchen() -> AsyncIterator[LinnEmulator]:
    """A second streamer, in the kitchen."""
    async with LinnEmulator(
        port=0, udn=OTHER_UDN, room=KITCHEN, name="Majik DSM", tick_interval=0.05
    ) as emu:
        yield emu


@pytest.fixture
async def household_user(hass: HomeAssistant) -> User:
    """A member of the household: may control, is no admin."""
    group = await hass.auth.async_get_group(GROUP_ID_USER)
    return MockUser(groups=[group]).add_to_hass(hass)


@pytest.fixture
async def world(
    hass: HomeAssistant,
    loaded_entry: MockConfigEntry,
    emulator: LinnEmulator,
    kitchen: LinnEmulator,
    hass_admin_user: User,
    household_user: User,
    hass_read_only_user: User,
) -> AsyncIterator[World]:
    """Both players loaded and placed in their areas, a satellite in each area."""
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    kitchen_entry = await async_setup_linn(hass, OTHER_UDN, kitchen.port, KITCHEN)

    areas = ar.async_get(hass)
    devices = dr.async_get(hass)
    entities = er.async_get(hass)
    satellite_entry = MockConfigEntry(domain="eval_satellites")
    satellite_entry.add_to_hass(hass)
    satellites: dict[str, str] = {}
    for name, entity_id in ENTITIES.items():
        area = areas.async_get_or_create(name)
        entity = entities.async_get(entity_id)
        assert entity is not None, entity_id
        assert entity.device_id is not None, entity_id
        devices.async_update_device(entity.device_id, area_id=area.id)
        satellite = devices.async_get_or_create(
            config_entry_id=satellite_entry.entry_id,
            identifiers={("eval_satellites", name)},
            name=f"{name} satellite",
        )
        devices.async_update_device(satellite.id, area_id=area.id)
        satellites[name] = satellite.id
    yield World(
        hass,
        {LIVING: emulator, KITCHEN: kitchen},
        [loaded_entry, kitchen_entry],
        {
            "admin": hass_admin_user,
            "user": household_user,
            "read_only": hass_read_only_user,
            "unknown": None,
        },
        satellites,
    )
    await hass.config_entries.async_unload(kitchen_entry.entry_id)
    await hass.async_block_till_done()
