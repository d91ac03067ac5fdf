"""Matching the user's own words in code: yes/no answers and which kind of action they ask for.

Only ever applied to the raw utterance the user spoke or typed, never to model output.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
import re


class Answer(StrEnum):
    """A confirmation answer, or neither."""

    YES = "yes"
    NO = "no"
    NEITHER = "neither"


_YES: dict[str, frozenset[str]] = {
    "en": frozenset(
        {
            "yes",
            "yeah",
            "yep",
            "yup",
            "sure",
            "ok",
            "okay",
            "confirm",
            "confirmed",
            "do it",
            "go ahead",
            "yes do it",
            "yes go ahead",
            "please do",
            "correct",
            "that's right",
            "thats right",
            "affirmative",
            "of course",
            "yes of course",
        }
    ),
    "de": frozenset(
        {
            "ja",
            "jawohl",
            "jep",
            "klar",
            "sicher",
            "ok",
            "okay",
            "genau",
            "bestätigt",
            "bestätige",
            "ich bestätige",
            "mach das",
            "mach es",
            "mach's",
            "machs",
            "gerne",
            "in ordnung",
            "ja mach das",
            "ja mach es",
            "ja gerne",
            "richtig",
            "natürlich",
        }
    ),
}
_NO: dict[str, frozenset[str]] = {
    "en": frozenset(
        {
            "no",
            "nope",
            "nah",
            "cancel",
            "don't",
            "dont",
            "do not",
            "don't do it",
            "no don't",
            "no cancel",
            "never mind",
            "nevermind",
            "abort",
            "negative",
        }
    ),
    "de": frozenset(
        {
            "nein",
            "nee",
            "ne",
            "abbrechen",
            "lieber nicht",
            "nicht",
            "auf keinen fall",
            "nein danke",
            "nein lieber nicht",
            "abbruch",
            "stopp nein",
            "vergiss es",
        }
    ),
}
_POLITE = frozenset({"please", "thanks", "thank you", "bitte", "danke", "danke schön"})
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u02bc": "'"})
_WORDS = re.compile(r"[^\w']+")


def _normalise(utterance: str) -> str:
    text = _WORDS.sub(" ", utterance.casefold().translate(_APOSTROPHES)).strip()
    changed = True
    while changed:  # "yes please", "ja bitte", "bitte ja"
        changed = False
        for polite in _POLITE:
            if text.endswith(" " + polite):
                text, changed = text.removesuffix(" " + polite).strip(), True
            elif text.startswith(polite + " "):
                text, changed = text.removeprefix(polite + " ").strip(), True
    return text


def _language(language: str | None) -> str:
    code = (language or "en").split("-")[0].split("_")[0].casefold()
    return code if code in _YES else "en"


def match_answer(utterance: str | None, language: str | None) -> Answer:
    """YES or NO only when the whole utterance is an answer in the user's language.

    "Yes, and set the volume to 100" is NEITHER: a confirmation is an answer, nothing else.
    """
    if not utterance:
        return Answer.NEITHER
    text = _normalise(utterance)
    lang = _language(language)
    if text in _YES[lang]:
        return Answer.YES
    if text in _NO[lang]:
        return Answer.NO
    return Answer.NEITHER


# Words by which a user asks for each kind of action (whole words, English and German).
ACTION_WORDS: dict[str, frozenset[str]] = {
    "play": frozenset(
        {
            "play",
            "resume",
            "continue",
            "unpause",
            "start",
            "put",
            "spiel",
            "spiele",
            "abspielen",
            "fortsetzen",
            "weiter",
            "weiterspielen",
            "starte",
            "leg",
            "lege",
        }
    ),
    "pause": frozenset({"pause", "hold", "pausiere", "pausieren", "anhalten", "halt"}),
    "stop": frozenset({"stop", "stopp", "stoppe", "stoppen", "beende", "beenden"}),
    "next": frozenset(
        {
            "next",
            "skip",
            "nächster",
            "nächstes",
            "nächste",
            "überspringe",
            "überspring",
            "weiter",
            "skippe",
        }
    ),
    "previous": frozenset(
        {
            "previous",
            "back",
            "last",
            "again",
            "zurück",
            "vorheriges",
            "vorheriger",
            "vorherige",
            "nochmal",
        }
    ),
    "volume": frozenset(
        {
            "volume",
            "louder",
            "quieter",
            "softer",
            "loud",
            "quiet",
            "up",
            "down",
            "lower",
            "raise",
            "level",
            "lautstärke",
            "lauter",
            "leiser",
            "laut",
            "leise",
        }
    ),
    "mute": frozenset({"mute", "unmute", "silence", "stumm", "stummschalten", "ton"}),
    "source": frozenset(
        {
            "source",
            "input",
            "switch",
            "change",
            "put",
            "listen",
            "höre",
            "hören",
            "quelle",
            "eingang",
            "umschalten",
            "wechsle",
            "wechseln",
            "schalte",
        }
    ),
    "standby": frozenset(
        {"off", "standby", "sleep", "aus", "ausschalten", "schlafen", "shut", "power"}
    ),
    "group": frozenset(
        {
            "join",
            "group",
            "together",
            "everywhere",
            "sync",
            "unjoin",
            "ungroup",
            "leave",
            "separate",
            "gruppe",
            "gruppiere",
            "gruppieren",
            "zusammen",
            "überall",
            "verbinde",
            "verbinden",
            "trenne",
            "trennen",
        }
    ),
    "limit": frozenset({"limit", "maximum", "max", "grenze", "begrenzung", "limitieren"}),
    "memory": frozenset(
        {
            "remember",
            "memorise",
            "memorize",
            "note",
            "forget",
            "merk",
            "merke",
            "merken",
            "notiere",
            "notier",
            "vergiss",
            "vergessen",
        }
    ),
}


def utterance_asks_for(utterance: str | None, action: str, extra_terms: Iterable[str] = ()) -> bool:
    """True when the user's own words ask for this kind of action (and this target).

    The words must hold the action itself. `extra_terms` are the names the call targets (a
    source name): device-supplied, so they only narrow it: when given, the user must also
    have said one ("switch to TV"), and a name alone never asks for anything (a source
    renamed "Playing" does not turn "what's playing?" into a request). Whole words.
    """
    if not utterance:
        return False
    text = " " + " ".join(_WORDS.sub(" ", utterance.casefold()).split()) + " "
    words = set(text.split())
    if not words & ACTION_WORDS.get(action, frozenset()):
        return False
    phrases = [" ".join(_WORDS.sub(" ", term.casefold()).split()) for term in extra_terms]
    phrases = [phrase for phrase in phrases if phrase]
    return not phrases or any(f" {phrase} " in text for phrase in phrases)


_VOLUME_UP = frozenset(
    {"up", "louder", "loud", "raise", "increase", "higher", "lauter", "erhöhe", "erhöhen", "hoch"}
)
_VOLUME_DOWN = frozenset(
    {
        "down",
        "quieter",
        "quiet",
        "softer",
        "lower",
        "decrease",
        "reduce",
        "leiser",
        "leise",
        "runter",
        "senke",
        "senken",
    }
)
_NUMBER = re.compile(r"\d+")


def utterance_allows_volume(utterance: str | None, target: int, current: int | None) -> bool:
    """True when the user's own words could have asked for this volume.

    A number the user said, or the direction they asked for ("down" and the target is
    not above the current volume). Used after device text was read, when the value itself
    may come from that text.
    """
    if not utterance:
        return False
    words = set(_WORDS.sub(" ", utterance.casefold()).split())
    if target in {int(number) for number in _NUMBER.findall(utterance)}:
        return True
    if current is None:
        return False
    return bool(
        (words & _VOLUME_UP and target >= current) or (words & _VOLUME_DOWN and target <= current)
    )
