"""Device behaviour: every state change goes through here and ends in `changed()`.

Services (the wire-facing view) and the front panel call these methods; listeners
(the LPEC server) are told after each change and diff the service variables.

`Device` is composed of one class per area: `core` (state, the change fan-out, Songcast
senders, derived values), `sources` (Product), `volume`, `transport`, `playlist`, `radio`,
`songcast` (Receiver) and `pins`.
"""

from __future__ import annotations

from ..model import NowPlaying
from .core import Capabilities
from .pins import PinOps
from .radio import RadioChannelView
from .songcast import SongcastOps
from .transport import TransportOps
from .volume import VolumeOps


class Device(TransportOps, PinOps, VolumeOps, SongcastOps):
    """A Linn DSM's behaviour, without any wire protocol."""

    # --- front panel extras ---------------------------------------------------

    def set_metadata(self, now: NowPlaying) -> None:
        """Override what Info reports until the track changes."""
        self.state.metadata_override = now
        self.changed()

    def set_metatext(self, text: str) -> None:
        """Override Info Metatext."""
        self.state.metatext_override = text
        self.changed()


__all__ = ["Capabilities", "Device", "RadioChannelView"]
