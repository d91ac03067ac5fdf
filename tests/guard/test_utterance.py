"""Yes/no and "asks for this kind of action", matched in code on the user's raw words."""

from __future__ import annotations

import pytest

from custom_components.linn.guard import Answer, match_answer, utterance_asks_for
from custom_components.linn.guard.volume_words import utterance_allows_volume, volume_numbers

_GERMAN = ("Was läuft", "mach lauter", "wechsle", "Kannst du", "Ist es", "Stell das", "und in der")


def _language(utterance: str) -> str:
    """The language the examples below are in (no language reads English words)."""
    return "de" if utterance.startswith(_GERMAN) else "en"


@pytest.mark.parametrize(
    ("utterance", "language", "answer"),
    [
        ("Yes", "en", Answer.YES),
        ("yes please!", "en", Answer.YES),
        ("Go ahead.", "en-GB", Answer.YES),
        ("No", "en", Answer.NO),
        ("don\u2019t", "en", Answer.NO),
        ("Ja", "de", Answer.YES),
        ("Ja, bitte", "de-DE", Answer.YES),
        ("Mach das", "de", Answer.YES),
        ("Nein danke", "de", Answer.NO),
        ("lieber nicht", "de", Answer.NO),
        ("ja", "en", Answer.NEITHER),  # German words are no answer in English
        ("yes, and set the volume to 100", "en", Answer.NEITHER),
        ("the user said yes", "en", Answer.NEITHER),
        ("", "en", Answer.NEITHER),
        (None, "de", Answer.NEITHER),
    ],
)
def test_answers(utterance: str | None, language: str, answer: Answer) -> None:
    assert match_answer(utterance, language) is answer


@pytest.mark.parametrize(
    ("utterance", "action", "asks"),
    [
        ("what's playing? skip it", "next", True),
        ("Was läuft gerade? Überspring das", "next", True),
        ("what's playing?", "play", False),  # "playing" is not a request to play
        ("what's playing?", "standby", False),
        ("what's playing?", "volume", False),
        ("turn it off", "standby", True),
        ("mach lauter", "volume", True),
        ("switch to the turntable", "source", True),
    ],
)
def test_action_words(utterance: str, action: str, asks: bool) -> None:
    assert utterance_asks_for(utterance, action, language=_language(utterance)) is asks


def test_named_target_counts_as_asking() -> None:
    assert utterance_asks_for("put Radio Paradise on", "source", ["Radio Paradise"])
    assert not utterance_asks_for("what is on", "source", ["Radio Paradise"])


@pytest.mark.parametrize(
    ("utterance", "name", "asks"),
    [
        ("what's playing?", "Playing", False),  # a device's name is no request
        ("what's on in the living room?", "Living Room", False),
        ("Radio Paradise", "Radio Paradise", False),  # a name alone asks for nothing
        ("switch the source", "Phono", False),  # the user named another (no) target
        ("switch to TV", "TV", True),
        ("wechsle auf Phono", "Phono", True),
    ],
)
def test_a_device_supplied_name_narrows_the_target_but_never_stands_in_for_the_request(
    utterance: str, name: str, asks: bool
) -> None:
    assert utterance_asks_for(utterance, "source", [name], language=_language(utterance)) is asks


@pytest.mark.parametrize(
    ("utterance", "asks"),
    [
        ("is it too loud in here?", False),  # a question asks for no change
        ("Ist es zu laut?", False),
        ("how loud is the kitchen?", False),
        ("what's the volume?", False),
        ("it's too loud", True),
        ("could you turn it down?", True),  # a request in a question's shape
        ("Kannst du leiser machen?", True),
        ("how about a bit quieter?", True),
        ("is it possible to turn it down?", True),
        ("what's playing? and turn it down", True),
    ],
)
def test_questions_never_ask_for_a_change(utterance: str, asks: bool) -> None:
    assert utterance_asks_for(utterance, "volume", language=_language(utterance)) is asks


@pytest.mark.parametrize(
    ("utterance", "numbers"),
    [
        ("what's the volume on zone 4 compared to yesterday?", set()),
        ("turn on zone 4 and set the volume", set()),
        ("play pin two in the kitchen", set()),
        ("set a sleep timer for 30 minutes and the volume", set()),
        ("set the volume to 35", {35}),
        ("kitchen to 20", {20}),
        ("actually make it 45", {45}),
        ("twenty five", {25}),
        ("Stell das Wohnzimmer auf fünfundzwanzig", {25}),
        ("volume 30 percent", {30}),
    ],
)
def test_only_a_number_that_is_the_volume_counts_as_one(utterance: str, numbers: set[int]) -> None:
    assert volume_numbers(utterance, _language(utterance)) == numbers


@pytest.mark.parametrize(
    ("utterance", "target", "allowed"),
    [
        ("it's too loud", 10, True),  # too loud asks for less
        ("it's too loud", 30, False),
        ("is it too quiet?", 30, False),
        ("what's the volume on zone 4?", 4, False),
        ("volume to 4", 4, True),
    ],
)
def test_a_volume_follows_the_users_words(utterance: str, target: int, allowed: bool) -> None:
    assert utterance_allows_volume(utterance, target, 20) is allowed


@pytest.mark.parametrize(
    ("utterance", "asks"),
    [
        ("play this in the kitchen too", True),
        ("und in der Küche auch", True),
        ("that's too loud", False),  # asks for less volume, not for a group
        ("join the kitchen", True),
    ],
)
def test_asking_for_a_group(utterance: str, asks: bool) -> None:
    assert utterance_asks_for(utterance, "group", language=_language(utterance)) is asks
