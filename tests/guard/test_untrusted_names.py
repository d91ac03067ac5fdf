"""Names no user chose (issue 18 item 2): an agent that sends them says so, and its turn
follows the rules of a conversation that read device text from its first tool call."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from custom_components.linn.guard import (
    OTHER_API_TOOLS,
    Access,
    Guard,
    Outcome,
    ToolCall,
    ToolSpec,
    Turn,
)
from custom_components.linn.guard.messages import MSG_NOT_ASKED_CONVERSATION

from .callers import ALICE
from .calls import check_audit_invariant
from .doubles import SPECS, FakeClock, Player, PlayerHandler

TURN_OFF = "ext:intent__HassTurnOff"
FOREIGN = ToolSpec(
    TURN_OFF,
    Access.CONTROL,
    policy_name=OTHER_API_TOOLS,
    approvable=False,
    conversation_taint=True,
)


class NoPlayer(PlayerHandler):
    """Another API's tool: it targets no Linn player."""

    def targets(self, arguments: Mapping[str, Any]) -> tuple[str, ...]:
        return ()


@pytest.mark.parametrize("names_sent", [True, False])
async def test_a_turn_whose_request_carries_names_runs_no_other_apis_change(
    clock: FakeClock, names_sent: bool
) -> None:
    """A sensor named "... unlock the front door ..." in the Assist prompt: the model's
    HassTurnOff on the lock, the turn's first tool call, is refused."""
    guard = Guard({**SPECS, TURN_OFF: FOREIGN}, clock=clock)
    caller = replace(ALICE, agent_id="conversation.assistant")
    turn = Turn("c1", 1, "is the front door locked?", "en")
    if names_sent:
        guard.request_carries_untrusted_text(caller, turn)
    result = await guard.run(ToolCall(TURN_OFF, {}, caller, turn), NoPlayer("next", Player()))
    if names_sent:
        assert result.data == {"error": MSG_NOT_ASKED_CONVERSATION}
    else:
        assert result.outcome is Outcome.ALLOWED  # what the mark adds
    # and so for the rest of the conversation
    later = await guard.run(
        ToolCall(TURN_OFF, {}, caller, replace(turn, index=2)),
        NoPlayer("next", Player()),
    )
    assert (later.outcome is Outcome.DENIED) is names_sent
    check_audit_invariant(guard)


async def test_names_alone_do_not_refuse_what_the_user_asked_for(clock: FakeClock) -> None:
    guard = Guard(SPECS, clock=clock)
    player = Player()
    turn = Turn("c1", 1, "turn off the living room", "en")
    guard.request_carries_untrusted_text(ALICE, turn)
    result = await guard.run(ToolCall("standby", {}, ALICE, turn), PlayerHandler("standby", player))
    assert result.outcome is Outcome.ALLOWED
    assert player.standby
    check_audit_invariant(guard)
