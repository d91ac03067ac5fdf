"""Product operations: standby, the source list (select, rename, hide) and the identity."""

from __future__ import annotations

from dataclasses import replace

from ..errors import INVALID_SOURCE, DeviceError
from ..model import PlaybackState
from .core import EXTERNAL_TYPES, DeviceCore


class SourceOps(DeviceCore):
    """What Product (and Konfig) change."""

    def set_standby(self, value: bool) -> None:
        """Enter or leave standby; entering it stops playback."""
        state = self.state
        if value and state.transport_state in (PlaybackState.PLAYING, PlaybackState.PAUSED):
            state.transport_state = PlaybackState.STOPPED
            state.seconds = 0
        if value:
            state.receiver_active = False
        state.standby = value
        if not value and state.source.type in EXTERNAL_TYPES:
            state.transport_state = PlaybackState.PLAYING
        self.changed()

    def configure_source(
        self, system_name: str, *, name: str | None = None, visible: bool | None = None
    ) -> None:
        """Konfig: rename or hide a source (SourceXml changes, indices do not)."""
        state = self.state
        for index, source in enumerate(state.sources):
            if source.system_name == system_name:
                state.sources[index] = replace(
                    source,
                    name=source.name if name is None else name,
                    visible=source.visible if visible is None else visible,
                )
                state.source_xml_change_count += 1
                self.changed()
                return
        raise DeviceError(INVALID_SOURCE, f"Invalid source {system_name!r}")

    def set_identity(self, *, room: str | None = None, name: str | None = None) -> None:
        """Konfig: rename the room or the product."""
        if room is not None:
            self.state.room = room
        if name is not None:
            self.state.name = name
        self.changed()

    def select_source_index(self, index: int) -> None:
        """Select a source by index (hidden sources count); leaves standby."""
        state = self.state
        if not 0 <= index < len(state.sources):
            raise DeviceError(INVALID_SOURCE, f"Invalid source index {index}")
        self._leave_standby()
        if index != state.source_index:
            state.source_index = index
            state.seconds = 0
            state.metadata_override = None
            state.metatext_override = None
            state.receiver_active = False
            state.transport_state = PlaybackState.STOPPED
        if state.source.type in EXTERNAL_TYPES:
            state.transport_state = PlaybackState.PLAYING
        self.changed()

    def select_source(self, system_name: str) -> None:
        """Select a source by its fixed system name."""
        for index, source in enumerate(self.state.sources):
            if source.system_name == system_name:
                self.select_source_index(index)
                return
        raise DeviceError(INVALID_SOURCE, f"Invalid source {system_name!r}")

    def select_source_by_name(self, name: str) -> None:
        """Select a source by its user-facing name."""
        for index, source in enumerate(self.state.sources):
            if source.name == name:
                self.select_source_index(index)
                return
        raise DeviceError(INVALID_SOURCE, f"Invalid source name {name!r}")
