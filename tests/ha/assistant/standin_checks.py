"""What the stand-in's tests through Home Assistant (test_standin_*.py) share.

The player, what the device shows afterwards (the checks), a request of the table (Case),
whether a reply is in the user's language, and putting the device in a state first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from homeassistant.core import HomeAssistant

from linn_emulator import LinnEmulator
from linn_emulator.model import EmulatedDeviceState, PlaybackState
from testing.helpers import wait_for

type Check = Callable[[EmulatedDeviceState], bool]


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
