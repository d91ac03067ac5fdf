"""Both agents on one Home Assistant, the same home and players, the same fake Messages API.

- theirs: Home Assistant's own `anthropic` integration, added through its config flow with
  the defaults it offers (the Assist API, prompt caching of the system prompt). It builds
  its client with the SDK's default base URL, so it reaches the fake the way a user could
  point it elsewhere: the SDK's ANTHROPIC_BASE_URL environment variable (the caller sets it).
- ours: the Linn assistant entry (base_url in its data, as its config flow stores it), with
  its default options.

Both run with one model: `model`, or each its own default when None. Core anthropic gets
another model the way a user would choose it, through its conversation subentry's
reconfigure flow (not recommended settings, the model, then the model step's defaults:
thinking budget 1,024 for a budgeted-thinking model, effort low for an adaptive one); ours
through its model option. Each agent then sends that model's thinking parameters as it
decides them from the capabilities the fake lists.

Each task runs through one agent, then the players are reset and it runs through the other;
the fake's requests between the two are that run's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
import os
from typing import Any, Final

from homeassistant.components import conversation
from homeassistant.components.anthropic.const import (
    CONF_CHAT_MODEL,
    CONF_RECOMMENDED,
    DEFAULT as CORE_DEFAULTS,
)
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.const import CONF_API_KEY, CONF_LLM_HASS_API, CONF_PROMPT
from homeassistant.core import Context, HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import device_registry as dr, entity_registry as er
from homeassistant.helpers.llm import LLM_API_ASSIST
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn.agent.const import (
    CONF_BASE_URL,
    CONF_LLM_APIS,
    CONF_MODEL,
    DEFAULT_OPTIONS,
)
from custom_components.linn.const import DOMAIN
from linn_emulator import LinnEmulator
from linn_emulator.model import PlaybackState
from testing.fake_anthropic import FakeAnthropic
from testing.ha.streamers import async_setup_linn

from .home import area_id, async_setup_home
from .metrics import run_metrics, tool_errors
from .tasks import Task, reset

CORE_DEFAULT_MODEL: Final = str(CORE_DEFAULTS[CONF_CHAT_MODEL])
"""Core anthropic's default model (claude-haiku-4-5 in Home Assistant 2026.10)."""
THEIRS: Final = "theirs"
OURS: Final = "ours"
OURS_WITH_ASSIST: Final = "ours_with_assist"
"""A variant: our agent with the Assist API's tools enabled as well (option llm_apis)."""
RUN_TIMEOUT: Final = 30.0
SETTLE_TIMEOUT: Final = 5.0


@dataclass
class Comparison:
    """The set-up Home Assistant: agents by name, players, satellites by area."""

    hass: HomeAssistant
    fake: FakeAnthropic
    players: Mapping[str, LinnEmulator]
    user_id: str
    agents: dict[str, str]
    satellites: dict[str, str]
    home_entities: list[str]

    async def run(self, agent: str, task: Task) -> dict[str, Any]:
        """One task through one agent, from the baseline; its figures and outcome."""
        reset(self.players)
        if task.setup is not None:
            task.setup(self.players)
        await self._settle()
        steps = task.plan(self.players)
        self.fake.script(*steps)
        first = len(self.fake.usages)
        async with asyncio.timeout(RUN_TIMEOUT):
            result = await conversation.async_converse(
                self.hass,
                task.utterance,
                None,
                Context(user_id=self.user_id),
                language="en",
                agent_id=self.agents[agent],
                device_id=self.satellites.get(task.area) if task.area else None,
            )
        await self.hass.async_block_till_done()
        calls = self.fake.usages[first:]
        unplayed = self.fake.discard_plan()
        speech = str(result.response.speech.get("plain", {}).get("speech", ""))
        errors = tool_errors(request for request, _usage in calls)
        state_ok = task.check(self.players)
        expected = steps[-1].text
        first_body = (calls[0][0].body or {}) if calls else {}
        return {
            "task": task.id,
            "category": task.category,
            "agent": agent,
            "success": state_ok and not errors and not unplayed and speech == expected,
            "final_state_ok": state_ok,
            "speech": speech,
            "tool_errors": errors,
            "unplayed_steps": len(unplayed),
            "offered_tools": sorted(tool["name"] for tool in first_body.get("tools") or []),
            "system_prompt": calls[0][0].system_text if calls else "",
            **run_metrics(calls),
        }

    async def _settle(self) -> None:
        """Home Assistant shows what the emulators now are (their pushes have arrived)."""
        entities = er.async_get(self.hass)

        def shown(emulator: LinnEmulator) -> bool:
            entity_id = entities.async_get_entity_id("media_player", DOMAIN, emulator.udn)
            state = self.hass.states.get(entity_id) if entity_id else None
            if state is None:
                return False
            device = emulator.state
            if device.standby:
                return state.state == "off"
            selected = device.sources[device.source_index]
            playing = device.transport_state is PlaybackState.PLAYING
            return (
                state.attributes.get("volume_level") == device.volume / device.volume_max
                and state.attributes.get("is_volume_muted") == device.mute
                and state.attributes.get("source") == selected.name
                and (state.state == "playing") == playing
            )

        async with asyncio.timeout(SETTLE_TIMEOUT):
            while not all(shown(emulator) for emulator in self.players.values()):
                await asyncio.sleep(0.005)


async def async_setup_comparison(
    hass: HomeAssistant,
    fake: FakeAnthropic,
    players: Mapping[str, LinnEmulator],
    user_id: str,
    api_key: str,
    *,
    assist_variant: bool = False,
    model: str | None = None,
) -> Comparison:
    """The home, the players in their areas, a satellite per player's area, both agents.

    With `assist_variant`, also a second entry of ours with the Assist API enabled. With
    `model`, every agent runs with that model; else each with its own default.
    """
    assert os.environ.get("ANTHROPIC_BASE_URL") == fake.base_url, (
        "core anthropic reaches the fake only through ANTHROPIC_BASE_URL"
    )
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    home_entities = await async_setup_home(hass)
    devices = dr.async_get(hass)
    entities = er.async_get(hass)
    satellites: dict[str, str] = {}
    satellite_entry = MockConfigEntry(domain="esphome", title="Voice satellites")
    satellite_entry.add_to_hass(hass)
    for room, emulator in players.items():
        entry = await async_setup_linn(hass, emulator.udn, emulator.port, room)
        for device in dr.async_entries_for_config_entry(devices, entry.entry_id):
            devices.async_update_device(device.id, area_id=area_id(hass, room))
        entity_id = entities.async_get_entity_id("media_player", DOMAIN, emulator.udn)
        assert entity_id is not None
        async_expose_entity(hass, "conversation", entity_id, True)
        satellite = devices.async_get_or_create(
            config_entry_id=satellite_entry.entry_id,
            identifiers={("esphome", f"satellite-{room}")},
            name=f"{room} satellite",
        )
        devices.async_update_device(satellite.id, area_id=area_id(hass, room))
        satellites[room] = satellite.id

    agents = {THEIRS: await _async_add_core_agent(hass, api_key, model)}
    ours: dict[str, Any] = {CONF_MODEL: model} if model else {}
    agents[OURS] = await _async_add_our_agent(hass, fake, api_key, "Claude assistant", ours)
    if assist_variant:
        agents[OURS_WITH_ASSIST] = await _async_add_our_agent(
            hass,
            fake,
            api_key,
            "Claude assistant with Assist",
            {**ours, CONF_LLM_APIS: [LLM_API_ASSIST]},
        )
    return Comparison(hass, fake, players, user_id, agents, satellites, home_entities)


async def _async_add_core_agent(hass: HomeAssistant, api_key: str, model: str | None) -> str:
    """Core anthropic through its own config flow, with the defaults it offers (and `model`
    chosen in its conversation agent's reconfigure flow).
    """
    result = await hass.config_entries.flow.async_init("anthropic", context={"source": "user"})
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_API_KEY: api_key}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY, result
    await hass.async_block_till_done()
    if model is not None and model != CORE_DEFAULT_MODEL:
        await _async_choose_core_model(hass, result["result"].entry_id, model)
    agents = [
        state.entity_id
        for state in hass.states.async_all("conversation")
        if state.attributes.get("friendly_name") == "Claude conversation"
    ]
    assert len(agents) == 1, agents
    return agents[0]


async def _async_choose_core_model(hass: HomeAssistant, entry_id: str, model: str) -> None:
    """Reconfigure core anthropic's conversation agent to `model`, as a user would: the
    recommended settings off (the prompt and the Assist API kept), the model, and the model
    step's defaults.
    """
    entry = hass.config_entries.async_get_entry(entry_id)
    assert entry is not None
    subentry = next(s for s in entry.subentries.values() if s.subentry_type == "conversation")
    flows = hass.config_entries.subentries
    result = await flows.async_init(
        (entry_id, "conversation"),
        context={"source": "reconfigure", "subentry_id": subentry.subentry_id},
    )
    kept = {key: subentry.data[key] for key in (CONF_LLM_HASS_API, CONF_PROMPT)}
    result = await flows.async_configure(result["flow_id"], {**kept, CONF_RECOMMENDED: False})
    assert result.get("step_id") == "additional", result
    result = await flows.async_configure(result["flow_id"], {CONF_CHAT_MODEL: model})
    assert result.get("step_id") == "model", result
    result = await flows.async_configure(result["flow_id"], {})
    assert result["type"] is FlowResultType.ABORT, result
    assert result["reason"] == "reconfigure_successful", result
    await hass.async_block_till_done()
    entry = hass.config_entries.async_get_entry(entry_id)
    assert entry is not None
    assert entry.subentries[subentry.subentry_id].data[CONF_CHAT_MODEL] == model


async def _async_add_our_agent(
    hass: HomeAssistant, fake: FakeAnthropic, api_key: str, title: str, options: dict[str, Any]
) -> str:
    """The Linn assistant entry as its config flow creates it: its default options (so a
    change of a default is measured), with `options` on top.
    """
    entry = MockConfigEntry(
        domain=DOMAIN,
        title=title,
        data={CONF_API_KEY: api_key, CONF_BASE_URL: fake.base_url},
        options={**DEFAULT_OPTIONS, **options},
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    entity_id = er.async_get(hass).async_get_entity_id("conversation", DOMAIN, entry.entry_id)
    assert entity_id is not None
    return entity_id


async def async_unload_all(hass: HomeAssistant) -> None:
    """Unload every config entry (the agents, then the players)."""
    for entry in reversed(hass.config_entries.async_entries()):
        if entry.state.value == "loaded":
            await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
