"""Break-it review of issue 18 (branch break18), through Home Assistant: attacks that succeed.

Each test asserts the secure outcome and fails on today's code (marked xfail strict).
"""

from __future__ import annotations

import contextlib
from typing import Any

from homeassistant.auth.models import User
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import issue_registry as ir
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import WebSocketGenerator

from custom_components.linn.const import DOMAIN
from custom_components.linn.tools.ha_adapter import AUDIT_ISSUE
from linn_emulator import LinnEmulator

from .guard_restarts import restart_guard, restart_with_the_audit_log_missing

LIMIT = "number.living_room_volume_limit"


async def test_b7_a_member_cannot_hide_the_broken_audit_log_issue(
    hass: HomeAssistant,
    hass_admin_user: User,
    hass_storage: dict[str, Any],
    hass_ws_client: WebSocketGenerator,
    loaded_entry: MockConfigEntry,
) -> None:
    """(a)+(g): the audit log is found cut short; its repair issue must stay in front of the
    admin until an admin acknowledges it. Home Assistant's `repairs/ignore_issue` command
    has no admin check, so a member ignores it: the Repairs panel hides it, and it stays
    hidden across restarts (the guard re-raises it as the same, still ignored, issue)."""
    await restart_with_the_audit_log_missing(hass, hass_storage, hass_admin_user)
    assert ir.async_get(hass).async_get_issue(DOMAIN, AUDIT_ISSUE) is not None

    member = await hass.auth.async_create_user("Member", group_ids=["system-users"])
    refresh = await hass.auth.async_create_refresh_token(member, "http://127.0.0.1/")
    client = await hass_ws_client(hass, hass.auth.async_create_access_token(refresh))
    await client.send_json_auto_id(
        {"type": "repairs/ignore_issue", "domain": DOMAIN, "issue_id": AUDIT_ISSUE, "ignore": True}
    )
    await client.receive_json()
    await restart_guard(hass)
    issue = ir.async_get(hass).async_get_issue(DOMAIN, AUDIT_ISSUE)
    assert issue is not None
    assert issue.dismissed_version is None, "a member hid the broken audit log's issue"


async def test_b8_a_member_cannot_lift_the_volume_limit_with_a_plain_action(
    hass: HomeAssistant,
    hass_owner_user: User,
    emulator: LinnEmulator,
    loaded_entry: MockConfigEntry,
) -> None:
    """(a): set_volume_limit needs an admin's approval through any assistant, and the README
    calls the limit a hard ceiling. The number entity beside it takes `number.set_value`
    from any member (Home Assistant's default users may control every entity): the card,
    a dashboard slider or the REST API lift the ceiling with no request, approval or audit
    record, and every later tool's volume range follows the new limit."""
    # the owner exists first: the first user Home Assistant creates becomes the owner (an admin)
    member = await hass.auth.async_create_user("Member", group_ids=["system-users"])
    assert not member.is_admin
    assert emulator.state.volume_limit == 80
    with contextlib.suppress(HomeAssistantError):
        await hass.services.async_call(
            "number",
            "set_value",
            {"entity_id": LIMIT, "value": 100},
            blocking=True,
            context=Context(user_id=member.id),
        )
    # blocking: the device has answered the command when the call returns
    assert emulator.state.volume_limit == 80, "a member lifted the hard ceiling"


async def test_b8_an_admin_and_an_automation_still_set_the_volume_limit(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    loaded_entry: MockConfigEntry,
) -> None:
    """The other side of B8: the limit stays settable by an admin and with no user behind the
    call (an automation)."""
    for value, context in ((60, Context(user_id=hass_admin_user.id)), (70, Context())):
        await hass.services.async_call(
            "number",
            "set_value",
            {"entity_id": LIMIT, "value": value},
            blocking=True,
            context=context,
        )
        assert emulator.state.volume_limit == value
