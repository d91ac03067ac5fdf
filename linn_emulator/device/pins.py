"""Pin operations: invoking a pin (as ohPipeline's ProviderPins does) and renaming one."""

from __future__ import annotations

from .. import catalog
from ..errors import (
    ID_NOT_FOUND,
    PIN_ID_NOT_FOUND,
    PIN_INDEX_OUT_OF_RANGE,
    PIN_MODE_NOT_SUPPORTED,
    PIN_NOTHING_TO_PLAY,
    DeviceError,
)
from .playlist import PlaylistOps
from .radio import RadioOps
from .sources import SourceOps


class PinOps(PlaylistOps, RadioOps, SourceOps):
    """What the Pins service (and the front panel's pin names) change."""

    def invoke_pin(self, pin_id: int) -> None:
        """Do what the pin stores (errors as ohPipeline's ProviderPins answers them)."""
        pin = next((p for p in self.state.pins if p.id == pin_id), None)
        if pin is None:
            raise DeviceError(PIN_ID_NOT_FOUND, "Pin id not found")
        if pin.empty:  # PinsManager::BeginInvoke: an empty mode has no invoker
            raise DeviceError(PIN_MODE_NOT_SUPPORTED, "Pin mode not supported")
        match pin.mode:
            case "radio":
                self.play_preset(int(pin.uri.rsplit("/", 1)[-1]))
            case "playlist":
                tracks = catalog.pin_album_tracks(pin.uri)
                if tracks is None:
                    raise DeviceError(PIN_NOTHING_TO_PLAY, "Nothing to Play")
                self.playlist_load(tracks, shuffle=pin.shuffle)
            case "source":
                self.select_source(pin.uri.removeprefix("source://"))
            case _:
                raise DeviceError(PIN_MODE_NOT_SUPPORTED, "Pin mode not supported")

    def invoke_pin_index(self, index: int) -> None:
        """Invoke the pin at this index of IdArray."""
        if not 0 <= index < len(self.state.pins):
            raise DeviceError(PIN_INDEX_OUT_OF_RANGE, "Pin index out of range")
        self.invoke_pin(self.state.pins[index].id)

    def set_pin_title(self, pin_id: int, title: str) -> None:
        """Rename a pin."""
        pin = next((p for p in self.state.pins if p.id == pin_id), None)
        if pin is None:
            raise DeviceError(ID_NOT_FOUND, f"Pin {pin_id} not found")
        pin.title = title
        self.changed()
