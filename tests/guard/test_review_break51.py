"""Break-it review 51 (branch break51): names a device chooses, read by the word rules.

A streamer's room name (its player's name) and its sources' names are set in Linn's app,
which asks no password. These cases call the word rules the guard decides with when the
turn has no plan (a planner that failed, another agent with no assistant entry of ours):
`players_named` with the user's utterance, `utterance_asks_for` with the turn's words.

Broke (xfail, strict): a source named "Standby" or "Off" is a standby request when the
user asks for that input by name. Fixed: a room named with the words of a request ("Turn
Off", "It", "Everything", "The Music") was named by any request that uses them; a name made
only of request words is now named by no words the rules read (guard/request_words.py).
Held: a name that differs from another player's only in case, spacing or zero-width
characters is cleaned to the same name (tools/players.py then tells the two apart by
entity id, tests/ha/assistant/test_review_break51.py); with a plan, the planned target
words ("the living room") do not name "Turn Off".
"""

from __future__ import annotations

import pytest

from custom_components.linn.guard.untrusted import clean_text
from custom_components.linn.guard.utterance import players_named, utterance_asks_for

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


@pytest.mark.parametrize(
    ("utterance", "kind"),
    [
        ("change the input to standby", "standby"),
        ("use the Off input", "standby"),
        ("change the input to Volume 45", "volume"),
    ],
)
@pytest.mark.xfail(
    strict=True,
    reason=(
        "a source the device named 'Standby', 'Off' or 'Volume 45', asked for by name as "
        "an input, reads as a standby or a volume of 45 to the word rules "
        "(utterance_asks_for): without a plan the model's standby or set_volume passes"
    ),
)
def test_a_source_asked_for_by_its_name_is_no_standby_or_volume(utterance: str, kind: str) -> None:
    assert utterance_asks_for(utterance, "source", language="en")
    assert not utterance_asks_for(utterance, kind, language="en")


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
