"""Plans for the turns of agents that have no planner of their own.

Any agent (Home Assistant's own Claude or OpenAI agent, a local one) calls the Linn tools
through the Assist API. While an assistant entry is loaded, its model plans such a turn
from the turn's utterance, once per turn (guard/turn_plans.py), with the same request our
own turns send (planner.py) and within the caller's budgets: the usage is counted for
the caller, under its own counter (`other_agent_plans`). Without an assistant entry, their
turns follow the word rules.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from homeassistant.core import HomeAssistant
from homeassistant.util.hass_dict import HassKey

from ..const import DOMAIN
from ..guard import Caller, Turn
from ..guard.plan import NoPlan, Plan
from ..guard.turn_plans import PlanStarter
from ..tools.ha_adapter import DATA_GUARD
from .const import CONF_MODEL, option
from .planner import async_plan_counted, planning_request
from .runtime import AssistantConfigEntry
from .usage import exceeded_budget

OTHER_AGENT_PLANS = "other_agent_plans"
_PLANNERS: HassKey[list[PlanStarter]] = HassKey(f"{DOMAIN}_other_agent_planners")
"""The loaded entries' starters, oldest first: the first plans other agents' turns."""
NO_PLAN_BUDGET = "budget"


def async_plan_other_agents(hass: HomeAssistant, entry: AssistantConfigEntry) -> Callable[[], None]:
    """Plan other agents' turns with this entry's model, unless another entry does.

    The entries loaded later wait in line: when the planning one unloads, the next loaded
    one plans (review 49: other agents' turns were left to the word rules while an entry
    was still loaded). Returns the undo, for the entry's unload.
    """
    plans = hass.data[DATA_GUARD].plans
    line = hass.data.setdefault(_PLANNERS, [])

    def start(turn: Turn, utterance: str, caller: Caller) -> asyncio.Future[Plan | NoPlan]:
        return hass.async_create_task(
            _async_plan(hass, entry, turn, utterance, caller), "linn other agent's plan"
        )

    line.append(start)
    if plans.starter is None:
        plans.starter = start

    def undo() -> None:
        if start in line:
            line.remove(start)
        if plans.starter is start:
            plans.starter = line[0] if line else None

    return undo


async def _async_plan(
    hass: HomeAssistant, entry: AssistantConfigEntry, turn: Turn, utterance: str, caller: Caller
) -> Plan | NoPlan:
    ledger = hass.data[DATA_GUARD].guard.ledger
    conversation = turn.conversation_id or ""
    if exceeded_budget(
        ledger, conversation, caller.user_id, entry.options, is_admin=caller.is_admin
    ):
        return NoPlan(NO_PLAN_BUDGET)  # each change then waits for the user's yes
    runtime = entry.runtime_data
    model = option(entry.options, CONF_MODEL)
    earlier = [turn.previous_utterance] if turn.previous_utterance else []
    request = planning_request(model, utterance, earlier, turn.language, runtime.capabilities)
    return await async_plan_counted(
        hass,
        runtime,
        request,
        [*earlier, utterance],
        conversation_id=conversation,
        user_id=caller.user_id,
        counter=OTHER_AGENT_PLANS,
        outcome_prefix="other_agents_",
    )
