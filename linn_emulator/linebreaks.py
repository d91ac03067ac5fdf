"""Metadata with line breaks, as control points store it and the firmware hands it back.

Linn firmware keeps the DIDL-Lite a control point gave it (Kazoo, Linn App, UPnP servers)
and sends it back as it is; much of it is pretty-printed. The quirk `multiline_metadata`
puts a line break between the elements of the emulator's own metadata (its catalogue,
inputs, radio) and of ReadList replies (and between the objects of Pins ReadList JSON),
so that clients see values spanning lines. Metadata a control point gave (an argument of
an ACTION) comes back exactly as given, as on a device: `Given` remembers it.
"""

from __future__ import annotations

import json
from typing import Final

METADATA_VARIABLES: Final = frozenset({"Metadata", "Metatext"})
"""Evented variables that carry stored DIDL-Lite (Info, Radio, Receiver, Sender)."""
METADATA_ACTIONS: Final = frozenset({"Read", "ReadList", "Track", "Channel"})
"""Actions whose out-arguments carry stored metadata (Playlist, Radio, Pins, Info)."""


GIVEN_KEPT: Final = 256


class Given:
    """The recent XML arguments control points sent: they come back unchanged."""

    def __init__(self) -> None:
        self._texts: dict[str, None] = {}

    def remember(self, args: tuple[str, ...]) -> None:
        """Keep the XML-looking arguments of one ACTION (the newest GIVEN_KEPT)."""
        for arg in args:
            if arg.lstrip().startswith("<"):
                self._texts.pop(arg, None)
                self._texts[arg] = None
                if len(self._texts) > GIVEN_KEPT:
                    del self._texts[next(iter(self._texts))]

    def __contains__(self, text: object) -> bool:
        return text in self._texts


def spread(value: str) -> str:
    """A line break between XML elements, or between the objects of a JSON list."""
    text = value.lstrip()
    if text.startswith("<"):
        return value.replace("><", ">\n<")
    if text.startswith("[{"):
        return _spread_json_list(value)
    return value


def _spread_json_list(value: str) -> str:
    """A JSON list with a line break after each object's comma, its values untouched."""
    try:
        items = json.loads(value)
    except ValueError:
        return value
    if not isinstance(items, list):
        return value
    compact = (json.dumps(item, ensure_ascii=False, separators=(",", ":")) for item in items)
    return "[" + ",\n".join(compact) + "]"


def spread_variables(variables: dict[str, str], given: Given) -> dict[str, str]:
    """`variables` with the metadata ones spread over lines (unless a control point gave them)."""
    return {
        name: spread(value) if name in METADATA_VARIABLES and value not in given else value
        for name, value in variables.items()
    }


def spread_values(action: str, values: list[str], given: Given) -> list[str]:
    """The out-arguments of `action` with metadata spread over lines (unless given)."""
    if action not in METADATA_ACTIONS:
        return values
    return [value if value in given else spread(value) for value in values]
