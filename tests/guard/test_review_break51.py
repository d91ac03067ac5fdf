"""Break-it review 51 (branch break51): names a device chooses, read by the word rules.

A streamer's room name (its player's name) and its sources' names are set in Linn's app,
which asks no password. These cases call the word rules the guard decides with when the
turn has no plan (a planner that failed, another agent with no assistant entry of ours):
`players_named` with the user's utterance, `utterance_asks_for` with the turn's words.

Fixed: a source named "Standby", "Off" or "Volume 45" was a standby or a volume of 45
when the user asked for that input by name; the words of a source name asked for as a
source (in a source phrase) now count for no other kind (utterance.mask_sources).
Fixed: a room named with the words of a request ("Turn Off", "It", "Everything", "The
Music") was named by any request that uses them; a name made only of request words is
now named by no words the rules read (guard/request_words.py).
Held: a name that differs from another player's only in case, spacing or zero-width
characters is cleaned to the same name (tools/players.py then tells the two apart by
entity id, tests/ha/assistant/test_review_break51.py); with a plan, the planned target
words ("the living room") do not name "Turn Off".
"""

from __future__ import annotations

import pytest

from custom_components.linn.guard.untrusted import clean_text
from custom_components.linn.guard.utterance import players_named, utterance_asks_for
from custom_components.linn.guard.volume_words import utterance_allows_volume, volume_numbers

LIVING = ("Living Room", "Living Room")
"""The player the user means: its name and its area's."""


PRONOUN_ROOMS = [
    ("It", "turn it off"),
    ("Everything", "turn everything off"),
    ("The Music", "turn the music down"),
]
"""A room renamed to words a request uses for what plays, and a request that uses them."""


def _kitchen(room: str) -> tuple[str, str]:
    """The kitchen streamer renamed in Linn's app: its new name, its area's."""
    return (room, "Kitchen")


def test_a_room_named_with_the_requests_command_words_is_not_named_by_them() -> None:
    assert not players_named("turn off the living room", [_kitchen("Turn Off")], [LIVING], [False])


def test_with_a_plan_the_target_words_do_not_name_the_command_word_room() -> None:
    """Held: the planner's target words ("the living room") hold no command words."""
    assert not players_named("the living room", [_kitchen("Turn Off")], [LIVING], [False])
    assert players_named("the living room", [LIVING], [_kitchen("Turn Off")], [False])


@pytest.mark.parametrize(("room", "utterance"), PRONOUN_ROOMS)
def test_a_room_named_like_a_pronoun_is_not_named_by_it(room: str, utterance: str) -> None:
    assert not players_named(utterance, [_kitchen(room)], [LIVING], [False])


@pytest.mark.parametrize(("room", "utterance"), PRONOUN_ROOMS)
def test_a_room_named_like_a_pronoun_does_not_take_the_implied_players_change(
    room: str, utterance: str
) -> None:
    assert players_named(utterance, [LIVING], [_kitchen(room)], [True])


SOURCE_NAMED_LIKE_A_REQUEST = [
    ("Standby", "change the input to standby", "standby"),
    ("Off", "use the Off input", "standby"),
    ("Volume 45", "change the input to Volume 45", "volume"),
]
"""A source renamed in Linn's app, a request for it as an input, the kind its name reads as."""


@pytest.mark.parametrize(("source", "utterance", "kind"), SOURCE_NAMED_LIKE_A_REQUEST)
def test_a_source_asked_for_by_its_name_is_no_standby_or_volume(
    source: str, utterance: str, kind: str
) -> None:
    """Fixed: the guard passes the players' source names (checks.source_names)."""
    sources = ["TV", source]
    assert utterance_asks_for(utterance, "source", (source,), language="en")
    assert not utterance_asks_for(utterance, kind, language="en", sources=sources)
    assert 45 not in volume_numbers(utterance, "en", sources)
    assert not utterance_allows_volume(utterance, 45, 30, "en", sources)


@pytest.mark.parametrize(
    ("utterance", "kind"),
    [
        ("turn it off", "standby"),
        ("standby", "standby"),
        ("set the volume to 45", "volume"),
        ("switch to the TV input and turn it up", "volume"),
        ("switch to the Off input and turn it off", "standby"),
        ("switch to Volume 45 and set the volume to 45", "volume"),
    ],
)
def test_real_requests_still_count_with_sources_named_like_them(utterance: str, kind: str) -> None:
    """Held: only a source name's words inside a source phrase are masked."""
    sources = ["TV", "Standby", "Off", "Volume 45"]
    assert utterance_asks_for(utterance, kind, language="en", sources=sources)


def test_a_volume_said_outside_the_source_phrase_still_counts() -> None:
    sources = ["Volume 45"]
    assert 45 in volume_numbers("switch to Volume 45 and set the volume to 45", "en", sources)
    assert utterance_allows_volume("set the volume to 45", 45, 30, "en", sources)


@pytest.mark.parametrize(
    "room", ["Kitch\u200ben", "KITCHEN ", "Kitchen\u00a0", "\u202eKitchen", " kitchen\n"]
)
def test_a_name_that_differs_only_invisibly_cleans_to_the_same_name(room: str) -> None:
    """Held: the player list cleans names before it tells shared names apart (casefold)."""
    assert (clean_text(room, 60) or "").casefold() == "kitchen"


def test_a_very_long_room_name_is_capped_before_it_reaches_any_list() -> None:
    """Held: 60 characters of a 10,000-character room name, one line."""
    cleaned = clean_text("Kitchen\n" + "x" * 10_000, 60)
    assert cleaned is not None
    assert len(cleaned) == 60
    assert "\n" not in cleaned
