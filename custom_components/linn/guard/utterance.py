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
            "carry",
            "pin",
            "preset",
            "favourite",
            "favorite",
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
            "too",
            "auch",
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


# --- what a request is: clauses that are not questions -----------------------------------

_CLAUSE_BREAKS = re.compile(r"[.?!;,:\n]+|\s(?:and|then|but|und|dann|aber)\s", re.IGNORECASE)
_LEADING_FILLER = frozenset(
    {"and", "then", "but", "also", "oh", "so", "hey", "ok", "okay", "well", "und", "dann",
     "aber", "also", "na", "ach", "please", "bitte", "actually", "now", "jetzt"}
)  # fmt: skip
_QUESTION_STARTS: dict[str, frozenset[str]] = {
    "en": frozenset(
        {"what", "what's", "whats", "which", "who", "who's", "whos", "whose", "whom", "how",
         "how's", "hows", "why", "when", "where", "where's", "wheres", "is", "isn't", "isnt",
         "are", "aren't", "arent", "was", "wasn't", "were", "does", "doesn't", "did",
         "didn't", "has", "hasn't", "have", "haven't", "am", "should", "shall"}
    ),
    "de": frozenset(
        {"was", "wie", "wieso", "warum", "weshalb", "wann", "wo", "woher", "wohin", "welche",
         "welcher", "welches", "welchen", "welchem", "wer", "wem", "wen", "wessen", "ist",
         "sind", "war", "waren", "hat", "hast", "haben", "läuft", "spielt", "gibt", "bin",
         "wird", "stimmt"}
    ),
}  # fmt: skip
_QUESTION_WORDS = _QUESTION_STARTS["en"] | _QUESTION_STARTS["de"]
_ASKING_PRONOUNS = frozenset({"you", "i", "we", "they", "u"})
"""'do you ...?' is a question; 'do it' is not."""
_POLITE_REQUESTS = frozenset(
    {"can", "could", "would", "will", "can't", "cant", "won't", "wont", "kannst", "könntest",
     "würdest", "kann", "könnte", "würde", "können", "könnten", "würden", "magst"}
)  # fmt: skip
"""'Could you turn it down?' asks for a change: a request in a question's shape."""


def _tokens(text: str) -> list[str]:
    return _WORDS.sub(" ", text.casefold().translate(_APOSTROPHES)).split()


def _is_question(tokens: list[str]) -> bool:
    """A clause that asks for information ('is it too loud?'), not for a change."""
    if not tokens:
        return False
    first = tokens[0]
    if first in _POLITE_REQUESTS:
        return False
    if first in {"do", "don't", "dont"}:
        return len(tokens) > 1 and tokens[1] in _ASKING_PRONOUNS and "mind" not in tokens
    return first in _QUESTION_WORDS


def request_clauses(utterance: str | None) -> list[list[str]]:
    """The utterance's clauses that can ask for a change, as words; questions never can.

    "Is it too loud in here?" asks for nothing; "what's playing? and skip it" asks to
    skip; "could you turn it down?" is a request in a question's shape.
    """
    if not utterance:
        return []
    clauses = []
    for part in _CLAUSE_BREAKS.split(" " + utterance + " "):
        tokens = _tokens(part)
        while tokens and tokens[0] in _LEADING_FILLER:
            tokens = tokens[1:]
        if tokens and not _is_question(tokens):
            clauses.append(tokens)
    return clauses


def _phrase(term: str) -> str:
    return " ".join(_tokens(term))


def utterance_asks_for(utterance: str | None, action: str, extra_terms: Iterable[str] = ()) -> bool:
    """True when the user's own words ask for this kind of action (and this target).

    The words must hold the action itself, in a clause that is not a question. A volume
    the user said counts as asking for the volume ("kitchen to 20"). `extra_terms` are the
    names the call targets (a source name): device-supplied, so they only narrow it: when
    given, the user must also have said one ("switch to TV"), and a name alone never asks
    for anything (a source renamed "Playing" does not turn "what's playing?" into a
    request). "to TV" (a preposition right before the name) and "TV sound" ask for a
    source. Whole words.
    """
    clauses = request_clauses(utterance)
    if not clauses:
        return False
    words = {word for clause in clauses for word in clause}
    text = " " + " ".join(" ".join(clause) for clause in clauses) + " "
    phrases = [phrase for phrase in (_phrase(term) for term in extra_terms) if phrase]
    if phrases and not any(f" {phrase} " in text for phrase in phrases):
        return False
    if words & ACTION_WORDS.get(action, frozenset()):
        return True
    if action == "volume":
        return bool(volume_numbers(utterance))
    if action == "source":
        return any(
            f" {before} {phrase} " in text or f" {phrase} {after} " in text
            for phrase in phrases
            for before in _SOURCE_BEFORE
            for after in _SOURCE_AFTER
        )
    return False


_SOURCE_BEFORE = ("to", "auf", "on")
_SOURCE_AFTER = ("sound", "input", "ton")

# --- volumes the user said ---------------------------------------------------------------

_VOLUME_UP = frozenset(
    {"up", "louder", "raise", "increase", "higher", "lauter", "erhöhe", "erhöhen", "hoch"}
)
_VOLUME_DOWN = frozenset(
    {"down", "quieter", "softer", "lower", "decrease", "reduce", "leiser", "runter", "senke",
     "senken"}
)  # fmt: skip
_LOUD = frozenset({"loud", "laut"})
_QUIET = frozenset({"quiet", "soft", "leise"})
_TOO = frozenset({"too", "zu", "so"})
"""'too loud' asks for less, 'too quiet' for more."""
_NOT_VOLUME_BEFORE = frozenset(
    {"zone", "channel", "preset", "presets", "pin", "pins", "track", "tracks", "song",
     "songs", "input", "inputs", "source", "hdmi", "analog", "analogue", "digital",
     "optical", "toslink", "spdif", "coax", "usb", "room", "station", "episode", "chapter",
     "number", "no", "nummer", "kanal", "sender", "titel", "eingang", "quelle", "zimmer",
     "stück", "lied", "playlist", "album", "disc", "cd", "side", "item", "result"}
)  # fmt: skip
_NOT_VOLUME_AFTER = frozenset(
    {"minutes", "minute", "min", "mins", "seconds", "second", "sec", "secs", "hours", "hour",
     "days", "o'clock", "oclock", "am", "pm", "minuten", "sekunden", "stunden", "stunde",
     "uhr", "tracks", "songs", "times", "mal", "percent_off"}
)  # fmt: skip
_VOLUME_BEFORE = frozenset({"to", "at", "auf", "it", "es", "volume", "lautstärke"})
_PERCENT = frozenset({"percent", "per", "%", "prozent"})
_NUMBER_WORDS: dict[str, int] = {
    **{w: i for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen "
        "fourteen fifteen sixteen seventeen eighteen nineteen".split())},
    **{w: 10 * i for i, w in enumerate(
        "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()) if w != "_"},
    "hundred": 100,
    **{w: i for i, w in enumerate(
        "null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf".split())},
    "ein": 1, "zwanzig": 20, "dreißig": 30, "vierzig": 40, "fünfzig": 50, "sechzig": 60,
    "siebzig": 70, "achtzig": 80, "neunzig": 90, "hundert": 100,
}  # fmt: skip


def _number(token: str) -> int | None:
    if token.isdigit():
        return int(token)
    if token in _NUMBER_WORDS:
        return _NUMBER_WORDS[token]
    if "und" in token:  # German: fünfundzwanzig
        ones, _, tens = token.partition("und")
        if ones in _NUMBER_WORDS and tens in _NUMBER_WORDS and _NUMBER_WORDS[tens] >= 20:
            return _NUMBER_WORDS[tens] + _NUMBER_WORDS[ones]
    return None


def _numbers(clause: list[str]) -> list[tuple[int, int, int]]:
    """(value, first index, last index) of each number; 'twenty five' is one number."""
    found: list[tuple[int, int, int]] = []
    index = 0
    while index < len(clause):
        value = _number(clause[index])
        if value is None:
            index += 1
            continue
        end = index
        if 20 <= value < 100 and value % 10 == 0 and index + 1 < len(clause):
            ones = _number(clause[index + 1])
            if ones is not None and 0 < ones < 10 and not clause[index + 1].isdigit():
                value, end = value + ones, index + 1
        found.append((value, index, end))
        index = end + 1
    return found


def volume_numbers(utterance: str | None) -> set[int]:
    """The numbers in the user's words that are a volume, not a zone, pin or minutes.

    A number counts in a clause that is not a question, not right after a word that makes
    it something else ("zone 4", "pin 2") or before a unit ("10 minutes"), and when it is
    shaped like a volume: in a clause that speaks of the volume, after "to"/"at"/"auf",
    before "percent", or alone ("twenty five", the answer to "to what level?").
    """
    numbers: set[int] = set()
    for clause in request_clauses(utterance):
        speaks_of_volume = bool(
            set(clause) & (ACTION_WORDS["volume"] | _VOLUME_UP | _VOLUME_DOWN | _LOUD | _QUIET)
        )
        found = _numbers(clause)
        alone = len(found) == 1 and found[0][2] - found[0][1] + 1 == len(
            [w for w in clause if w not in _POLITE]
        )
        for value, first, last in found:
            before = clause[first - 1] if first > 0 else ""
            after = clause[last + 1] if last + 1 < len(clause) else ""
            if before in _NOT_VOLUME_BEFORE or after in _NOT_VOLUME_AFTER:
                continue
            if speaks_of_volume or alone or before in _VOLUME_BEFORE or after in _PERCENT:
                numbers.add(value)
    return numbers


def _directions(utterance: str | None) -> tuple[bool, bool]:
    """(asks for more, asks for less), from the clauses that are not questions."""
    up = down = False
    for clause in request_clauses(utterance):
        words = set(clause)
        up |= bool(words & _VOLUME_UP)
        down |= bool(words & _VOLUME_DOWN)
        for index, word in enumerate(clause):
            too = index > 0 and clause[index - 1] in _TOO
            if word in _LOUD:
                down, up = (True, up) if too else (down, True)
            elif word in _QUIET:
                up, down = (True, down) if too else (up, True)
    return up, down


def utterance_allows_volume(utterance: str | None, target: int, current: int | None) -> bool:
    """True when the user's own words could have asked for this volume.

    A volume the user said (volume_numbers: not any number, "zone 4" is none), or the
    direction they asked for ("down" and the target is not above the current volume).
    Questions ask for nothing ("is it too loud?").
    """
    if target in volume_numbers(utterance):
        return True
    if current is None:
        return False
    up, down = _directions(utterance)
    return (up and target >= current) or (down and target <= current)


_CLOSERS = frozenset(
    {"thanks", "thank", "you", "cheers", "great", "cool", "nice", "good", "night", "bye",
     "ok", "okay", "fine", "perfect", "danke", "schön", "super", "gut", "prima", "toll",
     "tschüss", "gute", "nacht", "alright", "awesome", "lovely"}
)  # fmt: skip


_RETRY = frozenset(
    {"try", "again", "retry", "please", "one", "more", "time", "nochmal", "noch", "mal",
     "versuch", "versuche", "es", "erneut", "bitte"}
)  # fmt: skip
"""'Try again' repeats the previous request (it is no request to go back a track)."""


def request_text(utterance: str | None, previous: str | None, language: str | None) -> str | None:
    """The words a change in this turn may rest on: this utterance, or with the last one.

    A short answer that asks for nothing itself ("the kitchen", "FIP", "try again") goes
    on with the user's previous request (their own words, one turn back); a yes or no,
    a thank-you and a question do not, and neither does anything that asks for something
    itself.
    """
    if not utterance or not previous:
        return utterance
    if match_answer(utterance, language) is not Answer.NEITHER:
        return utterance
    clauses = request_clauses(utterance)
    words = {word for clause in clauses for word in clause}
    if not clauses or words <= _CLOSERS | _POLITE:
        return utterance
    if words <= _RETRY:
        return f"{utterance}. {previous}"
    if any(words & action_words for action_words in ACTION_WORDS.values()):
        return utterance
    if volume_numbers(utterance):
        return utterance
    return f"{utterance}. {previous}"
