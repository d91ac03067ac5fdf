"""The integration's actions, registered once in async_setup."""

from __future__ import annotations

from homeassistant.components.media_player import DOMAIN as MEDIA_PLAYER_DOMAIN
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import service
import probatio

from .const import ATTR_PIN, DOMAIN, SERVICE_INVOKE_PIN


@callback
def async_setup_services(hass: HomeAssistant) -> None:
    """linn.invoke_pin: one of the device's pins, 1-based.

    The assistant's own action (linn.clear_assistant_memory) is registered by the wiring in
    __init__.py, from agent/.
    """
    service.async_register_platform_entity_service(
        hass,
        DOMAIN,
        SERVICE_INVOKE_PIN,
        entity_domain=MEDIA_PLAYER_DOMAIN,
        schema={probatio.Required(ATTR_PIN): probatio.All(int, probatio.Range(min=1))},
        func="async_invoke_pin",
    )
