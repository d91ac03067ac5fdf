"""Playlist operations: the queue (insert, delete, load) and moving through it."""

from __future__ import annotations

from ..errors import ID_NOT_FOUND, OUT_OF_RANGE, PLAYLIST_FULL, DeviceError
from ..model import PlaybackState, PlaylistEntry, SourceType, Track
from .core import DeviceCore


class PlaylistOps(DeviceCore):
    """What the Playlist service changes."""

    def _playlist_play(self) -> None:
        state = self.state
        if state.current_entry is None and state.playlist:
            state.playlist_id = state.playlist[0].id
            state.seconds = 0
        if state.current_entry is not None:
            state.transport_state = PlaybackState.PLAYING
        else:
            state.transport_state = PlaybackState.STOPPED

    def playlist_play(self) -> None:
        """Playlist.Play: selects the Playlist source too."""
        self._select_type(SourceType.PLAYLIST)
        self._playlist_play()
        self.changed()

    def _playlist_index(self) -> int:
        return next(
            (i for i, e in enumerate(self.state.playlist) if e.id == self.state.playlist_id), -1
        )

    def _playlist_advance(self, *, forward: bool, at_end_of_track: bool) -> None:
        state = self.state
        state.metadata_override = None
        state.metatext_override = None
        state.seconds = 0
        if not state.playlist:
            state.playlist_id = 0
            state.transport_state = PlaybackState.STOPPED
            return
        index = self._playlist_index()
        count = len(state.playlist)
        if state.shuffle and count > 1 and forward:
            choices = [i for i in range(count) if i != index]
            state.playlist_id = state.playlist[self._random.choice(choices)].id
            state.transport_state = PlaybackState.PLAYING
            return
        new = index + 1 if forward else index - 1
        if new >= count:
            if state.repeat:
                new = 0
            else:
                state.playlist_id = state.playlist[0].id
                state.transport_state = PlaybackState.STOPPED
                return
        elif new < 0:
            new = count - 1 if state.repeat else 0
        state.playlist_id = state.playlist[new].id
        if not at_end_of_track or state.transport_state is PlaybackState.PLAYING:
            state.transport_state = PlaybackState.PLAYING

    def playlist_insert(self, after_id: int, track: Track) -> int:
        """Insert after `after_id` (0 = at the start); returns the new id."""
        state = self.state
        if len(state.playlist) >= state.tracks_max:
            raise DeviceError(PLAYLIST_FULL)
        if after_id == 0:
            position = 0
        else:
            position = next((i + 1 for i, e in enumerate(state.playlist) if e.id == after_id), -1)
            if position < 0:
                raise DeviceError(ID_NOT_FOUND, f"Id {after_id} not found")
        new_id = state.next_playlist_id
        state.next_playlist_id += 1
        state.playlist.insert(position, PlaylistEntry(new_id, track))
        state.playlist_token += 1
        self.changed()
        return new_id

    def playlist_entry(self, entry_id: int) -> PlaylistEntry:
        """Return the entry with this id."""
        for entry in self.state.playlist:
            if entry.id == entry_id:
                return entry
        raise DeviceError(ID_NOT_FOUND, f"Id {entry_id} not found")

    def playlist_delete(self, entry_id: int) -> None:
        """Delete one entry; deleting the current one moves to the next."""
        state = self.state
        entry = self.playlist_entry(entry_id)
        index = state.playlist.index(entry)
        state.playlist.remove(entry)
        state.playlist_token += 1
        if entry_id == state.playlist_id:
            state.seconds = 0
            if index < len(state.playlist):
                state.playlist_id = state.playlist[index].id
            else:
                state.playlist_id = 0
                state.transport_state = PlaybackState.STOPPED
        self.changed()

    def playlist_delete_all(self) -> None:
        """Empty the playlist (stops it)."""
        state = self.state
        state.playlist.clear()
        state.playlist_id = 0
        state.playlist_token += 1
        state.seconds = 0
        if state.source.type is SourceType.PLAYLIST:
            state.transport_state = PlaybackState.STOPPED
        self.changed()

    def playlist_seek_id(self, entry_id: int) -> None:
        """Play the entry with this id (selects the Playlist source)."""
        self.playlist_entry(entry_id)
        self._select_type(SourceType.PLAYLIST)
        state = self.state
        state.playlist_id = entry_id
        state.seconds = 0
        state.metadata_override = None
        state.metatext_override = None
        state.transport_state = PlaybackState.PLAYING
        self.changed()

    def playlist_seek_index(self, index: int) -> None:
        """Play the entry at this index."""
        if not 0 <= index < len(self.state.playlist):
            raise DeviceError(OUT_OF_RANGE, f"Index {index} out of range")
        self.playlist_seek_id(self.state.playlist[index].id)

    def playlist_load(self, tracks: list[Track], *, shuffle: bool) -> None:
        """Replace the playlist with these tracks and play the first."""
        state = self.state
        state.playlist.clear()
        for track in tracks:
            state.playlist.append(PlaylistEntry(state.next_playlist_id, track))
            state.next_playlist_id += 1
        state.playlist_token += 1
        state.shuffle = shuffle
        state.playlist_id = 0
        self.playlist_play()
