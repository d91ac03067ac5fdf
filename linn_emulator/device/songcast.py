"""Songcast receiver operations (the sender registry is the core's)."""

from __future__ import annotations

from ..model import SourceType
from .core import DeviceCore


class SongcastOps(DeviceCore):
    """What the Receiver service changes."""

    def receiver_set_sender(self, uri: str, metadata: str) -> None:
        """Receiver.SetSender."""
        self.state.receiver_uri = uri
        self.state.receiver_metadata = metadata
        self.changed()

    def receiver_play(self) -> None:
        """Receiver.Play: selects the Songcast source and follows the sender."""
        self._select_type(SourceType.RECEIVER)
        self.state.receiver_active = True
        self.changed()

    def receiver_stop(self) -> None:
        """Receiver.Stop."""
        self.state.receiver_active = False
        self.changed()
