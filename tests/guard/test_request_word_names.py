"""Player names made of a request's own words (break-it review 51, request_words.py).

A name whose every word is a request word of some rule language ("Turn Off", "It", "The
Music") is named by no utterance the word rules read, only by a plan's target words; a
request word of a name never names its player alone. Room names with a word for a room
or a request word beside a word of their own ("Play Room", "Music Room") stay namable.
"""

from __future__ import annotations

import pytest

from custom_components.linn.guard.request_words import only_request_words
from custom_components.linn.guard.utterance import players_named

LIVING = ("Living Room", "Living Room")


@pytest.mark.parametrize("name", ["Turn Off", "It", "Everything", "The Music", "Mach Es Aus"])
def test_a_name_of_request_words_only_is_one(name: str) -> None:
    assert only_request_words(name)


@pytest.mark.parametrize(
    "name", ["Play Room", "Music Room", "Living Room", "Kitchen", "Garage", "Wohnzimmer", "Salon"]
)
def test_a_room_name_is_not_made_of_request_words_only(name: str) -> None:
    assert not only_request_words(name)


@pytest.mark.parametrize(
    ("utterance", "room"),
    [
        ("play something in the play room", "Play Room"),
        ("turn off the music room", "Music Room"),
        ("turn the kitchen down", "Kitchen"),
    ],
)
def test_a_room_with_a_word_of_its_own_is_still_named(utterance: str, room: str) -> None:
    assert players_named(utterance, [(room, room)], [LIVING], [False])
    assert not players_named(utterance, [LIVING], [(room, room)], [True])


def test_a_request_word_of_a_name_does_not_name_it_alone() -> None:
    """'play' of "Play Room" is no word of that player's own: "play jazz" names no room."""
    assert not players_named("play jazz in the living room", [("Play Room",)], [LIVING], [False])


def test_a_plans_target_words_may_name_a_name_of_request_words() -> None:
    """The planned target words are the user's own words for a player."""
    assert players_named("turn off", [("Turn Off",)], [LIVING], [False], planned=True)
    assert not players_named("turn off", [("Turn Off",)], [LIVING], [False])
