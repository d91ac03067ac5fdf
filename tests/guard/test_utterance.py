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
    ("utterance", "language", "numbers"),
    [
        # a number a negation or an "anything but" reaches is refused, not said (review 50)
        ("not 50, 20", "en", {20}),
        ("no 50, 20", "en", {20}),
        ("20, not 50", "en", {20}),
        ("20 not 50", "en", {20}),
        ("anything but 50, please", "en", set()),
        ("any volume except 50", "en", set()),
        ("something other than 50", "en", set()),
        ("20 instead of 50", "en", {20}),
        ("don't turn it up to 100", "en", set()),
        ("not 50 just 20", "en", {20}),
        ("not 50 but 20", "en", {20}),
        ("nicht 50, sondern 20", "de", {20}),
        ("nicht 50 sondern 20", "de", {20}),
        ("auf 20 statt 50", "de", {20}),
        ("alles außer 50", "de", set()),
        ("pas 50, 20", "fr", {20}),
        ("pas 50 mais 20", "fr", {20}),
        ("tout sauf 50", "fr", set()),
        ("mets 20 au lieu de 50", "fr", {20}),
        ("niet 50 maar 20", "nl", {20}),
        ("alles behalve 50", "nl", set()),
        ("zet het op 20 in plaats van 50", "nl", {20}),
        ("no 50, 20", "es", {20}),
        ("no 50 sino 20", "es", {20}),
        ("cualquiera excepto 50", "es", set()),
        ("ponlo a 20 en vez de 50", "es", {20}),
        # a complaint about the level is no refusal: its number still counts
        ("not so loud, 20", "en", {20}),
        ("not too loud at 20", "en", {20}),
        ("nicht so laut, 20", "de", {20}),
        ("nicht so laut auf 20", "de", {20}),
        ("pas trop fort, 20", "fr", {20}),
        ("niet zo hard, 20", "nl", {20}),
        ("no tan alto, 20", "es", {20}),
        # a negation before another clause reaches none of its numbers
        ("don't stop the music, just set it to 20", "en", {20}),
        ("nicht ausschalten, nur auf 20", "de", {20}),
    ],
)
def test_a_number_the_user_refused_is_not_one_they_said(
    utterance: str, language: str, numbers: set[int]
) -> None:
    assert volume_numbers(utterance, language) == numbers
    for refused in {20, 50, 100} - numbers:  # nor a level the words allow (no direction here)
        assert not utterance_allows_volume(utterance, refused, None, language), refused


@pytest.mark.parametrize(
    ("utterance", "language"),
    [("not so loud", "en"), ("nicht so laut", "de"), ("pas trop fort", "fr"),
     ("niet zo hard", "nl"), ("no tan alto", "es"), ("not 50, 20", "en")],
)  # fmt: skip
def test_a_level_complaint_still_asks_for_a_volume(utterance: str, language: str) -> None:
    assert utterance_asks_for(utterance, "volume", language=language)


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
