"""Radio operations: presets, arbitrary streams and renaming a preset."""

from __future__ import annotations

from dataclasses import replace

from ..errors import ID_NOT_FOUND, DeviceError
from ..model import PlaybackState, SourceType
from .core import DeviceCore


class RadioOps(DeviceCore):
    """What the Radio service (and the front panel's preset names) change."""

    def _radio_play(self) -> None:
        state = self.state
        if not state.radio_uri and state.radio_channels:
            first = state.radio_channels[0]
            state.radio_id = first.id
            state.radio_uri = first.track.uri
            state.radio_metadata = first.track.didl()
        state.transport_state = PlaybackState.PLAYING if state.radio_uri else PlaybackState.STOPPED

    def radio_play(self) -> None:
        """Radio.Play: selects the Radio source too."""
        self._select_type(SourceType.RADIO)
        self._radio_play()
        self.changed()

    def radio_channel(self, channel_id: int) -> RadioChannelView:
        """Preset by id."""
        for channel in self.state.radio_channels:
            if channel.id == channel_id:
                return RadioChannelView(channel.id, channel.track.uri, channel.track.didl())
        raise DeviceError(ID_NOT_FOUND, f"Radio id {channel_id} not found")

    def radio_set_id(self, channel_id: int, uri: str) -> None:
        """Radio.SetId: select a preset (the uri is informative, as on a device)."""
        channel = self.radio_channel(channel_id)
        state = self.state
        state.radio_id = channel.id
        state.radio_uri = uri or channel.uri
        state.radio_metadata = channel.metadata
        state.metadata_override = None
        state.metatext_override = None
        state.seconds = 0
        self.changed()

    def radio_set_channel(self, uri: str, metadata: str) -> None:
        """Radio.SetChannel: an arbitrary stream (how HA core plays a URL)."""
        state = self.state
        state.radio_id = 0
        state.radio_uri = uri
        state.radio_metadata = metadata
        state.metadata_override = None
        state.metatext_override = None
        state.seconds = 0
        self.changed()

    def play_preset(self, channel_id: int) -> None:
        """Select a preset and play it on the Radio source."""
        self.radio_set_id(channel_id, "")
        self.radio_play()

    def set_preset_title(self, preset_id: int, title: str) -> None:
        """Rename a radio preset; a playing preset shows the new name at once."""
        for channel in self.state.radio_channels:
            if channel.id == preset_id:
                channel.track = replace(channel.track, title=title)
                self.state.radio_token += 1
                if self.state.radio_id == preset_id:
                    self.state.radio_metadata = channel.track.didl()
                self.changed()
                return
        raise DeviceError(ID_NOT_FOUND, f"Radio id {preset_id} not found")


class RadioChannelView:
    """A preset as Radio.Read returns it."""

    __slots__ = ("id", "metadata", "uri")

    def __init__(self, channel_id: int, uri: str, metadata: str) -> None:
        self.id = channel_id
        self.uri = uri
        self.metadata = metadata
