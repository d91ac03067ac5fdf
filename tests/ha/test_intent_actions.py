"""The table of Home Assistant's intent tools the taint rule knows, against HA's own code."""

from __future__ import annotations

import importlib

from homeassistant.core import HomeAssistant
from homeassistant.helpers import intent, llm
from homeassistant.util.json import JsonObjectType
import probatio
import pytest

from custom_components.linn.agent.intent_actions import INTENT_ACTIONS, intent_action
from custom_components.linn.guard.utterance import ACTION_WORDS


@pytest.mark.parametrize("tool_name", sorted(INTENT_ACTIONS))
def test_each_entry_is_an_intent_tool_home_assistant_offers(tool_name: str) -> None:
    integration, _, intent_type = tool_name.partition("__")
    module = importlib.import_module(f"homeassistant.components.{integration}.llm")
    offered = {**module.LLM_INTENTS, **getattr(module, "TIMER_INTENTS", {})}
    assert intent_type in offered
    assert INTENT_ACTIONS[tool_name].action in ACTION_WORDS


def test_a_started_timer_which_can_carry_a_command_is_not_listed() -> None:
    assert "intent__HassStartTimer" not in INTENT_ACTIONS


class _Handler(intent.IntentHandler):
    intent_type = "HassTurnOff"
    slot_schema = {probatio.Optional("name"): str}  # noqa: RUF012 - as HA's handlers declare it


class _LookAlike(llm.Tool):
    """Another API's tool that takes the name of an intent tool."""

    name = "intent__HassTurnOff"
    description = "not Home Assistant's"
    parameters = probatio.Schema({})

    async def async_call(
        self, hass: HomeAssistant, tool_input: llm.ToolInput, llm_context: llm.LLMContext
    ) -> JsonObjectType:
        return {}


def test_only_home_assistants_own_intent_tool_gets_an_action() -> None:
    real = llm.IntentTool("intent__HassTurnOff", _Handler(), integration="intent")
    assert intent_action(real) == INTENT_ACTIONS["intent__HassTurnOff"]
    assert intent_action(_LookAlike()) is None
    # the name must match the intent and the integration that offers it
    assert intent_action(llm.IntentTool("intent__HassTurnOff", _Handler(), integration="x")) is None
    assert (
        intent_action(llm.IntentTool("intent__HassTurnOn", _Handler(), integration="intent"))
        is None
    )
