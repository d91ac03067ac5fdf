"""The assistant entry's diagnostics show the guard settings its calls get, per streamer."""

from __future__ import annotations

import json

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.components.diagnostics import (
    get_diagnostics_for_config_entry,
)
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator
from syrupy.assertion import SnapshotAssertion

from custom_components.linn.agent.const import CONF_INSTRUCTIONS, CONF_LLM_APIS, DEFAULT_OPTIONS
from custom_components.linn.const import DOMAIN
from custom_components.linn.guard import OTHER_API_TOOLS
from custom_components.linn.tools.guard_options import OPT_POLICIES
from custom_components.linn.tools.ha_adapter import DATA_GUARD
from linn_emulator import LinnEmulator
from testing.fake_anthropic import FakeAnthropic, Reply, ToolUse

from .chat import AGENT, API_KEY, converse

KITCHEN = "media_player.kitchen"


@pytest.mark.parametrize(
    "assistant_options",
    [
        {
            **DEFAULT_OPTIONS,
            CONF_LLM_APIS: [llm.LLM_API_ASSIST],
            OPT_POLICIES: {"standby": "deny", "mute": "confirm", OTHER_API_TOOLS: "confirm"},
            "soft_limit_percent": 40,
            "quiet_hours_start": "22:00:00",
            "quiet_hours_end": "07:00:00",
            "notify_target": "mobile_app_parent",
        }
    ],
)
async def test_diagnostics_show_the_settings_this_assistants_calls_get_per_streamer(
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    assistant: MockConfigEntry,
    kitchen: LinnEmulator,
    snapshot: SnapshotAssertion,
) -> None:
    (kitchen_entry,) = [
        entry for entry in hass.config_entries.async_entries(DOMAIN) if entry.title == "Kitchen"
    ]
    hass.config_entries.async_update_entry(
        kitchen_entry,
        options={
            OPT_POLICIES: {"play": "confirm", "standby": "confirm"},
            "soft_limit_percent": 30,
            "approval_expiry_minutes": 3,
            "notify_target": "mobile_app_kitchen",
        },
    )
    diagnostics = await get_diagnostics_for_config_entry(hass, hass_client, assistant)
    effective = diagnostics["effective_guard_settings"]
    living_room, kitchen_settings = sorted(
        effective["streamers"], key=lambda streamer: streamer["title"] != "Living Room"
    )
    # the living room has the defaults: the assistant tightens them
    assert living_room["policies"]["standby"] == {"policy": "deny", "from": "assistant"}
    assert living_room["policies"]["play"] == {"policy": "allow", "from": "streamer"}
    assert living_room["soft_limit_percent"] == {"value": 40, "from": "assistant"}
    # the kitchen's own stricter values stay; the assistant's deny still tightens its confirm
    assert kitchen_settings["policies"]["play"] == {"policy": "confirm", "from": "streamer"}
    assert kitchen_settings["policies"]["standby"] == {"policy": "deny", "from": "assistant"}
    assert kitchen_settings["soft_limit_percent"] == {"value": 30, "from": "streamer"}
    assert kitchen_settings["approval_expiry_minutes"] == {"value": 3, "from": "streamer"}
    assert kitchen_settings["notify_targets"] == [
        {"target": "mobile_app_kitchen", "from": "streamer"},
        {"target": "mobile_app_parent", "from": "assistant"},
    ]
    assert effective["other_api_tools"] == {"policy": "confirm", "from": "assistant"}
    # what the guard itself applies to a call by this assistant on the kitchen
    applied = hass.data[DATA_GUARD].guard.settings((KITCHEN,), AGENT)
    assert applied is not None
    assert kitchen_settings["soft_limit_percent"]["value"] == round(applied.soft_limit_share * 100)
    assert API_KEY not in json.dumps(diagnostics)
    assert effective == snapshot


INSTRUCTIONS = "Call me Captain Nemo and never play Wagner"
FACT = "Ottilie sleeps at seven"
UTTERANCE = "please remember that Ottilie sleeps at seven"


@pytest.mark.parametrize(
    "assistant_options", [{**DEFAULT_OPTIONS, CONF_INSTRUCTIONS: INSTRUCTIONS}]
)
async def test_diagnostics_hold_no_remembered_fact_no_utterance_and_no_typed_text(
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    hass_admin_user: User,
    assistant: MockConfigEntry,
    fake: FakeAnthropic,
) -> None:
    """A diagnostics file is attached to public bug reports: counts and sizes, no words."""
    fake.script(
        Reply(tool_uses=(ToolUse("remember", {"fact": FACT}),)),
        Reply("I will remember that."),
    )
    await converse(hass, UTTERANCE, hass_admin_user)
    diagnostics = await get_diagnostics_for_config_entry(hass, hass_client, assistant)
    text = json.dumps(diagnostics)
    for private in ("Ottilie", "Nemo", "Wagner", "seven", hass_admin_user.id):
        assert private not in text
    assert diagnostics["memory"] == {"user 1": {"facts": 1, "characters": [len(FACT)]}}
    assert diagnostics["options"][CONF_INSTRUCTIONS] == {"characters": len(INSTRUCTIONS)}
