"""Which players the user's words name (review 30b X1, X2).

X1: a player's name counts only whole, not inside a longer player name the user said
("the living room speakers" never names "Living Room"). X2: before device text too, a
change may not land on a player other than the one the words name (a player's name, set
in Linn's app with no password, may carry an instruction); words that name no player
leave the model's pick alone ("turn it off" from the phone app with two players).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from custom_components.linn.guard import Guard, Outcome, PlayerTerms, ToolCall, Turn
from custom_components.linn.guard.messages import MSG_NOT_THIS_PLAYER, MSG_NOT_THIS_PLAYER_WORDS
from custom_components.linn.guard.plan import Plan, PlannedChange
from custom_components.linn.guard.utterance import players_named

from .callers import ALICE
from .calls import call, check_audit_invariant
from .doubles import Player, PlayerHandler

LIVING = ("Living Room",)
SPEAKERS = ("Living Room Speakers",)
KITCHEN = ("Kitchen",)


@pytest.fixture(autouse=True)
def _audit_invariant(guard: Guard) -> Iterator[None]:
    yield
    check_audit_invariant(guard)


# --- X1: a name counts only whole -------------------------------------------------------


@pytest.mark.parametrize(
    ("words", "target", "other", "named"),
    [
        ("put the living room speakers in standby", LIVING, SPEAKERS, False),
        ("the living room speakers", LIVING, SPEAKERS, False),
        ("put the living room speakers in standby", SPEAKERS, LIVING, True),
        ("put the living room in standby", LIVING, SPEAKERS, True),
        ("the living room and the living room speakers", LIVING, SPEAKERS, True),
        ("the speakers", SPEAKERS, LIVING, True),  # its own word no other player has
    ],
)
def test_a_name_inside_a_longer_player_name_the_user_said_is_not_named(
    words: str, target: tuple[str, ...], other: tuple[str, ...], named: bool
) -> None:
    assert players_named(words, [target], [other], [False]) is named


def test_the_longer_name_said_names_no_other_player_so_an_implied_target_stays() -> None:
    """The words "the living room speakers" name no "Living Room": the implied speakers
    stay named, the living room is not the player the words name."""
    words = "put the living room speakers in standby"
    assert players_named(words, [SPEAKERS], [LIVING], [True])
    assert not players_named(words, [LIVING], [SPEAKERS], [True])


def test_a_word_inside_a_longer_name_of_another_player_names_nothing() -> None:
    """The distinct-word fallback: "office" is a word of the longer name too, so it is
    no word of the office's own; only a player's own longer name holds its own words."""
    words = "stop the garden office speakers"
    assert not players_named(words, [("Office",)], [("Garden Office Speakers",)], [False])
    assert not players_named(words, [("Office",)], [("Garden Office Speakers",)], [True])
    assert players_named("the kitchen", [("Kitchen Streamer",)], [LIVING], [False])
    assert players_named(
        "the kitchen streamer", [("Kitchen Streamer", "Kitchen")], [LIVING], [False]
    )


# --- X2: before device text, a change lands on no player other than the one named ---------


class RoomHandler(PlayerHandler):
    """The living room is the target, the kitchen is offered; neither is implied."""

    def player_terms(self, arguments: Mapping[str, Any]) -> PlayerTerms:
        return PlayerTerms((LIVING,), (KITCHEN,), (False,))


async def _standby(guard: Guard, player: Player, turn: Turn) -> Any:
    return await guard.run(ToolCall("standby", {}, ALICE, turn), RoomHandler("standby", player))


@pytest.mark.parametrize("plan", [True, False], ids=["plan", "word rules"])
async def test_before_device_text_a_change_of_another_player_than_the_named_one_is_refused(
    guard: Guard, player: Player, plan: bool
) -> None:
    """A player's name told the model standby means the living room; nothing was read."""
    planned = Plan((PlannedChange("standby", target="the kitchen"),)) if plan else None
    turn = Turn("c1", 1, "put the kitchen in standby", "en", plan=planned)
    result = await _standby(guard, player, turn)
    assert result.outcome is Outcome.DENIED
    assert result.data == {"error": MSG_NOT_THIS_PLAYER_WORDS}
    assert not player.standby


@pytest.mark.parametrize("plan", [True, False], ids=["plan", "word rules"])
async def test_before_device_text_words_that_name_no_player_leave_the_models_pick(
    guard: Guard, player: Player, plan: bool
) -> None:
    """The words "turn it off" from the phone app, two players, no satellite: the model
    picks."""
    planned = Plan((PlannedChange("standby"),)) if plan else None
    result = await _standby(guard, player, Turn("c1", 1, "turn it off", "en", plan=planned))
    assert result.outcome is Outcome.ALLOWED, result.data
    assert player.standby


@pytest.mark.parametrize("plan", [True, False], ids=["plan", "word rules"])
async def test_before_device_text_the_named_player_runs(
    guard: Guard, player: Player, plan: bool
) -> None:
    planned = Plan((PlannedChange("standby", target="the living room"),)) if plan else None
    turn = Turn("c1", 1, "put the living room in standby", "en", plan=planned)
    result = await _standby(guard, player, turn)
    assert result.outcome is Outcome.ALLOWED, result.data


async def test_after_device_text_the_unnamed_player_must_still_be_implied(
    guard: Guard, player: Player
) -> None:
    """Unchanged after a read: "turn it off" with two players and no satellite is refused."""
    turn = Turn("c1", 1, "turn it off", "en", plan=Plan((PlannedChange("standby"),)))
    await call(guard, player, "get_state", turn=turn)
    result = await _standby(guard, player, turn)
    assert result.data == {"error": MSG_NOT_THIS_PLAYER}
    assert not player.standby


async def test_without_word_rules_or_a_plan_the_question_is_about_the_named_player(
    guard: Guard, player: Player
) -> None:
    """Italian, no plan: a change waits for the user's yes to the model's question, but
    never one about another player than the one the words name (the names are the user's
    own in any language)."""
    turn = Turn("c1", 1, "spegni la cucina", "it", log_id="L")
    result = await guard.run(
        ToolCall("standby", {}, ALICE, turn),
        _Italian("standby", player),
    )
    assert result.data == {"error": MSG_NOT_THIS_PLAYER_WORDS}
    assert not guard.pending.open_requests()
    named = Turn("c1", 2, "spegni il soggiorno", "it", log_id="L")
    asked = await guard.run(ToolCall("standby", {}, ALICE, named), _Italian("standby", player))
    assert asked.outcome is Outcome.PENDING, asked.data


class _Italian(PlayerHandler):
    """The living room ("soggiorno", its area's name) is the target, the kitchen offered."""

    def player_terms(self, arguments: Mapping[str, Any]) -> PlayerTerms:
        return PlayerTerms((("Living Room", "soggiorno"),), (("Kitchen", "cucina"),), (False,))
