"""The approvals card's websocket API, with a real HA, real websocket clients and the emulator."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
import json
import re
from typing import Any

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm
from homeassistant.setup import async_setup_component
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import WebSocketGenerator

from custom_components.linn.guard import Outcome
from custom_components.linn.tools.ha_adapter import DATA_GUARD
from linn_emulator import LinnEmulator
from testing.ha.assist_api import PLAYER, assist, call

type Client = Any

PENDING_SENSOR = "sensor.living_room_pending_approvals"


pytestmark = pytest.mark.usefixtures("llm_ready")


@pytest.fixture
async def guest(hass: HomeAssistant) -> User:
    """A non-admin who may control every player (Home Assistant's default for users)."""
    return await hass.auth.async_create_user("Guest", group_ids=["system-users"])


@pytest.fixture
async def admin_client(hass: HomeAssistant, hass_ws_client: WebSocketGenerator) -> Client:
    """A websocket client of the owner (an admin)."""
    return await hass_ws_client(hass)


async def token_for(hass: HomeAssistant, user: User) -> str:
    refresh = await hass.auth.async_create_refresh_token(user, "http://127.0.0.1/")
    return hass.auth.async_create_access_token(refresh)


async def ask(hass: HomeAssistant, user: User, tool: str, **arguments: Any) -> llm.ToolResult:
    """A tool call through the Assist API, as any agent makes it."""
    return await call(await assist(hass, user), tool, **arguments)


async def subscribe(client: Client, **extra: Any) -> Callable[[], Awaitable[dict[str, Any]]]:
    await client.send_json_auto_id({"type": "linn/approvals/subscribe", **extra})
    result = await client.receive_json()
    assert result["success"], result

    async def next_snapshot() -> dict[str, Any]:
        message = await client.receive_json()
        assert message["type"] == "event", message
        event: dict[str, Any] = message["event"]
        return event

    return next_snapshot


async def until(
    next_snapshot: Callable[[], Awaitable[dict[str, Any]]],
    predicate: Callable[[dict[str, Any]], bool],
) -> dict[str, Any]:
    """Snapshots as they are pushed, until one matches; a snapshot never pushed fails the test."""
    async with asyncio.timeout(5):
        while not predicate(snapshot := await next_snapshot()):
            pass
    return snapshot


async def decide(client: Client, request_id: str, *, approve: bool) -> dict[str, Any]:
    await client.send_json_auto_id(
        {"type": "linn/approvals/decide", "request_id": request_id, "approve": approve}
    )
    while (message := await client.receive_json())["type"] != "result":
        pass  # snapshots pushed meanwhile
    assert message["success"], message
    result: dict[str, Any] = message["result"]
    return result


async def test_a_request_is_pushed_with_its_details_and_approving_runs_it(
    hass: HomeAssistant, admin_client: Client, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    next_snapshot = await subscribe(admin_client, audit_count=5)
    first = await next_snapshot()
    assert first["pending"] == []
    assert first["can_decide"] is True

    asked = await ask(hass, hass_admin_user, "set_volume_limit", player=PLAYER, limit=50)
    request_id = asked.data["request_id"]
    snapshot = await until(next_snapshot, lambda s: bool(s["pending"]))
    (request,) = snapshot["pending"]
    assert request["request_id"] == request_id
    assert request["tool"] == "set_volume_limit"
    assert request["arguments"] == {"player": PLAYER, "limit": 50}
    assert request["players"] == [PLAYER]
    assert request["user_name"] == hass_admin_user.name
    assert snapshot["audit"][0]["outcome"] == "pending"

    result = await decide(admin_client, request_id, approve=True)
    assert result["outcome"] == "approved", result
    assert emulator.state.volume_limit == 50
    after = await until(next_snapshot, lambda s: not s["pending"])
    assert after["audit"][0]["outcome"] == "approved"
    # the request's earlier "waiting" record is not listed beside its outcome
    assert [r["outcome"] for r in after["audit"] if r["request_id"] == request_id] == ["approved"]


async def test_deny_leaves_the_device_unchanged(
    hass: HomeAssistant, admin_client: Client, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    next_snapshot = await subscribe(admin_client)
    asked = await ask(hass, hass_admin_user, "set_volume_limit", player=PLAYER, limit=20)
    await until(next_snapshot, lambda s: bool(s["pending"]))

    result = await decide(admin_client, asked.data["request_id"], approve=False)
    assert result["outcome"] == "denied"
    await until(next_snapshot, lambda s: not s["pending"])
    assert emulator.state.volume_limit == 80


async def test_a_user_sees_only_their_own_and_cannot_approve(
    hass: HomeAssistant,
    hass_ws_client: WebSocketGenerator,
    hass_admin_user: User,
    guest: User,
    emulator: LinnEmulator,
) -> None:
    admin_asked = await ask(hass, hass_admin_user, "set_volume_limit", player=PLAYER, limit=10)
    # above the soft limit and a jump of more than 20: two signals, and no conversation to
    # confirm in, so an admin must approve
    guest_asked = await ask(hass, guest, "set_volume", player=PLAYER, volume=75)
    assert guest_asked.data["error"].startswith("Needs approval"), guest_asked.data

    client = await hass_ws_client(hass, await token_for(hass, guest))
    snapshot = await (await subscribe(client))()
    assert snapshot["can_decide"] is False
    assert [r["request_id"] for r in snapshot["pending"]] == [guest_asked.data["request_id"]]
    (own,) = snapshot["pending"]
    assert own["mine"] is True
    assert set(own["signals"]) == {"above_soft_limit", "volume_jump"}
    assert {r["user_name"] for r in snapshot["audit"]} == {"Guest"}

    result = await decide(client, admin_asked.data["request_id"], approve=True)
    assert result["outcome"] == "denied"
    assert emulator.state.volume_limit == 80
    still = [r.request_id for r in hass.data[DATA_GUARD].guard.pending.open_requests()]
    assert admin_asked.data["request_id"] in still


async def test_an_expired_request_is_pushed_away_and_audited(
    hass: HomeAssistant,
    hass_ws_client: WebSocketGenerator,
    hass_admin_user: User,
    loaded_entry: MockConfigEntry,
) -> None:
    # The player's options set the expiry (0.01 min, below what the form allows, to keep the test
    # short); the guard's periodic check runs every 10 s, after this test's 5 s wait.
    hass.config_entries.async_update_entry(loaded_entry, options={"approval_expiry_minutes": 0.01})
    await hass.async_block_till_done()
    guard = hass.data[DATA_GUARD].guard
    client = await hass_ws_client(hass)
    next_snapshot = await subscribe(client)
    await ask(hass, hass_admin_user, "set_volume_limit", player=PLAYER, limit=30)
    await until(next_snapshot, lambda s: bool(s["pending"]))

    # no client action: the subscription's own timer pushes the change at the request's expiry
    gone = await until(next_snapshot, lambda s: not s["pending"])
    assert gone["audit"][0]["outcome"] == "expired"
    assert [r.outcome for r in guard.audit.records].count(Outcome.EXPIRED) == 1


async def test_unsubscribing_stops_the_stream(
    hass: HomeAssistant, hass_ws_client: WebSocketGenerator, hass_admin_user: User
) -> None:
    guard = hass.data[DATA_GUARD].guard
    listeners = len(guard.change_listeners)
    client = await hass_ws_client(hass)
    await subscribe(client)
    assert len(guard.change_listeners) == listeners + 1
    await client.send_json_auto_id({"type": "unsubscribe_events", "subscription": 1})
    while (await client.receive_json())["type"] != "result":
        pass
    assert len(guard.change_listeners) == listeners


@pytest.mark.usefixtures("emulator")
async def test_a_member_sees_no_approval_details_in_persistent_notifications(
    hass: HomeAssistant, hass_ws_client: WebSocketGenerator, hass_admin_user: User, guest: User
) -> None:
    """Persistent notifications reach every user: a member learns only that one is waiting.

    The requester, the arguments and the request id go to the admins' phones and the card
    (which filters per user), never into what Home Assistant's frontend shows everyone.
    """
    assert not guest.is_admin
    assert not guest.is_owner  # a member: the first user made is the owner
    assert await async_setup_component(hass, "persistent_notification", {})
    member = await hass_ws_client(hass, await token_for(hass, guest))
    await member.send_json_auto_id({"type": "persistent_notification/subscribe"})
    subscribed = await member.receive_json()
    assert subscribed["success"], subscribed
    received: list[Any] = [await member.receive_json()]  # the current (empty) list

    admin_asked = await ask(hass, hass_admin_user, "set_volume_limit", player=PLAYER, limit=17)
    guest_asked = await ask(hass, guest, "set_volume", player=PLAYER, volume=75)
    assert guest_asked.data["error"].startswith("Needs approval"), guest_asked.data
    await hass.async_block_till_done()
    request_ids = [admin_asked.data["request_id"], guest_asked.data["request_id"]]

    async def drain() -> None:
        while True:
            try:
                async with asyncio.timeout(0.2):
                    received.append(await member.receive_json())
            except TimeoutError:
                return

    async def current() -> dict[str, Any]:
        await member.send_json_auto_id({"type": "persistent_notification/get"})
        while (message := await member.receive_json())["type"] != "result":
            received.append(message)
        assert message["success"], message
        received.append(message)
        notifications: dict[str, Any] = {n["notification_id"]: n for n in message["result"]}
        return notifications

    waiting = await current()
    await drain()
    shown = []  # every notification the member was sent, as events or as results
    for message in received:
        if message["type"] == "event":
            shown += message["event"]["notifications"].values()
        else:
            shown += message["result"]
    assert shown
    forbidden = [*request_ids, "Mock User", "Guest", hass_admin_user.id, guest.id, "17", "75"]
    for notification in shown:
        text = " ".join(str(notification.get(k)) for k in ("notification_id", "title", "message"))
        assert "set_volume" not in text, notification
        for secret in forbidden:  # as a word: a request id such as T1 is in every timestamp
            assert not re.search(rf"\b{re.escape(secret)}\b", text), (secret, notification)
    (notification,) = waiting.values()  # one generic notice, not one per request
    assert "administrator" in notification["message"]

    # answered, the notice goes away only when nothing is left waiting
    admin = await hass_ws_client(hass)
    assert (await decide(admin, request_ids[0], approve=False))["outcome"] == "denied"
    await hass.async_block_till_done()
    assert list(await current()) == list(waiting)
    assert (await decide(admin, request_ids[1], approve=False))["outcome"] == "denied"
    await hass.async_block_till_done()
    assert await current() == {}


@pytest.mark.usefixtures("emulator")
async def test_a_member_sees_no_approval_details_in_entity_states(
    hass: HomeAssistant, hass_ws_client: WebSocketGenerator, hass_admin_user: User, guest: User
) -> None:
    """Every user reads every state: the Pending approvals sensor says only how many wait."""
    assert not guest.is_admin
    assert not guest.is_owner
    member = await hass_ws_client(hass, await token_for(hass, guest))
    await member.send_json_auto_id({"type": "subscribe_entities"})
    assert (await member.receive_json())["success"]
    pushed: list[Any] = [await member.receive_json()]  # the current states

    admin_asked = await ask(hass, hass_admin_user, "set_volume_limit", player=PLAYER, limit=17)
    guest_asked = await ask(hass, guest, "set_volume", player=PLAYER, volume=75)
    assert guest_asked.data["error"].startswith("Needs approval"), guest_asked.data
    await hass.async_block_till_done()
    request_ids = [admin_asked.data["request_id"], guest_asked.data["request_id"]]
    while True:
        try:
            async with asyncio.timeout(0.2):
                pushed.append(await member.receive_json())
        except TimeoutError:
            break
    await member.send_json_auto_id({"type": "get_states"})
    while (states := await member.receive_json())["type"] != "result":
        pushed.append(states)
    assert states["success"], states

    sensor = next(s for s in states["result"] if s["entity_id"] == PENDING_SENSOR)
    assert sensor["state"] == "2"  # that requests wait is all anyone learns
    everything = json.dumps([states["result"], pushed])
    assert "set_volume" not in everything
    for secret in [*request_ids, "Mock User", "Guest", hass_admin_user.id, guest.id]:
        found = re.search(rf"\b{re.escape(secret)}\b", everything)
        assert not found, everything[max(found.start() - 80, 0) : found.end() + 20]
    # the sensor's own data, not its timestamps (a "14:17" would match "17") or context ids
    pushed_to_the_sensor = [_without_times(e) for m in pushed for e in _sensor_entries(m)]
    assert len(pushed_to_the_sensor) >= 2, pushed  # its first state and the change to 2
    on_the_sensor = json.dumps([_without_times(sensor), pushed_to_the_sensor])
    for argument in ("17", "75"):
        found = re.search(rf"\b{argument}\b", on_the_sensor)
        assert not found, on_the_sensor[max(found.start() - 80, 0) : found.end() + 20]


_TIMES = frozenset(
    {"last_changed", "last_updated", "last_reported", "lc", "lu", "lr", "context", "c"}
)
"""State fields Home Assistant fills with times and context ids, not the sensor's data."""


def _sensor_entries(value: Any) -> list[Any]:
    """What a pushed message holds under the sensor's entity id: not the other entities'
    states around it (a media position of 17 s would match "17")."""
    if isinstance(value, dict):
        return [
            entry
            for key, inner in value.items()
            for entry in ([inner] if key == PENDING_SENSOR else _sensor_entries(inner))
        ]
    if isinstance(value, list):
        return [entry for inner in value for entry in _sensor_entries(inner)]
    return []


def _without_times(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_times(v) for k, v in value.items() if k not in _TIMES}
    if isinstance(value, list):
        return [_without_times(v) for v in value]
    return value
