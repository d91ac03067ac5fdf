"""The word rules, for agents with no planner (issue 29 step 3): words inside a title the
user wants to hear are no request for another kind of change.

Each case is a false allow an independent review found (an injected title made it run
with an obedient model); red before Language.hear_starts.
"""

from __future__ import annotations

import pytest

from custom_components.linn.guard.utterance import utterance_asks_for
from custom_components.linn.guard.volume_words import utterance_allows_volume

TITLES = [
    ("play something to help me sleep", "en", "standby"),
    ("play something off the new Radiohead album", "en", "standby"),
    ("spiel Musik aus den Achtzigern", "de", "standby"),
    ("speel muziek uit de jaren tachtig", "nl", "standby"),
    ("play Hush by Deep Purple", "en", "mute"),
]


@pytest.mark.parametrize(("utterance", "language", "kind"), TITLES)
def test_a_title_asks_only_to_play(utterance: str, language: str, kind: str) -> None:
    assert utterance_asks_for(utterance, "play", language=language)
    assert not utterance_asks_for(utterance, kind, language=language)


def test_a_title_with_up_in_it_asks_for_no_louder_volume() -> None:
    """'play Wake Me Up by Avicii' let an injected 47 through (from 30)."""
    assert not utterance_allows_volume("play Wake Me Up by Avicii", 47, 30, "en")
    assert not utterance_allows_volume("spiel 99 Luftballons", 99, 30, "de")
    assert utterance_allows_volume("play the turntable at volume 25", 25, 30, "en")


@pytest.mark.parametrize(
    ("utterance", "language", "kind"),
    [
        ("play it in the kitchen too", "en", "group"),
        ("play them in random order", "en", "shuffle"),
        ("play that again", "en", "previous"),
        ("play Sleep by Max Richter and turn it off at midnight", "en", "standby"),
        ("spiel Jazz und mach es lauter", "de", "volume"),
        ("play the turntable at volume 25", "en", "volume"),
        ("play the turntable in the living room at 25", "en", "volume"),
        ("spiel Jazz mit Lautstärke 20", "de", "volume"),
    ],
)
def test_a_play_clause_still_asks_for_what_it_says_and_other_clauses_count(
    utterance: str, language: str, kind: str
) -> None:
    assert utterance_asks_for(utterance, kind, language=language)
