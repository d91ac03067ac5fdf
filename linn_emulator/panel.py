"""The front panel and other control points: state changes that reach every subscriber."""

from __future__ import annotations

from .device import Device
from .model import NowPlaying, Track


class Panel:
    """Buttons and knobs; each call changes the state and sends EVENTs at once.

    Calls the device cannot honour (Pause on Radio, an unknown source) raise
    `linn_emulator.errors.DeviceError`.
    """

    def __init__(self, device: Device) -> None:
        self._device = device

    def set_standby(self, value: bool) -> None:
        """Standby button."""
        self._device.set_standby(value)

    def select_source(self, system_name: str) -> None:
        """Source button / Konfig: select by system name."""
        self._device.select_source(system_name)

    def configure_source(
        self, system_name: str, *, name: str | None = None, visible: bool | None = None
    ) -> None:
        """Konfig: rename or hide a source (SourceXml event; indices stay)."""
        self._device.configure_source(system_name, name=name, visible=visible)

    def set_room(self, room: str) -> None:
        """Konfig: rename the room (ProductRoom event)."""
        self._device.set_identity(room=room)

    def set_name(self, name: str) -> None:
        """Konfig: rename the product (ProductName event)."""
        self._device.set_identity(name=name)

    def set_volume(self, value: int) -> None:
        """Volume knob (clamped to [0, VolumeLimit])."""
        self._device.set_volume(value)

    def set_mute(self, value: bool) -> None:
        """Mute button."""
        self._device.set_mute(value)

    def set_volume_limit(self, value: int) -> None:
        """Konfig: change VolumeLimit."""
        self._device.set_volume_limit(value)

    def play(self) -> None:
        """Play the current source."""
        self._device.play()

    def pause(self) -> None:
        """Pause the current source."""
        self._device.pause()

    def stop(self) -> None:
        """Stop the current source."""
        self._device.stop()

    def next(self) -> None:
        """Next track."""
        self._device.next()

    def previous(self) -> None:
        """Previous track."""
        self._device.previous()

    def set_shuffle(self, value: bool) -> None:
        """Shuffle."""
        self._device.set_shuffle(value)

    def set_repeat(self, value: bool) -> None:
        """Repeat."""
        self._device.set_repeat(value)

    def seek(self, second: int) -> None:
        """Seek in the current track."""
        self._device.seek_second_absolute(second)

    def invoke_pin(self, pin_id: int) -> None:
        """Press a pin button (1-6 by id)."""
        self._device.invoke_pin(pin_id)

    def set_metadata(
        self,
        *,
        title: str = "",
        artist: str = "",
        album: str = "",
        art_uri: str = "",
        metatext: str = "",
        uri: str = "",
        duration: int = 0,
    ) -> None:
        """Replace the now-playing text (any text, even hostile) until the track changes.

        The values are XML-escaped into DIDL-Lite as a device would.
        """
        track = Track(
            uri=uri, title=title, artist=artist, album=album, art_uri=art_uri, duration=duration
        )
        now = NowPlaying.of(track, metatext)
        self._device.set_metadata(now)

    def set_metatext(self, text: str) -> None:
        """Replace Info Metatext (radio now-playing text)."""
        self._device.set_metatext(text)

    def set_pin_title(self, pin_id: int, title: str) -> None:
        """Kazoo / Konfig: rename a pin (read by the next Pins.ReadList; any text)."""
        self._device.set_pin_title(pin_id, title)

    def set_preset_title(self, preset_id: int, title: str) -> None:
        """Rename a radio preset (the station name in its DIDL-Lite; any text)."""
        self._device.set_preset_title(preset_id, title)
