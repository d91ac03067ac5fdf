"""Parse the ReadList answers of Pins (JSON) and Radio (ChannelList XML)."""

from __future__ import annotations

import json
import logging
from typing import Any

from .didl import parse_didl
from .model import Pin, RadioPreset
from .xmlsafe import child_text, local_name, parse_xml

_LOGGER = logging.getLogger(__name__)


def parse_pin_list(text: str) -> tuple[Pin, ...]:
    """Pins ReadList JSON -> pins; keys are matched case-insensitively (Selekt sends lower case)."""
    try:
        data = json.loads(text)
    except ValueError:
        _LOGGER.warning("Ignoring malformed Pins ReadList JSON %.200r", text)
        return ()
    if not isinstance(data, list):
        return ()
    pins: list[Pin] = []
    for entry in data:
        if not isinstance(entry, dict):
            continue
        fields = {str(key).lower(): value for key, value in entry.items()}
        pin_id = fields.get("id")
        if not isinstance(pin_id, int) or isinstance(pin_id, bool):
            continue
        pins.append(
            Pin(
                id=pin_id,
                title=_str(fields.get("title")),
                artwork_uri=_str(fields.get("artworkuri")) or None,
                mode=_str(fields.get("mode")),
                type=_str(fields.get("type")),
                uri=_str(fields.get("uri")),
                description=_str(fields.get("description")),
            )
        )
    return tuple(pins)


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def parse_channel_list(text: str) -> tuple[RadioPreset, ...]:
    """Radio ReadList ChannelList XML -> presets (each entry's Metadata is DIDL-Lite)."""
    root = parse_xml(text, "ChannelList")
    if root is None:
        return ()
    presets: list[RadioPreset] = []
    for entry in root:
        if local_name(entry.tag) != "Entry":
            continue
        try:
            preset_id = int(child_text(entry, "Id") or "")
        except ValueError:
            continue
        metadata = parse_didl(child_text(entry, "Metadata") or "")
        uri = child_text(entry, "Uri") or metadata.uri
        presets.append(RadioPreset(id=preset_id, uri=uri, metadata=metadata))
    return tuple(presets)
