"""Every config-flow path, against the emulator over TCP."""

from __future__ import annotations

from homeassistant.config_entries import (
    SOURCE_SSDP,
    SOURCE_USER,
    ConfigEntryState,
    ConfigFlowResult,
)
from homeassistant.const import CONF_HOST, CONF_PORT
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers.service_info.ssdp import (
    ATTR_UPNP_FRIENDLY_NAME,
    ATTR_UPNP_MANUFACTURER,
    ATTR_UPNP_MODEL_NAME,
    ATTR_UPNP_UDN,
    SsdpServiceInfo,
)
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn import config_flow
from custom_components.linn.const import DOMAIN
from linn_emulator import LinnEmulator
from testing.ha.streamers import OTHER_UDN, UDN
from testing.helpers import closed_port, wait_for


async def start_streamer_flow(hass: HomeAssistant) -> ConfigFlowResult:
    """The user step is a menu; choose the streamer."""
    result = await hass.config_entries.flow.async_init(DOMAIN, context={"source": SOURCE_USER})
    assert result["type"] is FlowResultType.MENU
    assert result["menu_options"] == ["streamer", "assistant"]
    return await hass.config_entries.flow.async_configure(
        result["flow_id"], {"next_step_id": "streamer"}
    )


def ssdp_info(udn: str = UDN, host: str = "127.0.0.1") -> SsdpServiceInfo:
    return SsdpServiceInfo(
        ssdp_usn=f"uuid:{udn}::urn:av-openhome-org:service:Product:4",
        ssdp_st="urn:av-openhome-org:service:Product:4",
        ssdp_location=f"http://{host}:55178/{udn}/Upnp/device.xml",
        upnp={
            ATTR_UPNP_UDN: f"uuid:{udn.upper()}",
            ATTR_UPNP_FRIENDLY_NAME: "Living Room:Selekt DSM",
            ATTR_UPNP_MANUFACTURER: "Linn",
            ATTR_UPNP_MODEL_NAME: "Selekt DSM",
        },
    )


async def test_user_step_creates_entry(hass: HomeAssistant, emulator: LinnEmulator) -> None:
    result = await start_streamer_flow(hass)
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "streamer"

    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_HOST: " 127.0.0.1 ", CONF_PORT: emulator.port}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["title"] == "Living Room"
    assert result["data"] == {CONF_HOST: "127.0.0.1", CONF_PORT: emulator.port}
    assert result["result"].unique_id == UDN
    await hass.async_block_till_done()
    # the flow's probe session was closed
    assert emulator.sessions <= 1


async def test_identify_subscribes_to_product_only(emulator: LinnEmulator) -> None:
    granted = emulator.granted_subscriptions
    identity = await config_flow.async_identify("127.0.0.1", emulator.port)
    assert identity == config_flow.DeviceIdentity(UDN, "Living Room", "Selekt DSM")
    assert emulator.granted_subscriptions - granted == 1  # Product, not all 11 services
    await wait_for(lambda: emulator.sessions == 0)


async def test_user_step_cannot_connect_then_recovers(
    hass: HomeAssistant, emulator: LinnEmulator
) -> None:
    result = await start_streamer_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_HOST: "127.0.0.1", CONF_PORT: closed_port()}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "cannot_connect"}

    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_HOST: "127.0.0.1", CONF_PORT: emulator.port}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY


@pytest.mark.parametrize("host", ["http://192.0.2.1", "192.0.2.1/x", "two words", "-bad-", ""])
async def test_user_step_invalid_host(hass: HomeAssistant, host: str) -> None:
    result = await start_streamer_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_HOST: host, CONF_PORT: 23}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {CONF_HOST: "invalid_host"}


async def test_user_step_already_configured_updates_address(
    hass: HomeAssistant, emulator: LinnEmulator
) -> None:
    entry = MockConfigEntry(
        domain=DOMAIN, unique_id=UDN, data={CONF_HOST: "192.0.2.99", CONF_PORT: 23}
    )
    entry.add_to_hass(hass)
    result = await start_streamer_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_HOST: "127.0.0.1", CONF_PORT: emulator.port}
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "already_configured"
    assert entry.data == {CONF_HOST: "127.0.0.1", CONF_PORT: emulator.port}


async def test_ssdp_discovery_confirm_creates_entry(
    hass: HomeAssistant, emulator: LinnEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SSDP says where the device is; LPEC is on port 23 on a real device.
    monkeypatch.setattr(config_flow, "DEFAULT_PORT", emulator.port)
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_SSDP}, data=ssdp_info()
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "confirm"
    assert result["description_placeholders"] == {"room": "Living Room", "model": "Selekt DSM"}

    result = await hass.config_entries.flow.async_configure(result["flow_id"], {})
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["title"] == "Living Room"
    assert result["data"] == {CONF_HOST: "127.0.0.1", CONF_PORT: emulator.port}
    assert result["result"].unique_id == UDN


async def test_ssdp_renderer_without_lpec_is_not_offered(
    hass: HomeAssistant, monkeypatch: pytest.MonkeyPatch
) -> None:
    # e.g. Volumio: announces Product:1 but nothing answers LPEC
    monkeypatch.setattr(config_flow, "DEFAULT_PORT", closed_port())
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_SSDP}, data=ssdp_info(udn="6c0a2b1e-volumio")
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "not_linn_device"


async def test_ssdp_udn_mismatch_is_not_offered(
    hass: HomeAssistant, emulator: LinnEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(config_flow, "DEFAULT_PORT", emulator.port)
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_SSDP}, data=ssdp_info(udn=OTHER_UDN)
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "not_linn_device"


async def test_ssdp_already_configured_updates_host(hass: HomeAssistant) -> None:
    entry = MockConfigEntry(
        domain=DOMAIN, unique_id=UDN, data={CONF_HOST: "192.0.2.99", CONF_PORT: 23}
    )
    entry.add_to_hass(hass)
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_SSDP}, data=ssdp_info(host="192.0.2.7")
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "already_configured"
    assert entry.data[CONF_HOST] == "192.0.2.7"


async def test_reconfigure_moves_to_new_address(
    hass: HomeAssistant, emulator: LinnEmulator
) -> None:
    entry = MockConfigEntry(
        domain=DOMAIN, unique_id=UDN, data={CONF_HOST: "192.0.2.99", CONF_PORT: 23}
    )
    entry.add_to_hass(hass)
    result = await entry.start_reconfigure_flow(hass)
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "reconfigure"

    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_HOST: "127.0.0.1", CONF_PORT: closed_port()}
    )
    assert result["errors"] == {"base": "cannot_connect"}

    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_HOST: "127.0.0.1", CONF_PORT: emulator.port}
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "reconfigure_successful"
    assert entry.data == {CONF_HOST: "127.0.0.1", CONF_PORT: emulator.port}
    await hass.async_block_till_done()  # the reload sets the entry up at the new address
    assert entry.state is ConfigEntryState.LOADED
    assert await hass.config_entries.async_unload(entry.entry_id)


async def test_reconfigure_to_another_device_is_refused(hass: HomeAssistant) -> None:
    entry = MockConfigEntry(
        domain=DOMAIN, unique_id=UDN, data={CONF_HOST: "192.0.2.99", CONF_PORT: 23}
    )
    entry.add_to_hass(hass)
    async with LinnEmulator(port=0, udn=OTHER_UDN, room="Kitchen") as other:
        result = await entry.start_reconfigure_flow(hass)
        result = await hass.config_entries.flow.async_configure(
            result["flow_id"], {CONF_HOST: "127.0.0.1", CONF_PORT: other.port}
        )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "wrong_device"
    assert entry.data[CONF_HOST] == "192.0.2.99"


@pytest.mark.parametrize(
    "info",
    [
        SsdpServiceInfo(
            ssdp_usn="uuid:x::urn:av-openhome-org:service:Product:4",
            ssdp_st="urn:av-openhome-org:service:Product:4",
            ssdp_location="http://127.0.0.1:55178/device.xml",
            upnp={ATTR_UPNP_MANUFACTURER: "Linn"},
        ),
        SsdpServiceInfo(
            ssdp_usn=f"uuid:{UDN}::urn:av-openhome-org:service:Product:4",
            ssdp_st="urn:av-openhome-org:service:Product:4",
            ssdp_location=None,
            upnp={ATTR_UPNP_UDN: f"uuid:{UDN}"},
        ),
    ],
    ids=["no-udn", "no-host"],
)
async def test_ssdp_without_udn_or_host_is_not_offered(
    hass: HomeAssistant, emulator: LinnEmulator, info: SsdpServiceInfo
) -> None:
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_SSDP}, data=info
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "not_linn_device"
    assert emulator.sessions == 0  # nothing was asked of any device


async def test_ssdp_udn_from_the_usn_when_the_description_has_none(
    hass: HomeAssistant, emulator: LinnEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(config_flow, "DEFAULT_PORT", emulator.port)
    info = ssdp_info()
    info.upnp.pop(ATTR_UPNP_UDN)
    info.ssdp_udn = f"uuid:{UDN}"
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_SSDP}, data=info
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "confirm"
    flows = hass.config_entries.flow.async_progress_by_handler(DOMAIN)
    assert [flow["context"]["unique_id"] for flow in flows] == [UDN]


async def test_a_second_announcement_while_the_first_waits_is_already_in_progress(
    hass: HomeAssistant, emulator: LinnEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(config_flow, "DEFAULT_PORT", emulator.port)
    first = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_SSDP}, data=ssdp_info()
    )
    assert first["step_id"] == "confirm"
    second = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_SSDP}, data=ssdp_info()
    )
    assert second["type"] is FlowResultType.ABORT
    assert second["reason"] == "already_in_progress"  # translated: see flow_translations.py
    assert len(hass.config_entries.flow.async_progress_by_handler(DOMAIN)) == 1


async def test_reconfigure_refuses_an_invalid_host_and_changes_nothing(
    hass: HomeAssistant,
) -> None:
    entry = MockConfigEntry(
        domain=DOMAIN, unique_id=UDN, data={CONF_HOST: "192.0.2.99", CONF_PORT: 23}
    )
    entry.add_to_hass(hass)
    result = await entry.start_reconfigure_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_HOST: "http://192.0.2.7", CONF_PORT: 23}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {CONF_HOST: "invalid_host"}
    assert entry.data == {CONF_HOST: "192.0.2.99", CONF_PORT: 23}
