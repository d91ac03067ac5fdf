"""Linn Update SoftwareStatus (JSON): installed firmware and any available update."""

from __future__ import annotations

from dataclasses import dataclass
import json
import logging
from typing import Any

_LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SoftwareStatus:
    """What the device says about its firmware; fields are None when not reported."""

    status: str | None = None
    current_version: str | None = None
    latest_version: str | None = None
    release_notes_url: str | None = None
    summary: str | None = None


EMPTY_SOFTWARE_STATUS = SoftwareStatus()


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def parse_software_status(value: str) -> SoftwareStatus:
    """Parse SoftwareStatus; empty (and a log line) if it is not the expected JSON."""
    try:
        data = json.loads(value) if value.strip() else {}
    except ValueError:
        _LOGGER.debug("Ignoring malformed SoftwareStatus %.80r", value)
        return EMPTY_SOFTWARE_STATUS
    if not isinstance(data, dict):
        return EMPTY_SOFTWARE_STATUS
    current = data.get("current_software")
    current_version = _text(current.get("version")) if isinstance(current, dict) else None
    info = data.get("update_info")
    info = info if isinstance(info, dict) else {}
    updates = [u for u in info.get("updates") or [] if isinstance(u, dict)]
    status = _text(data.get("status"))
    latest = updates[0] if updates and status == "update_available" else None
    return SoftwareStatus(
        status=status,
        current_version=current_version,
        latest_version=_text(latest.get("version")) if latest else current_version,
        release_notes_url=_text(info.get("releasenotesuri")),
        summary=_text(latest.get("description")) if latest else None,
    )
