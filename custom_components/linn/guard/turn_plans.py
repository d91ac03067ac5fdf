"""Each turn's plan, as a planner delivers it while the turn's first model call runs.

The agent starts the planner when a turn starts and hands its task in here; a change
waits for it (at most PLAN_WAIT seconds: then the turn has no plan, and the change waits
for the user's yes). A turn no planner runs for has no entry: the word rules decide.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from typing import Final

from .call import Caller, Turn
from .plan import NoPlan, Plan

PLAN_WAIT: Final = 15.0
KEPT: Final = 64
"""Plans of this many turns are kept (a turn's changes come within seconds of its plan)."""

NO_PLAN_LATE: Final = "late"
NO_PLAN_CANCELLED: Final = "cancelled"


type PlanStarter = Callable[[Turn, str, Caller], asyncio.Future[Plan | NoPlan]]
"""Starts planning a turn from its utterance (an assistant entry's model plans it, within
the caller's budgets)."""


class TurnPlans:
    """The planner's task per (conversation, the turn's own utterance).

    Not per turn index: a new chat log under a reused conversation id starts again at 1,
    and two turns at once under one id (each on its own copy of the log) share an index.
    """

    def __init__(self) -> None:
        """No turn planned yet, and no planner for other agents' turns."""
        self._plans: OrderedDict[tuple[str, str], asyncio.Future[Plan | NoPlan]] = OrderedDict()
        self.starter: PlanStarter | None = None
        """Plans the turns of agents that have no planner of their own (set by an
        assistant entry while it is loaded); None: their turns follow the word rules."""

    def ensure(self, turn: Turn, utterance: str | None, caller: Caller) -> None:
        """Start planning this turn if nothing plans it yet and a starter can.

        Once per turn: a turn already planned (by our agent, or an earlier call of this
        turn) keeps its plan.
        """
        key = _key(turn)
        if key is None or not utterance or self.starter is None:
            return
        if key in self._plans:
            return
        self.add(*key, self.starter(turn, utterance, caller))

    def add(
        self, conversation_id: str, utterance_id: str, plan: asyncio.Future[Plan | NoPlan]
    ) -> None:
        """The plan of the turn of this utterance will be `plan`'s result (it never raises)."""
        key = (conversation_id, utterance_id)
        self._plans[key] = plan
        self._plans.move_to_end(key)
        while len(self._plans) > KEPT:
            self._plans.popitem(last=False)

    async def async_plan_for(self, turn: Turn, wait: float = PLAN_WAIT) -> Plan | NoPlan | None:
        """The turn's plan; NoPlan when it is late; None when no planner runs for it."""
        key = _key(turn)
        plan = self._plans.get(key) if key is not None else None
        if plan is None:
            return None
        if plan.cancelled():  # its turn ended: what still runs of it has no plan
            return NoPlan(NO_PLAN_CANCELLED)
        try:
            return await asyncio.wait_for(asyncio.shield(plan), wait)
        except TimeoutError:
            return NoPlan(NO_PLAN_LATE)


def _key(turn: Turn) -> tuple[str, str] | None:
    if turn.conversation_id is None or turn.utterance_id is None:
        return None
    return (turn.conversation_id, turn.utterance_id)
