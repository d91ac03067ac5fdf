"""Volume:4: volume, mute, balance, fade and the limits."""

from __future__ import annotations

from .base import Args, ArgType, EmulatedService, fmt_bool

CHARACTERISTICS = (
    "VolumeMax",
    "VolumeUnity",
    "VolumeSteps",
    "VolumeMilliDbPerStep",
    "BalanceMax",
    "FadeMax",
)
"""Characteristics' out-arguments, in order: each the evented variable of the same name."""


class VolumeService(EmulatedService):
    """urn:av-openhome-org:service:Volume:4."""

    name = "Volume"
    version = 4

    def setup(self) -> None:
        """Declare the actions."""
        value = [("Value", ArgType.UINT)]
        signed = [("Value", ArgType.INT)]
        self.add(
            "Characteristics",
            self._characteristics,
            outputs=CHARACTERISTICS,
        )
        self.add("SetVolume", self._set_volume, value)
        self.add("SetVolumeNoUnmute", self._set_volume_no_unmute, value)
        self.add("VolumeInc", self.call(lambda: self._step(1, unmute=True)))
        self.add("VolumeDec", self.call(lambda: self._step(-1, unmute=True)))
        self.add("VolumeIncNoUnmute", self.call(lambda: self._step(1, unmute=False)))
        self.add("VolumeDecNoUnmute", self.call(lambda: self._step(-1, unmute=False)))
        self.getter("Volume", "Value", "Volume")
        self.add("SetMute", self._set_mute, [("Value", ArgType.BOOL)])
        self.getter("Mute", "Value", "Mute")
        self.getter("VolumeLimit", "Value", "VolumeLimit")
        self.getter("UnityGain", "Value", "UnityGain")
        self.add("SetBalance", self._set_balance, signed)
        self.add("BalanceInc", self.call(lambda: self.device.set_balance(self.state.balance + 1)))
        self.add("BalanceDec", self.call(lambda: self.device.set_balance(self.state.balance - 1)))
        self.getter("Balance", "Value", "Balance")
        self.add("SetFade", self._set_fade, signed)
        self.add("FadeInc", self.call(lambda: self.device.set_fade(self.state.fade + 1)))
        self.add("FadeDec", self.call(lambda: self.device.set_fade(self.state.fade - 1)))
        self.getter("Fade", "Value", "Fade")

    def _characteristics(self, _args: Args) -> list[str]:
        v = self.variables()
        return [v[name] for name in CHARACTERISTICS]

    def _set_volume(self, args: Args) -> list[str]:
        self.device.set_volume(args.int("Value"))
        return []

    def _set_volume_no_unmute(self, args: Args) -> list[str]:
        self.device.set_volume(args.int("Value"), unmute=False)
        return []

    def _step(self, delta: int, *, unmute: bool) -> None:
        self.device.set_volume(self.state.volume + delta, unmute=unmute)

    def _set_mute(self, args: Args) -> list[str]:
        self.device.set_mute(args.bool("Value"))
        return []

    def _set_balance(self, args: Args) -> list[str]:
        self.device.set_balance(args.int("Value"))
        return []

    def _set_fade(self, args: Args) -> list[str]:
        self.device.set_fade(args.int("Value"))
        return []

    def variables(self) -> dict[str, str]:
        """Every evented variable."""
        s = self.state
        return {
            "Volume": str(s.volume),
            "Mute": fmt_bool(s.mute),
            "Balance": str(s.balance),
            "Fade": str(s.fade),
            "VolumeLimit": str(s.volume_limit),
            "VolumeMax": str(s.volume_max),
            "VolumeUnity": str(s.volume_unity),
            "VolumeSteps": str(s.volume_steps),
            "VolumeMilliDbPerStep": str(s.volume_milli_db_per_step),
            "BalanceMax": str(s.balance_max),
            "FadeMax": str(s.fade_max),
            "UnityGain": fmt_bool(False),
        }
