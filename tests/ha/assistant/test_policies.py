"""The guard's policies in the assistant's options: they govern the calls this assistant
makes, on top of the streamers' settings, and only ever tighten them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
import json
from typing import Any

from homeassistant.auth.models import User
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import llm
from homeassistant.setup import async_setup_component
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_mock_service

from custom_components.linn.agent.const import (
    CONF_MAX_STEPS,
    CONF_MODEL,
    DEFAULT_OPTIONS,
)
from custom_components.linn.guard import OTHER_API_TOOLS, Outcome
from custom_components.linn.tools.guard_options import OPT_POLICIES
from custom_components.linn.tools.ha_adapter import DATA_GUARD
from custom_components.linn.tools.linn_tools import TOOL_SPECS
from linn_emulator import LinnEmulator
from testing.fake_anthropic import FakeAnthropic, Reply, ToolUse
from testing.helpers import wait_for

from .chat import AGENT, PLAYER, assistant_entry, converse, speech

OTHER_AGENT = "conversation.other_assistant"


def _guard_input(**changes: Any) -> dict[str, Any]:
    """The form as a user submits it: every policy (their defaults), nothing else set."""
    policies = dict.fromkeys([*TOOL_SPECS, OTHER_API_TOOLS], "allow") | {
        "set_volume_limit": "approve"
    }
    return {OPT_POLICIES: policies, **changes}


async def _open_guard_step(hass: HomeAssistant, entry: MockConfigEntry) -> dict[str, Any]:
    result = await hass.config_entries.options.async_init(entry.entry_id)
    assert result["type"] is FlowResultType.MENU
    assert result["menu_options"] == ["assistant", "assistant_guard"]
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], {"next_step_id": "assistant_guard"}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "assistant_guard"
    return dict(result)


def _tool_error(fake: FakeAnthropic, request: int = 1) -> str:
    return str(json.loads(fake.message_requests[request].tool_results()[0]["content"])["error"])


@pytest.fixture
async def other_assistant(
    hass: HomeAssistant, assistant: MockConfigEntry, fake: FakeAnthropic
) -> AsyncIterator[MockConfigEntry]:
    """A second assistant entry with the default options: another agent."""
    async with assistant_entry(
        hass, fake, "Other assistant", dict(DEFAULT_OPTIONS), OTHER_AGENT
    ) as entry:
        yield entry


async def test_the_guard_step_stores_the_policies_and_refuses_bad_input(
    hass: HomeAssistant, assistant: MockConfigEntry
) -> None:
    async_mock_service(hass, "notify", "mobile_app_parent")
    before = dict(assistant.options)
    flow = await _open_guard_step(hass, assistant)
    schema = flow["data_schema"].schema
    limit_choices = schema[OPT_POLICIES].schema.schema["set_volume_limit"].config["options"]
    assert limit_choices == ["approve", "deny"]  # its minimum stays
    read_choices = schema[OPT_POLICIES].schema.schema["get_state"].config["options"]
    assert read_choices == ["allow", "deny"]  # a read has nothing to confirm
    other_apis = schema[OPT_POLICIES].schema.schema[OTHER_API_TOOLS].config["options"]
    assert other_apis == ["allow", "confirm", "deny"]  # an admin's approval runs Linn tools only

    flow = dict(
        await hass.config_entries.options.async_configure(
            flow["flow_id"], _guard_input(notify_target="mobile_app_nobody")
        )
    )
    assert flow["errors"] == {"notify_target": "unknown_notify_target"}
    flow = dict(
        await hass.config_entries.options.async_configure(
            flow["flow_id"], _guard_input(quiet_hours_start="22:00:00")
        )
    )
    assert flow["errors"] == {"base": "quiet_hours_incomplete"}
    assert dict(assistant.options) == before  # a refused form changes nothing

    policies = _guard_input()[OPT_POLICIES] | {"standby": "deny", "mute": "confirm"}
    result = await hass.config_entries.options.async_configure(
        flow["flow_id"],
        _guard_input(
            policies=policies,
            soft_limit_percent=40.0,
            quiet_hours_start="22:00:00",
            quiet_hours_end="07:00:00",
            notify_target="notify.mobile_app_parent",
        ),
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert dict(assistant.options) == {
        **before,  # the model and budgets stay as they were
        OPT_POLICIES: policies,
        "soft_limit_percent": 40,
        "quiet_hours_start": "22:00:00",
        "quiet_hours_end": "07:00:00",
        "notify_target": "mobile_app_parent",
    }

    # emptied fields go (the streamers' own apply again); the model step keeps the policies
    flow = await _open_guard_step(hass, assistant)
    await hass.config_entries.options.async_configure(flow["flow_id"], _guard_input())
    assert "soft_limit_percent" not in assistant.options
    assert "notify_target" not in assistant.options
    menu = await hass.config_entries.options.async_init(assistant.entry_id)
    flow = dict(
        await hass.config_entries.options.async_configure(
            menu["flow_id"], {"next_step_id": "assistant"}
        )
    )
    await hass.config_entries.options.async_configure(
        flow["flow_id"], {**dict(DEFAULT_OPTIONS), CONF_MODEL: "my-model", CONF_MAX_STEPS: 4}
    )
    assert assistant.options[CONF_MODEL] == "my-model"
    assert assistant.options[OPT_POLICIES] == _guard_input()[OPT_POLICIES]


@pytest.mark.parametrize(
    "assistant_options", [{**DEFAULT_OPTIONS, OPT_POLICIES: {"standby": "deny"}}]
)
@pytest.mark.usefixtures("assistant")
async def test_an_assistants_deny_blocks_its_call_but_not_assist_with_another_agent(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    fake.script(
        Reply(tool_uses=(ToolUse("linn__standby", {"player": PLAYER}),)),
        Reply("Standby is turned off for me."),
    )
    result = await converse(hass, "turn off the living room", hass_admin_user)
    assert speech(result) == "Standby is turned off for me."
    assert _tool_error(fake) == "Denied: this action is turned off"
    assert not emulator.state.standby
    record = hass.data[DATA_GUARD].guard.audit.records[-1]
    assert (record.outcome, record.agent_id) == (Outcome.DENIED, AGENT)

    # the same call through Home Assistant's Assist API, as any other agent makes it
    assert await async_setup_component(hass, "llm", {})
    api = await llm.async_get_api(
        hass,
        llm.LLM_API_ASSIST,
        llm.LLMContext(
            platform="other_agent",
            context=Context(user_id=hass_admin_user.id),
            language="en",
            assistant="conversation",
            device_id=None,
        ),
    )
    other = await api.async_call_tool(llm.ToolInput("linn__standby", {"player": PLAYER}))
    assert not other.error, other.data
    await wait_for(lambda: emulator.state.standby)


@pytest.mark.parametrize(
    "assistant_options", [{**DEFAULT_OPTIONS, OPT_POLICIES: {"mute": "confirm"}}]
)
async def test_an_assistants_confirm_asks_for_its_call_while_another_assistant_runs_it(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    fake: FakeAnthropic,
    other_assistant: MockConfigEntry,
) -> None:
    fake.script(
        Reply(tool_uses=(ToolUse("linn__mute", {"player": PLAYER, "muted": True}),)),
        Reply("Shall I mute the living room?"),
    )
    result = await converse(hass, "mute the living room", hass_admin_user)
    assert result.continue_conversation
    assert _tool_error(fake).startswith("Needs confirmation")
    assert not emulator.state.mute
    requests = len(fake.message_requests)
    result = await converse(hass, "yes", hass_admin_user, result.conversation_id)
    assert speech(result) == "Done."
    await wait_for(lambda: emulator.state.mute)
    assert len(fake.message_requests) == requests  # the yes was resolved in code

    # the other assistant has no such policy: the same call runs at once
    fake.script(
        Reply(tool_uses=(ToolUse("linn__mute", {"player": PLAYER, "muted": False}),)),
        Reply("Unmuted."),
    )
    result = await conversation.async_converse(
        hass, "unmute the living room", None, Context(user_id=hass_admin_user.id),
        language="en", agent_id=OTHER_AGENT,
    )  # fmt: skip
    assert speech(result) == "Unmuted."
    assert not result.continue_conversation
    await wait_for(lambda: not emulator.state.mute)
    record = hass.data[DATA_GUARD].guard.audit.records[-1]
    assert (record.outcome, record.agent_id) == (Outcome.ALLOWED, OTHER_AGENT)


@pytest.mark.parametrize(
    "assistant_options", [{**DEFAULT_OPTIONS, OPT_POLICIES: {"standby": "allow"}}]
)
async def test_an_assistants_allow_does_not_loosen_a_streamers_deny(
    hass: HomeAssistant,
    assistant: MockConfigEntry,
    hass_admin_user: User,
    emulator: LinnEmulator,
    fake: FakeAnthropic,
    standby_the_streamer_denies: None,
) -> None:
    await converse(hass, "turn off the living room", hass_admin_user)
    assert _tool_error(fake) == "Denied: this action is turned off"
    assert not emulator.state.standby


@pytest.mark.parametrize(
    "assistant_options",
    [{**DEFAULT_OPTIONS, "notify_target": "mobile_app_parent", "approval_expiry_minutes": 2}],
)
@pytest.mark.usefixtures("assistant")
async def test_a_request_this_assistant_raises_goes_to_its_notify_target_with_its_expiry(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    notified = async_mock_service(hass, "notify", "mobile_app_parent")
    fake.script(
        Reply(tool_uses=(ToolUse("linn__set_volume_limit", {"player": PLAYER, "limit": 70}),)),
        Reply("An administrator has to approve that."),
    )
    await converse(hass, "set the living room's volume limit to 70", hass_admin_user)
    request_id = json.loads(fake.message_requests[1].tool_results()[0]["content"])["request_id"]
    await wait_for(lambda: len(notified) == 1)
    actions = notified[0].data["data"]["actions"]
    assert actions[0]["action"].startswith(f"LINN_APPROVE_{request_id}_")
    request = hass.data[DATA_GUARD].guard.pending.get(request_id)
    assert request is not None
    assert request.expires - request.created == timedelta(minutes=2)  # the streamer's is 5
    assert emulator.state.volume_limit == 80
