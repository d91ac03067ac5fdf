"""The words requests are made of: a player's name made only of them is named by no request.

A room's name is set in Linn's app, which asks no password. A streamer renamed "Turn Off",
"It", "Everything" or "The Music" would otherwise be named by every request that says those
words ("turn off the living room", "turn it off"), and take a change, or the implied player's
change, the user never meant for it (break-it review 51). The word rules have no language for
a name, so the vocabulary is every rule language's (phrases/*.py): stricter, never looser.

The vocabulary: every word of every rule and word table of every rule language, except the
words of other devices and of a player's features (nouns of no request: "garage", "display")
and the words for a room or a home in "all rooms", "whole house" (so "Play Room", "Music
Room" stay namable); plus the pronouns, articles, quantifiers and words for what plays that
requests use and the tables do not list. A plan may still name such a player: the planned
target words are the user's own words for the player.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import fields
from functools import cache

from .names import name_tokens
from .phrases import LANGUAGES, Language, Rule

PLACE_WORDS = frozenset(
    {
        "room", "rooms", "house", "home",
        "raum", "räume", "räumen", "zimmer", "zimmern", "haus", "wohnung",
        "pièce", "pièces", "maison", "salle",
        "kamer", "kamers", "huis",
        "habitación", "habitacion", "habitaciones", "casa",
    }
)  # fmt: skip
"""Words for a room or a home in the rule tables ("every room"): words of room names."""

FUNCTION_WORDS = frozenset(
    {
        # en
        "it", "its", "them", "this", "that", "these", "those", "the", "a", "an", "all",
        "everything", "every", "both", "something", "anything", "music", "song", "sound",
        "me", "my", "our", "us", "you", "your",
        # de
        "es", "ihn", "sie", "ihm", "ihr", "das", "der", "die", "dem", "den", "des", "ein",
        "eine", "einen", "alles", "alle", "beide", "musik", "lied", "mir", "mich", "mein",
        "meine",
        # fr
        "le", "la", "les", "l", "un", "une", "tout", "tous", "toute", "toutes", "ça", "ca",
        "cela", "ce", "musique", "chanson", "moi", "m",
        # nl
        "het", "de", "een", "muziek", "liedje", "mij", "mijn", "dit", "dat",
        # es
        "lo", "el", "los", "las", "uno", "una", "todo", "todos", "toda", "todas", "esto",
        "eso", "música", "musica", "canción", "cancion", "mí", "mi",
    }
)  # fmt: skip
"""Pronouns, articles, quantifiers and words for what plays, of every rule language."""

_NOT_REQUEST_WORDS = frozenset({"code", "other_devices", "player_features"})
"""Language fields that hold no words of a request (a code; nouns of other things)."""


def _words(value: object) -> Iterable[str]:
    if isinstance(value, Rule):
        return (e for w in value.words if w is not None for p in w.exact for e in name_tokens(p))
    if isinstance(value, str):
        return name_tokens(value)
    if isinstance(value, Mapping):
        return (w for key, item in value.items() for part in (key, item) for w in _words(part))
    if isinstance(value, tuple | frozenset):
        return (w for item in value for w in _words(item))
    return ()


def _language_words(lang: Language) -> set[str]:
    return {
        word
        for field in fields(lang)
        if field.name not in _NOT_REQUEST_WORDS
        for word in _words(getattr(lang, field.name))
    }


@cache
def request_vocabulary() -> frozenset[str]:
    """Every rule language's request words (casefolded, as `names.name_tokens` splits them)."""
    words = set(FUNCTION_WORDS)
    for lang in LANGUAGES.values():
        words |= _language_words(lang)
    return frozenset(words - PLACE_WORDS)


def only_request_words(name: str) -> bool:
    """True when every word of the name is a request word ("Turn Off", "It", "The Music")."""
    tokens = name_tokens(name)
    return bool(tokens) and set(tokens) <= request_vocabulary()
