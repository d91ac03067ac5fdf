"""What the guard recorded and who asked, as the break-it reviews' tests read them."""

from __future__ import annotations

from homeassistant.auth.const import GROUP_ID_USER
from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant

from custom_components.linn.guard import Outcome
from custom_components.linn.tools.ha_adapter import DATA_GUARD


async def new_member(hass: HomeAssistant) -> User:
    """A household member: a user who is not an admin."""
    return await hass.auth.async_create_user("Member", group_ids=[GROUP_ID_USER])


def outcomes_of(hass: HomeAssistant, tool: str) -> list[Outcome]:
    """The outcomes the guard recorded for one tool, oldest first."""
    return [r.outcome for r in hass.data[DATA_GUARD].guard.audit.records if r.tool == tool]
