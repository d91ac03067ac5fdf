"""Defensive parsing of XML that comes from a device."""

from __future__ import annotations

import logging
from xml.etree import ElementTree as ET

from .ratelimit import RateLimitedLog

_LOGGER = logging.getLogger(__name__)
_BAD_XML = RateLimitedLog(_LOGGER, interval=10.0)

# A DOCTYPE is never needed by DIDL-Lite or SourceXml and is how entity bombs start.
_FORBIDDEN = ("<!DOCTYPE", "<!ENTITY")


def parse_xml(text: str, what: str) -> ET.Element | None:
    """Parse `text`; None (and a rate-limited log line) if it is not acceptable XML."""
    if not text.strip():
        return None
    if any(marker in text for marker in _FORBIDDEN):
        _BAD_XML.warning("Refusing %s with a DOCTYPE/ENTITY declaration", what)
        return None
    try:
        return ET.fromstring(text)  # DTDs are refused above
    except ET.ParseError as err:
        _BAD_XML.warning("Ignoring malformed %s: %s", what, err)
        return None


def local_name(tag: str) -> str:
    """'{urn:...}title' -> 'title'."""
    return tag.rpartition("}")[2]


def child_text(element: ET.Element, name: str) -> str | None:
    """Text of the first direct child whose local name is `name` (namespace ignored)."""
    for child in element:
        if local_name(child.tag) == name:
            return (child.text or "").strip()
    return None
