"""The guard's audit log: in diagnostics (redacted), and a tampered log raises a repair issue."""

from __future__ import annotations

from typing import Any

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.components.diagnostics import (
    get_diagnostics_for_config_entry,
)
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.linn.const import DOMAIN
from custom_components.linn.guard import AuditLog, Outcome
from custom_components.linn.guard.ha_adapter import STORAGE_KEY, STORAGE_VERSION

from .assist_api import PLAYER, assist, async_setup_llm, call


async def test_diagnostics_hold_the_audit_log_redacted(
    hass: HomeAssistant,
    hass_admin_user: User,
    hass_client: ClientSessionGenerator,
    loaded_entry: MockConfigEntry,
) -> None:
    await async_setup_llm(hass)
    api = await assist(hass, hass_admin_user)
    await call(api, "set_volume", player=PLAYER, volume=31)
    diagnostics = await get_diagnostics_for_config_entry(hass, hass_client, loaded_entry)
    guard = diagnostics["guard"]
    assert guard["audit_verified"] is True
    assert guard["audit_total"] == 1
    (record,) = guard["audit_records"]
    assert record["tool"] == "set_volume"
    assert record["outcome"] == "allowed"
    assert record["arguments"] == {"player": PLAYER, "volume": 31}
    assert record["user_id"] == "**REDACTED**"
    assert hass_admin_user.id not in str(diagnostics)


def _stored_log(tamper: bool) -> dict[str, Any]:
    log = AuditLog()
    for volume in (20, 25):
        log.append(
            ts="2026-10-01T12:00:00+00:00", outcome=Outcome.ALLOWED, tool="set_volume",
            user_id="u", agent_id=None, conversation_id=None, arguments={"volume": volume},
            args_hash="h", reason="ok", latency_ms=1.0,
        )  # fmt: skip
    data = log.to_dict()
    if tamper:
        data["records"][0]["arguments"] = {"volume": 99}
    return data


@pytest.mark.parametrize("tamper", [False, True])
async def test_a_tampered_audit_log_raises_a_repair_issue(
    hass: HomeAssistant,
    hass_storage: dict[str, Any],
    config_entry: MockConfigEntry,
    tamper: bool,
) -> None:
    hass_storage[STORAGE_KEY] = {
        "version": STORAGE_VERSION,
        "minor_version": 1,
        "key": STORAGE_KEY,
        "data": {"pending": {"requests": []}, "audit": _stored_log(tamper)},
    }
    config_entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(config_entry.entry_id)
    await hass.async_block_till_done()
    issue = ir.async_get(hass).async_get_issue(DOMAIN, "audit_chain_broken")
    if tamper:
        assert issue is not None
        assert issue.translation_key == "audit_chain_broken"
    else:
        assert issue is None
    await hass.config_entries.async_unload(config_entry.entry_id)
