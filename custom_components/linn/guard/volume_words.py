"""The volumes and directions the user's own words ask for: a level they said, up or down.

Only ever applied to the raw utterance the user spoke or typed, never to model output.
"""

from __future__ import annotations

from collections.abc import Iterable
import re

from .phrases import Language, any_rule
from .utterance import level_numbers, mask_sources, rule_languages, split_clauses


def volume_numbers(
    utterance: str | None,
    language: str | None = None,
    sources: Iterable[str] = (),
    *,
    unnegated: bool = False,
) -> set[int]:
    """The numbers in the user's words that can be a volume, not a zone, pin or minutes.

    A number counts in a clause that is not a question, unless a word right before it
    makes it something else ("zone 4", "pin 2", "radio 4") or a unit follows it ("10
    minutes"). "Kitchen to 20", "living room 35", "twenty five" count; a number a negation
    or refusal reaches does not ("not 50, 20", "anything but 50"; Language.refuses), nor
    one of a source name asked for as a source ("the input to Volume 45"; mask_sources).
    With `unnegated`, nor one a negation reaches as it reaches action words ("don't turn it
    up to 100"; level_numbers).
    """
    if not utterance:
        return set()
    numbers: set[int] = set()
    names = tuple(sources)
    for lang in rule_languages(language):
        clauses = mask_sources(split_clauses(utterance, lang), names, lang)
        numbers |= level_numbers(clauses, lang, unnegated=unnegated, unrefused=True)
    return numbers


_DIGITS = re.compile(r"\d+")


def said_digits(utterance: str | None) -> set[int]:
    """The numbers the user wrote or spoke as digits, in any language ("volume 25", "a 25").

    Home Assistant's speech-to-text writes numbers as digits; they need no word rules, so
    a language without rules can still tell a volume the user said from one they did not.
    """
    return {int(digits) for digits in _DIGITS.findall(utterance or "") if len(digits) <= 6}


def _directions(utterance: str, lang: Language) -> tuple[bool, bool]:
    """(asks for more, asks for less), from the clauses that are not questions.

    Words a negation reaches ask for neither, as in Language.asks_for: "don't turn it up",
    "mach es nicht lauter", "ne monte pas le son" ask for no more. A level complaint is no
    negation ("nicht so laut", "pas trop fort" ask for less). Nor do words that ask for no
    more of a change (Language.holds_off: "no louder please", "stop turning it up", "it's
    loud enough").
    """
    up = down = False
    for clause in split_clauses(utterance, lang):
        if any_rule(lang.hear_starts, clause):
            continue  # "play Wake Me Up"
        up |= lang.wants(lang.volume_up, clause)
        down |= lang.wants(lang.volume_down, clause)
        for index, word in enumerate(clause):
            too = index > 0 and clause[index - 1] in lang.too
            start, own = index - 1 if too else index, frozenset({index})
            if lang.negated(clause, start, index + 1, own):
                continue  # "don't make it loud", "mach es nicht leise"
            if lang.holds_off(clause, start, index + 1, own):
                continue  # "it's loud enough", "stop making it loud"
            if word in lang.loud:
                down, up = (True, up) if too else (down, True)
            elif word in lang.quiet:
                up, down = (True, down) if too else (up, True)
    return up, down


def utterance_allows_volume(
    utterance: str | None,
    target: int,
    current: int | None,
    language: str | None = None,
    sources: Iterable[str] = (),
) -> bool:
    """True when the user's own words could have asked for this volume.

    A volume the user said (volume_numbers: not any number, "zone 4" is none), or the
    direction they asked for ("down" and the target is not above the current volume).
    Questions ask for nothing ("is it too loud?"), and neither do words a negation reaches
    ("don't turn it up", "don't turn it up to 100"; the reach of Language.asks_for).
    Nor does a source name asked for as a source ("the input to Volume 45"; mask_sources).
    """
    if target in volume_numbers(utterance, language, sources, unnegated=True):
        return True  # not a number a negation reaches: "don't turn it up to 100"
    if current is None or not utterance:
        return False
    for lang in rule_languages(language):
        up, down = _directions(utterance, lang)
        if (up and target >= current) or (down and target <= current):
            return True
    return False
