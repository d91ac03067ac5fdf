"""Yes/no and "asks for this kind of action", matched in code on the user's raw words."""

from __future__ import annotations

import pytest

from custom_components.linn.guard import Answer, match_answer, utterance_asks_for


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
    assert utterance_asks_for(utterance, action) is asks


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
    assert utterance_asks_for(utterance, "source", [name]) is asks
