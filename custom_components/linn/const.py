"""Constants for the Linn integration."""

from collections.abc import Mapping
from typing import Any, Final

from homeassistant.const import CONF_API_KEY

DOMAIN: Final = "linn"
MANUFACTURER: Final = "Linn"

DEFAULT_PORT: Final = 23
CONF_SERVICE_VERSIONS: Final = "service_versions"
"""Entry data: the OpenHome service versions the device declared at discovery."""
CONNECT_TIMEOUT: Final = 10.0
"""Seconds to open the LPEC session and receive the full state."""
ACTION_TIMEOUT: Final = 5.0
"""Seconds a command may take before it fails (it never hangs)."""
KEEPALIVE_INTERVAL: Final = 30.0
"""Idle seconds before a keepalive action checks for a half-open connection."""
RECONNECT_MAX: Final = 4.0
"""Longest wait between reconnection attempts (exponential backoff with jitter): short
enough that a device back from a reboot is in use again within 5 s."""

# media_content_type values of the device's own browsable items
MEDIA_TYPE_PIN: Final = "linn_pin"
MEDIA_TYPE_PRESET: Final = "linn_preset"
MEDIA_TYPE_SOURCE: Final = "linn_source"

SERVICE_INVOKE_PIN: Final = "invoke_pin"
ATTR_PIN: Final = "pin"


def is_assistant_data(data: Mapping[str, Any]) -> bool:
    """An assistant entry carries an API key; a streamer entry a host."""
    return CONF_API_KEY in data
