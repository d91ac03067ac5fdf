"""One gate for every change to a Linn player (issue 30 items 1 and 2).

A media player service call that runs inside a conversation turn (a chat log is set: an
intent of any agent, limited mode's local intents) gets the guard's decision for the
equivalent Linn tool; the UI, automations and scripts keep Home Assistant's permissions.
"""

from __future__ import annotations

from typing import Any

from homeassistant.auth.const import GROUP_ID_USER
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import chat_session, intent
from homeassistant.setup import async_setup_component
import pytest

from custom_components.linn.agent.const import DEFAULT_OPTIONS
from custom_components.linn.guard import Outcome
from custom_components.linn.tools.guard_options import OPT_POLICIES
from custom_components.linn.tools.ha_adapter import DATA_GUARD
from linn_emulator import LinnEmulator
from testing.fake_anthropic import ApiError, FakeAnthropic, planned, planned_change
from testing.ha.streamers import ENTITY_ID
from testing.helpers import wait_for

from .audit_views import conversation_input, local_intents
from .chat import AGENT, converse, speech


def _records(hass: HomeAssistant, tool: str) -> list[Any]:
    return [r for r in hass.data[DATA_GUARD].guard.audit.records if r.tool == tool]


async def _member(hass: HomeAssistant) -> Any:
    return await hass.auth.async_create_user("Member", group_ids=[GROUP_ID_USER])


@pytest.mark.usefixtures("assistant")
@pytest.mark.parametrize(
    "assistant_options", [{**DEFAULT_OPTIONS, OPT_POLICIES: {"standby": "deny"}}]
)
async def test_limited_mode_does_not_put_a_player_in_standby_the_owner_turned_off(
    hass: HomeAssistant, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    """The model is down; the local intent's turn_off reaches the gate: denied, audited,
    and the reply says why."""
    assert await async_setup_component(hass, "intent", {})
    member = await _member(hass)
    fake.script(ApiError(529, "overloaded_error", retry_after=0.01), ApiError.overloaded())
    result = await converse(hass, "turn off the living room", member)
    await hass.async_block_till_done()
    assert not emulator.state.standby
    assert [r.outcome for r in _records(hass, "standby")] == [Outcome.DENIED]
    assert "limited mode" in speech(result)
    assert "turned off for this assistant" in speech(result)


@pytest.mark.usefixtures("assistant")
@pytest.mark.parametrize(
    ("level", "admin", "said", "waiting"),
    [
        (95, False, "refused", 0),  # above the device's limit, as the Linn tool refuses it
        (50, True, "needs your yes", 0),  # no yes can be asked: none left unanswerable
        (70, False, "approval", 1),  # a jump of 40: waits for an administrator, as elsewhere
    ],
)
async def test_limited_mode_does_not_raise_the_volume_above_the_soft_limit_without_a_yes(
    hass: HomeAssistant,
    hass_admin_user: Any,
    emulator: LinnEmulator,
    fake: FakeAnthropic,
    level: int,
    admin: bool,
    said: str,
    waiting: int,
) -> None:
    """Above the soft limit a volume needs a yes (or an approval); limited mode asks none."""
    assert await async_setup_component(hass, "intent", {})
    user = hass_admin_user if admin else await _member(hass)
    fake.script(ApiError(529, "overloaded_error", retry_after=0.01), ApiError.overloaded())
    result = await converse(hass, f"set the living room volume to {level}", user)
    await hass.async_block_till_done()
    assert emulator.state.volume == 30
    outcomes = [r.outcome for r in _records(hass, "set_volume")]
    assert outcomes
    assert Outcome.ALLOWED not in outcomes
    assert said in speech(result)
    assert len(hass.data[DATA_GUARD].guard.pending.open_requests()) == waiting


@pytest.mark.usefixtures("assistant")
async def test_limited_mode_still_sets_a_volume_the_guard_allows(
    hass: HomeAssistant, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    """Below the soft limit the local intent runs, with an audit record."""
    assert await async_setup_component(hass, "intent", {})
    member = await _member(hass)
    fake.script(ApiError(529, "overloaded_error", retry_after=0.01), ApiError.overloaded())
    await converse(hass, "set the living room volume to 35", member)
    await wait_for(lambda: emulator.state.volume == 35)
    assert [r.outcome for r in _records(hass, "set_volume")] == [Outcome.ALLOWED]


async def test_another_agents_set_volume_against_the_users_words_is_refused(
    hass: HomeAssistant, hass_admin_user: Any, emulator: LinnEmulator, loaded_entry: Any
) -> None:
    """Another agent's HassSetVolume 80 in a turn whose user said 'down a bit'."""
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    assert await async_setup_component(hass, "intent", {})
    context = Context(user_id=hass_admin_user.id)
    user_input = conversation_input(
        "turn the living room down a bit", context, "conversation.other"
    )
    with (
        chat_session.async_get_chat_session(hass) as session,
        conversation.async_get_chat_log(hass, session, user_input),
        pytest.raises(intent.IntentHandleError),
    ):
        await intent.async_handle(
            hass,
            "test",
            "HassSetVolume",
            {"name": {"value": "Living Room"}, "volume_level": {"value": 80}},
            context=context,
            assistant=conversation.DOMAIN,
        )
    await hass.async_block_till_done()
    assert emulator.state.volume == 30
    outcomes = [r.outcome for r in _records(hass, "set_volume")]
    assert outcomes == [Outcome.DENIED], outcomes


async def test_another_agents_local_intent_without_an_assistant_keeps_the_streamers_policies(
    hass: HomeAssistant, emulator: LinnEmulator, loaded_entry: Any
) -> None:
    """No assistant entry of ours: a pipeline of another agent runs its local standby as the
    streamer's policies decide (allowed), with the agent's id in the record."""
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    assert await async_setup_component(hass, "intent", {})
    await local_intents(hass, await _member(hass), "conversation.other", "turn off the living room")
    await wait_for(lambda: emulator.state.standby)
    records = _records(hass, "standby")
    assert [r.outcome for r in records] == [Outcome.ALLOWED]
    assert records[0].agent_id == "conversation.other"


@pytest.mark.usefixtures("assistant")
@pytest.mark.parametrize(
    "assistant_options", [{**DEFAULT_OPTIONS, OPT_POLICIES: {"standby": "deny"}}]
)
async def test_our_assistants_policies_are_its_own_not_another_pipelines(
    hass: HomeAssistant, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    """The owner turned standby off for our assistant. A pipeline of another agent with
    local intents: the chat log says whose turn it is, and our assistant's settings do not
    govern that agent (its planner still plans the turn). The same pipeline with our
    assistant as its agent is denied (review 30, N5)."""
    assert await async_setup_component(hass, "intent", {})
    member = await _member(hass)
    fake.plan(planned(planned_change("standby", target="the living room")))
    await local_intents(hass, member, "conversation.other", "turn off the living room")
    await wait_for(lambda: emulator.state.standby)
    assert [r.outcome for r in _records(hass, "standby")] == [Outcome.ALLOWED]
    emulator.state.standby = False
    await local_intents(hass, member, AGENT, "turn off the living room")
    assert not emulator.state.standby
    records = _records(hass, "standby")
    assert [r.outcome for r in records] == [Outcome.ALLOWED, Outcome.DENIED]
    assert records[1].agent_id == AGENT


@pytest.mark.usefixtures("assistant")
@pytest.mark.parametrize(
    "assistant_options", [{**DEFAULT_OPTIONS, OPT_POLICIES: {"standby": "deny"}}]
)
async def test_ui_and_automation_calls_keep_home_assistants_permissions(
    hass: HomeAssistant, emulator: LinnEmulator
) -> None:
    """No chat log: no guard decision, no audit record, as before."""
    member = await _member(hass)
    await hass.services.async_call(
        "media_player",
        "volume_set",
        {"entity_id": ENTITY_ID, "volume_level": 0.95},
        blocking=True,
        context=Context(user_id=member.id),
    )
    await hass.services.async_call(
        "media_player", "turn_off", {"entity_id": ENTITY_ID}, blocking=True
    )
    await wait_for(lambda: emulator.state.standby and emulator.state.volume > 30)
    assert not _records(hass, "set_volume")
    assert not _records(hass, "standby")
