"""What the Linn media player shows: its features, state and position, from the device's state."""

from __future__ import annotations

from datetime import datetime, timedelta
import time

from homeassistant.components.media_player import (
    MediaPlayerEntity,
    MediaPlayerEntityFeature as Feature,
    MediaPlayerState,
    RepeatMode,
)
from homeassistant.util import dt as dt_util

from ..entity import LinnEntity
from ..lpec import Capability, LinnDevice, PlaybackState, Service
from ..lpec.model import DeviceState

BASE_FEATURES = (
    Feature.TURN_ON
    | Feature.TURN_OFF
    | Feature.SELECT_SOURCE
    | Feature.PLAY_MEDIA
    | Feature.BROWSE_MEDIA
    | Feature.SEARCH_MEDIA
)
VOLUME_FEATURES = Feature.VOLUME_SET | Feature.VOLUME_STEP | Feature.VOLUME_MUTE

CAPABILITY_FEATURES: dict[Capability, Feature] = {
    Capability.PLAY: Feature.PLAY,
    Capability.PAUSE: Feature.PAUSE,
    Capability.STOP: Feature.STOP,
    Capability.NEXT: Feature.NEXT_TRACK,
    Capability.PREVIOUS: Feature.PREVIOUS_TRACK,
    Capability.SEEK: Feature.SEEK,
    Capability.SHUFFLE: Feature.SHUFFLE_SET,
    Capability.REPEAT: Feature.REPEAT_SET,
}
PLAYBACK_STATES: dict[PlaybackState, MediaPlayerState] = {
    PlaybackState.PLAYING: MediaPlayerState.PLAYING,
    PlaybackState.BUFFERING: MediaPlayerState.BUFFERING,
    PlaybackState.PAUSED: MediaPlayerState.PAUSED,
    PlaybackState.STOPPED: MediaPlayerState.IDLE,
    PlaybackState.EOS: MediaPlayerState.IDLE,  # not in Transport:1 (ohPipeline); read leniently
    PlaybackState.WAITING: MediaPlayerState.IDLE,  # e.g. Songcast waiting for its sender
}
_VOLUME_ONLY = frozenset({Service.VOLUME})
POSITION_JUMP_SECONDS = 1.5
"""A Time event further than this from the extrapolated position is a seek."""


def features(state: DeviceState) -> Feature:
    """Computed from what the device reports, not guessed from the source."""
    result = BASE_FEATURES
    if state.has_volume:
        result |= VOLUME_FEATURES
    if state.can_group:
        result |= Feature.GROUPING
    capabilities = state.capabilities
    for capability, feature in CAPABILITY_FEATURES.items():
        if capability in capabilities:
            result |= feature
    return result


class PlayerStateEntity(LinnEntity, MediaPlayerEntity):
    """A Linn media player's shown state: the `_attr_` values and the recorded position."""

    def __init__(self, device: LinnDevice) -> None:
        """Start with no position recorded."""
        super().__init__(device)
        self._position: int | None = None
        self._position_updated_at: datetime | None = None
        self._position_from: tuple[int | None, float | None] | None = None
        """The device's (seconds, seconds_updated_at) the position was recorded from."""

    @property
    def _state(self) -> DeviceState:
        return self.device.state

    def shown_key(self) -> object:
        """What the attributes are computed from, and the recorded position.

        Whole service states where that is simpler: a little more than is shown.
        """
        state = self._state
        return (
            state.product,
            state.volume,
            state.transport,
            state.info,
            state.time.duration,
            state.playlist,
            state.radio,
            state.receiver,
            state.sender,
            state.services,
            self._position,
            self._position_updated_at,
        )

    def _track_position(self, *, force: bool) -> bool:
        """Record the device position if it moved other than by playing; True if recorded."""
        time_state = self.device.state.time
        seconds = time_state.seconds
        if force and self._position_from == (seconds, time_state.seconds_updated_at):
            return False  # recorded from this very report already
        now = dt_util.utcnow()
        if not force and seconds is not None and self._position is not None:
            expected = float(self._position)
            if self.state == MediaPlayerState.PLAYING and self._position_updated_at:
                expected += (now - self._position_updated_at).total_seconds()
            if abs(seconds - expected) < POSITION_JUMP_SECONDS:
                return False
        updated_at = time_state.seconds_updated_at
        self._position_from = (seconds, updated_at)
        self._position = seconds
        self._position_updated_at = (
            now - timedelta(seconds=max(0.0, time.monotonic() - updated_at))
            if updated_at is not None
            else now
        )
        return True

    def _update_shown(self, changed: frozenset[Service] | None) -> None:
        """Set the `_attr_` values Home Assistant reads, from the device's state.

        Called on every change, before any write: a volume event sets only the volume's
        two (the hot path of a volume knob); anything else (or None: all) sets them all.
        Home Assistant then reads them as it reads any entity's `_attr_` values.
        """
        state = self._state
        volume = state.volume
        self._attr_volume_level = (
            None
            if volume.volume is None or not volume.volume_max
            else volume.volume / volume.volume_max
        )
        self._attr_is_volume_muted = volume.mute
        if changed == _VOLUME_ONLY:
            return
        product = state.product
        info = state.info
        track = info.track
        if product.standby:
            self._attr_state = MediaPlayerState.OFF
        else:
            playback_state = state.playback_state
            self._attr_state = (
                MediaPlayerState.ON if playback_state is None else PLAYBACK_STATES[playback_state]
            )
        self._attr_supported_features = features(state)
        self._attr_source_list = [source.name for source in product.visible_sources]
        self._attr_source = product.source.name if product.source else None
        self._attr_media_content_id = info.uri
        # radio now-playing text (Metatext) when there is some, else the track title;
        # the station name as the channel while Metatext is shown
        self._attr_media_title = info.metatext or track.title
        self._attr_media_channel = track.title if info.metatext else None
        self._attr_media_artist = ", ".join(track.artists) if track.artists else None
        self._attr_media_album_name = track.album
        self._attr_media_image_url = track.album_art_uri
        self._attr_media_duration = state.time.duration or info.duration or None
        self._attr_shuffle = state.shuffle
        repeat = state.repeat
        self._attr_repeat = None if repeat is None else RepeatMode.ALL if repeat else RepeatMode.OFF

    @property
    def media_position(self) -> int | None:
        """Position in seconds as last reported (HA extrapolates while playing)."""
        return self._position

    @property
    def media_position_updated_at(self) -> datetime | None:
        """When media_position was valid."""
        return self._position_updated_at
