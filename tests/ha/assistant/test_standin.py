"""The rule-based stand-in that scripts/develop serves without an API key, driving the assistant."""

from __future__ import annotations

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
import pytest

from linn_emulator import LinnEmulator
from scripts.standin_model import HELP, respond
from tests.fake_anthropic import FakeAnthropic
from tests.helpers import wait_for

from .conftest import converse, speech

pytestmark = pytest.mark.usefixtures("assistant")


async def test_the_stand_in_controls_the_emulated_player(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    fake.responder = respond
    result = await converse(hass, "volume 25", hass_admin_user)
    assert speech(result) == "Done."
    await wait_for(lambda: emulator.state.volume == 25)
    result = await converse(hass, "what's playing?", hass_admin_user)
    assert speech(result).startswith("Living Room is idle at volume 25, with ")
    await converse(hass, "play", hass_admin_user)
    await wait_for(lambda: emulator.state.transport_state == "Playing")
    await converse(hass, "pause", hass_admin_user)
    await wait_for(lambda: emulator.state.transport_state == "Paused")
    result = await converse(hass, "tell me a joke", hass_admin_user)
    assert speech(result) == HELP
