"""Out-of-band approval through the real actions, notifications, events and sensors."""

from __future__ import annotations

from datetime import timedelta
import re
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.auth.models import User
from homeassistant.components import persistent_notification
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import ServiceValidationError
import pytest
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
    async_fire_time_changed,
    async_mock_service,
)

from custom_components.linn import logbook
from custom_components.linn.agent.policies import async_agent_settings_lookup
from custom_components.linn.approvals.flow import (
    EVENT_MOBILE_ACTION,
    EVENT_REQUESTED,
    EVENT_RESOLVED,
    WAITING_NOTIFICATION_ID as WAITING,
    async_setup_guarded_tools,
)
from custom_components.linn.approvals.snapshot import Viewer, build_snapshot
from custom_components.linn.const import DOMAIN
from custom_components.linn.guard import Outcome, args_hash
from custom_components.linn.tools.ha_adapter import DATA_GUARD
from linn_emulator import LinnEmulator
from testing.ha.assist_api import PLAYER, assist, call
from testing.ha.streamers import ENTITY_ID
from testing.helpers import wait_for

PENDING_SENSOR = "sensor.living_room_pending_approvals"
CALLS_SENSOR = "sensor.living_room_assistant_tool_calls_today"


pytestmark = pytest.mark.usefixtures("llm_ready")


async def request_limit(hass: HomeAssistant, user: User, limit: int = 50) -> str:
    """An assistant asks to change the volume limit; returns the request id."""
    api = await assist(hass, user)
    result = await call(api, "set_volume_limit", player=PLAYER, limit=limit)
    assert result.data["error"].startswith("Needs approval"), result.data
    await hass.async_block_till_done()
    return str(result.data["request_id"])


async def decide(
    hass: HomeAssistant, service: str, user: User | None, request_id: str, **data: Any
) -> Any:
    return await hass.services.async_call(
        DOMAIN,
        service,
        {"request_id": request_id, **data},
        blocking=True,
        return_response=True,
        context=Context(user_id=user.id if user else None),
    )


async def refused(
    hass: HomeAssistant, service: str, user: User | None, request_id: str, **data: Any
) -> str:
    with pytest.raises(ServiceValidationError) as err:
        await decide(hass, service, user, request_id, **data)
    assert err.value.translation_domain == DOMAIN
    assert str(err.value)  # translated: a message, not a bare key
    return str(err.value.translation_key)


def notifications(hass: HomeAssistant) -> dict[str, Any]:
    return dict(persistent_notification._async_get_or_create_notifications(hass))


async def test_approve_runs_the_request_and_tells_everyone(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    requested = async_capture_events(hass, EVENT_REQUESTED)
    resolved = async_capture_events(hass, EVENT_RESOLVED)
    request_id = await request_limit(hass, hass_admin_user)

    assert [e.data for e in requested] == [
        {
            "request_id": request_id,
            "tool": "set_volume_limit",
            "entity_id": ENTITY_ID,
            "entity_ids": [ENTITY_ID],
            "user_id": hass_admin_user.id,
            "expires": requested[0].data["expires"],
        }
    ]
    # everyone sees persistent notifications: this one says only that a request is waiting
    (notification,) = notifications(hass).values()
    assert notification["notification_id"] == WAITING
    assert "administrator" in notification["message"]
    assert request_id not in notification["title"] + notification["message"]
    assert "50" not in notification["message"]
    assert hass.states.get(PENDING_SENSOR).state == "1"
    assert "request_ids" not in hass.states.get(PENDING_SENSOR).attributes  # seen by everyone

    response = await decide(hass, "approve", hass_admin_user, request_id.lower())
    assert response == {"request_id": request_id, "outcome": "approved"}
    await wait_for(lambda: emulator.state.volume_limit == 50)
    await hass.async_block_till_done()
    assert resolved[0].data["outcome"] == "approved"
    assert resolved[0].data["resolved_by"] == hass_admin_user.id
    assert resolved[0].data["entity_id"] == ENTITY_ID
    assert WAITING not in notifications(hass)
    assert hass.states.get(PENDING_SENSOR).state == "0"
    assert int(hass.states.get(CALLS_SENSOR).state) == 2  # the request and its approval


async def test_deny_changes_nothing(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    resolved = async_capture_events(hass, EVENT_RESOLVED)
    request_id = await request_limit(hass, hass_admin_user)
    response = await decide(hass, "deny", hass_admin_user, request_id)
    assert response == {"request_id": request_id, "outcome": "denied"}
    await hass.async_block_till_done()
    assert resolved[0].data["outcome"] == "denied"
    assert emulator.state.volume_limit == 80
    assert await refused(hass, "approve", hass_admin_user, request_id) == "approval_used"


async def test_every_abuse_is_refused_audited_and_changes_nothing(
    hass: HomeAssistant,
    hass_admin_user: User,
    hass_read_only_user: User,
    emulator: LinnEmulator,
) -> None:
    request_id = await request_limit(hass, hass_admin_user)
    guard = hass.data[DATA_GUARD].guard
    before = guard.audit.total

    assert await refused(hass, "approve", hass_admin_user, "Z9") == "approval_unknown"
    assert await refused(hass, "approve", hass_read_only_user, request_id) == "approval_not_admin"
    assert await refused(hass, "approve", None, request_id) == "approval_not_admin"
    changed = {"arguments": {"player": PLAYER, "limit": 80}}
    assert (
        await refused(hass, "approve", hass_admin_user, request_id, **changed)
        == "approval_changed_arguments"
    )
    assert emulator.state.volume_limit == 80
    assert guard.audit.total == before + 4
    assert all(r.outcome in (Outcome.DENIED, Outcome.INVALID) for r in guard.audit.records[-4:])

    same = {"arguments": {"player": PLAYER, "limit": 50}}
    assert (await decide(hass, "approve", hass_admin_user, request_id, **same))[
        "outcome"
    ] == "approved"
    await wait_for(lambda: emulator.state.volume_limit == 50)
    assert await refused(hass, "approve", hass_admin_user, request_id) == "approval_used"
    assert guard.attempts == guard.audit.total
    guard.audit.verify()


async def test_an_expired_request_cannot_be_approved(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    freezer: FrozenDateTimeFactory,
) -> None:
    resolved = async_capture_events(hass, EVENT_RESOLVED)
    request_id = await request_limit(hass, hass_admin_user)
    freezer.tick(timedelta(minutes=5, seconds=11))
    async_fire_time_changed(hass)
    await hass.async_block_till_done()
    assert [e.data["outcome"] for e in resolved] == ["expired"]  # by the periodic check
    describers: dict[str, Any] = {}
    logbook.async_describe_events(
        hass, lambda domain, event_type, describe: describers.__setitem__(event_type, describe)
    )
    assert describers[EVENT_RESOLVED](resolved[0])["message"] == logbook.EXPIRED_MESSAGE
    assert hass.states.get(PENDING_SENSOR).state == "0"
    assert WAITING not in notifications(hass)
    assert await refused(hass, "approve", hass_admin_user, request_id) == "approval_expired"
    assert emulator.state.volume_limit == 80
    outcomes = [r.outcome for r in hass.data[DATA_GUARD].guard.audit.records]
    assert outcomes == [Outcome.PENDING, Outcome.EXPIRED, Outcome.EXPIRED]


async def test_an_approval_does_not_run_a_tool_turned_off_meanwhile(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    loaded_entry: MockConfigEntry,
) -> None:
    resolved = async_capture_events(hass, EVENT_RESOLVED)
    request_id = await request_limit(hass, hass_admin_user)
    hass.config_entries.async_update_entry(
        loaded_entry, options={"policies": {"set_volume_limit": "deny"}}
    )
    assert await refused(hass, "approve", hass_admin_user, request_id) == "approval_turned_off"
    await hass.async_block_till_done()
    assert emulator.state.volume_limit == 80
    assert [e.data["outcome"] for e in resolved] == ["denied"]
    record = hass.data[DATA_GUARD].guard.audit.records[-1]
    assert record.outcome is Outcome.DENIED
    assert record.reason.startswith("Denied: this action is turned off")
    assert await refused(hass, "approve", hass_admin_user, request_id) == "approval_used"


async def test_expiry_follows_the_players_options(
    hass: HomeAssistant,
    hass_admin_user: User,
    loaded_entry: MockConfigEntry,
    freezer: FrozenDateTimeFactory,
) -> None:
    hass.config_entries.async_update_entry(loaded_entry, options={"approval_expiry_minutes": 1})
    request_id = await request_limit(hass, hass_admin_user)
    freezer.tick(timedelta(seconds=61))
    assert await refused(hass, "approve", hass_admin_user, request_id) == "approval_expired"


async def test_actionable_mobile_notification_and_the_phones_answer(
    hass: HomeAssistant,
    hass_admin_user: User,
    hass_read_only_user: User,
    emulator: LinnEmulator,
    loaded_entry: MockConfigEntry,
) -> None:
    phone = async_mock_service(hass, "notify", "mobile_app_phone")
    hass.config_entries.async_update_entry(
        loaded_entry, options={"notify_target": "mobile_app_phone"}
    )
    request_id = await request_limit(hass, hass_admin_user)
    (sent,) = phone
    actions = {a["title"]: a["action"] for a in sent.data["data"]["actions"]}
    assert set(actions) == {"Approve", "Deny"}
    assert request_id in sent.data["message"]

    def answer(action: str, user: User) -> None:
        hass.bus.async_fire(EVENT_MOBILE_ACTION, {"action": action}, context=Context(user.id))

    # a button with another secret, and a non-admin's phone: refused
    stale = actions["Approve"][:-12] + "0" * 12
    answer(stale, hass_admin_user)
    answer(actions["Approve"], hass_read_only_user)
    await hass.async_block_till_done()
    assert emulator.state.volume_limit == 80
    reasons = [r.reason for r in hass.data[DATA_GUARD].guard.audit.records[-2:]]
    assert reasons[0].startswith("Denied: this answer did not come from the request's own")
    assert reasons[1].startswith("Denied: only an administrator")

    answer(actions["Approve"], hass_admin_user)
    await wait_for(lambda: emulator.state.volume_limit == 50)
    await hass.async_block_till_done()
    assert phone[-1].data == {
        "message": "clear_notification",
        "data": {"tag": f"linn_approval_{request_id}"},
    }


async def test_a_button_rebuilt_from_public_data_cannot_approve(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    loaded_entry: MockConfigEntry,
) -> None:
    """A member sends the admin a notification of their own whose button answers a request.

    Everything a member can see (the request's id, tool and arguments: events, the
    persistent notification, the card) must not be enough to build a working button.
    """
    phone = async_mock_service(hass, "notify", "mobile_app_phone")
    hass.config_entries.async_update_entry(
        loaded_entry, options={"notify_target": "mobile_app_phone"}
    )
    requested = async_capture_events(hass, EVENT_REQUESTED)
    request_id = await request_limit(hass, hass_admin_user)
    guard = hass.data[DATA_GUARD].guard
    request = guard.pending.get(request_id)
    assert request is not None
    public_arguments = {"player": PLAYER, "limit": 50}
    assert request.args_hash == args_hash("set_volume_limit", public_arguments)
    before = guard.audit.total

    def tapped(action: str) -> None:  # the admin taps the member's button
        hass.bus.async_fire(
            EVENT_MOBILE_ACTION, {"action": action}, context=Context(hass_admin_user.id)
        )

    tapped(f"LINN_APPROVE_{request_id}_{request.args_hash[:12]}")  # the old scheme
    tapped(f"LINN_APPROVE_{request_id}_{request.args_hash[:32]}")
    tapped(f"LINN_APPROVE_{request_id}_{'0' * 32}")
    await hass.async_block_till_done()
    assert emulator.state.volume_limit == 80
    assert guard.pending.get(request_id).status == "open"
    assert [r.outcome for r in guard.audit.records[before:]] == [Outcome.DENIED] * 2

    # the secret is in the admin's notification only, never where a member can look
    (sent,) = phone
    assert any(request.secret in a["action"] for a in sent.data["data"]["actions"])
    member_view = build_snapshot(hass, guard, Viewer(request.user_id or "", False), {}, 50)
    for public in (
        requested[0].data,
        notifications(hass),
        member_view,
        [r.to_dict() for r in guard.audit.records],
    ):
        assert request.secret not in str(public)


async def test_pending_requests_survive_a_restart(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    request_id = await request_limit(hass, hass_admin_user)
    old = hass.data[DATA_GUARD]
    await old.async_save()
    del hass.data[DATA_GUARD]  # a new start reads only what was stored
    persistent_notification.async_dismiss(hass, WAITING)  # nor are notifications kept
    new = await async_setup_guarded_tools(hass, async_agent_settings_lookup(hass))
    assert new is not old
    assert [r.request_id for r in new.guard.pending.awaiting_approval()] == [request_id]
    assert new.guard.audit.head == old.guard.audit.head
    notice = notifications(hass)[WAITING]  # the waiting request is announced again, translated
    assert notice["title"] == "Linn: approval needed"
    assert "administrator" in notice["message"]

    await decide(hass, "approve", hass_admin_user, request_id)
    await wait_for(lambda: emulator.state.volume_limit == 50)
    assert WAITING not in notifications(hass)
    assert await refused(hass, "approve", hass_admin_user, request_id) == "approval_used"


async def test_approvals_are_described_for_the_logbook(
    hass: HomeAssistant, hass_admin_user: User
) -> None:
    describers: dict[str, Any] = {}
    logbook.async_describe_events(
        hass, lambda domain, event_type, describe: describers.__setitem__(event_type, describe)
    )
    requested = async_capture_events(hass, EVENT_REQUESTED)
    resolved = async_capture_events(hass, EVENT_RESOLVED)
    request_id = await request_limit(hass, hass_admin_user)
    await decide(hass, "deny", hass_admin_user, request_id)
    await hass.async_block_till_done()
    asked = describers[EVENT_REQUESTED](requested[0])
    answered = describers[EVENT_RESOLVED](resolved[0])
    assert asked["entity_id"] == answered["entity_id"] == ENTITY_ID
    # every user reads the logbook: it says that a request waited and was answered, no more
    assert asked["message"] == "an assistant request is waiting for an administrator"
    assert answered["message"] == "an administrator answered an assistant request"
    for entry in (asked, answered):
        text = " ".join(str(v) for v in entry.values())
        for secret in (request_id, "set_volume_limit", "50", hass_admin_user.name):
            assert not re.search(rf"\b{re.escape(str(secret))}\b", text), (secret, entry)


async def test_answers_are_rate_limited_per_user_and_refusals_cannot_rotate_records_away(
    hass: HomeAssistant,
    hass_admin_user: User,
    hass_read_only_user: User,
    emulator: LinnEmulator,
) -> None:
    request_id = await request_limit(hass, hass_admin_user)
    guard = hass.data[DATA_GUARD].guard
    pending_record = guard.audit.records[-1]
    # a member hammers the approve action: refused, and soon only counted
    codes = [await refused(hass, "approve", hass_read_only_user, request_id) for _ in range(200)]
    assert codes[:20] == ["approval_not_admin"] * 20
    assert set(codes[20:]) == {"approval_rate_limited"}
    assert pending_record in guard.audit.records  # the admin's record is still there
    assert len(guard.audit.records) <= 1 + 30
    # the admin is not limited by the member's volume
    await decide(hass, "approve", hass_admin_user, request_id)
    await wait_for(lambda: emulator.state.volume_limit == 50)
