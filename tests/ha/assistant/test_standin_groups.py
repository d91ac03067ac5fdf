"""The stand-in groups and ungroups players, in English and German, through Home Assistant.

Each request is checked on the emulated devices' state afterwards, not by its reply.
"""

from __future__ import annotations

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
import pytest

from linn_emulator import LinnEmulator
from linn_emulator.model import PlaybackState
from testing.helpers import wait_for

from .chat import converse, speech
from .standin_checks import ENTITY

pytestmark = pytest.mark.usefixtures("assistant", "standin")


KITCHEN = "media_player.kitchen"


def _source_of(device: LinnEmulator) -> str:
    return device.state.sources[device.state.source_index].system_name


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "play the living room in the kitchen too"),
        ("en", "group the kitchen with the living room"),
        ("en", "join the kitchen"),
        ("de", "Küche auch"),
        ("de", "die Küche soll mitspielen"),
        ("de", "spiel das Wohnzimmer auch in der Küche"),
        ("de", "gruppiere die Küche mit dem Wohnzimmer"),
    ],
)
async def test_the_stand_in_groups(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    kitchen: LinnEmulator,
    language: str,
    text: str,
) -> None:
    """The kitchen joins the living room's Songcast stream."""
    emulator.panel.play()
    await wait_for(lambda: hass.states.get(ENTITY).state == "playing")
    await wait_for(lambda: hass.states.get(KITCHEN) is not None)
    reply = speech(await converse(hass, text, hass_admin_user, language=language))
    try:
        await wait_for(lambda: kitchen.state.receiver_uri == emulator.sender_uri)
    except TimeoutError:
        pytest.fail(f"the kitchen did not join; the stand-in said: {reply}")
    assert _source_of(kitchen) == "Songcast"
    assert not emulator.state.receiver_uri  # the living room leads, it did not join


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "take the kitchen out of the group"),
        ("en", "ungroup the kitchen"),
        ("de", "Küche aus der Gruppe"),
        ("de", "nimm die Küche aus der Gruppe"),
    ],
)
async def test_the_stand_in_ungroups(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    kitchen: LinnEmulator,
    language: str,
    text: str,
) -> None:
    """The kitchen leaves the group: back to its own source, the living room plays on."""
    emulator.panel.play()
    kitchen.panel.select_source("Radio")
    await wait_for(lambda: hass.states.get(KITCHEN).attributes.get("source") == "Radio")
    await hass.services.async_call(
        "media_player",
        "join",
        {"entity_id": ENTITY, "group_members": [KITCHEN]},
        blocking=True,
    )
    await wait_for(lambda: hass.states.get(KITCHEN).attributes.get("source") == "Songcast")
    reply = speech(await converse(hass, text, hass_admin_user, language=language))
    try:
        await wait_for(lambda: _source_of(kitchen) == "Radio")
    except TimeoutError:
        pytest.fail(f"the kitchen did not leave; the stand-in said: {reply}")
    assert emulator.state.transport_state == PlaybackState.PLAYING
