"""Id arrays: base64 big-endian uint32 (Playlist, Radio) and JSON (Pins)."""

from __future__ import annotations

import base64
import binascii
import json
import logging
import struct

_LOGGER = logging.getLogger(__name__)


def parse_base64_ids(value: str) -> tuple[int, ...]:
    """Decode a bin.base64 IdArray; () if malformed."""
    try:
        raw = base64.b64decode(value.strip(), validate=True)
    except binascii.Error, ValueError:
        _LOGGER.debug("Ignoring malformed base64 IdArray %.80r", value)
        return ()
    count = len(raw) // 4
    return struct.unpack(f">{count}I", raw[: count * 4])


def format_base64_ids(ids: tuple[int, ...] | list[int]) -> str:
    """Encode ids as a bin.base64 IdArray."""
    return base64.b64encode(struct.pack(f">{len(ids)}I", *ids)).decode("ascii")


def parse_json_ids(value: str) -> tuple[int, ...]:
    """Decode a JSON IdArray such as '[1,2,3]'; () if malformed."""
    try:
        data = json.loads(value) if value.strip() else []
    except ValueError:
        _LOGGER.debug("Ignoring malformed JSON IdArray %.80r", value)
        return ()
    if not isinstance(data, list):
        return ()
    return tuple(item for item in data if isinstance(item, int) and not isinstance(item, bool))
