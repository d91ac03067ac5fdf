"""Compiled tool schemas are reused, and a change on the device is seen on the very next call.

The guard re-checks every call against a schema built from the live players. Building it
is cached under the facts it is built from (tools/schemas.py); these tests change those
facts on the emulated device and call again at once, through the Assist API.
"""

from __future__ import annotations

from typing import Any

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er, llm
import probatio
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn.guard import InvalidArgument
from custom_components.linn.llm import LinnHandler
from custom_components.linn.tools import schemas as schema_cache
from custom_components.linn.tools.ha_adapter import DATA_GUARD
from custom_components.linn.tools.linn_tools import TOOLS_BY_NAME
from custom_components.linn.tools.media import MSG_SOURCE
from custom_components.linn.tools.players import async_players
from custom_components.linn.tools.schemas import MAX_SCHEMAS, schema_for_players, tool_schema
from custom_components.linn.tools.tool_def import SchemaFacts
from linn_emulator import LinnEmulator
from testing.ha.assist_api import PLAYER, assist, call
from testing.ha.streamers import ENTITY_ID
from testing.helpers import wait_for

LIMIT_ENTITY = "number.living_room_volume_limit"


@pytest.fixture(autouse=True)
async def _llm(hass: HomeAssistant, loaded_entry: MockConfigEntry, llm_ready: None) -> None:
    # no confirmation for high volumes: only the ceiling decides
    hass.config_entries.async_update_entry(loaded_entry, options={"soft_limit_percent": 100})


def offered(api: llm.APIInstance, tool: str) -> dict[str, Any]:
    """The JSON Schema a model is given for the tool."""
    parameters = next(t.parameters for t in api.tools if t.name == f"linn__{tool}")
    schema: dict[str, Any] = probatio.to_openapi(parameters)
    return schema


async def test_a_changed_volume_limit_is_seen_on_the_very_next_call(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    api = await assist(hass, hass_admin_user)
    assert not (await call(api, "set_volume", player=PLAYER, volume=35)).error
    refused = await call(api, "set_volume", player=PLAYER, volume=85)
    assert refused.data == {"error": "Invalid argument: volume must be 0\u201380"}

    emulator.panel.set_volume_limit(90)
    await wait_for(lambda: hass.states.get(LIMIT_ENTITY).state == "90.0")
    # the schema checked in code allows what the limit now allows (a cached one would not)
    allowed = await call(api, "set_volume", player=PLAYER, volume=85)
    assert not allowed.error, allowed.data
    await wait_for(lambda: emulator.state.volume == 85)
    assert (
        offered(await assist(hass, hass_admin_user), "set_volume")["properties"]["volume"][
            "maximum"
        ]
        == 90
    )

    emulator.panel.set_volume_limit(40)
    await wait_for(lambda: hass.states.get(LIMIT_ENTITY).state == "40.0")
    refused = await call(api, "set_volume", player=PLAYER, volume=41)
    assert refused.data == {"error": "Invalid argument: volume must be 0\u201340"}
    # the schema itself refuses it, not only the per-player check after it
    schema = schema_for_players(TOOLS_BY_NAME["set_volume"], async_players(hass, "conversation"))
    with pytest.raises(probatio.Invalid):
        schema({"player": PLAYER, "volume": 41})
    assert schema({"player": PLAYER, "volume": 40}) == {"player": PLAYER, "volume": 40}
    assert emulator.state.volume == 40  # lowering the limit lowered it; 41 changed nothing


async def test_a_renamed_source_is_seen_on_the_very_next_call(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    api = await assist(hass, hass_admin_user)
    assert not (await call(api, "select_source", player=PLAYER, source="Turntable")).error
    await wait_for(lambda: emulator.state.sources[emulator.state.source_index].name == "Turntable")

    emulator.panel.configure_source("Analog 1", name="Record Player")
    await wait_for(
        lambda: "Record Player" in hass.states.get(ENTITY_ID).attributes.get("source_list", [])
    )
    emulator.panel.select_source("Radio")
    renamed = await call(api, "select_source", player=PLAYER, source="Record Player")
    assert not renamed.error, renamed.data
    await wait_for(
        lambda: emulator.state.sources[emulator.state.source_index].name == "Record Player"
    )
    old = await call(api, "select_source", player=PLAYER, source="Turntable")
    assert old.data == {"error": f"Invalid argument: {MSG_SOURCE}"}
    # source names (device text) are not in the schema; get_state lists them as data
    source = offered(await assist(hass, hass_admin_user), "select_source")["properties"]["source"]
    assert "enum" not in source
    state = await call(api, "get_state", player=PLAYER)
    sources = state.data["players"][0]["device_text"]["sources"]
    assert "Record Player" in sources
    assert "Turntable" not in sources


async def test_a_hidden_source_is_refused_on_the_very_next_call(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    api = await assist(hass, hass_admin_user)
    assert not (await call(api, "select_source", player=PLAYER, source="TV")).error
    emulator.panel.configure_source("HDMI", visible=False)
    await wait_for(lambda: "TV" not in hass.states.get(ENTITY_ID).attributes.get("source_list", []))
    emulator.panel.select_source("Radio")
    hidden = await call(api, "select_source", player=PLAYER, source="TV")
    assert hidden.data == {"error": f"Invalid argument: {MSG_SOURCE}"}
    assert emulator.state.sources[emulator.state.source_index].system_name == "Radio"


async def test_a_renamed_player_is_seen_on_the_very_next_call(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator
) -> None:
    """Through the Assist API, and through one handler used for two passes (as approvals do)."""
    api = await assist(hass, hass_admin_user)
    runtime = hass.data[DATA_GUARD]
    handler = LinnHandler(hass, TOOLS_BY_NAME["set_volume"], "conversation", runtime, "c")
    assert handler.validate({"player": PLAYER, "volume": 20})
    assert not (await call(api, "set_volume", player=PLAYER, volume=20)).error

    er.async_get(hass).async_update_entity(ENTITY_ID, name="Den")
    await hass.async_block_till_done()
    assert not (await call(api, "set_volume", player="Den", volume=25)).error
    await wait_for(lambda: emulator.state.volume == 25)
    old = await call(api, "set_volume", player=PLAYER, volume=26)
    assert old.data == {"error": "Invalid argument: player must be one of the listed players"}
    # each pass through the guard starts with validate, which looks the players up again
    assert handler.validate({"player": "Den", "volume": 20}) == {"player": "Den", "volume": 20}
    assert handler.targets({"player": "Den", "volume": 20}) == (ENTITY_ID,)
    with pytest.raises(InvalidArgument):
        handler.validate({"player": PLAYER, "volume": 20})


def test_the_cache_is_bounded_and_keeps_the_most_recent() -> None:
    """A limit changed again and again must not grow the cache without end."""
    definition = TOOLS_BY_NAME["set_volume"]
    facts = [SchemaFacts((PLAYER,), volume_max=limit) for limit in range(MAX_SCHEMAS + 50)]
    schemas = [tool_schema(definition, each) for each in facts]
    assert len(schema_cache._schemas) <= MAX_SCHEMAS
    assert tool_schema(definition, facts[-1]) is schemas[-1]  # still cached
    assert tool_schema(definition, facts[0]) is not schemas[0]  # evicted, built again
    with pytest.raises(probatio.Invalid):
        tool_schema(definition, facts[10])({"player": PLAYER, "volume": 11})
