"""The stand-in over a table of English and German requests, through Home Assistant.

Each command is checked on the emulated device's state afterwards, not by its reply;
questions, thanks and unknown requests by a short reply in the user's language and a
device left as it was.
"""

from __future__ import annotations

from homeassistant.auth.const import GROUP_ID_USER
from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
import pytest
from pytest_homeassistant_custom_component.common import MockUser

from custom_components.linn.agent.memory import async_get_memory
from linn_emulator import LinnEmulator
from testing.helpers import wait_for

from .chat import converse, speech
from .standin_checks import (
    Case,
    _prepare,
    _snapshot,
    at_second,
    first_track,
    in_language,
    muted,
    next_track,
    repeat,
    shuffle,
    source,
    standby,
    station,
    transport,
    volume,
)

pytestmark = pytest.mark.usefixtures("assistant", "standin")


CASES = [
    # English: radio, stations, sources, pins
    Case("en", "play BBC Radio 3", station("BBC Radio 3")),
    Case("en", "play Radio 3", station("BBC Radio 3")),
    Case("en", "play FIP", station("FIP")),
    Case("en", "put on the radio", source("Radio")),
    Case("en", "play the turntable", source("Turntable")),
    Case("en", "switch to TV", source("TV")),
    Case("en", "switch to the turntable", source("Turntable")),
    Case("en", "play pin 3", source("Turntable")),
    Case("en", "pin 1", station("BBC Radio 3")),
    # volume
    Case("en", "volume 25", volume(25)),
    Case("en", "set the volume to 40", volume(40)),
    Case("en", "louder", volume(35)),
    Case("en", "turn it up", volume(35)),
    Case("en", "quieter", volume(25)),
    Case("en", "it's too loud", volume(25)),
    Case("en", "it's too quiet", volume(35)),
    Case("en", "mute", muted(True)),
    Case("en", "unmute", muted(False), "muted"),
    # transport and power
    Case("en", "pause", transport("Paused"), "playing"),
    Case("en", "play", transport("Playing"), "paused"),
    Case("en", "resume", transport("Playing"), "paused"),
    Case("en", "stop", transport("Stopped"), "playing"),
    Case("en", "next track", next_track, "playing"),
    Case("en", "standby", standby(True)),
    Case("en", "turn it off", standby(True)),
    Case("en", "turn the streamer on", standby(False), "standby"),
    Case("en", "shuffle on", shuffle(True)),
    Case("en", "repeat on", repeat(True)),
    Case("en", "shuffle off", shuffle(False), "shuffle"),
    Case("en", "repeat off", repeat(False), "repeat"),
    Case("en", "previous", first_track, "second track"),
    Case("en", "back 30 seconds", at_second(70), "at 100"),
    Case("en", "skip forward 20 seconds", at_second(120), "at 100"),
    # questions, thanks, unknown
    Case("en", "what's playing?"),
    Case("en", "how loud is it?"),
    Case("en", "what's the volume?"),
    Case("en", "thanks"),
    Case("en", "thank you!"),
    Case("en", "yes"),
    Case("en", "no"),
    Case("en", "tell me a joke"),
    # German: radio, stations, sources, pins
    Case("de", "spiele BBC Radio 3", station("BBC Radio 3")),
    Case("de", "spiel Radio 3", station("BBC Radio 3")),
    Case("de", "spiel FIP", station("FIP")),
    Case("de", "mach das Radio an", source("Radio")),
    Case("de", "spiel den Turntable", source("Turntable")),
    Case("de", "schalte auf TV", source("TV")),
    Case("de", "wechsle zum Turntable", source("Turntable")),
    Case("de", "Pin 3", source("Turntable")),
    # volume
    Case("de", "Lautstärke 25", volume(25)),
    Case("de", "stell die Lautstärke auf 40", volume(40)),
    Case("de", "lauter", volume(35)),
    Case("de", "mach leiser", volume(25)),
    Case("de", "das ist zu laut", volume(25)),
    Case("de", "es ist zu leise", volume(35)),
    Case("de", "stumm", muted(True)),
    Case("de", "Ton an", muted(False), "muted"),
    # transport and power
    Case("de", "Pause", transport("Paused"), "playing"),
    Case("de", "weiter", transport("Playing"), "paused"),
    Case("de", "Wiedergabe fortsetzen", transport("Playing"), "paused"),
    Case("de", "stopp", transport("Stopped"), "playing"),
    Case("de", "nächstes Lied", next_track, "playing"),
    Case("de", "ausschalten", standby(True)),
    Case("de", "Standby", standby(True)),
    Case("de", "einschalten", standby(False), "standby"),
    Case("de", "Zufallswiedergabe an", shuffle(True)),
    Case("de", "Wiederholung an", repeat(True)),
    Case("de", "Zufallswiedergabe aus", shuffle(False), "shuffle"),
    Case("de", "Wiederholung aus", repeat(False), "repeat"),
    Case("de", "vorheriges Lied", first_track, "second track"),
    Case("de", "30 Sekunden zurück", at_second(70), "at 100"),
    Case("de", "spul 20 Sekunden vor", at_second(120), "at 100"),
    Case("de", "Ton aus", muted(True)),
    # questions, thanks, unknown
    Case("de", "was läuft gerade?"),
    Case("de", "wie laut ist es?"),
    Case("de", "wie ist die Lautstärke?"),
    Case("de", "danke"),
    Case("de", "vielen Dank!"),
    Case("de", "ja"),
    Case("de", "nein"),
    Case("de", "erzähl mir einen Witz"),
]


@pytest.mark.parametrize("case", CASES, ids=str)
async def test_the_stand_in_understands(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    case: Case,
) -> None:
    await _prepare(hass, emulator, case.before)
    before = _snapshot(emulator.state)
    reply = speech(await converse(hass, case.text, hass_admin_user, language=case.language))
    if case.check is not None:
        check = case.check
        try:
            await wait_for(lambda: check(emulator.state))
        except TimeoutError:
            pytest.fail(f"the device did not follow; the stand-in said: {reply}")
        return
    assert len(reply) <= 120, reply
    assert in_language(reply, case.language), reply
    await hass.async_block_till_done()
    assert _snapshot(emulator.state) == before


@pytest.mark.parametrize(
    ("language", "ask", "yes"),
    [
        ("en", "set the volume limit to 70", "yes"),
        ("de", "setz das Lautstärkelimit auf 70", "ja"),
    ],
)
async def test_yes_after_an_admin_request_changes_nothing(
    hass: HomeAssistant,
    emulator: LinnEmulator,
    language: str,
    ask: str,
    yes: str,
) -> None:
    group = await hass.auth.async_get_group(GROUP_ID_USER)
    member = MockUser(groups=[group]).add_to_hass(hass)
    asked = await converse(hass, ask, member, language=language)
    assert in_language(speech(asked), language), speech(asked)
    reply = speech(await converse(hass, yes, member, asked.conversation_id, language))
    assert len(reply) <= 120, reply
    assert in_language(reply, language), reply
    await hass.async_block_till_done()
    assert emulator.state.volume_limit == 80


@pytest.mark.parametrize(
    ("language", "before", "text", "after"),
    [
        ("en", [], "remember that I like jazz", ["jazz"]),
        ("de", [], "merk dir, dass ich Jazz mag", ["jazz"]),
        ("en", ["I like jazz", "wake me gently"], "forget everything", []),
        ("de", ["I like jazz"], "vergiss alles", []),
    ],
)
async def test_the_stand_in_remembers_and_forgets(
    hass: HomeAssistant,
    hass_admin_user: User,
    language: str,
    before: list[str],
    text: str,
    after: list[str],
) -> None:
    """What the assistant's memory holds for the user afterwards."""
    memory = await async_get_memory(hass)
    for fact in before:
        memory.remember(hass_admin_user.id, fact)
    reply = speech(await converse(hass, text, hass_admin_user, language=language))
    facts = [fact.text.casefold() for fact in memory.facts(hass_admin_user.id)]
    assert len(facts) == len(after), (facts, reply)
    for word, fact in zip(after, facts, strict=True):
        assert word in fact, (facts, reply)
