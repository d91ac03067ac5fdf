"""Approve-by-action through a conversation: the request waits, an admin's action runs it."""

from __future__ import annotations

import json

from homeassistant.auth.models import User
from homeassistant.core import Context, HomeAssistant
import pytest

from custom_components.linn.const import DOMAIN
from custom_components.linn.guard import Outcome
from custom_components.linn.tools.ha_adapter import DATA_GUARD
from linn_emulator import LinnEmulator
from testing.fake_anthropic import FakeAnthropic, Reply, ToolUse
from testing.helpers import wait_for

from .chat import PLAYER, converse, speech

pytestmark = pytest.mark.usefixtures("assistant")


async def test_an_approval_keeps_listening_and_the_admins_action_runs_it(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    fake: FakeAnthropic,
) -> None:
    fake.script(
        Reply(tool_uses=(ToolUse("linn__set_volume_limit", {"player": PLAYER, "limit": 70}),)),
        Reply("An administrator has to approve that."),
    )
    result = await converse(hass, "set the living room's volume limit to 70", hass_admin_user)
    assert speech(result) == "An administrator has to approve that."
    assert result.continue_conversation
    answer = json.loads(fake.message_requests[1].tool_results()[0]["content"])
    assert answer["error"].startswith("Needs approval: request ")
    assert emulator.state.volume_limit == 80
    response = await hass.services.async_call(
        DOMAIN, "approve", {"request_id": answer["request_id"]}, blocking=True,
        context=Context(user_id=hass_admin_user.id), return_response=True,
    )  # fmt: skip
    assert response == {"request_id": answer["request_id"], "outcome": "approved"}
    await wait_for(lambda: emulator.state.volume_limit == 70)
    assert hass.data[DATA_GUARD].guard.audit.records[-1].outcome is Outcome.APPROVED


async def test_a_denial_by_action_changes_nothing(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    fake.script(
        Reply(tool_uses=(ToolUse("linn__set_volume_limit", {"player": PLAYER, "limit": 70}),)),
        Reply("An administrator has to approve that."),
    )
    await converse(hass, "set the living room's volume limit to 70", hass_admin_user)
    request_id = json.loads(fake.message_requests[1].tool_results()[0]["content"])["request_id"]
    await hass.services.async_call(
        DOMAIN, "deny", {"request_id": request_id}, blocking=True,
        context=Context(user_id=hass_admin_user.id),
    )  # fmt: skip
    assert emulator.state.volume_limit == 80
    assert hass.data[DATA_GUARD].guard.audit.records[-1].outcome is Outcome.DENIED
