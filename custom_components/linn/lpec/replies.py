"""How many out-arguments the actions this library reads answer with.

ohNet answers an ACTION with every out-argument of the action, or with ERROR: a RESPONSE
with fewer values than the action declares is not its reply (a stray line from a device
gone wrong), so the connection keeps waiting for the real one (or times out and starts
over). Counts from the OpenHome service descriptions (ohPipeline ServiceXml); an action
not listed here accepts any RESPONSE. A stray bare `RESPONSE` while an action without
out-arguments is in flight cannot be told from its reply; the pairing then heals itself
once the device's own reply finds no command in flight.
"""

from __future__ import annotations

from typing import Final

OUT_ARGUMENTS: Final[dict[tuple[str, str], int]] = {
    ("Ds/Product", "Standby"): 1,
    ("Ds/Product", "Attributes"): 1,
    ("Ds/Pins", "GetIdArray"): 1,
    ("Ds/Pins", "ReadList"): 1,
    ("Ds/Radio", "ReadList"): 1,
    ("Ds/Radio", "Read"): 1,
    ("Ds/Playlist", "ReadList"): 1,
    ("Ds/Playlist", "Read"): 2,
    ("Ds/Playlist", "Insert"): 1,
    ("Ds/Info", "Track"): 2,
    ("Ds/Config", "GetValue"): 1,
}


def out_arguments(path: str, action: str) -> int:
    """The values a RESPONSE to `action` on `path` carries at least (0: unknown)."""
    return OUT_ARGUMENTS.get((path, action), 0)
