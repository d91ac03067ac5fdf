"""The stand-in over a table of English and German requests, through Home Assistant.

Each command is checked on the emulated device's state afterwards, not by its reply;
questions, thanks and unknown requests by a short reply in the user's language and a
device left as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from homeassistant.auth.const import GROUP_ID_USER
from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
import pytest
from pytest_homeassistant_custom_component.common import MockUser

from custom_components.linn.agent.const import DEFAULT_OPTIONS
from custom_components.linn.agent.memory import async_get_memory
from custom_components.linn.tools.guard_options import OPT_POLICIES
from linn_emulator import LinnEmulator
from linn_emulator.model import EmulatedDeviceState, PlaybackState
from scripts.standin_model import plan_answer, respond
from testing.fake_anthropic import FakeAnthropic
from testing.helpers import wait_for

from .conftest import converse, speech

pytestmark = pytest.mark.usefixtures("assistant", "standin")

type Check = Callable[[EmulatedDeviceState], bool]


@pytest.fixture
def standin(fake: FakeAnthropic) -> None:
    """The fake Messages API answers as the stand-in model (scripts/standin_model.py)."""
    fake.responder, fake.planner = respond, plan_answer


ENTITY = "media_player.living_room"
_GERMAN = {
    "ist",
    "die",
    "der",
    "das",
    "ich",
    "nicht",
    "gern",
    "lautstärke",
    "zum",
    "beispiel",
    "läuft",
    "spielt",
    "ein",
    "entscheidet",
    "auf",
    "verstehe",
    "ja",
    "dein",
    "brauche",
}
_ENGLISH = {
    "is",
    "the",
    "i",
    "not",
    "you",
    "welcome",
    "volume",
    "for",
    "example",
    "at",
    "playing",
    "decides",
    "an",
    "understand",
    "with",
    "yes",
    "your",
    "needs",
}


def source(name: str) -> Check:
    return lambda state: state.source.name == name


def station(title: str) -> Check:
    return lambda state: (
        state.source.name == "Radio"
        and (channel := state.current_channel) is not None
        and channel.track.title == title
        and state.transport_state == PlaybackState.PLAYING
    )


def volume(value: int) -> Check:
    return lambda state: state.volume == value


def transport(value: str) -> Check:
    return lambda state: state.transport_state == value


def muted(value: bool) -> Check:
    return lambda state: state.mute is value


def standby(value: bool) -> Check:
    return lambda state: state.standby is value


def shuffle(value: bool) -> Check:
    return lambda state: state.shuffle is value


def repeat(value: bool) -> Check:
    return lambda state: state.repeat is value


def next_track(state: EmulatedDeviceState) -> bool:
    return state.playlist_id != state.playlist[0].id


def first_track(state: EmulatedDeviceState) -> bool:
    return state.playlist_id == state.playlist[0].id


def at_second(value: int) -> Check:
    return lambda state: state.seconds == value


@dataclass(frozen=True)
class Case:
    language: str
    text: str
    check: Check | None = None
    """What the device shows afterwards; None: a question, the device stays as it was."""
    before: str = ""
    """'playing', 'paused', 'muted', 'standby', 'shuffle', 'repeat', 'at 100' (paused at
    100 s) or 'second track' (paused on it): the device is put so first."""

    def __str__(self) -> str:
        return f"{self.language}: {self.text}"


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


def _snapshot(state: EmulatedDeviceState) -> tuple[object, ...]:
    return (
        state.source_index,
        state.volume,
        state.mute,
        state.standby,
        state.transport_state,
        state.radio_id,
        state.shuffle,
        state.repeat,
        state.playlist_id,
    )


def in_language(reply: str, language: str) -> bool:
    words = set(reply.casefold().replace(".", " ").replace(",", " ").replace(":", " ").split())
    own, other = (_GERMAN, _ENGLISH) if language == "de" else (_ENGLISH, _GERMAN)
    return len(words & own) > len(words & other)


async def _prepare(hass: HomeAssistant, emulator: LinnEmulator, before: str) -> None:
    panel = emulator.panel
    if before in {"playing", "paused"}:
        panel.play()
        await wait_for(lambda: hass.states.get(ENTITY).state == "playing")
    if before == "paused":
        panel.pause()
        await wait_for(lambda: hass.states.get(ENTITY).state == "paused")
    if before == "muted":
        panel.set_mute(True)
        await wait_for(lambda: hass.states.get(ENTITY).attributes.get("is_volume_muted") is True)
    if before == "shuffle":
        panel.set_shuffle(True)
        await wait_for(lambda: hass.states.get(ENTITY).attributes.get("shuffle") is True)
    if before == "repeat":
        panel.set_repeat(True)
        await wait_for(lambda: hass.states.get(ENTITY).attributes.get("repeat") == "all")
    if before in {"at 100", "second track"}:
        panel.play()
        if before == "second track":
            panel.next()
        panel.pause()
        if before == "at 100":
            panel.seek(100)
        await wait_for(
            lambda: (
                hass.states.get(ENTITY).state == "paused"
                and hass.states.get(ENTITY).attributes.get("media_position")
                == emulator.state.seconds
            )
        )
    if before == "standby":
        panel.set_standby(True)
        await wait_for(lambda: hass.states.get(ENTITY).state == "off")


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


type Dialog = tuple[str, str, str, bool]
"""(language, what the user asks, the user's answer, whether the answer runs it)"""


def _dialog_id(dialog: Dialog) -> str:
    return "-".join(str(part) for part in dialog)


async def _confirmation_dialog(
    hass: HomeAssistant,
    user: User,
    dialog: Dialog,
    *,
    unchanged: Callable[[], bool],
    changed: Callable[[], bool],
) -> None:
    """The user asks; the stand-in asks back briefly in the user's language and the device
    stays `unchanged`; the user answers: a yes (`runs`) makes it `changed`, a no leaves it
    `unchanged`."""
    language, ask, answer, runs = dialog
    asked = await converse(hass, ask, user, language=language)
    question = speech(asked)
    assert "Needs" not in question, question  # not the guard's note to the model
    assert len(question) <= 120, question
    assert in_language(question, language), question
    await hass.async_block_till_done()
    assert unchanged()
    replied = await converse(hass, answer, user, asked.conversation_id, language)
    assert len(speech(replied)) <= 120, speech(replied)
    if runs:
        await wait_for(changed)
    else:
        await hass.async_block_till_done()
        assert unchanged()


@pytest.mark.parametrize(
    "assistant_options", [{**DEFAULT_OPTIONS, OPT_POLICIES: {"standby": "confirm"}}]
)
@pytest.mark.parametrize(
    "dialog",
    [
        ("en", "standby", "yes", True),
        ("en", "turn it off", "no", False),
        ("de", "ausschalten", "ja", True),
        ("de", "Standby", "nein", False),
    ],
    ids=_dialog_id,
)
async def test_a_confirmation_with_the_stand_in(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    dialog: Dialog,
) -> None:
    """The stand-in asks for the yes in the user's words; the yes runs it, a no does not."""
    await _confirmation_dialog(
        hass,
        hass_admin_user,
        dialog,
        unchanged=lambda: emulator.state.standby is False,
        changed=lambda: emulator.state.standby,
    )


@pytest.mark.parametrize(
    "dialog",
    [
        ("en", "volume 55", "yes", True),
        ("en", "set the volume to 55", "no", False),
        ("de", "Lautstärke 55", "ja", True),
        ("de", "stell die Lautstärke auf 55", "nein", False),
    ],
    ids=_dialog_id,
)
async def test_a_volume_above_the_soft_limit_with_the_stand_in(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    dialog: Dialog,
) -> None:
    """55 is above the soft limit (60 % of the limit 80), and a small step from 45: the
    same dialog as for a policy's confirm (a big jump would go to an admin instead)."""
    emulator.panel.set_volume(45)
    await wait_for(lambda: hass.states.get(ENTITY).attributes.get("volume_level") == 0.45)
    await _confirmation_dialog(
        hass,
        hass_admin_user,
        dialog,
        unchanged=lambda: emulator.state.volume == 45,
        changed=lambda: emulator.state.volume == 55,
    )


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
