"""The play queue calls: Playlist ReadList in bounded requests, SeekId without changing it."""

from __future__ import annotations

import pytest

from custom_components.linn.lpec import LinnDevice, LpecInvalidArgumentError
from custom_components.linn.lpec.list_commands import PLAYLIST_READ_IDS
from linn_emulator import LinnEmulator
from linn_emulator.model import Track
from testing.helpers import wait_for


async def test_read_playlist_in_requests_of_bounded_size(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    emu.state.tracks_max = 500
    after = emu.state.playlist[-1].id
    for number in range(120):
        after = emu.device.playlist_insert(
            after, Track(uri=f"http://x/{number}", title=f"T{number}")
        )
    await wait_for(lambda: len(device.state.playlist.ids) == len(emu.state.playlist))
    ids = list(device.state.playlist.ids)
    emu.actions.clear()
    tracks = await device.read_playlist([*ids, 999999])  # an id it no longer holds
    assert sorted(tracks) == sorted(ids)
    by_id = {entry.id: entry.track.title for entry in emu.state.playlist}
    assert {track_id: metadata.title for track_id, metadata in tracks.items()} == by_id
    reads = [a for a in emu.actions if (a.service, a.action) == ("Playlist", "ReadList")]
    assert len(ids) + 1 == 132
    assert [len(a.args[0].split()) for a in reads] == [50, 50, 32]
    assert PLAYLIST_READ_IDS == 50


async def test_play_playlist_track_seeks_and_keeps_the_queue(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    await device.select_source("Radio")
    queue = [entry.id for entry in emu.state.playlist]
    await device.play_playlist_track(queue[4])
    assert emu.state.playlist_id == queue[4]
    assert emu.state.source.system_name == "Playlist"
    assert [entry.id for entry in emu.state.playlist] == queue
    with pytest.raises(LpecInvalidArgumentError):
        await device.play_playlist_track(999999)
