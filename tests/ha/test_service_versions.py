"""Service versions from the UPnP description SSDP discovery fetched, against the emulator.

The description is fetched and parsed by async_upnp_client's DescriptionCache, as Home
Assistant's SSDP scanner does, from the emulator's UPnP face.
"""

from __future__ import annotations

from typing import Any

from async_upnp_client.aiohttp import AiohttpSessionRequester
from async_upnp_client.description_cache import DescriptionCache
from homeassistant.components.media_player import (
    ATTR_INPUT_SOURCE,
    DOMAIN as MP_DOMAIN,
    SERVICE_SELECT_SOURCE,
)
from homeassistant.config_entries import SOURCE_SSDP, ConfigEntry, ConfigEntryState
from homeassistant.const import ATTR_ENTITY_ID, CONF_HOST, CONF_PORT
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers.aiohttp_client import async_get_clientsession
from homeassistant.helpers.service_info.ssdp import SsdpServiceInfo
import pytest

from custom_components.linn import config_flow
from custom_components.linn.const import CONF_SERVICE_VERSIONS, DOMAIN
from custom_components.linn.diagnostics import async_get_config_entry_diagnostics
from custom_components.linn.helpers import declared_versions
from linn_emulator import LinnEmulator
from testing.ha.streamers import ENTITY_ID, UDN, linn_entry
from testing.helpers import wait_for


async def discovery(hass: HomeAssistant, emu: LinnEmulator) -> SsdpServiceInfo:
    """What the SSDP scanner hands the flow: the headers and the parsed description."""
    assert emu.upnp_location is not None
    requester = AiohttpSessionRequester(async_get_clientsession(hass), True, 10)
    description = await DescriptionCache(requester).async_get_description_dict(emu.upnp_location)
    assert description is not None
    st = f"urn:av-openhome-org:service:Product:{emu.services['Product'].version}"
    return SsdpServiceInfo(
        ssdp_usn=f"uuid:{emu.udn}::{st}",
        ssdp_st=st,
        ssdp_location=emu.upnp_location,
        upnp=dict(description),
    )


def source(hass: HomeAssistant) -> Any:
    state = hass.states.get(ENTITY_ID)
    return state.attributes.get(ATTR_INPUT_SOURCE) if state else None


async def select_sources(hass: HomeAssistant, emu: LinnEmulator) -> list[str]:
    """Select two sources; return the Product actions that selected them."""
    for name in ("Radio", "Playlist"):
        await hass.services.async_call(
            MP_DOMAIN,
            SERVICE_SELECT_SOURCE,
            {ATTR_ENTITY_ID: ENTITY_ID, ATTR_INPUT_SOURCE: name},
            blocking=True,
        )
        assert emu.state.source.system_name == name
        await wait_for(lambda n=name: source(hass) == n)
    return [a.action for a in emu.actions if a.action.startswith("SetSource")]


async def test_a_discovered_product_1_gets_no_refused_action(
    hass: HomeAssistant, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with LinnEmulator(port=0, upnp_port=0, udn=UDN, product_version=1) as emu:
        monkeypatch.setattr(config_flow, "DEFAULT_PORT", emu.port)
        result = await hass.config_entries.flow.async_init(
            DOMAIN, context={"source": SOURCE_SSDP}, data=await discovery(hass, emu)
        )
        assert result["type"] is FlowResultType.FORM
        result = await hass.config_entries.flow.async_configure(result["flow_id"], {})
        assert result["type"] is FlowResultType.CREATE_ENTRY
        entry: ConfigEntry[Any] = result["result"]
        assert entry.data[CONF_SERVICE_VERSIONS]["Product"] == 1
        assert entry.data[CONF_SERVICE_VERSIONS]["Volume"] == emu.services["Volume"].version
        await hass.async_block_till_done()
        assert entry.state is ConfigEntryState.LOADED

        assert await select_sources(hass, emu) == ["SetSourceIndex", "SetSourceIndex"]

        diagnostics = await async_get_config_entry_diagnostics(hass, entry)
        assert diagnostics["entry"][CONF_SERVICE_VERSIONS]["Product"] == 1
        assert await hass.config_entries.async_unload(entry.entry_id)


async def test_rediscovery_updates_the_declared_versions(hass: HomeAssistant) -> None:
    async with LinnEmulator(port=0, upnp_port=0, udn=UDN) as emu:
        entry = linn_entry(UDN, emu.port, "Living Room")
        entry.add_to_hass(hass)
        hass.config_entries.async_update_entry(
            entry, data={**entry.data, CONF_SERVICE_VERSIONS: {"Product": 1}}
        )
        assert await hass.config_entries.async_setup(entry.entry_id)
        await hass.async_block_till_done()
        assert await select_sources(hass, emu) == ["SetSourceIndex", "SetSourceIndex"]

        # The device (now Product:4) is discovered again: the entry takes its word.
        result = await hass.config_entries.flow.async_init(
            DOMAIN, context={"source": SOURCE_SSDP}, data=await discovery(hass, emu)
        )
        assert result["type"] is FlowResultType.ABORT
        assert result["reason"] == "already_configured"
        assert entry.data[CONF_SERVICE_VERSIONS]["Product"] == 4
        assert entry.data[CONF_HOST] == "127.0.0.1"
        assert entry.data[CONF_PORT] == emu.port
        await hass.async_block_till_done()  # the update reloads the entry
        assert entry.state is ConfigEntryState.LOADED

        emu.actions.clear()
        assert await select_sources(hass, emu) == ["SetSourceBySystemName"] * 2
        assert await hass.config_entries.async_unload(entry.entry_id)


@pytest.mark.parametrize(
    ("device", "expected"),
    [
        # etree_to_dict: one <service> is a dict, not a list
        (
            {"serviceList": {"service": {"serviceType": "urn:av-openhome-org:service:Product:2"}}},
            {"Product": 2},
        ),
        (
            {
                "serviceList": {
                    "service": [
                        {"serviceType": "urn:linn-co-uk:service:Update:4"},
                        {"serviceType": "urn:schemas-upnp-org:service:AVTransport:1"},
                        {"serviceType": "urn:av-openhome-org:service:Volume:x"},
                        {"serviceType": "urn:av-openhome-org:service:Radio:0"},
                        "junk",
                    ]
                }
            },
            {"Update": 4},
        ),
        ({"serviceList": None}, {}),
        ({}, {}),
    ],
)
def test_declared_versions_from_odd_descriptions(
    device: dict[str, Any], expected: dict[str, int]
) -> None:
    assert declared_versions(device) == expected
