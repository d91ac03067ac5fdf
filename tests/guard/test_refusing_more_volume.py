"""Break-it review 50: words that refuse more volume ask for no raise and no volume change.

"no louder please", "stop turning it up", "it's loud enough" and their equivalents read as a
request for more before (the direction rules saw "louder", "up", "loud"). A one-word direction
right after English "no" or "not", the volume words after a "stop ...ing" and a level word with
an "enough" beside it ask for nothing now (Language.holds_off). Real requests stay asked:
after a comma a "no" or a "stop" is its own clause ("no, louder!", "stop, turn it up"), and
"it's not loud enough" asks for more.
"""

from __future__ import annotations

import pytest

from custom_components.linn.guard import utterance_asks_for
from custom_components.linn.guard.volume_words import utterance_allows_volume

REFUSE_MORE = [
    ("en", "no louder please"),
    ("en", "not louder"),
    ("en", "stop turning it up"),
    ("en", "quit cranking it up"),
    ("en", "it's loud enough"),
    ("en", "that's loud enough thanks"),
    ("de", "nicht lauter bitte"),
    ("de", "hör auf lauter zu machen"),
    ("de", "es ist laut genug"),
    ("fr", "pas plus fort"),
    ("fr", "arrête de monter le son"),
    ("fr", "c'est assez fort"),
    ("nl", "niet harder"),
    ("nl", "stop met harder zetten"),
    ("nl", "het is hard genoeg"),
    ("es", "no más alto"),
    ("es", "deja de subirlo"),
    ("es", "deja de subir el volumen"),
    ("es", "ya está bastante alto"),
]

ASK_MORE = [
    ("en", "turn it up"),
    ("en", "a bit louder"),
    ("en", "louder please"),
    ("en", "no, louder!"),  # the "no" answers something else: its own clause
    ("en", "stop, turn it up"),  # a comma starts a new clause
    ("en", "not loud enough, turn it up"),
    ("en", "it's not loud enough"),
    ("en", "it isn't loud enough"),
    ("en", "can you make it louder"),
    ("en", "no turn it up"),  # "no" only refuses a one-word direction right after it
    ("de", "lauter bitte"),
    ("de", "hör auf, mach lauter"),
    ("fr", "plus fort"),
    ("fr", "arrête, monte le son"),
    ("nl", "harder"),
    ("nl", "stop, harder"),
    ("es", "más alto"),
    ("es", "no, más alto"),
]


@pytest.mark.parametrize(("language", "said"), REFUSE_MORE)
def test_words_that_refuse_more_allow_no_raise(language: str, said: str) -> None:
    assert not utterance_allows_volume(said, 40, 20, language)


@pytest.mark.parametrize(("language", "said"), REFUSE_MORE)
def test_words_that_refuse_more_ask_for_no_volume(language: str, said: str) -> None:
    assert not utterance_asks_for(said, "volume", language=language)


@pytest.mark.parametrize(("language", "said"), ASK_MORE)
def test_words_that_ask_for_more_allow_a_raise(language: str, said: str) -> None:
    assert utterance_allows_volume(said, 40, 20, language)
    assert utterance_asks_for(said, "volume", language=language)


@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "it's quiet enough"), ("en", "stop turning it down"), ("de", "es ist leise genug")],
)
def test_enough_or_stop_also_holds_off_a_lower_volume(language: str, said: str) -> None:
    assert not utterance_allows_volume(said, 10, 20, language)
