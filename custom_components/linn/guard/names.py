"""Whether the user's words name a target whole: not as part of a longer name they said.

"Turn off the front door light" holds the words "front door", but it names the light
"Front Door Light", never the lock "Front Door". A name counts only where it is not inside
an occurrence of a longer name the home has (`longer`: every other name a user could say).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
import re

_WORD = re.compile(r"\w+")


def name_tokens(text: str) -> list[str]:
    """The words of a text or name, casefolded (apostrophes and punctuation split words)."""
    return _WORD.findall(text.casefold())


def phrase_starts(words: Sequence[str], phrase: Sequence[str]) -> list[int]:
    """Where the phrase starts in the words, as whole consecutive words (both name_tokens)."""
    size = len(phrase)
    return [i for i in range(len(words) - size + 1) if list(words[i : i + size]) == list(phrase)]


def contains_phrase(words: Sequence[str], phrase: Sequence[str]) -> bool:
    """The phrase occurs in the words as whole, consecutive words (both name_tokens)."""
    return bool(phrase) and bool(phrase_starts(words, phrase))


def names_whole(words: str | None, name: str, longer: Iterable[str] = ()) -> bool:
    """The words hold the name as whole words somewhere no longer name covers it."""
    said = name_tokens(words or "")
    wanted = name_tokens(name)
    if not wanted:
        return False
    covered: set[int] = set()
    for other in longer:
        tokens = name_tokens(other)
        if len(tokens) <= len(wanted) or not phrase_starts(tokens, wanted):
            continue  # only a longer name that contains this one can cover it
        for start in phrase_starts(said, tokens):
            covered.update(range(start, start + len(tokens)))
    return any(
        not set(range(start, start + len(wanted))) <= covered
        for start in phrase_starts(said, wanted)
    )
