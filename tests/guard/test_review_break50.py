"""Break-it review 50, the policy core: quiet hours, steps, budgets, pending requests.

Each test is an attack; the docstring says what it tries and whether the guard held.
"""

from __future__ import annotations

from datetime import time
from zoneinfo import ZoneInfo

import pytest

from custom_components.linn.guard import Guard, Outcome, QuietHours, Turn

from .calls import asked, call
from .doubles import SPECS, FakeClock, Player
from .engine_checks import _audit_invariant  # noqa: F401

LONDON = ZoneInfo("Europe/London")
NIGHT = QuietHours(time(22), time(7), LONDON)


def _at_three(clock: FakeClock) -> Guard:
    clock.now = clock.now.replace(hour=2)  # 03:00 in London (BST)
    return Guard(SPECS, clock=clock, quiet_hours=NIGHT)


async def test_quiet_hours_steps_of_twenty_in_one_turn_are_one_jump(
    clock: FakeClock, player: Player
) -> None:
    """BROKE, fixed: at 3 a.m. "a bit louder" lets one step of 20 run (quiet hours alone is
    one signal), but a jump of more than 20 with quiet hours needs a yes, and a yes only for
    a level the user said. The model split the jump: 10 -> 30 -> 50 -> 60 in one turn, each
    step no jump from the volume just before it, so the hi-fi went from 10 to 60 at 3 a.m.
    on "a bit louder". A jump is now measured from the volume the player had at the turn's
    first change: the second step is a jump of 40 in quiet hours and is refused."""
    guard = _at_three(clock)
    player.volume = 10
    turn = Turn("c1", 1, "a bit louder", "en")
    first = await call(guard, player, "set_volume", {"volume": 30}, turn=turn)
    assert first.outcome is Outcome.ALLOWED
    for step in (50, 60):
        result = await call(guard, player, "set_volume", {"volume": step}, turn=turn)
        assert result.outcome is Outcome.DENIED, step
    assert player.volume == 30
    # the next turn of the user's own starts from where the volume is: one more step
    again = await call(
        guard, player, "set_volume", {"volume": 50}, turn=Turn("c1", 2, "louder", "en")
    )
    assert again.outcome is Outcome.ALLOWED


async def test_steps_down_then_up_in_one_turn_measure_from_the_lowest(
    clock: FakeClock, player: Player
) -> None:
    """BROKE, fixed: 30 -> 10 -> 30 is no jump; but 40 -> 20 -> 45 -> 60 at 3 a.m. is a
    climb of 40 from the lowest volume the turn saw: the baseline is the lowest."""
    guard = _at_three(clock)
    player.volume = 40
    turn = Turn("c1", 1, "turn it down, no, actually louder", "en")
    assert (await call(guard, player, "set_volume", {"volume": 20}, turn=turn)).outcome is (
        Outcome.ALLOWED
    )
    assert (await call(guard, player, "set_volume", {"volume": 40}, turn=turn)).outcome is (
        Outcome.ALLOWED
    )
    result = await call(guard, player, "set_volume", {"volume": 55}, turn=turn)
    assert result.outcome is Outcome.DENIED
    assert player.volume == 40


async def test_a_yes_given_after_quiet_hours_began_becomes_a_request_for_an_admin(
    clock: FakeClock, player: Player
) -> None:
    """HELD: "volume 65" at 21:59 (above the soft limit: a yes); the user's yes at 22:01,
    inside quiet hours: above the soft limit and quiet hours are two signals now, so the yes
    does not run it, it asks an administrator."""
    clock.now = clock.now.replace(hour=20, minute=59)  # 21:59 in London
    guard = Guard(SPECS, clock=clock, quiet_hours=NIGHT)
    player.volume = 50
    asking = Turn("c1", 1, "volume 65", "en")
    first = await call(guard, player, "set_volume", {"volume": 65}, turn=asking)
    assert first.outcome is Outcome.PENDING
    clock.advance(minutes=2)
    yes = asked(guard, Turn("c1", 2, "yes", "en"))
    result = await call(guard, player, "set_volume", {"volume": 65}, turn=yes)
    assert result.outcome is Outcome.PENDING
    assert result.data["error"].startswith("Needs approval")
    assert player.volume == 50


# --- the word rules' volumes: words that refuse a level or a direction ------------------------


@pytest.mark.parametrize("utterance", ["not 50, 20", "anything but 50, please"])
async def test_a_level_the_user_refused_is_not_a_level_they_said(
    guard: Guard, player: Player, utterance: str
) -> None:
    """BROKE, fixed: volume_numbers counted every number of a clause that is not a
    question, a refused one too: after "not 50, 20" (or "anything but 50") the word rules
    let the model set 50 (above the soft limit it asked the yes for the refused number). A
    number a negation or an "anything but" reaches is no level the user said."""
    player.volume = 20
    turn = Turn("c1", 1, utterance, "en")
    result = await call(guard, player, "set_volume", {"volume": 45}, turn=turn)
    assert result.outcome is Outcome.DENIED  # control: a level nobody said
    result = await call(guard, player, "set_volume", {"volume": 50}, turn=turn)
    assert result.outcome is Outcome.DENIED
    assert player.volume == 20


@pytest.mark.parametrize(
    "utterance", ["no louder please", "stop turning it up", "it's loud enough"]
)
async def test_words_that_refuse_more_volume_allow_no_raise(
    guard: Guard, player: Player, utterance: str
) -> None:
    """BROKE, fixed: the direction rules read "louder", "up" and "loud" with no negation or
    "stop" reaching them: "no louder please", "stop turning it up" and "it's loud enough"
    asked for a volume change and allowed a raise (a step of 20 ran). Words that ask for no
    more of a change now ask for none (Language.holds_off; tests/guard/
    test_refusing_more_volume.py has each language's)."""
    player.volume = 20
    result = await call(
        guard, player, "set_volume", {"volume": 40}, turn=Turn("c1", 1, utterance, "en")
    )
    assert result.outcome is Outcome.DENIED
    assert player.volume == 20
