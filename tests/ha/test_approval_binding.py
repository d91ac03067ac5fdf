"""An approved request runs on the player it was made for (its entity id), whatever the
players are called by the time an admin approves it."""

from __future__ import annotations

from homeassistant.auth.models import User
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import entity_registry as er
import pytest

from custom_components.linn.const import DOMAIN
from linn_emulator import LinnEmulator
from testing.ha.assist_api import PLAYER, assist, call
from testing.ha.streamers import ENTITY_ID
from testing.helpers import wait_for

pytestmark = pytest.mark.usefixtures("llm_ready")


async def test_an_approval_runs_on_the_requested_player_after_another_took_its_name(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, kitchen: LinnEmulator
) -> None:
    await wait_for(lambda: kitchen.state.volume_limit is not None)
    before = (emulator.state.volume_limit, kitchen.state.volume_limit)
    api = await assist(hass, hass_admin_user)
    result = await call(api, "set_volume_limit", player=PLAYER, limit=50)
    assert result.data["error"].startswith("Needs approval"), result.data
    request_id = str(result.data["request_id"])
    # the names move: the kitchen now calls itself what the living room was called
    registry = er.async_get(hass)
    kitchen_id = next(
        entry.entity_id
        for entry in registry.entities.values()
        if entry.platform == DOMAIN
        and entry.domain == "media_player"
        and entry.entity_id != ENTITY_ID
    )
    registry.async_update_entity(ENTITY_ID, name="Den")
    registry.async_update_entity(kitchen_id, name=PLAYER)
    await hass.async_block_till_done()
    assert hass.states.get(kitchen_id).name == PLAYER

    response = await hass.services.async_call(
        DOMAIN,
        "approve",
        {"request_id": request_id},
        blocking=True,
        return_response=True,
        context=Context(user_id=hass_admin_user.id),
    )
    assert response == {"request_id": request_id, "outcome": "approved"}
    await wait_for(lambda: emulator.state.volume_limit == 50)
    assert kitchen.state.volume_limit == before[1]
    assert before[0] != 50
