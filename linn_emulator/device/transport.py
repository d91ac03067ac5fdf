"""Transport operations on the current source: play, pause, skip, seek and the clock."""

from __future__ import annotations

from .. import catalog
from ..errors import NOT_AVAILABLE, OUT_OF_RANGE, DeviceError
from ..model import PlaybackState, SourceType
from .core import EXTERNAL_TYPES
from .playlist import PlaylistOps
from .radio import RadioOps


class TransportOps(PlaylistOps, RadioOps):
    """What Transport (and the playback clock) change; a source's own Play is its module's."""

    def play(self) -> None:
        """Play the current source."""
        state = self.state
        self._leave_standby()
        match state.source.type:
            case SourceType.PLAYLIST:
                self._playlist_play()
            case SourceType.RADIO:
                self._radio_play()
            case SourceType.RECEIVER:
                state.receiver_active = True
            case SourceType.SPOTIFY:
                if state.spotify_track is None:
                    state.spotify_track = catalog.spotify_track()
                state.transport_state = PlaybackState.PLAYING
            case _:
                state.transport_state = PlaybackState.PLAYING
        self.changed()

    def pause(self) -> None:
        """Pause (only where CanPause)."""
        if not self.capabilities().pause:
            raise DeviceError(NOT_AVAILABLE, "Pause not available for this source")
        if self.state.transport_state is PlaybackState.PLAYING:
            self.state.transport_state = PlaybackState.PAUSED
        self.changed()

    def stop(self) -> None:
        """Stop the current source."""
        state = self.state
        if state.source.type is SourceType.RECEIVER:
            state.receiver_active = False
        elif state.source.type not in EXTERNAL_TYPES:
            state.transport_state = PlaybackState.STOPPED
        state.seconds = 0
        self.changed()

    def next(self) -> None:
        """Skip to the next track (only where CanSkipNext)."""
        if not self.capabilities().skip_next:
            raise DeviceError(NOT_AVAILABLE, "SkipNext not available for this source")
        if self.state.source.type is SourceType.PLAYLIST:
            self._playlist_advance(forward=True, at_end_of_track=False)
        else:
            self.state.seconds = 0
        self.changed()

    def previous(self) -> None:
        """Skip to the previous track (only where CanSkipPrevious)."""
        if not self.capabilities().skip_previous:
            raise DeviceError(NOT_AVAILABLE, "SkipPrevious not available for this source")
        if self.state.source.type is SourceType.PLAYLIST:
            self._playlist_advance(forward=False, at_end_of_track=False)
        else:
            self.state.seconds = 0
        self.changed()

    def set_shuffle(self, value: bool) -> None:
        """Playlist shuffle."""
        self.state.shuffle = value
        self.changed()

    def set_repeat(self, value: bool) -> None:
        """Playlist repeat."""
        self.state.repeat = value
        self.changed()

    def seek_second_absolute(self, second: int) -> None:
        """Seek within the current track."""
        if not self.capabilities().seek:
            raise DeviceError(NOT_AVAILABLE, "Seek not available for this source")
        duration = self.now_playing().duration
        if second < 0 or (duration and second > duration):
            raise DeviceError(OUT_OF_RANGE, f"Seek to {second} s outside 0..{duration}")
        self.state.seconds = second
        self.changed()

    def seek_second_relative(self, delta: int) -> None:
        """Seek relative to the current position."""
        self.seek_second_absolute(self.state.seconds + delta)

    def tick(self) -> None:
        """One second of playback: advance Seconds, move on at the end of a track."""
        state = self.state
        if state.standby or state.transport_state is not PlaybackState.PLAYING:
            return
        kind = state.source.type
        if kind not in (SourceType.PLAYLIST, SourceType.RADIO, SourceType.SPOTIFY):
            return
        state.seconds += 1
        duration = self.now_playing().duration
        if duration and state.seconds >= duration:
            if kind is SourceType.PLAYLIST:
                self._playlist_advance(forward=True, at_end_of_track=True)
            else:
                state.seconds = 0
        self.changed()
