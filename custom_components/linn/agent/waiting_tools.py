"""The tool that runs a confirmed request again: a Linn tool, or another LLM API's tool.

A confirmation is resolved in code (confirm.py): the exact call that waited goes through
the guard again, by the same tool the model called, carrying this assistant's agent id.
"""

from __future__ import annotations

import logging

from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import llm

from ..guard import PendingRequest
from ..llm import PREFIX, LinnTool
from ..tools.linn_tools import TOOLS_BY_NAME
from ..tools.players import async_players
from .const import CONF_LLM_APIS, option
from .policies import async_assistant_entry
from .tools import FOREIGN_PREFIX, ForeignTool

_LOGGER = logging.getLogger(__name__)


async def async_waiting_tool(
    hass: HomeAssistant, request: PendingRequest, agent_id: str, llm_context: llm.LLMContext
) -> LinnTool | ForeignTool | None:
    """The tool to run this request again, by the name the model used.

    None when it is not offered any more (its API was turned off meanwhile).
    """
    if not request.tool.startswith(FOREIGN_PREFIX):
        definition = TOOLS_BY_NAME.get(request.tool)
        if definition is None:
            return None
        return LinnTool(definition, async_players(hass, llm_context.assistant), agent_id)
    name = request.tool.removeprefix(FOREIGN_PREFIX)
    entry = async_assistant_entry(hass, agent_id)
    api_ids = [] if entry is None else option(entry.options, CONF_LLM_APIS)
    if not api_ids or name.startswith(PREFIX):
        return None
    try:
        other = await llm.async_get_api(hass, api_ids, llm_context)
    except HomeAssistantError as err:
        _LOGGER.warning("LLM APIs %s are not available: %s", api_ids, err)
        return None
    for tool in other.tools:
        if tool.name == name:
            return ForeignTool(tool, agent_id)
    return None
