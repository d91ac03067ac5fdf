"""An evening's dialog: 100 turns with tool calls stay within the default budgets.

Token counts are the fake Messages API's (four characters a token of what the integration
really sends, the cache simulated as the API documents it) and each model message is
billed 200 output tokens (a low-effort thought and a call or a sentence).
"""

from __future__ import annotations

from datetime import timedelta
import json

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
import pytest

from custom_components.linn.agent.const import (
    CONF_BUDGET_CONVERSATION_COST,
    CONF_BUDGET_CONVERSATION_TOKENS,
    DEFAULT_OPTIONS,
)
from custom_components.linn.agent.usage import COST, TOKENS, WEIGHTED_TOKENS
from custom_components.linn.tools.ha_adapter import DATA_GUARD
from linn_emulator import LinnEmulator
from testing.fake_anthropic import FakeAnthropic, Reply, ToolUse
from testing.helpers import wait_for

from .chat import PLAYER, converse, speech

pytestmark = pytest.mark.usefixtures("assistant")

TURNS = 100
OUTPUT_TOKENS = 200


async def test_a_hundred_turns_with_tools_stay_within_the_default_budgets(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    fake: FakeAnthropic,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    conversation_id: str | None = None
    real_now = dt_util.now
    minutes = 0
    # a minute between commands, as at home (within the guard's 20 changes a minute)
    monkeypatch.setattr(dt_util, "now", lambda *a: real_now(*a) + timedelta(minutes=minutes))
    for turn in range(TURNS):
        minutes = turn
        volume = 20 + turn % 15
        fake.script(
            Reply(
                tool_uses=(ToolUse("linn__set_volume", {"player": PLAYER, "volume": volume}),),
                output_tokens=OUTPUT_TOKENS,
            ),
            Reply(f"The living room is at {volume}.", output_tokens=OUTPUT_TOKENS),
        )
        result = await converse(
            hass, f"set the living room to {volume}", hass_admin_user, conversation_id
        )
        assert speech(result) == f"The living room is at {volume}.", f"turn {turn + 1}"
        result_data = json.loads(fake.message_requests[-1].tool_results()[0]["content"])
        assert result_data.get("done") is True, (turn + 1, result_data)
        await wait_for(lambda volume=volume: emulator.state.volume == volume)
        conversation_id = result.conversation_id
    assert len(fake.message_requests) == 2 * TURNS
    spent = hass.data[DATA_GUARD].guard.ledger.for_conversation(conversation_id, hass_admin_user.id)
    # the raw count is mostly cache reads, far beyond what a raw-token budget allowed
    assert spent[TOKENS] > 1_000_000
    assert spent[WEIGHTED_TOKENS] < 0.8 * DEFAULT_OPTIONS[CONF_BUDGET_CONVERSATION_TOKENS]
    assert spent[COST] < 0.8 * DEFAULT_OPTIONS[CONF_BUDGET_CONVERSATION_COST]
