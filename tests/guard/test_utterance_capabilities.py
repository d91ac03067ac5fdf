"""The words that ask for issue 19's actions (wake, shuffle, repeat, seek, the volume limit),
in English and German; questions and other requests do not."""

from __future__ import annotations

import pytest

from custom_components.linn.guard import utterance_asks_for

_GERMAN = ("Schalte", "Mach ", "Weck", "Linn ein", "Zufall", "Bitte", "Wiederholung", "30 Sek",
           "Spul", "Spiel den", "Setz", "Ist der", "Läuft")  # fmt: skip


def _language(utterance: str) -> str:
    """The examples' language: the guard reads the words with the turn's language's rules."""
    return "de" if utterance.startswith(_GERMAN) else "en"


@pytest.mark.parametrize(
    ("utterance", "action"),
    [
        ("turn the streamer on", "wake"),
        ("Wake up the Linn", "wake"),
        ("switch on the kitchen", "wake"),
        ("power on the living room please", "wake"),
        ("turn it on", "wake"),
        ("Schalte den Streamer ein", "wake"),
        ("Mach den Linn an", "wake"),
        ("Weck den Linn auf", "wake"),
        ("Linn einschalten", "wake"),
        ("turn on shuffle", "shuffle"),
        ("shuffle off", "shuffle"),
        ("play it in random order", "shuffle"),
        ("Zufallswiedergabe an", "shuffle"),
        ("Bitte mischen", "shuffle"),
        ("repeat off", "repeat"),
        ("loop this playlist", "repeat"),
        ("Wiederholung aus", "repeat"),
        ("back 30 seconds", "seek"),
        ("skip ahead two minutes", "seek"),
        ("rewind a bit", "seek"),
        ("go to the beginning of the song", "seek"),
        ("30 Sekunden zurück", "seek"),
        ("Spul eine Minute vor", "seek"),
        ("Spiel den Song von vorne", "seek"),
        ("play Wires", "play"),
        ("turn it up a bit", "volume"),
        ("could you raise the volume limit to 70", "limit"),
        ("Setz die Lautstärkegrenze auf 70", "limit"),
    ],
)
def test_the_words_ask_for_the_action(utterance: str, action: str) -> None:
    assert utterance_asks_for(utterance, action, language=_language(utterance))


@pytest.mark.parametrize(
    ("utterance", "action"),
    [
        ("is the streamer on?", "wake"),  # a question
        ("play jazz on the kitchen", "wake"),  # "on" without a switching verb
        ("what's on the radio", "wake"),
        ("turn it off", "wake"),
        ("is shuffle on?", "shuffle"),
        ("play the next song", "shuffle"),
        ("does it repeat?", "repeat"),
        ("skip this track", "seek"),
        ("how long is this song?", "seek"),
        ("Ist der Linn an?", "wake"),
        ("Läuft die Zufallswiedergabe?", "shuffle"),
        ("what is the volume limit?", "limit"),
    ],
)
def test_other_words_do_not(utterance: str, action: str) -> None:
    assert not utterance_asks_for(utterance, action, language=_language(utterance))


def test_an_ordinal_answer_is_no_seek() -> None:
    """'second' is no seek word: "the second one" answers which, it does not seek."""
    assert not utterance_asks_for("the second one", "seek")
    assert not utterance_asks_for("die zweite", "seek", language="de")
