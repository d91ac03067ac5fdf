"""What an English or German request asks for: a tool and its arguments, or a line to say."""

from __future__ import annotations

import re
from typing import Any

from .words import Line

type Command = tuple[str, dict[str, Any]] | Line

_NUMBER = re.compile(r"\b(\d{1,3})\b")
_SEEK = re.compile(
    r"\b(back|backwards|rewind|forward|ahead|zurück|vor|vorwärts)\b\D*?(\d{1,4})\s*"
    r"(seconds?|secs?|minutes?|mins?|sekunden?|minuten?)\b"
    r"|(\d{1,4})\s*(seconds?|secs?|minutes?|mins?|sekunden?|minuten?)\s+"
    r"(back|backwards|forward|ahead|zurück|vor|vorwärts)\b"
)
_BACK = {"back", "backwards", "rewind", "zurück"}
# "play the turntable", "switch to TV", "spiel den Turntable", "mach das Radio an"
_PLAY_NAME = re.compile(
    r"^(?:please\s+|bitte\s+)?(?:play|listen to|put on|switch to|change to|go to|select|"
    r"i want to hear|spiele?|hör(?:e)?|mach|schalte?|wechsle|wechsel|stell(?:e)?)"
    r"(?:\s+(?:to|on|auf|zu|zum|zur|mal|bitte))?"
    r"(?:\s+(?:the|den|die|das|der|dem))?\s+(?P<name>.+?)(?:\s+(?:on|an|ein|please|bitte))?$"
)
_GENERIC = frozenset(
    {"it", "music", "something", "again", "on", "please", "musik", "etwas", "was", "es", "weiter"}
)
_THANKS = {"thanks", "thank", "thx", "cheers", "danke", "dank", "dankeschön"}
_YES = {"yes", "yeah", "yep", "sure", "ok", "okay", "ja", "jawohl", "klar", "gerne"}
_NO = {"no", "nope", "nein", "nee"}
_VOLUME_QUESTION = re.compile(
    r"how loud|what'?s the volume|what is the volume|which volume|wie laut|"
    r"welche lautstärke|wie ist die lautstärke|wie hoch ist die lautstärke"
)
_STATE_QUESTION = re.compile(r"playing|status|\bstate\b|what'?s on|was läuft|was spielt|was hör")
_KEYWORDS: list[tuple[frozenset[str], str, dict[str, Any]]] = [
    (frozenset({"unmute", "entstummen"}), "linn__mute", {"muted": False}),
    (frozenset({"mute", "stumm", "stummschalten"}), "linn__mute", {"muted": True}),
    (frozenset({"louder", "up", "lauter"}), "linn__change_volume", {"change": 5}),
    (frozenset({"quieter", "softer", "down", "leiser"}), "linn__change_volume", {"change": -5}),
    (frozenset({"pause", "pausieren", "anhalten"}), "linn__pause", {}),
    (frozenset({"stop", "stopp", "stoppen"}), "linn__stop", {}),
    (
        frozenset({"next", "skip", "nächster", "nächstes", "nächste", "überspringen"}),
        "linn__next",
        {},
    ),
    (
        frozenset({"previous", "back", "vorheriger", "vorheriges", "vorige", "voriges", "zurück"}),
        "linn__previous",
        {},
    ),
    (frozenset({"standby", "off", "ausschalten", "ausmachen", "aus"}), "linn__standby", {}),
    (
        frozenset({"play", "resume", "continue", "weiter", "fortsetzen", "spiel", "spiele"}),
        "linn__play",
        {},
    ),
]


def command(text: str) -> Command | None:
    """What the (casefolded) request asks for; None when it is not understood."""
    text = text.strip(" .!?")
    words = set(re.findall(r"[\wäöüß']+", text))
    for rule in (_memory, _group, _settings, _talk, _volume, _power, _by_name, _keywords):
        if (found := rule(text, words)) is not None:
            return found
    return None


_SWITCH = re.compile(r"^(?:please\s+|bitte\s+)?(?:(?:switch|change|go) to|schalte?\b|wechsle?\b)")


def asks_source(text: str) -> bool:
    """Whether a request asks to switch to a source ("switch to TV", "schalte auf TV")."""
    return _SWITCH.search(text.casefold()) is not None


def asks_volume(text: str) -> bool:
    """Whether a request asks how loud it is."""
    return _VOLUME_QUESTION.search(text.casefold()) is not None


def _memory(text: str, words: set[str]) -> Command | None:
    for opening in ("please remember", "remember", "merk dir", "merke dir"):
        if text.startswith(opening):
            fact = text.removeprefix(opening).strip(" ,.:") or text
            return "remember", {"fact": fact[:120]}
    if words & {"forget", "vergiss", "vergessen"}:
        return "forget", {"id": "all"}
    if (item := re.fullmatch(r"(?:play\s+|spiel[e]?\s+)?(m\d{1,3})", text)) is not None:
        return "linn__play_music", {"item": item.group(1)}
    return None


# (only words the guard's phrases read as grouping: "add" or "dazu" it would refuse)
# "play the living room in the kitchen too", "group the kitchen with the living room",
# "Küche auch", "spiel das Wohnzimmer auch in der Küche", "gruppiere die Küche mit dem Bad"
_JOIN = [
    re.compile(
        r"^(?:please\s+)?(?:play|put)\s+(?P<leader>.+?)\s+(?:in|on|into)\s+(?P<member>.+?)"
        r"\s+(?:too|as well|also)$"
    ),
    re.compile(
        r"^(?:please\s+)?(?:group|join|link)\s+(?P<member>.+?)"
        r"(?:\s+(?:with|to)\s+(?P<leader>.+?))?(?:\s+group)?$"
    ),
    re.compile(
        r"^(?:bitte\s+)?(?:die\s+|das\s+|den\s+)?(?P<member>.+?)\s+(?:auch|soll mitspielen)$"
    ),
    re.compile(
        r"^(?:bitte\s+)?(?:spiel\w*|mach\w*)\s+(?P<leader>.+?)\s+auch\s+(?:in|im|auf)\s+(?P<member>.+)$"
    ),
    re.compile(
        r"^(?:bitte\s+)?(?:gruppier\w*|verbinde?|verknüpfe?)\s+(?P<member>.+?)"
        r"(?:\s+mit\s+(?P<leader>.+))?$"
    ),
]
# "take the kitchen out of the group", "ungroup the kitchen", "Küche aus der Gruppe"
_UNJOIN = [
    re.compile(
        r"^(?:please\s+)?(?:take|remove)\s+(?P<player>.+?)\s+(?:out of|from)\s+the\s+group$"
    ),
    re.compile(r"^(?:please\s+)?(?:ungroup|unjoin|unlink)(?:\s+(?P<player>.+))?$"),
    re.compile(r"^(?:let\s+|make\s+)?(?P<player>.+?)\s+(?:should\s+)?leaves?\s+the\s+group$"),
    re.compile(
        r"^(?:bitte\s+)?(?:nimm\s+|hol\s+)?(?P<player>.+?)\s+(?:aus|raus aus)\s+der\s+gruppe"
        r"(?:\s+(?:nehmen|raus|heraus|entfernen))?(?:\s+bitte)?$"
    ),
    re.compile(r"^(?P<player>.+?)\s+(?:soll\s+)?(?:die\s+gruppe\s+verlassen|verlässt die gruppe)$"),
]


def _group(text: str, words: set[str]) -> Command | None:
    """Join or leave a group; the players stay as the user's words (the model side names them)."""
    del words
    for pattern in _UNJOIN:
        if (found := pattern.match(text)) is not None:
            return "linn__unjoin", {"player": (found.group("player") or "").strip()}
    for pattern in _JOIN:
        if (found := pattern.match(text)) is not None:
            leader = found.groupdict().get("leader") or ""
            return "linn__join", {"player": leader.strip(), "members": [found.group("member")]}
    return None


def _off(words: set[str]) -> bool:
    return bool(words & {"off", "aus", "ausschalten"})


def _settings(text: str, words: set[str]) -> Command | None:
    number = _NUMBER.search(text)
    if number and ("limit" in text or "grenze" in text):
        return "linn__set_volume_limit", {"limit": int(number.group(1))}
    if "shuffle" in words or "zufall" in text:
        return "linn__set_shuffle", {"shuffle": not _off(words)}
    if "repeat" in words or "wiederhol" in text:
        return "linn__set_repeat", {"repeat": not _off(words)}
    if (seek := _SEEK.search(text)) is not None:
        direction, amount, unit = (
            (seek.group(1), seek.group(2), seek.group(3))
            if seek.group(1)
            else (seek.group(6), seek.group(4), seek.group(5))
        )
        seconds = int(amount) * (60 if unit.startswith("min") else 1)
        return "linn__seek", {"change": -seconds if direction in _BACK else seconds}
    if "pin" in words and number:
        return "linn__play_pin", {"pin": int(number.group(1))}
    return None


def _talk(text: str, words: set[str]) -> Command | None:
    if words & _THANKS:
        return Line.WELCOME
    if words and words <= _YES | {"please", "bitte", "go", "ahead", "do", "it", "mach", "es"}:
        return Line.OK_YES if words & _YES else None
    if words and words <= _NO | {"thanks", "danke", "lieber", "nicht"}:
        return Line.OK_NO if words & _NO else None
    if _VOLUME_QUESTION.search(text) or _STATE_QUESTION.search(text):
        return "linn__get_state", {}
    return None


def _volume(text: str, words: set[str]) -> Command | None:
    if re.search(r"too (loud)|zu laut\b", text):
        return "linn__change_volume", {"change": -5}
    if re.search(r"too (quiet|soft|low)|zu leise", text):
        return "linn__change_volume", {"change": 5}
    if re.search(r"\bton aus\b", text):
        return "linn__mute", {"muted": True}
    if re.search(r"\bton (an|ein)\b|sound on", text):
        return "linn__mute", {"muted": False}
    if (number := _NUMBER.search(text)) and words & {"volume", "lautstärke", "laut"}:
        return "linn__set_volume", {"volume": int(number.group(1))}
    return None


def _power(text: str, words: set[str]) -> Command | None:
    if words & {"wake", "einschalten", "anschalten", "aufwachen"}:
        return "linn__wake", {}
    if words & {"turn", "switch", "power"} and "on" in words and not _by_name(text, words):
        return "linn__wake", {}
    return None


def _by_name(text: str, words: set[str]) -> Command | None:
    del words
    found = _PLAY_NAME.match(text)
    if found is None:
        return None
    name = found.group("name").strip()
    if name in _GENERIC or name.split()[0] in {"it", "es", "him", "streamer", "linn"}:
        return None
    if any(word in name.split() for keys, _, _ in _KEYWORDS[:-1] for word in keys):
        return None  # "mach leiser", "switch it off"
    return "linn__search_music", {"query": name[:100]}


def _keywords(text: str, words: set[str]) -> Command | None:
    del text
    for keys, tool, arguments in _KEYWORDS:
        if words & keys:
            return tool, dict(arguments)
    return None
