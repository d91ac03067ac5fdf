"""The lowest volume a player had at the changes of one turn: a jump is measured from it.

A jump of more than JUMP_POINTS is a risk signal (risk.py). Measured from the volume just
before each call, a model could split one jump into steps of 20 ("a bit louder" at 3 a.m.:
10 -> 30 -> 50 -> 60), each no jump (break-it review 50). Measured from the lowest volume
the turn's changes saw on the player, the steps add up to the jump they are.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Final

from .call import ToolCall
from .clock import Clock

KEPT: Final = 256
"""Turns (and callers without one) whose lowest volumes are kept: a turn's changes come
within seconds of each other."""
WINDOW: Final = 600.0
"""Seconds a lowest volume counts: a turn, or a caller without a conversation (it has no
turns: its changes within this window count as one turn's)."""


def turn_key(call: ToolCall) -> Hashable:
    """One turn of one user (without a conversation: the caller)."""
    turn = call.turn
    if turn.conversation_id is None:
        return (call.caller.user_id, call.caller.agent_id)
    return (call.caller.user_id, turn.conversation_id, turn.log_id, turn.utterance_id, turn.index)


class TurnVolumes:
    """Per turn and players, the lowest volume seen at a change, for WINDOW seconds."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._lowest: OrderedDict[tuple[Hashable, tuple[str, ...]], tuple[float, int]] = (
            OrderedDict()
        )

    def __len__(self) -> int:
        return len(self._lowest)

    def lowest(self, call: ToolCall, entity_ids: tuple[str, ...], current: int) -> int:
        """Record `current` for this turn's players; the lowest volume seen, `current` included."""
        now = self._clock().timestamp()
        key = (turn_key(call), entity_ids)
        since, lowest = self._lowest.get(key, (now, current))
        if now - since > WINDOW:
            since, lowest = now, current
        lowest = min(lowest, current)
        self._lowest[key] = (since, lowest)
        self._lowest.move_to_end(key)
        while len(self._lowest) > KEPT:
            self._lowest.popitem(last=False)
        return lowest
