"""Budgets: checked before every model call, and today's counters kept across a restart."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from homeassistant.auth.const import GROUP_ID_USER
from homeassistant.auth.models import User
from homeassistant.const import CONF_API_KEY
from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_fire_time_changed

from custom_components.linn import async_migrate_entry
from custom_components.linn.agent.const import (
    CONF_BUDGET_CONVERSATION_TOKENS,
    CONF_BUDGET_DAY_SHARE,
    CONF_BUDGET_DAY_TOKENS,
    CONF_LLM_APIS,
    DEFAULT_OPTIONS,
)
from custom_components.linn.agent.messages import TRIMMED_RESULT
from custom_components.linn.agent.usage import WEIGHTED_TOKENS
from custom_components.linn.const import DOMAIN
from custom_components.linn.tools.ha_adapter import DATA_GUARD, STORAGE_KEY, STORAGE_VERSION
from linn_emulator import LinnEmulator
from testing.fake_anthropic import FakeAnthropic, Reply, ToolUse, planned, planned_change
from testing.helpers import wait_for

from .audit_views import assist_sets_volume_25
from .chat import PLAYER, converse, speech

BUDGET_CONVERSATION = "This conversation has used up its assistant budget. Please start a new one."
BUDGET_DAY = "The assistant has used up today's budget."
BUDGET_SHARE = {
    "en": "You have used up your share of the assistant's budget for today. An administrator "
    "can change the share.",
    "de": "Du hast deinen Anteil am Budget des Assistenten für heute aufgebraucht. Ein "
    "Administrator kann den Anteil ändern.",
}


def _storage_with_ledger(today: dict[str, float], **more: Any) -> dict[str, Any]:
    """The guard's storage with no pending requests and a ledger of today: `today`'s totals,
    no players, and `more` (users) as given."""
    return {
        "version": STORAGE_VERSION,
        "minor_version": 1,
        "key": STORAGE_KEY,
        "data": {
            "pending": {"requests": []},
            "ledger": {
                "day": dt_util.now().date().isoformat(),
                "today": today,
                "players": {},
                **more,
            },
        },
    }


@pytest.fixture
def stored_ledger(hass_storage: dict[str, Any]) -> None:
    """The guard's storage as a restart finds it: today's tokens over the day budget."""
    hass_storage[STORAGE_KEY] = _storage_with_ledger(
        {
            "tokens": 25_000_000.0,
            "weighted_tokens": 6_500_000.0,
            "cost_usd": 1.5,
            "model_calls": 900.0,
        }
    )


@pytest.mark.parametrize(
    "assistant_options", [{**DEFAULT_OPTIONS, CONF_BUDGET_CONVERSATION_TOKENS: 10}]
)
async def test_the_budget_is_checked_before_every_model_call_of_a_turn(
    hass: HomeAssistant, assistant: MockConfigEntry, hass_admin_user: User, fake: FakeAnthropic
) -> None:
    """The first call of the turn spends the budget: the tool runs, the next call does not."""
    fake.script(Reply(tool_uses=(ToolUse("linn__get_state", {"player": PLAYER}),)))
    result = await converse(hass, "what is playing", hass_admin_user)
    assert speech(result) == BUDGET_CONVERSATION  # said, not a silent stop
    assert len(fake.message_requests) == 1


async def test_todays_counters_survive_a_restart(
    hass: HomeAssistant,
    stored_ledger: None,
    assistant: MockConfigEntry,
    hass_admin_user: User,
    fake: FakeAnthropic,
) -> None:
    result = await converse(hass, "tell me a poem about speakers", hass_admin_user)
    assert speech(result).startswith(BUDGET_DAY)
    assert fake.message_requests == []


async def test_a_model_calls_usage_is_stored(
    hass: HomeAssistant,
    assistant: MockConfigEntry,
    hass_admin_user: User,
    fake: FakeAnthropic,
    hass_storage: dict[str, Any],
) -> None:
    fake.script(Reply("Hello."))
    await converse(hass, "hello", hass_admin_user)
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(seconds=5))
    await hass.async_block_till_done()
    today = hass_storage[STORAGE_KEY]["data"]["ledger"]["today"]
    assert today["model_calls"] == 1
    assert today["tokens"] > 0
    assert today["weighted_tokens"] > 0
    assert today["cost_usd"] > 0


@pytest.mark.parametrize(
    "assistant_options", [{**DEFAULT_OPTIONS, CONF_BUDGET_CONVERSATION_TOKENS: 10}]
)
@pytest.mark.parametrize(
    ("language", "utterance", "done"),
    [
        ("en", "set the living room to 35", "Done: Living Room: volume 35. "),
        ("de", "Wohnzimmer auf 35", "Erledigt: Living Room: Lautstärke 35. "),
    ],
)
@pytest.mark.usefixtures("assistant")
async def test_a_change_that_ran_is_reported_when_the_budget_stops_the_turn(
    hass: HomeAssistant,
    hass_admin_user: User,
    fake: FakeAnthropic,
    emulator: LinnEmulator,
    language: str,
    utterance: str,
    done: str,
) -> None:
    """The budget runs out after the call that changed the volume: the user hears both."""
    fake.script(Reply(tool_uses=(ToolUse("linn__set_volume", {"player": PLAYER, "volume": 35}),)))
    result = await converse(hass, utterance, hass_admin_user, language=language)
    await wait_for(lambda: emulator.state.volume == 35)
    assert speech(result).startswith(done)
    assert speech(result) != done  # and why it stopped
    assert len(fake.message_requests) == 1


@pytest.mark.parametrize(
    "assistant_options", [{**DEFAULT_OPTIONS, CONF_BUDGET_CONVERSATION_TOKENS: 40_000}]
)
async def test_near_the_budget_the_oldest_results_are_trimmed_before_any_refusal(
    hass: HomeAssistant,
    assistant: MockConfigEntry,
    hass_admin_user: User,
    fake: FakeAnthropic,
) -> None:
    conversation_id: str | None = None
    trimmed_at: int | None = None
    for turn in range(40):
        fake.script(
            Reply(tool_uses=(ToolUse("linn__get_state", {"player": PLAYER}),), output_tokens=200),
            Reply(f"Answer {turn}.", output_tokens=200),
        )
        result = await converse(
            hass, f"what is playing now {turn}", hass_admin_user, conversation_id
        )
        conversation_id = result.conversation_id
        if speech(result) != f"Answer {turn}.":
            break
        last = fake.message_requests[-1]
        results = [
            block["content"]
            for message in last.messages
            if isinstance(message["content"], list)
            for block in message["content"]
            if block.get("type") == "tool_result"
        ]
        if trimmed_at is None and TRIMMED_RESULT in results:
            trimmed_at = turn
            # every earlier turn's result is left out; this turn's is sent whole
            assert results[:-1] == [TRIMMED_RESULT] * turn
            assert results[-1] != TRIMMED_RESULT
    else:
        pytest.fail("the budget never ran out")
    assert speech(result) == BUDGET_CONVERSATION
    fake.discard_plan()  # the refused turn's answer
    assert trimmed_at is not None, "refused without trimming first"
    assert 0 < trimmed_at < turn


async def test_token_budgets_left_at_the_raw_defaults_are_migrated(hass: HomeAssistant) -> None:
    """Minor version 1 counted raw tokens: its defaults move, a chosen value stays."""
    entry = MockConfigEntry(
        domain=DOMAIN,
        data={CONF_API_KEY: "sk-ant-test"},
        options={
            **DEFAULT_OPTIONS,
            CONF_BUDGET_CONVERSATION_TOKENS: 100_000,
            CONF_BUDGET_DAY_TOKENS: 3_000_000,
        },
        version=1,
        minor_version=1,
    )
    entry.add_to_hass(hass)
    assert await async_migrate_entry(hass, entry)
    assert entry.minor_version == 2
    assert (
        entry.options[CONF_BUDGET_CONVERSATION_TOKENS]
        == DEFAULT_OPTIONS[CONF_BUDGET_CONVERSATION_TOKENS]
        != 100_000
    )
    assert entry.options[CONF_BUDGET_DAY_TOKENS] == 3_000_000


@pytest.mark.parametrize(
    "assistant_options",
    [{**DEFAULT_OPTIONS, CONF_BUDGET_CONVERSATION_TOKENS: 10, CONF_LLM_APIS: [llm.LLM_API_ASSIST]}],
)
async def test_another_apis_change_that_ran_is_reported_when_the_budget_stops_the_turn(
    hass: HomeAssistant,
    assistant: MockConfigEntry,
    hass_admin_user: User,
    fake: FakeAnthropic,
    emulator: LinnEmulator,
) -> None:
    fake.plan(planned(planned_change("volume", target="living room", volume="level", level=25)))
    fake.script(assist_sets_volume_25())
    result = await converse(hass, "living room volume 25", hass_admin_user)
    await wait_for(lambda: emulator.state.volume == 25)
    assert speech(result) == f"Done: HassSetVolume. {BUDGET_CONVERSATION}"


@pytest.mark.parametrize("language", ["en", "de"])
async def test_a_member_over_their_share_is_refused_and_the_others_still_reach_the_model(
    hass: HomeAssistant,
    assistant: MockConfigEntry,
    hass_admin_user: User,
    fake: FakeAnthropic,
    emulator: LinnEmulator,
    language: str,
) -> None:
    """One member uses up their share: their next turn is refused in their language, with
    no model call and no local intent; the admin and another member still reach the model.

    The day budget is set from the member's first call, so the test holds whatever a call
    weighs: a 25 % share of 3.5 calls is under one call, the household's is three more.
    """
    member = await hass.auth.async_create_user("Member", group_ids=[GROUP_ID_USER])
    other = await hass.auth.async_create_user("Other member", group_ids=[GROUP_ID_USER])
    ledger = hass.data[DATA_GUARD].guard.ledger
    fake.script(Reply("Hello."))
    result = await converse(hass, "hello", member, language=language)
    assert speech(result) == "Hello."
    one_call = ledger.for_user(member.id)[WEIGHTED_TOKENS]
    assert one_call > 0
    hass.config_entries.async_update_entry(
        assistant,
        options={
            **assistant.options,
            CONF_BUDGET_DAY_TOKENS: int(3.5 * one_call),
            CONF_BUDGET_DAY_SHARE: 25,
        },
    )
    await hass.async_block_till_done()

    requests, plans = len(fake.message_requests), len(fake.plan_requests)
    # a local intent would turn the player off; the refusal runs nothing
    result = await converse(hass, "turn off the living room", member, language=language)
    assert speech(result) == BUDGET_SHARE[language]
    assert len(fake.message_requests) == requests, "the member's turn reached the model"
    await hass.async_block_till_done()
    assert len(fake.plan_requests) == plans, "the member's turn sent a planning request"
    await hass.async_block_till_done()
    assert emulator.state.standby is False, "the member's refused turn ran a local intent"

    fake.script(Reply("Hi, other."))
    result = await converse(hass, "hello", other, language=language)
    assert speech(result) == "Hi, other."
    fake.script(Reply("Hi, admin."))
    result = await converse(hass, "hello", hass_admin_user, language=language)
    assert speech(result) == "Hi, admin."
    assert len(fake.message_requests) == requests + 2


async def _only_the_admin_reaches_the_model(
    hass: HomeAssistant, fake: FakeAnthropic, admin: User, *over_their_share: User | None
) -> None:
    """Each of `over_their_share` (None: a caller with no user) is told of their share, with
    no model call; then the admin asks and gets the model's answer."""
    for user in over_their_share:
        result = await converse(hass, "tell me a poem", user)
        assert speech(result) == BUDGET_SHARE["en"]
    assert fake.message_requests == []
    fake.script(Reply("A poem."))
    result = await converse(hass, "tell me a poem", admin)
    assert speech(result) == "A poem."


@pytest.mark.parametrize("assistant_options", [{**DEFAULT_OPTIONS, CONF_BUDGET_DAY_SHARE: 0}])
async def test_callers_with_no_user_share_one_members_part(
    hass: HomeAssistant, assistant: MockConfigEntry, hass_admin_user: User, fake: FakeAnthropic
) -> None:
    """An anonymous satellite is a member too: at 0 % it never reaches the model; the
    admin does."""
    await _only_the_admin_reaches_the_model(hass, fake, hass_admin_user, None)


@pytest.fixture
async def stored_member(
    hass: HomeAssistant, hass_storage: dict[str, Any], hass_admin_user: User
) -> User:
    """A member, and the guard's storage as a restart finds it: the member over half the
    day budget, the callers with no user too, the household under it.

    After the admin: the first user created would be the owner, an admin.
    """
    member = await hass.auth.async_create_user("Member", group_ids=[GROUP_ID_USER])
    hass_storage[STORAGE_KEY] = _storage_with_ledger(
        {"weighted_tokens": 3_500_000.0, "cost_usd": 0.2, "model_calls": 60.0},
        users={
            member.id: {"weighted_tokens": 3_100_000.0, "cost_usd": 0.1},
            "": {"weighted_tokens": 3_000_000.0, "cost_usd": 0.1},
        },
    )
    assert not member.is_admin
    return member


async def test_the_per_user_counters_survive_a_restart(
    hass: HomeAssistant,
    stored_member: User,
    assistant: MockConfigEntry,
    hass_admin_user: User,
    fake: FakeAnthropic,
) -> None:
    """Default options (6,000,000 a day, 50 % a member): the stored member is over their
    share, so are the callers with no user; the admin still reaches the model."""
    await _only_the_admin_reaches_the_model(hass, fake, hass_admin_user, stored_member, None)
