"""The client never sends a request longer than the firmware reads (issue 17).

ohNet reads a request into 12000 bytes, its CRLF included (DviSessionLpec kMaxReadBytes);
a longer one ends the session unanswered. The client refuses it before sending anything.
"""

from __future__ import annotations

import pytest

from custom_components.linn.lpec import LinnDevice, LpecInvalidArgumentError, Service
from custom_components.linn.lpec.codec import MAX_REQUEST_BYTES, format_action
from linn_emulator import LinnEmulator

URI = "http://a/b.flac"


def metadata_for(size: int) -> str:
    """Metadata that makes the Insert request `size` bytes long with its CRLF."""
    bare = len(format_action(Service.PLAYLIST.value, 1, "Insert", ("0", URI, ""))) + 2
    return "x" * (size - bare)


async def test_the_longest_request_the_device_reads_is_sent(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    metadata = metadata_for(MAX_REQUEST_BYTES)
    (new_id,) = await device.action(Service.PLAYLIST, "Insert", "0", URI, metadata)
    assert await device.action(Service.PLAYLIST, "Read", new_id) == (URI, metadata)


async def test_a_longer_request_is_refused_and_nothing_is_sent(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    begun = emu.sessions_begun
    with pytest.raises(LpecInvalidArgumentError, match="12001-byte request"):
        await device.action(
            Service.PLAYLIST, "Insert", "0", URI, metadata_for(MAX_REQUEST_BYTES + 1)
        )
    with pytest.raises(LpecInvalidArgumentError, match="at most 12000"):
        await device.play_url("http://a/" + "b" * MAX_REQUEST_BYTES)
    assert emu.actions == []
    assert device.available
    assert await device.set_volume(12) == 12
    assert emu.sessions_begun == begun  # the same session all along
