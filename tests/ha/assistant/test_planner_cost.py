"""What the planner costs beside the turn it plans (issue 29): measured with the fake API.

The real planning request (agent/planner.py builds it) and the turn's own model calls go
through Home Assistant on the default model; the fake Messages API estimates tokens as
canonical JSON size / 4 and simulates the prompt cache with the model's own minimum
cacheable length (Haiku 5.5: 512). A realistic first turn (search, then play) and a
follow-up ("a bit quieter" after the search's device text, which only the plan lets run).
With LINN_PLANNER_COST_REPORT=<file> the figures docs/evaluation.md quotes are written.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
import pytest

from custom_components.linn.agent.const import CONF_MODEL, DEFAULT_OPTIONS
from custom_components.linn.agent.planner import PLANNING_PROMPT
from custom_components.linn.agent.usage import Usage
from linn_emulator import LinnEmulator
from testing.fake_anthropic import FakeAnthropic, Reply, ToolUse, planned, planned_change
from testing.fake_anthropic.cache_floors import min_cacheable_tokens
from testing.fake_anthropic.caching import prompt_tokens
from testing.helpers import wait_for

from .chat import PLAYER, converse

pytestmark = pytest.mark.usefixtures("assistant")
SLEEP_PIN = 4


def _usage(usage: dict[str, int]) -> Usage:
    return Usage(
        input_tokens=usage["input_tokens"],
        output_tokens=usage["output_tokens"],
        cache_read_tokens=usage.get("cache_read_input_tokens") or 0,
        cache_write_tokens=usage.get("cache_creation_input_tokens") or 0,
    )


def _row(model: str, usages: list[dict[str, int]]) -> dict[str, Any]:
    each = [_usage(usage) for usage in usages]
    total = Usage(
        input_tokens=sum(u.input_tokens for u in each),
        output_tokens=sum(u.output_tokens for u in each),
        cache_read_tokens=sum(u.cache_read_tokens for u in each),
        cache_write_tokens=sum(u.cache_write_tokens for u in each),
    )
    return {
        "requests": len(usages),
        "input": total.input_tokens,
        "cache_write": total.cache_write_tokens,
        "cache_read": total.cache_read_tokens,
        "output": total.output_tokens,
        "usd": round(sum(u.cost(model) for u in each), 6),  # each request's own price band
    }


async def test_the_planner_costs_a_fraction_of_the_turn(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    model = DEFAULT_OPTIONS[CONF_MODEL]
    assert model == "claude-haiku-5-5"
    emulator.panel.set_pin_title(SLEEP_PIN, "Sleep Sounds")
    rows: dict[str, dict[str, Any]] = {}

    async def turn(label: str, text: str, conversation_id: str | None) -> str:
        turn_usages, plan_usages = len(fake.usages), len(fake.plan_usages)
        result = await converse(hass, text, hass_admin_user, conversation_id)
        await hass.async_block_till_done()
        rows[label] = {
            "turn": _row(model, [usage for _, usage in fake.usages[turn_usages:]]),
            "planner": _row(model, fake.plan_usages[plan_usages:]),
        }
        assert result.conversation_id is not None
        return result.conversation_id

    fake.plan(
        planned(planned_change("play", item="something to help me sleep")),
        planned(planned_change("volume", volume="down")),
    )
    fake.script(
        Reply(tool_uses=(ToolUse("linn__search_music", {"player": PLAYER, "query": "sleep"}),)),
        Reply(tool_uses=(ToolUse("linn__play_music", {"player": PLAYER, "item": "m1"}),)),
        Reply("Playing Sleep Sounds in the living room."),
    )
    conversation_id = await turn("first turn", "play something to help me sleep", None)
    await wait_for(lambda: emulator.state.source.system_name == "Radio")
    volume = emulator.state.volume
    fake.script(
        Reply(tool_uses=(ToolUse("linn__change_volume", {"player": PLAYER, "change": -5}),)),
        Reply("A bit quieter."),
    )
    await turn("follow-up", "a bit quieter", conversation_id)
    await wait_for(lambda: emulator.state.volume == volume - 5)

    planning = fake.plan_requests[0].body
    assert planning is not None
    assert planning["system"][0]["text"] == PLANNING_PROMPT  # the request the code builds
    total, prefix = prompt_tokens(planning)
    floor = min_cacheable_tokens(model)
    first, follow_up = rows["first turn"], rows["follow-up"]
    # the planning prefix (tool and prompt, no padding) reaches Haiku 5.5's minimum by the
    # fake's estimate: the first turn writes it, the follow-up reads it
    assert prefix >= floor
    assert first["planner"]["cache_write"] > 0
    assert first["planner"]["cache_read"] == 0
    assert follow_up["planner"]["cache_read"] > 0
    assert follow_up["planner"]["cache_write"] == 0
    # the turn's own prefix is cached from the first call on
    assert first["turn"]["cache_read"] > 0
    assert follow_up["turn"]["cache_read"] > 0
    for row in rows.values():
        assert row["planner"]["requests"] == 1
        assert row["planner"]["usd"] < row["turn"]["usd"], rows
    if target := os.environ.get("LINN_PLANNER_COST_REPORT"):
        report = json.dumps(
            {
                "model": model,
                "planning_prompt_tokens": total,
                "planning_prefix_tokens": prefix,
                "min_cacheable_tokens": floor,
                "turns": rows,
            },
            indent=2,
        )
        await hass.async_add_executor_job(Path(target).write_text, report)
