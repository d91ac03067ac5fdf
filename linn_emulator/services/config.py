"""OpenHome Config: the device's settings as keys (ohPipeline ConfigManager names).

Only keys the emulator models are offered; `Volume.Limit` is the one Home Assistant
sets. Nothing here is evented: a change shows up in the service that owns the value
(VolumeLimit on Volume, ProductRoom on Product).
"""

from __future__ import annotations

from collections.abc import Callable
import json

from ..errors import ID_NOT_FOUND, OUT_OF_RANGE, DeviceError
from .base import Args, ArgType, EmulatedService, fmt_bool


class ConfigService(EmulatedService):
    """av.openhome.org Config:2 (GetKeys, HasKey, GetValue, SetValue)."""

    name = "Config"
    version = 2

    def setup(self) -> None:
        """Declare the actions."""
        self.add("GetKeys", lambda _a: [json.dumps(sorted(self._keys()))], (), ("KeyList",))
        self.add("HasKey", self._has_key, (("Key", ArgType.STRING),), ("Value",))
        self.add("GetValue", self._get_value, (("Key", ArgType.STRING),), ("Value",))
        self.add(
            "SetValue",
            self._set_value,
            (("Key", ArgType.STRING), ("Value", ArgType.STRING)),
        )

    def variables(self) -> dict[str, str]:
        """No evented variables."""
        return {}

    def _keys(self) -> dict[str, tuple[Callable[[], str], Callable[[str], None]]]:
        state = self.state
        return {
            "Volume.Limit": (lambda: str(state.volume_limit), self._set_volume_limit),
            "Product.Room": (lambda: state.room, lambda v: self.device.set_identity(room=v)),
            "Product.Name": (lambda: state.name, lambda v: self.device.set_identity(name=v)),
        }

    def _key(self, args: Args) -> tuple[Callable[[], str], Callable[[str], None]]:
        key = args.str("Key")
        try:
            return self._keys()[key]
        except KeyError:
            raise DeviceError(ID_NOT_FOUND, f"Invalid key {key!r}") from None

    def _has_key(self, args: Args) -> list[str]:
        return [fmt_bool(args.str("Key") in self._keys())]

    def _get_value(self, args: Args) -> list[str]:
        getter, _ = self._key(args)
        return [getter()]

    def _set_value(self, args: Args) -> list[str]:
        _, setter = self._key(args)
        setter(args.str("Value"))
        return []

    def _set_volume_limit(self, text: str) -> None:
        try:
            value = int(text)
        except ValueError:
            raise DeviceError(OUT_OF_RANGE, "Expected numerical value") from None
        if not 0 <= value <= self.state.volume_max:
            raise DeviceError(OUT_OF_RANGE, "Value outwith expected range")
        self.device.set_volume_limit(value)
