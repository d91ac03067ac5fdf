"""After device text, a tool with target fields runs only for the user's action AND targets.

The guard's side of Home Assistant's intent tools (the adapter gives them an action kind and
the arguments naming their targets): no Home Assistant here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from custom_components.linn.guard import (
    OTHER_API_TOOLS,
    Access,
    AgentSettings,
    Guard,
    GuardResult,
    Outcome,
    Policy,
    RiskFacts,
    ToolCall,
    ToolSpec,
    Turn,
)
from custom_components.linn.guard.engine import (
    MSG_ASK_AGAIN,
    MSG_NOT_ASKED,
    MSG_NOT_NAMED,
    MSG_NOT_THIS_VOLUME,
)
from custom_components.linn.guard.utterance import utterance_names

from .conftest import ALICE, SPECS, FakeClock, Player, PlayerHandler

AGENT = "conversation.claude_assistant"
CALLER = replace(ALICE, agent_id=AGENT)
TURN_OFF = "ext:intent__HassTurnOff"
SET_VOLUME = "ext:media_player__HassSetVolume"
UNKNOWN = "ext:other__DoSomething"
LIVE_CONTEXT = "ext:homeassistant__GetLiveContext"
_ENTITY = frozenset({"name", "area", "floor"})


def _foreign(name: str, access: Access, **fields: Any) -> ToolSpec:
    return ToolSpec(
        name, access, policy_name=OTHER_API_TOOLS, approvable=False, timeout=1.0, **fields
    )


FOREIGN = {
    TURN_OFF: _foreign(TURN_OFF, Access.CONTROL, action="turn_off", target_fields=_ENTITY),
    SET_VOLUME: _foreign(SET_VOLUME, Access.CONTROL, action="volume", target_fields=_ENTITY),
    UNKNOWN: _foreign(UNKNOWN, Access.CONTROL),
    LIVE_CONTEXT: _foreign(LIVE_CONTEXT, Access.READ, reads_untrusted=True),
}


class ForeignHandler(PlayerHandler):
    """Another API's tool: any arguments, no Linn player; a volume is a volume target."""

    def validate(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        return dict(arguments)

    def targets(self, arguments: Mapping[str, Any]) -> tuple[str, ...]:
        return ()

    def risk_facts(self, arguments: Mapping[str, Any]) -> RiskFacts:
        volume = arguments.get("volume_level")
        return RiskFacts(volume_target=volume) if isinstance(volume, int) else RiskFacts()


def _guard(clock: FakeClock, policy: Policy = Policy.ALLOW) -> Guard:
    guard = Guard({**SPECS, **FOREIGN}, clock=clock)
    settings = AgentSettings(policies={OTHER_API_TOOLS: policy})
    guard.agent_settings_for = lambda agent_id: settings if agent_id == AGENT else None
    return guard


async def _after_live_context(
    guard: Guard, utterance: str, tool: str, arguments: dict[str, Any], player: Player
) -> GuardResult:
    """In one turn: the live context is read (taint), then the tool is called."""
    turn = Turn("c1", 1, utterance)
    read = await guard.run(ToolCall(LIVE_CONTEXT, {}, CALLER, turn), ForeignHandler("r", Player()))
    assert read.outcome is Outcome.ALLOWED
    assert guard.is_tainted(CALLER, turn)
    return await guard.run(ToolCall(tool, arguments, CALLER, turn), ForeignHandler(tool, player))


@pytest.mark.parametrize(
    ("utterance", "terms", "named"),
    [
        ("Is the kitchen light on? Then turn it off.", ["Kitchen light"], True),
        ("turn off the KITCHEN LIGHT!", ["kitchen light"], True),
        ("Schalte das Küchenlicht aus", ["Küchenlicht"], True),
        ("lights off in the kitchen", ["Kitchen"], True),
        ("turn off the kitchen lights", ["Kitchen light"], False),  # whole words only
        ("turn off the kitchenlight", ["Kitchen light"], False),
        ("turn it off", ["Kitchen light"], False),
        ("turn off the kitchen light", ["Kitchen light", "Attic"], False),  # every one
        ("turn off the kitchen light in the attic", ["Kitchen light", "Attic"], True),
        ("turn it off", [], False),  # no target named at all
        ("turn it off", ["  "], False),
        ("", ["Kitchen light"], False),
        (None, ["Kitchen light"], False),
    ],
)
def test_utterance_names(utterance: str | None, terms: list[str], named: bool) -> None:
    assert utterance_names(utterance, terms) is named


@pytest.mark.parametrize(
    ("utterance", "arguments", "error"),
    [
        ("Is the kitchen light on? Then turn it off.", {"name": "Kitchen light"}, None),
        ("Ist das Küchenlicht an? Dann schalte es aus.", {"name": "Küchenlicht"}, None),
        ("turn off everything in the kitchen", {"area": "Kitchen", "domain": "light"}, None),
        # the text chose the action: the user asked nothing
        ("What's playing?", {"name": "Kitchen light"}, MSG_NOT_ASKED),
        # naming the target is not enough: the user's words must ask for this kind of action
        ("Is the kitchen light on?", {"name": "Kitchen light"}, MSG_NOT_ASKED),
        # the action, but the target came from the text
        ("What's playing? And turn it off.", {"name": "Kitchen light"}, MSG_NOT_NAMED),
        ("Is the hall light on? Turn it off.", {"name": "Kitchen light"}, MSG_NOT_NAMED),
        ("turn off the kitchen light", {"name": "Kitchen light", "area": "Attic"}, MSG_NOT_NAMED),
        ("turn off the lights", {"domain": "light"}, MSG_NOT_NAMED),  # no target at all
        ("turn it off", {"name": "", "area": None}, MSG_NOT_NAMED),
    ],
)
async def test_after_device_text_the_user_must_ask_for_the_action_and_name_the_target(
    clock: FakeClock, utterance: str, arguments: dict[str, Any], error: str | None
) -> None:
    guard = _guard(clock)
    player = Player()
    result = await _after_live_context(guard, utterance, TURN_OFF, arguments, player)
    if error is None:
        assert result.outcome is Outcome.ALLOWED
        assert player.calls == [TURN_OFF]
    else:
        assert (result.outcome, result.data) == (Outcome.DENIED, {"error": error})
        assert player.calls == []


async def test_without_device_text_the_target_need_not_be_named(clock: FakeClock) -> None:
    guard = _guard(clock)
    player = Player()
    turn = Turn("c1", 1, "turn it off")
    call = ToolCall(TURN_OFF, {"name": "Kitchen light"}, CALLER, turn)
    assert (await guard.run(call, ForeignHandler(TURN_OFF, player))).outcome is Outcome.ALLOWED


async def test_a_tool_without_an_action_kind_stays_refused_after_device_text(
    clock: FakeClock,
) -> None:
    guard = _guard(clock)
    player = Player()
    result = await _after_live_context(
        guard, "do something to the kitchen light", UNKNOWN, {"name": "kitchen light"}, player
    )
    assert result.data == {"error": MSG_NOT_ASKED}
    assert player.calls == []


async def test_a_call_that_needs_a_yes_is_refused_after_device_text_and_asks_nothing(
    clock: FakeClock,
) -> None:
    guard = _guard(clock, Policy.CONFIRM)
    player = Player()
    result = await _after_live_context(
        guard, "turn off the kitchen light", TURN_OFF, {"name": "Kitchen light"}, player
    )
    assert (result.outcome, result.data) == (Outcome.DENIED, {"error": MSG_ASK_AGAIN})
    assert guard.pending.open_requests() == []
    assert player.calls == []


@pytest.mark.parametrize(
    ("utterance", "error"),
    [
        ("set the kitchen speaker volume to 25", None),
        ("turn the kitchen speaker down", MSG_NOT_THIS_VOLUME),  # 80 is the text's number
    ],
)
async def test_a_volume_must_follow_the_users_words(
    clock: FakeClock, utterance: str, error: str | None
) -> None:
    guard = _guard(clock)
    player = Player()
    volume = 25 if error is None else 80
    arguments = {"name": "Kitchen speaker", "volume_level": volume}
    result = await _after_live_context(guard, utterance, SET_VOLUME, arguments, player)
    assert result.data.get("error") == error
