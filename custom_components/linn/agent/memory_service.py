"""Action linn.clear_assistant_memory: an administrator clears remembered facts."""

from __future__ import annotations

from typing import Final

from homeassistant.core import (
    HomeAssistant,
    ServiceCall,
    ServiceResponse,
    SupportsResponse,
    callback,
)
from homeassistant.helpers import service
import probatio

from ..const import DOMAIN
from .memory import async_get_memory

SERVICE_CLEAR_MEMORY: Final = "clear_assistant_memory"
ATTR_USER_ID: Final = "user_id"


@callback
def async_setup_memory_service(hass: HomeAssistant) -> None:
    """Register the action (administrators only)."""

    async def clear(call: ServiceCall) -> ServiceResponse:
        memory = await async_get_memory(hass)
        return {"cleared": memory.clear(call.data.get(ATTR_USER_ID))}

    service.async_register_admin_service(
        hass,
        DOMAIN,
        SERVICE_CLEAR_MEMORY,
        clear,
        schema=probatio.Schema(
            {probatio.Optional(ATTR_USER_ID): probatio.All(str, probatio.Length(min=1, max=64))}
        ),
        supports_response=SupportsResponse.OPTIONAL,
    )
