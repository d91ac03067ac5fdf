"""What the stand-in says, in English and German (English for any other language)."""

from __future__ import annotations

from enum import StrEnum
import re


class Line(StrEnum):
    """One thing the stand-in says."""

    UNKNOWN = "unknown"
    WELCOME = "welcome"
    OK_YES = "ok_yes"
    OK_NO = "ok_no"
    ADMIN_DECIDES = "admin_decides"
    ASKED_ADMIN = "asked_admin"
    SAY_YES = "say_yes"
    NOT_FOUND = "not_found"
    WHICH = "which"
    WHICH_PLAYER = "which_player"
    SIGN_IN = "sign_in"
    NOT_DONE = "not_done"
    STATE = "state"
    STATE_WITH = "state_with"
    VOLUME_IS = "volume_is"
    VOLUME_SET = "volume_set"
    MUTED = "muted"
    UNMUTED = "unmuted"
    PAUSED = "paused"
    PLAYING = "playing"
    STOPPED = "stopped"
    NEXT = "next"
    PREVIOUS = "previous"
    STANDBY = "standby"
    AWAKE = "awake"
    SHUFFLE_ON = "shuffle_on"
    SHUFFLE_OFF = "shuffle_off"
    REPEAT_ON = "repeat_on"
    REPEAT_OFF = "repeat_off"
    SEEK = "seek"
    SOURCE = "source"
    PIN = "pin"
    PRESET = "preset"
    STARTED = "started"
    JOINED = "joined"
    LEFT = "left"
    REMEMBERED = "remembered"
    FORGOTTEN = "forgotten"


_EN = {
    Line.UNKNOWN: "I am the local stand-in and did not understand that. "
    'Try, for example: "volume 30".',
    Line.WELCOME: "You're welcome.",
    Line.OK_YES: "OK, I have nothing waiting for a yes.",
    Line.OK_NO: "OK, I leave it as it is.",
    Line.ADMIN_DECIDES: "An administrator decides that, not me.",
    Line.ASKED_ADMIN: "I have asked an administrator to approve that; they will decide.",
    Line.SAY_YES: "That needs your yes first: say yes to go ahead.",
    Line.NOT_FOUND: "I found nothing called {name}.",
    Line.WHICH: "Which one: {options}",
    Line.WHICH_PLAYER: "Which player: {options}",
    Line.SIGN_IN: "I cannot do that for you: sign in as a Home Assistant user first.",
    Line.NOT_DONE: "That did not work.",
    Line.STATE: "{player} is {state} at volume {volume}",
    Line.STATE_WITH: "{player} is {state} at volume {volume}, with {playing}",
    Line.VOLUME_IS: "{player} is at volume {volume}{muted}.",
    Line.VOLUME_SET: "The volume is {volume} now.",
    Line.MUTED: "Muted.",
    Line.UNMUTED: "The sound is on again.",
    Line.PAUSED: "Paused.",
    Line.PLAYING: "Playing.",
    Line.STOPPED: "Stopped.",
    Line.NEXT: "Next track.",
    Line.PREVIOUS: "Previous track.",
    Line.STANDBY: "In standby now.",
    Line.AWAKE: "It is on.",
    Line.SHUFFLE_ON: "Shuffle is on.",
    Line.SHUFFLE_OFF: "Shuffle is off.",
    Line.REPEAT_ON: "Repeat is on.",
    Line.REPEAT_OFF: "Repeat is off.",
    Line.SEEK: "At {position} seconds now.",
    Line.SOURCE: "Switched to {name}.",
    Line.PIN: "Playing pin {pin}.",
    Line.PRESET: "Playing preset {preset}.",
    Line.STARTED: "Playing {name}.",
    Line.JOINED: "Grouped.",
    Line.LEFT: "It left the group.",
    Line.REMEMBERED: "I will remember that.",
    Line.FORGOTTEN: "I have forgotten it.",
}

_DE = {
    Line.UNKNOWN: "Ich bin die lokale Vertretung und verstehe das nicht. Sag zum Beispiel: "
    "„Lautstärke 30“.",
    Line.WELCOME: "Gern geschehen.",
    Line.OK_YES: "OK, ich habe nichts, das auf ein Ja wartet.",
    Line.OK_NO: "OK, ich lasse es so.",
    Line.ADMIN_DECIDES: "Das entscheidet ein Administrator, nicht ich.",
    Line.ASKED_ADMIN: "Ich habe einen Administrator gefragt; er entscheidet.",
    Line.SAY_YES: "Dafür brauche ich erst dein Ja: sag ja.",
    Line.NOT_FOUND: "Ich habe nichts namens {name} gefunden.",
    Line.WHICH: "Welches: {options}",
    Line.WHICH_PLAYER: "Welcher Player: {options}",
    Line.SIGN_IN: "Das kann ich nicht: melde dich zuerst als Home-Assistant-Benutzer an.",
    Line.NOT_DONE: "Das hat nicht geklappt.",
    Line.STATE: "{player}: {state}, Lautstärke {volume}",
    Line.STATE_WITH: "{player}: {state}, Lautstärke {volume}, es läuft {playing}",
    Line.VOLUME_IS: "Die Lautstärke von {player} ist {volume}{muted}.",
    Line.VOLUME_SET: "Die Lautstärke ist jetzt {volume}.",
    Line.MUTED: "Der Ton ist aus.",
    Line.UNMUTED: "Der Ton ist wieder an.",
    Line.PAUSED: "Pausiert.",
    Line.PLAYING: "Die Wiedergabe läuft.",
    Line.STOPPED: "Gestoppt.",
    Line.NEXT: "Der nächste Titel.",
    Line.PREVIOUS: "Der vorige Titel.",
    Line.STANDBY: "Jetzt im Standby.",
    Line.AWAKE: "Das Gerät ist an.",
    Line.SHUFFLE_ON: "Die Zufallswiedergabe ist an.",
    Line.SHUFFLE_OFF: "Die Zufallswiedergabe ist aus.",
    Line.REPEAT_ON: "Die Wiederholung ist an.",
    Line.REPEAT_OFF: "Die Wiederholung ist aus.",
    Line.SEEK: "Jetzt bei {position} Sekunden.",
    Line.SOURCE: "Umgeschaltet auf {name}.",
    Line.PIN: "Pin {pin} läuft.",
    Line.PRESET: "Sender {preset} läuft.",
    Line.STARTED: "Es läuft {name}.",
    Line.JOINED: "Gruppiert.",
    Line.LEFT: "Das Gerät hat die Gruppe verlassen.",
    Line.REMEMBERED: "Das merke ich mir.",
    Line.FORGOTTEN: "Ich habe es vergessen.",
}

_STATES_DE = {"playing": "spielt", "paused": "pausiert", "idle": "bereit", "off": "aus"}


def say(line: Line, language: str, **values: object) -> str:
    """The line in the language (its first two letters), with its values filled in."""
    lines = _DE if language[:2].casefold() == "de" else _EN
    return lines[line].format(**values)


def state_word(state: str, language: str) -> str:
    """A player's state (Home Assistant's word) in the language."""
    return _STATES_DE.get(state, state) if language[:2].casefold() == "de" else state


def muted_note(muted: bool, language: str) -> str:
    """', muted' after a volume, when it is."""
    if not muted:
        return ""
    return ", stummgeschaltet" if language[:2].casefold() == "de" else ", muted"


# a German room's word for a player named in English ("Küche" for "Kitchen")
_ROOMS_DE = {
    "küche": "kitchen",
    "wohnzimmer": "living room",
    "schlafzimmer": "bedroom",
    "badezimmer": "bathroom",
    "bad": "bathroom",
    "büro": "office",
    "arbeitszimmer": "study",
    "esszimmer": "dining room",
    "kinderzimmer": "kids room",
    "flur": "hall",
    "garten": "garden",
    "keller": "basement",
}


def players_in(text: str, names: list[str]) -> list[str]:
    """The players a (casefolded) text names, in the order it names them (German rooms too)."""
    found: list[tuple[int, str]] = []
    for name in names:
        spellings = [name.casefold()]
        spellings += [de for de, en in _ROOMS_DE.items() if en == name.casefold()]
        places = [
            hit.start()
            for spelling in spellings
            if (hit := re.search(rf"(?<!\w){re.escape(spelling)}(?!\w)", text)) is not None
        ]
        if places:
            found.append((min(places), name))
    return [name for _, name in sorted(found)]
