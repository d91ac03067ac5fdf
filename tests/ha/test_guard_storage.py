"""The guard's audit log: in diagnostics (redacted), and a tampered log raises a repair issue."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
import copy
from typing import Any

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.components.diagnostics import (
    get_diagnostics_for_config_entry,
)
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.linn.const import DOMAIN
from custom_components.linn.guard import AuditLog, Outcome
from custom_components.linn.tools.ha_adapter import (
    ANCHOR_KEY,
    AUDIT_ISSUE,
    DATA_GUARD,
    EVIDENCE_KEY,
    STORAGE_KEY,
    STORAGE_VERSION,
)
from linn_emulator import LinnEmulator
from testing.ha.assist_api import PLAYER, assist, async_setup_llm, call
from testing.helpers import wait_for

from .guard_restarts import restart_guard, restart_with_the_audit_log_missing


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


@pytest.mark.usefixtures("loaded_entry")
async def test_a_change_is_on_disk_before_it_runs_and_a_crash_cannot_lose_it(
    hass: HomeAssistant,
    hass_admin_user: User,
    hass_storage: dict[str, Any],
    emulator: LinnEmulator,
) -> None:
    await async_setup_llm(hass)
    api = await assist(hass, hass_admin_user)
    emulator.faults.response_delay = 3600.0  # the player takes the command and hangs
    running = hass.async_create_task(call(api, "set_volume", player=PLAYER, volume=33))
    await wait_for(lambda: ANCHOR_KEY in hass_storage and hass_storage[ANCHOR_KEY]["data"]["open"])
    # Home Assistant dies here: no delayed save, no final write; the disk is what it is
    on_disk = copy.deepcopy(hass_storage)
    running.cancel()
    emulator.faults.response_delay = 0.0
    with pytest.raises(asyncio.CancelledError):
        await running
    hass_storage.clear()
    hass_storage.update(on_disk)

    restarted = await restart_guard(hass)
    (record,) = [r for r in restarted.guard.audit.records if r.tool == "set_volume"]
    assert record.outcome is Outcome.FAILED
    assert record.reason.startswith("Failed: Home Assistant stopped while this ran")
    assert record.arguments == {"player": PLAYER, "volume": 33}
    assert record.user_id == hass_admin_user.id
    restarted.guard.audit.verify()
    await restarted.async_save()
    assert hass_storage[ANCHOR_KEY]["data"]["open"] == {}


def _drop_newest(data: dict[str, Any]) -> None:
    data[STORAGE_KEY]["data"]["audit"]["records"].pop()
    data[STORAGE_KEY]["data"]["audit"]["next_seq"] -= 1


@pytest.mark.parametrize(
    ("tamper", "problem"),
    [
        (lambda data: None, None),
        (_drop_newest, "the newest 1 of 3 records are missing"),
        (lambda data: data[STORAGE_KEY]["data"].pop("audit"), "of 3 records are missing"),
        (lambda data: data.pop(STORAGE_KEY), "the newest 3 of 3 records are missing"),
        (lambda data: data.pop(ANCHOR_KEY), "its anchor is missing"),
    ],
    ids=["untouched", "newest_record_deleted", "log_deleted", "store_deleted", "anchor_deleted"],
)
async def test_a_log_cut_short_or_deleted_is_detected_against_its_anchor(
    hass: HomeAssistant,
    hass_admin_user: User,
    hass_storage: dict[str, Any],
    loaded_entry: MockConfigEntry,
    tamper: Callable[[dict[str, Any]], object],
    problem: str | None,
) -> None:
    await async_setup_llm(hass)
    api = await assist(hass, hass_admin_user)
    for volume in (21, 22, 23):
        await call(api, "set_volume", player=PLAYER, volume=volume)
    await hass.data[DATA_GUARD].async_save()
    tamper(hass_storage)

    await restart_guard(hass)
    issue = ir.async_get(hass).async_get_issue(DOMAIN, AUDIT_ISSUE)
    if problem is None:
        assert issue is None
    else:
        assert issue is not None
        assert problem in (issue.translation_placeholders or {})["error"]


@pytest.mark.usefixtures("loaded_entry")
async def test_the_repair_issue_stays_across_restarts_until_an_admin_acknowledges_it(
    hass: HomeAssistant,
    hass_admin_user: User,
    hass_storage: dict[str, Any],
    hass_client: ClientSessionGenerator,
) -> None:
    await restart_with_the_audit_log_missing(hass, hass_storage, hass_admin_user)
    issue = ir.async_get(hass).async_get_issue(DOMAIN, AUDIT_ISSUE)
    assert issue is not None
    assert issue.is_persistent  # the issue registry restores it after a restart
    assert issue.is_fixable

    # a clean start later (the new log now matches its anchor) does not clear it
    await restart_guard(hass)
    assert ir.async_get(hass).async_get_issue(DOMAIN, AUDIT_ISSUE) is not None

    client = await hass_client()
    flow = await _start_fix_flow(client)
    assert flow["type"] == "menu"
    assert flow["menu_options"] == ["keep_evidence", "new_log", "restore_backup"]
    flow = await _choose(client, flow, "keep_evidence")
    assert flow["step_id"] == "keep_evidence"
    response = await client.post(f"/api/repairs/issues/fix/{flow['flow_id']}", json={})
    assert response.status == 200, await response.text()
    assert (await response.json())["type"] == "create_entry"
    assert ir.async_get(hass).async_get_issue(DOMAIN, AUDIT_ISSUE) is None


async def _start_fix_flow(client: Any) -> dict[str, Any]:
    response = await client.post(
        "/api/repairs/issues/fix", json={"handler": DOMAIN, "issue_id": AUDIT_ISSUE}
    )
    assert response.status == 200, await response.text()
    flow: dict[str, Any] = await response.json()
    return flow


async def _choose(client: Any, flow: dict[str, Any], option: str) -> dict[str, Any]:
    response = await client.post(
        f"/api/repairs/issues/fix/{flow['flow_id']}", json={"next_step_id": option}
    )
    assert response.status == 200, await response.text()
    result: dict[str, Any] = await response.json()
    return result


async def _tampered_start(
    hass: HomeAssistant, admin: User, hass_storage: dict[str, Any]
) -> dict[str, Any]:
    """Two changes saved, a record altered on disk, then a restart: the broken log as found."""
    await async_setup_llm(hass)
    assert await async_setup_component(hass, "repairs", {})
    api = await assist(hass, admin)
    for volume in (21, 22):
        await call(api, "set_volume", player=PLAYER, volume=volume)
    await hass.data[DATA_GUARD].async_save()
    broken = copy.deepcopy(hass_storage[STORAGE_KEY]["data"]["audit"])
    broken["records"][0]["arguments"] = {"volume": 99}
    hass_storage[STORAGE_KEY]["data"]["audit"] = broken
    await restart_guard(hass)
    assert ir.async_get(hass).async_get_issue(DOMAIN, AUDIT_ISSUE) is not None
    return broken


@pytest.mark.usefixtures("loaded_entry")
async def test_the_broken_log_is_kept_across_restarts_and_saves_until_an_admin_deletes_it(
    hass: HomeAssistant,
    hass_admin_user: User,
    hass_storage: dict[str, Any],
    hass_client: ClientSessionGenerator,
) -> None:
    broken = await _tampered_start(hass, hass_admin_user, hass_storage)
    for _ in range(3):  # restarts, each with its saves
        runtime = await restart_guard(hass)
        await call(await assist(hass, hass_admin_user), "set_volume", player=PLAYER, volume=24)
        await runtime.async_save()
    (kept,) = hass_storage[EVIDENCE_KEY]["data"]["logs"]
    assert kept["audit"] == broken  # as found, the altered record included
    assert kept["error"]  # why it did not verify

    client = await hass_client()
    # restoring a backup changes nothing here: the notice and the evidence stay
    flow = await _choose(client, await _start_fix_flow(client), "restore_backup")
    assert flow["type"] == "abort"
    assert flow["reason"] == "restore_backup"
    assert ir.async_get(hass).async_get_issue(DOMAIN, AUDIT_ISSUE) is not None
    assert EVIDENCE_KEY in hass_storage

    flow = await _choose(client, await _start_fix_flow(client), "new_log")
    assert flow["step_id"] == "new_log"
    assert flow["description_placeholders"]["count"] == "1"
    response = await client.post(f"/api/repairs/issues/fix/{flow['flow_id']}", json={})
    assert (await response.json())["type"] == "create_entry"
    assert EVIDENCE_KEY not in hass_storage
    assert ir.async_get(hass).async_get_issue(DOMAIN, AUDIT_ISSUE) is None


@pytest.mark.usefixtures("loaded_entry")
async def test_only_an_admin_can_open_the_audit_logs_fix_flow(
    hass: HomeAssistant,
    hass_admin_user: User,
    hass_storage: dict[str, Any],
    hass_client: ClientSessionGenerator,
    hass_read_only_access_token: str,
) -> None:
    await _tampered_start(hass, hass_admin_user, hass_storage)
    client = await hass_client(hass_read_only_access_token)
    response = await client.post(
        "/api/repairs/issues/fix", json={"handler": DOMAIN, "issue_id": AUDIT_ISSUE}
    )
    assert response.status == 401
    assert ir.async_get(hass).async_get_issue(DOMAIN, AUDIT_ISSUE) is not None
