"""The Linn integration: Linn network streamers over LPEC."""

from __future__ import annotations

from .const import DOMAIN

__all__ = ["DOMAIN"]
