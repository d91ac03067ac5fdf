"""Serve the approvals card and load it into every dashboard: a HACS install needs nothing else."""

from __future__ import annotations

import hashlib
from pathlib import Path

from homeassistant.core import HomeAssistant

from ..const import DOMAIN

FRONTEND_DIR = Path(__file__).parent / "frontend"
CARD_FILE = "linn-approvals-card.js"
URL_BASE = f"/{DOMAIN}_frontend"


def _version() -> str:
    """A digest of the card's files: a changed card is never served from a stale cache."""
    digest = hashlib.sha256()
    for path in sorted(FRONTEND_DIR.glob("*.js")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


async def async_register_card(hass: HomeAssistant) -> None:
    """The static path (when HTTP runs) and the card as an extra frontend module."""
    if "http" not in hass.config.components:
        return  # no web server (some tests): nothing can load the card
    from homeassistant.components.http import StaticPathConfig  # noqa: PLC0415

    await hass.http.async_register_static_paths(
        [StaticPathConfig(URL_BASE, str(FRONTEND_DIR), cache_headers=False)]
    )
    if "frontend" in hass.config.components:
        from homeassistant.components.frontend import add_extra_js_url  # noqa: PLC0415

        version = await hass.async_add_executor_job(_version)
        add_extra_js_url(hass, f"{URL_BASE}/{CARD_FILE}?v={version}")
