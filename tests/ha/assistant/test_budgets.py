"""Budgets: checked before every model call, and today's counters kept across a restart."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_fire_time_changed

from custom_components.linn.agent.const import CONF_BUDGET_CONVERSATION_TOKENS, DEFAULT_OPTIONS
from custom_components.linn.guard.ha_adapter import STORAGE_KEY, STORAGE_VERSION
from tests.fake_anthropic import FakeAnthropic, Reply, ToolUse

from .conftest import PLAYER, converse, speech

BUDGET_CONVERSATION = "This conversation has used up its assistant budget. Please start a new one."
BUDGET_DAY = "The assistant has used up today's budget."


@pytest.fixture
def stored_ledger(hass_storage: dict[str, Any]) -> None:
    """The guard's storage as a restart finds it: today's tokens over the day budget."""
    hass_storage[STORAGE_KEY] = {
        "version": STORAGE_VERSION,
        "minor_version": 1,
        "key": STORAGE_KEY,
        "data": {
            "pending": {"requests": []},
            "ledger": {
                "day": dt_util.now().date().isoformat(),
                "today": {"tokens": 2_500_000.0, "cost_usd": 1.5, "model_calls": 900.0},
                "players": {},
            },
        },
    }


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
    assert today["cost_usd"] > 0
