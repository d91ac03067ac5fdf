"""Home Assistant's core `openhome` integration against the emulator's UPnP face.

This is the integration a Linn owner uses without ours (openhomedevice 2.5, polling every
10 s); the side-by-side benchmark needs it to set up and work against the same emulated
device our integration talks LPEC to.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from homeassistant.components.media_player import (
    ATTR_INPUT_SOURCE,
    ATTR_MEDIA_VOLUME_LEVEL,
    DOMAIN as MEDIA_PLAYER_DOMAIN,
    SERVICE_SELECT_SOURCE,
)
from homeassistant.config_entries import SOURCE_SSDP, ConfigEntryState
from homeassistant.const import (
    ATTR_ENTITY_ID,
    SERVICE_TURN_OFF,
    SERVICE_VOLUME_SET,
    STATE_IDLE,
    STATE_OFF,
)
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers.service_info.ssdp import (
    ATTR_UPNP_FRIENDLY_NAME,
    ATTR_UPNP_UDN,
    SsdpServiceInfo,
)
from homeassistant.setup import async_setup_component
import pytest

from linn_emulator import LinnEmulator
from testing.ha.streamers import ENTITY_ID, UDN
from testing.helpers import wait_for

OPENHOME = "openhome"


@pytest.fixture
async def upnp_emulator() -> AsyncIterator[LinnEmulator]:
    async with LinnEmulator(port=0, upnp_port=0, udn=UDN, tick_interval=0.05) as emu:
        yield emu


def discovery(emu: LinnEmulator) -> SsdpServiceInfo:
    """What SSDP would hand the flow for the emulator's Product service."""
    assert emu.upnp_location is not None
    return SsdpServiceInfo(
        ssdp_usn=f"uuid:{emu.udn}::urn:av-openhome-org:service:Product:4",
        ssdp_st="urn:av-openhome-org:service:Product:4",
        ssdp_location=emu.upnp_location,
        upnp={ATTR_UPNP_UDN: f"uuid:{emu.udn}", ATTR_UPNP_FRIENDLY_NAME: "Living Room"},
    )


async def add_openhome(hass: HomeAssistant, emu: LinnEmulator) -> str:
    """Run core openhome's SSDP flow to the end; return its media player's entity id."""
    result = await hass.config_entries.flow.async_init(
        OPENHOME, context={"source": SOURCE_SSDP}, data=discovery(emu)
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "confirm"
    result = await hass.config_entries.flow.async_configure(result["flow_id"], {})
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["data"] == {"host": emu.upnp_location}
    await hass.async_block_till_done()
    entry = result["result"]
    assert entry.state is ConfigEntryState.LOADED
    entity_id = er.async_get(hass).async_get_entity_id(
        MEDIA_PLAYER_DOMAIN, OPENHOME, f"uuid:{emu.udn}"
    )
    assert entity_id is not None
    return entity_id


async def poll(hass: HomeAssistant, entity_id: str) -> None:
    """Run the poll the 10 s interval would run (the interval's task runs in the background)."""
    await async_setup_component(hass, "homeassistant", {})
    await hass.services.async_call(
        "homeassistant", "update_entity", {ATTR_ENTITY_ID: entity_id}, blocking=True
    )


async def test_core_openhome_sets_up_and_reads_the_device(
    hass: HomeAssistant, upnp_emulator: LinnEmulator
) -> None:
    entity_id = await add_openhome(hass, upnp_emulator)
    await poll(hass, entity_id)
    state = hass.states.get(entity_id)
    assert state is not None
    assert state.state == STATE_IDLE
    assert state.attributes[ATTR_MEDIA_VOLUME_LEVEL] == upnp_emulator.state.volume / 100
    assert state.attributes[ATTR_INPUT_SOURCE] == "Playlist"
    assert "Turntable" in state.attributes["source_list"]

    upnp_emulator.panel.set_volume(47)
    await poll(hass, entity_id)
    state = hass.states.get(entity_id)
    assert state is not None
    assert state.attributes[ATTR_MEDIA_VOLUME_LEVEL] == 0.47


async def test_core_openhome_controls_the_device(
    hass: HomeAssistant, upnp_emulator: LinnEmulator
) -> None:
    entity_id = await add_openhome(hass, upnp_emulator)
    await poll(hass, entity_id)
    await hass.services.async_call(
        MEDIA_PLAYER_DOMAIN,
        SERVICE_VOLUME_SET,
        {ATTR_ENTITY_ID: entity_id, ATTR_MEDIA_VOLUME_LEVEL: 0.61},
        blocking=True,
    )
    assert upnp_emulator.state.volume == 61
    await hass.services.async_call(
        MEDIA_PLAYER_DOMAIN,
        SERVICE_SELECT_SOURCE,
        {ATTR_ENTITY_ID: entity_id, ATTR_INPUT_SOURCE: "Turntable"},
        blocking=True,
    )
    assert upnp_emulator.state.source.name == "Turntable"
    await hass.services.async_call(
        OPENHOME, "invoke_pin", {ATTR_ENTITY_ID: entity_id, "pin": 1}, blocking=True
    )
    assert upnp_emulator.state.source.name == "Radio"
    await hass.services.async_call(
        MEDIA_PLAYER_DOMAIN, SERVICE_TURN_OFF, {ATTR_ENTITY_ID: entity_id}, blocking=True
    )
    assert upnp_emulator.state.standby is True
    await poll(hass, entity_id)
    state = hass.states.get(entity_id)
    assert state is not None
    assert state.state == STATE_OFF


async def test_both_integrations_share_one_device(
    hass: HomeAssistant, upnp_emulator: LinnEmulator
) -> None:
    """Core openhome changes the device over UPnP; ours sees it pushed over LPEC at once."""
    linn_result = await hass.config_entries.flow.async_init("linn", context={"source": "user"})
    linn_result = await hass.config_entries.flow.async_configure(
        linn_result["flow_id"], {"next_step_id": "streamer"}
    )
    linn_result = await hass.config_entries.flow.async_configure(
        linn_result["flow_id"], {"host": "127.0.0.1", "port": upnp_emulator.port}
    )
    assert linn_result["type"] is FlowResultType.CREATE_ENTRY
    await hass.async_block_till_done()
    openhome_entity = await add_openhome(hass, upnp_emulator)
    assert openhome_entity != ENTITY_ID
    await poll(hass, openhome_entity)

    await hass.services.async_call(
        MEDIA_PLAYER_DOMAIN,
        SERVICE_VOLUME_SET,
        {ATTR_ENTITY_ID: openhome_entity, ATTR_MEDIA_VOLUME_LEVEL: 0.52},
        blocking=True,
    )

    def ours_shows_it() -> bool:
        state = hass.states.get(ENTITY_ID)
        return state is not None and state.attributes.get(ATTR_MEDIA_VOLUME_LEVEL) == pytest.approx(
            52 / upnp_emulator.state.volume_max
        )

    await wait_for(ours_shows_it)
