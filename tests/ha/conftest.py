"""Fixtures: a real Home Assistant (phacc) and an emulated Linn over loopback TCP."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
import functools
from pathlib import Path

from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.syrupy import HomeAssistantSnapshotExtension
from syrupy.assertion import SnapshotAssertion

from custom_components.linn.const import DOMAIN
from linn_emulator import LinnEmulator
from scripts.ha_requirements import closure, read_domain_list
from testing.ha.assist_api import async_setup_llm
from testing.ha.streamers import OTHER_UDN, UDN, async_setup_linn, linn_entry

from .flow_translations import check_flow_translations  # noqa: F401 (autouse)

_REQUIREMENTS = Path(__file__).parent.parent.parent / "requirements"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """Fail a test that loads a component whose requirements are not locked.

    Tests run with Home Assistant's requirement installs off, so such a test would pass only where
    the package happened to be installed already.
    """
    result = yield
    hass = getattr(item, "funcargs", {}).get("hass")
    if isinstance(hass, HomeAssistant):
        loaded = {part for name in hass.config.components for part in name.split(".")}
        unlisted = loaded - _locked_components() - {DOMAIN}
        if unlisted:
            pytest.fail(
                f"this test loads {sorted(unlisted)}: add them to "
                "requirements/ha-components.txt and run scripts/lock"
            )
    return result


@functools.cache
def _locked_components() -> frozenset[str]:
    return closure(read_domain_list(_REQUIREMENTS / "ha-components.txt"))


@pytest.fixture
def snapshot(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    """Snapshots next to the tests, in Home Assistant's format."""
    return snapshot.use_extension(HomeAssistantSnapshotExtension)


@pytest.fixture
async def emulator() -> AsyncIterator[LinnEmulator]:
    """A Selekt DSM in the living room."""
    async with LinnEmulator(port=0, udn=UDN, tick_interval=0.05) as emu:
        yield emu


@pytest.fixture
def config_entry(emulator: LinnEmulator) -> MockConfigEntry:
    """The entry the config flow would have created for the emulator."""
    return linn_entry(UDN, emulator.port, "Living Room")


@pytest.fixture
async def loaded_entry(
    hass: HomeAssistant, config_entry: MockConfigEntry
) -> AsyncIterator[MockConfigEntry]:
    """The integration set up against the emulator; unloaded at the end."""
    config_entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(config_entry.entry_id)
    await hass.async_block_till_done()
    yield config_entry
    await hass.config_entries.async_unload(config_entry.entry_id)
    await hass.async_block_till_done()


@pytest.fixture
async def kitchen(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> AsyncIterator[LinnEmulator]:
    """A second streamer, in the kitchen, set up alongside the living room."""
    async with LinnEmulator(port=0, udn=OTHER_UDN, room="Kitchen", tick_interval=0.05) as emu:
        entry = await async_setup_linn(hass, OTHER_UDN, emu.port, "Kitchen")
        yield emu
        if entry.state is ConfigEntryState.LOADED:  # a test may have unloaded it itself
            assert await hass.config_entries.async_unload(entry.entry_id)


@pytest.fixture
async def llm_ready(hass: HomeAssistant, loaded_entry: MockConfigEntry) -> None:
    """Home Assistant's LLM API set up beside the loaded streamer (see assist_api.py)."""
    await async_setup_llm(hass)
