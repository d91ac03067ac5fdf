"""Constants for the Linn integration."""

from typing import Final

DOMAIN: Final = "linn"
DEFAULT_PORT: Final = 23
