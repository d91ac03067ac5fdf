"""The guard end to end, confirmation: the same user says yes in the next turn.

Every attempt ends in exactly one audit record (checked after each test).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from custom_components.linn.guard import Caller, Guard, Outcome, PendingKind, ToolCall, Turn
from custom_components.linn.guard.messages import NOTE_CONFIRMED
from custom_components.linn.guard.pending import PendingStatus

from .callers import ALICE, BOB
from .calls import asked, call
from .doubles import Player, PlayerHandler
from .engine_checks import _audit_invariant  # noqa: F401

# --- confirm: the same user says yes in the next turn ------------------------------------


async def test_volume_above_soft_limit_needs_the_users_yes_next_turn(
    guard: Guard, player: Player
) -> None:
    player.volume = 50
    first = await call(guard, player, "set_volume", {"volume": 65}, turn=Turn("c1", 1, "volume 65"))
    assert first.outcome is Outcome.PENDING
    assert first.data["error"].startswith("Needs confirmation")
    request_id = first.request_id
    # the model calling again in the same turn gets the same request, not a new one
    again = await call(guard, player, "set_volume", {"volume": 65}, turn=Turn("c1", 1, "yes"))
    assert again.request_id == request_id
    assert player.volume == 50

    done = await call(
        guard, player, "set_volume", {"volume": 65}, turn=asked(guard, Turn("c1", 2, "yes", "en"))
    )
    assert done.outcome is Outcome.APPROVED
    assert player.volume == 65
    assert request_id is not None
    request = guard.pending.get(request_id)
    assert request is not None
    assert request.status is PendingStatus.APPROVED


@pytest.mark.parametrize(
    ("caller", "index", "approve", "runs"),
    [
        (ALICE, 1, True, True),
        (BOB, 1, True, False),  # another user's yes
        (ALICE, 2, True, False),  # not the turn that asked
        (ALICE, 1, False, False),  # the yes did not approve it (a no, a stricter policy)
    ],
)
async def test_a_change_inside_a_confirmed_call_takes_that_yes(
    guard: Guard, player: Player, caller: Caller, index: int, approve: bool, runs: bool
) -> None:
    """Another API's call the user confirmed reaches a Linn change (service_gate): decided in
    the turn that asked, a yes it needs is the approved one, bound to user, chat and turn."""
    player.volume = 50
    request = guard.pending.create(
        PendingKind.CONFIRM, "ext:intent", {"name": "x"}, user_id="alice", conversation_id="c1",
        turn=1,
    )  # fmt: skip
    guard.pending.take(request.request_id, approve=approve)
    result = await guard.run(
        ToolCall(
            "set_volume",
            {"volume": 65},  # above the soft limit: needs a yes
            caller,
            Turn("c1", index, "set the volume to 65", "en"),
            confirmed_by=request.request_id,
        ),
        PlayerHandler("set_volume", player),
    )
    assert result.outcome is (Outcome.APPROVED if runs else Outcome.PENDING)
    assert player.volume == (65 if runs else 50)
    if runs:
        assert result.record is not None
        assert NOTE_CONFIRMED in result.record.reason.split("; ")


async def test_german_yes_confirms(guard: Guard, player: Player) -> None:
    player.volume = 50
    await call(
        guard, player, "set_volume", {"volume": 65}, turn=Turn("c1", 1, "lauter, auf 65", "de")
    )
    done = await call(
        guard,
        player,
        "set_volume",
        {"volume": 65},
        turn=asked(guard, Turn("c1", 2, "Ja, bitte", "de")),
    )
    assert done.outcome is Outcome.APPROVED


@pytest.mark.parametrize(
    ("caller", "turn", "changed_volume"),
    [
        (BOB, Turn("c1", 2, "yes"), False),  # another person
        (ALICE, Turn("c2", 2, "yes"), False),  # another conversation
        (ALICE, Turn("c1", 2, "sure, and make it 100"), False),  # not just an answer
        (ALICE, Turn("c1", 3, "yes"), False),  # not the next turn
        (ALICE, Turn("c1", 2, "yes"), True),  # different arguments: not what was asked
    ],
)
async def test_a_yes_that_does_not_fit_executes_nothing(
    guard: Guard, player: Player, caller: Caller, turn: Turn, changed_volume: bool
) -> None:
    player.volume = 50
    await call(guard, player, "set_volume", {"volume": 65}, turn=Turn("c1", 1, "volume 65"))
    volume = 66 if changed_volume else 65
    result = await call(
        guard, player, "set_volume", {"volume": volume}, caller=caller, turn=asked(guard, turn)
    )
    # no yes to this request, and the words ask for no volume: nothing runs, nothing asks
    assert result.outcome is Outcome.DENIED
    assert player.volume == 50


async def test_a_yes_in_a_new_chat_log_under_the_same_id_confirms_nothing(
    guard: Guard, player: Player
) -> None:
    """Home Assistant reuses an id like `kitchen` for a new chat log: turn 2 there is no answer.

    The new log's previous turn asked about no request (none of its tool results carry the
    old id), so its "yes", whatever it answered, cannot confirm the old request.
    """
    player.volume = 50
    first = await call(
        guard, player, "set_volume", {"volume": 65}, turn=Turn("kitchen", 1, "volume 65")
    )
    assert first.outcome is Outcome.PENDING
    result = await call(
        guard,
        player,
        "set_volume",
        {"volume": 65},
        turn=Turn("kitchen", 2, "yes", asked=frozenset()),
    )
    assert result.outcome is Outcome.DENIED  # no answer, and "yes" asks for nothing
    assert player.volume == 50
    old = guard.pending.get(first.request_id or "")
    assert old is not None
    assert old.status is PendingStatus.DENIED  # lapsed
    # asked afresh in this chat log
    again = await call(
        guard, player, "set_volume", {"volume": 65}, turn=Turn("kitchen", 3, "volume 65")
    )
    assert again.outcome is Outcome.PENDING
    # the old log's id of the request does not count in another chat log either
    other_log = await call(
        guard,
        player,
        "set_volume",
        {"volume": 65},
        turn=replace(asked(guard, Turn("kitchen", 4, "yes")), log_id="another log"),
    )
    assert other_log.outcome is Outcome.DENIED
    assert player.volume == 50
    # a yes in the log that asked, about that request, works
    await call(
        guard,
        player,
        "set_volume",
        {"volume": 65},
        turn=Turn("kitchen", 5, "volume 65", log_id="another log"),
    )
    done = await call(
        guard,
        player,
        "set_volume",
        {"volume": 65},
        turn=replace(asked(guard, Turn("kitchen", 6, "yes")), log_id="another log"),
    )
    assert done.outcome is Outcome.APPROVED
    assert player.volume == 65


async def test_no_refuses_the_request(guard: Guard, player: Player) -> None:
    player.volume = 50
    await call(guard, player, "set_volume", {"volume": 65}, turn=Turn("c1", 1, "volume 65"))
    result = await call(
        guard, player, "set_volume", {"volume": 65}, turn=asked(guard, Turn("c1", 2, "nope"))
    )
    assert result.data == {"error": "Denied: the user said no"}
    assert player.volume == 50


async def test_without_a_conversation_confirmation_becomes_approval(
    guard: Guard, player: Player
) -> None:
    player.volume = 50
    result = await call(guard, player, "set_volume", {"volume": 65}, turn=Turn(None))
    assert result.data["error"].startswith("Needs approval")
