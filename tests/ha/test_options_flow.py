"""The options flow of a streamer entry: the guard's settings for this player's tools."""

from __future__ import annotations

from typing import Any

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_mock_service

from custom_components.linn.tools.linn_tools import TOOL_SPECS
from linn_emulator import LinnEmulator
from testing.ha.assist_api import PLAYER, assist, async_setup_llm, call


def _input(**changes: Any) -> dict[str, Any]:
    policies = dict.fromkeys(TOOL_SPECS, "allow") | {"set_volume_limit": "approve"}
    return {
        "soft_limit_percent": 60,
        "approval_expiry_minutes": 5,
        "policies": policies,
        **changes,
    }


async def test_options_are_checked_then_saved_and_applied(
    hass: HomeAssistant,
    hass_admin_user: User,
    loaded_entry: MockConfigEntry,
    emulator: LinnEmulator,
) -> None:
    async_mock_service(hass, "notify", "mobile_app_phone")
    flow = await hass.config_entries.options.async_init(loaded_entry.entry_id)
    assert flow["type"] is FlowResultType.FORM
    set_limit_options = flow["data_schema"].schema["policies"].schema.schema["set_volume_limit"]
    assert set_limit_options.config["options"] == ["approve", "deny"]

    flow = await hass.config_entries.options.async_configure(
        flow["flow_id"], _input(notify_target="mobile_app_nobody")
    )
    assert flow["errors"] == {"notify_target": "unknown_notify_target"}
    flow = await hass.config_entries.options.async_configure(
        flow["flow_id"], _input(quiet_hours_start="22:00:00")
    )
    assert flow["errors"] == {"base": "quiet_hours_incomplete"}

    policies = _input()["policies"] | {"standby": "deny"}
    flow = await hass.config_entries.options.async_configure(
        flow["flow_id"],
        _input(
            policies=policies,
            notify_target="notify.mobile_app_phone",
            quiet_hours_start="22:00:00",
            quiet_hours_end="07:00:00",
            soft_limit_percent=50.0,
        ),
    )
    assert flow["type"] is FlowResultType.CREATE_ENTRY
    assert loaded_entry.options["notify_target"] == "mobile_app_phone"
    assert loaded_entry.options["soft_limit_percent"] == 50

    await async_setup_llm(hass)
    api = await assist(hass, hass_admin_user)
    result = await call(api, "standby", player=PLAYER)
    assert result.data == {"error": "Denied: this action is turned off"}
    assert emulator.state.standby is False
    result = await call(api, "set_volume", player=PLAYER, volume=41)  # 50 % of 80 is 40
    assert result.data["error"].startswith("Needs approval")  # no conversation to confirm in
    assert emulator.state.volume == 30
