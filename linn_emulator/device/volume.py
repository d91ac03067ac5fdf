"""Volume operations: volume, mute, the limit, balance and fade."""

from __future__ import annotations

from ..errors import OUT_OF_RANGE, DeviceError
from .core import DeviceCore


class VolumeOps(DeviceCore):
    """What Volume (and RenderingControl, Konfig's limit) change."""

    def set_volume(self, value: int, *, unmute: bool = True) -> None:
        """Set the volume, clamped to [0, VolumeLimit]."""
        state = self.state
        state.volume = max(0, min(value, state.volume_limit, state.volume_max))
        if unmute:
            state.mute = False
        self.changed()

    def set_mute(self, value: bool) -> None:
        """Mute or unmute."""
        self.state.mute = value
        self.changed()

    def set_volume_limit(self, value: int) -> None:
        """Change VolumeLimit (a Konfig setting); the volume follows it down."""
        state = self.state
        state.volume_limit = max(0, min(value, state.volume_max))
        state.volume = min(state.volume, state.volume_limit)
        self.changed()

    def set_balance(self, value: int) -> None:
        """Set the balance within [-BalanceMax, BalanceMax]."""
        if abs(value) > self.state.balance_max:
            raise DeviceError(OUT_OF_RANGE, f"Balance {value} out of range")
        self.state.balance = value
        self.changed()

    def set_fade(self, value: int) -> None:
        """Set the fade within [-FadeMax, FadeMax]."""
        if abs(value) > self.state.fade_max:
            raise DeviceError(OUT_OF_RANGE, f"Fade {value} out of range")
        self.state.fade = value
        self.changed()
