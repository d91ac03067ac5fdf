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
            "play",  # "play the turntable": the source must be named too (utterance_terms)
            "spiel",
            "spiele",
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

# Issue 19's tools (wake, shuffle, repeat, seek), English and German. Waking also needs
# "on"/"an"/"ein" with a verb that switches ("turn it on", "mach den Linn an"): _asks_to_wake.
# No "second" or "vor": "the second one" answers a question, "vor" is everywhere in German.
ACTION_WORDS |= {
    "wake": frozenset(
        {"wake", "waken", "awaken", "wakeup", "aufwecken", "wecke", "weck", "aufwachen",
         "einschalten", "anschalten", "anmachen"}
    ),
    "shuffle": frozenset(
        {"shuffle", "shuffled", "shuffling", "random", "randomly", "randomise", "randomize",
         "zufällig", "zufallswiedergabe", "zufallsmodus", "shuffeln", "mischen", "mische",
         "misch", "durchmischen"}
    ),
    "repeat": frozenset(
        {"repeat", "repeating", "loop", "looping", "wiederholen", "wiederhole",
         "wiederholung", "endlos", "schleife", "dauerschleife"}
    ),
    "seek": frozenset(
        {"seek", "rewind", "forward", "forwards", "ahead", "back", "backwards", "jump",
         "restart", "beginning", "seconds", "secs", "minutes", "minute", "mins",
         "zurück", "vorspulen", "zurückspulen", "spule", "spul", "spulen", "springe",
         "spring", "anfang", "vorne", "sekunden", "sekunde", "minuten"}
    ),
}  # fmt: skip
ACTION_WORDS["limit"] |= {"lautstärkegrenze", "lautstärkelimit", "höchstlautstärke"}
_SWITCH_VERBS = frozenset(
    {"turn", "switch", "power", "schalte", "schalt", "mach", "mache", "machs", "mach's"}
)
_SWITCH_ON = frozenset({"on", "an", "ein"})


def _asks_to_wake(clause: list[str]) -> bool:
    """'Turn the streamer on', 'switch on', 'schalte den Linn ein', 'mach es an'."""
    words = set(clause)
    return bool(words & _SWITCH_VERBS and words & _SWITCH_ON)


# --- what a request is: clauses that are not questions -----------------------------------

_CLAUSE_BREAKS = re.compile(r"[.?!;,:\n]+|\s(?:and|then|but|und|dann|aber)\s", re.IGNORECASE)
_LEADING_FILLER = frozenset(
    {"and", "then", "but", "also", "oh", "so", "hey", "ok", "okay", "well", "und", "dann",
     "aber", "na", "ach", "please", "bitte", "actually", "now", "jetzt"}
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


_REQUEST_SHAPED = (
    ("how", "about"),
    ("what", "about"),
    ("is", "it", "possible"),
    ("wie", "wäre", "es"),
    ("wie", "wärs"),
)
"""Question openers that ask for something: 'how about some jazz?'."""


def _is_question(tokens: list[str]) -> bool:
    """A clause that asks for information ('is it too loud?'), not for a change."""
    if not tokens:
        return False
    first = tokens[0]
    if first in _POLITE_REQUESTS:
        return False
    if any(tuple(tokens[: len(opener)]) == opener for opener in _REQUEST_SHAPED):
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


def utterance_asks_for(
    utterance: str | None,
    action: str,
    extra_terms: Iterable[str] = (),
    *,
    narrow: bool = True,
) -> bool:
    """True when the user's own words ask for this kind of action (and this target).

    The words must hold the action itself, in a clause that is not a question. A volume
    the user said counts as asking for the volume ("kitchen to 20"). `extra_terms` are the
    names the call targets (a source name): device-supplied, so they only narrow it: when
    given, the user must also have said one ("switch to TV"), and a name alone never asks
    for anything (a source renamed "Playing" does not turn "what's playing?" into a
    request). "to TV" (a preposition right before the name), "TV sound" and "turntable
    in the kitchen" ask for a source. Whole words.

    `narrow=False`: the names need not be in the words (after no device text was read,
    the user may say "Plattenspieler" for a source the device calls "Turntable"); the
    action still must be.
    """
    clauses = request_clauses(utterance)
    if not clauses:
        return False
    words = {word for clause in clauses for word in clause}
    text = " " + " ".join(" ".join(clause) for clause in clauses) + " "
    phrases = [phrase for phrase in (_phrase(term) for term in extra_terms) if phrase]
    if narrow and phrases and not any(f" {phrase} " in text for phrase in phrases):
        return False
    if words & ACTION_WORDS.get(action, frozenset()):
        return True
    if action == "volume":
        return bool(volume_numbers(utterance))
    if action == "wake":
        return any(_asks_to_wake(clause) for clause in clauses)
    if action == "group":  # "play this in the kitchen too" (but "too loud" is no group)
        return any(clause[-1] in _ALSO for clause in clauses)
    if action == "source":
        return any(
            f" {before} {phrase} " in text or f" {phrase} {after} " in text
            for phrase in phrases
            for before in _SOURCE_BEFORE
            for after in _SOURCE_AFTER
        )
    return False


_ALSO = frozenset({"too", "auch"})
_SOURCE_BEFORE = ("to", "auf", "on")
_SOURCE_AFTER = ("sound", "input", "ton", "in", "im", "on", "an")

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
     "optical", "toslink", "spdif", "coax", "usb", "station", "episode", "chapter",
     "number", "no", "nummer", "kanal", "sender", "titel", "eingang", "quelle", "stück",
     "lied", "playlist", "album", "disc", "cd", "side", "item", "result", "radio", "bbc",
     "the", "der", "die", "das"}
)  # fmt: skip
_NOT_VOLUME_AFTER = frozenset(
    {"minutes", "minute", "min", "mins", "seconds", "second", "sec", "secs", "hours", "hour",
     "days", "o'clock", "oclock", "am", "pm", "minuten", "sekunden", "stunden", "stunde",
     "uhr", "tracks", "songs", "times", "mal", "music", "cent", "th", "st", "nd", "rd"}
)  # fmt: skip
_ONES_EN = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
)
_TENS_EN = "twenty thirty forty fifty sixty seventy eighty ninety"
_ONES_DE = "null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf"
_TENS_DE = "zwanzig dreißig vierzig fünfzig sechzig siebzig achtzig neunzig"
_NUMBER_WORDS: dict[str, int] = {
    **{word: value for value, word in enumerate(_ONES_EN.split())},
    **{word: 10 * value for value, word in enumerate(_TENS_EN.split(), start=2)},
    **{word: value for value, word in enumerate(_ONES_DE.split())},
    **{word: 10 * value for value, word in enumerate(_TENS_DE.split(), start=2)},
    "hundred": 100,
    "hundert": 100,
    "ein": 1,
}


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
    """The numbers in the user's words that can be a volume, not a zone, pin or minutes.

    A number counts in a clause that is not a question, unless a word right before it
    makes it something else ("zone 4", "pin 2", "radio 4") or a unit follows it ("10
    minutes"). "Kitchen to 20", "living room 35", "twenty five" count.
    """
    numbers: set[int] = set()
    for clause in request_clauses(utterance):
        for value, first, last in _numbers(clause):
            before = clause[first - 1] if first > 0 else ""
            after = clause[last + 1] if last + 1 < len(clause) else ""
            if before in _NOT_VOLUME_BEFORE or after in _NOT_VOLUME_AFTER:
                continue
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

    A short answer that asks for nothing itself ("the kitchen", "FIP", "try again") and
    a follow-up ("and the kitchen too") go on with the user's previous request (their
    own words, one turn back); a yes or no, a thank-you and a question do not, and
    neither does anything else that asks for something itself.
    """
    if not utterance or not previous:
        return utterance
    if match_answer(utterance, language) is not Answer.NEITHER:
        return utterance
    clauses = request_clauses(utterance)
    words = {word for clause in clauses for word in clause}
    if not clauses or words <= _CLOSERS | _POLITE:
        return utterance
    tokens = _tokens(utterance)
    if words <= _RETRY or tokens[0] in {"and", "und"} or tokens[-1] in _ALSO:
        return f"{utterance}. {previous}"  # "try again", "and the kitchen too"
    if any(words & action_words for action_words in ACTION_WORDS.values()):
        return utterance
    if volume_numbers(utterance):
        return utterance
    return f"{utterance}. {previous}"
