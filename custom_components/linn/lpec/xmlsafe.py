"""Defensive, lenient parsing of XML that comes from a device: repaired once, else None.

What firmware sends and what is repaired or refused (docs/protocol.md, "XML from the device").
"""

from __future__ import annotations

import logging
import re
from xml.etree import ElementTree as ET

from .ratelimit import RateLimitedLog

_LOGGER = logging.getLogger(__name__)
_BAD_XML = RateLimitedLog(_LOGGER, interval=10.0)

# A DOCTYPE is never needed by DIDL-Lite or SourceXml and is how entity bombs start.
_FORBIDDEN = ("<!DOCTYPE", "<!ENTITY")

# Repairs are regular expressions over the text; above this size (far more than one
# DIDL-Lite item) a broken document is not worth the time and yields None.
MAX_REPAIR_CHARS = 64 * 1024

_BARE_AMPERSAND = re.compile(r"&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);)")
_BARE_LESS_THAN = re.compile(r"<(?![A-Za-z_/!?])")
# DIDL-Lite elements that hold text only: whatever is inside them is text.
_LEAF_OPEN = re.compile(
    r"<((?:[A-Za-z_][\w.-]*:)?(?:title|creator|artist|album|albumArtURI|genre|class|"
    r"description|date|originalTrackNumber|res|Uri))(?:\s[^<>]*)?>"
)
_PREFIX_USE = re.compile(r"</?([A-Za-z_][\w.-]*):[A-Za-z_]|\s([A-Za-z_][\w.-]*):[\w.-]+\s*=")
_PREFIX_DECLARED = re.compile(r"\sxmlns:([A-Za-z_][\w.-]*)\s*=")
_ROOT_TAG = re.compile(r"<([A-Za-z_][\w.:-]*)")
_KNOWN_NAMESPACES = {
    "dc": "http://purl.org/dc/elements/1.1/",
    "upnp": "urn:schemas-upnp-org:metadata-1-0/upnp/",
    "dlna": "urn:schemas-dlna-org:metadata-1-0/",
}


def parse_xml(text: str, what: str) -> ET.Element | None:
    """Parse `text`, repairing it once if needed; None (and a rate-limited log line) if not."""
    if not text.strip():
        return None
    if any(marker in text for marker in _FORBIDDEN):
        _BAD_XML.warning("Refusing %s with a DOCTYPE/ENTITY declaration", what)
        return None
    try:
        return ET.fromstring(text)  # DTDs are refused above
    except ET.ParseError as err:
        first_error = err
    if len(text) <= MAX_REPAIR_CHARS:
        try:
            return ET.fromstring(repair_xml(text))
        except ET.ParseError:
            pass
    _BAD_XML.warning("Ignoring malformed %s: %s", what, first_error)
    return None


def repair_xml(text: str) -> str:
    """Escape what firmware leaves unescaped and declare the prefixes it leaves undeclared."""
    text = _BARE_AMPERSAND.sub("&amp;", text)
    text = escape_leaf_text(text)
    text = _BARE_LESS_THAN.sub("&lt;", text)
    return _declare_prefixes(text)


def escape_leaf_text(text: str) -> str:
    """Everything between a leaf element's start tag and its end tag is text."""
    parts: list[str] = []
    position = 0
    unclosed: set[str] = set()  # not found once, never found later: one scan per tag name
    for match in _LEAF_OPEN.finditer(text):
        if match.start() < position or match.group(0).endswith("/>"):
            continue  # inside a leaf already repaired, or empty
        closing = f"</{match.group(1)}>"
        end = -1 if closing in unclosed else text.find(closing, match.end())
        if end < 0:
            unclosed.add(closing)
            continue
        inner = text[match.end() : end].replace("<", "&lt;").replace(">", "&gt;")
        parts.extend((text[position : match.end()], inner, closing))
        position = end + len(closing)
    parts.append(text[position:])
    return "".join(parts)


def _declare_prefixes(text: str) -> str:
    used = {prefix for pair in _PREFIX_USE.findall(text) for prefix in pair if prefix}
    missing = sorted(used - set(_PREFIX_DECLARED.findall(text)) - {"xml", "xmlns"})
    root = _ROOT_TAG.search(text)
    if not missing or root is None:
        return text
    declarations = "".join(
        f' xmlns:{prefix}="{_KNOWN_NAMESPACES.get(prefix, f"urn:undeclared:{prefix}")}"'
        for prefix in missing
    )
    return text[: root.end()] + declarations + text[root.end() :]


def local_name(tag: str) -> str:
    """'{urn:...}title' -> 'title'."""
    return tag.rpartition("}")[2]


def child_text(element: ET.Element, name: str) -> str | None:
    """Text of the first direct child whose local name is `name` (namespace ignored)."""
    for child in element:
        if local_name(child.tag) == name:
            return (child.text or "").strip()
    return None
