"""Transport:1: source-independent transport with capabilities of the current source."""

from __future__ import annotations

import json

from .base import Args, ArgType, EmulatedService, fmt_bool


class TransportService(EmulatedService):
    """urn:av-openhome-org:service:Transport:1."""

    name = "Transport"
    version = 1

    def setup(self) -> None:
        """Declare the actions."""
        d = self.device
        self.add("PlayAs", self._play_as, [("Mode", ArgType.STRING), ("Command", ArgType.STRING)])
        self.add("Play", self.call(d.play))
        self.add("Pause", self.call(d.pause))
        self.add("Stop", self.call(d.stop))
        self.add("SkipNext", self.call(d.next))
        self.add("SkipPrevious", self.call(d.previous))
        self.add("SetRepeat", self._set_repeat, [("Repeat", ArgType.BOOL)])
        self.add("SetShuffle", self._set_shuffle, [("Shuffle", ArgType.BOOL)])
        self.add(
            "SeekSecondAbsolute",
            self._seek_absolute,
            [("StreamId", ArgType.UINT), ("SecondAbsolute", ArgType.UINT)],
        )
        self.add(
            "SeekSecondRelative",
            self._seek_relative,
            [("StreamId", ArgType.UINT), ("SecondRelative", ArgType.INT)],
        )
        self.getter("TransportState", "State", "TransportState")
        self.getter("Modes", "Modes", "Modes")
        self.add(
            "ModeInfo",
            lambda _a: [
                self.variables()[k]
                for k in ("CanSkipNext", "CanSkipPrevious", "CanRepeat", "CanShuffle")
            ],
            outputs=("CanSkipNext", "CanSkipPrevious", "CanRepeat", "CanShuffle"),
        )
        self.add(
            "StreamInfo",
            lambda _a: [self.variables()[k] for k in ("StreamId", "CanSeek", "CanPause")],
            outputs=("StreamId", "CanSeek", "CanPause"),
        )
        self.getter("StreamId", "StreamId", "StreamId")
        self.getter("Repeat", "Repeat", "Repeat")
        self.getter("Shuffle", "Shuffle", "Shuffle")

    def _play_as(self, args: Args) -> list[str]:
        self.device.select_source(args.str("Mode"))
        command = args.str("Command")
        if command:
            self.device.play()
        return []

    def _set_repeat(self, args: Args) -> list[str]:
        self.device.set_repeat(args.bool("Repeat"))
        return []

    def _set_shuffle(self, args: Args) -> list[str]:
        self.device.set_shuffle(args.bool("Shuffle"))
        return []

    def _seek_absolute(self, args: Args) -> list[str]:
        self.device.seek_second_absolute(args.int("SecondAbsolute"))
        return []

    def _seek_relative(self, args: Args) -> list[str]:
        self.device.seek_second_relative(args.int("SecondRelative"))
        return []

    def variables(self) -> dict[str, str]:
        """Every evented variable."""
        caps = self.device.capabilities()
        s = self.state
        modes = list(dict.fromkeys(source.system_name for source in s.sources if source.visible))
        return {
            "Modes": json.dumps(modes),
            "CanSkipNext": fmt_bool(caps.skip_next),
            "CanSkipPrevious": fmt_bool(caps.skip_previous),
            "CanRepeat": fmt_bool(caps.repeat),
            "CanShuffle": fmt_bool(caps.shuffle),
            "StreamId": str(s.stream_id),
            "CanSeek": fmt_bool(caps.seek and self.device.now_playing().duration > 0),
            "CanPause": fmt_bool(caps.pause),
            "TransportState": str(self.device.transport_state()),
            "Repeat": fmt_bool(s.repeat),
            "Shuffle": fmt_bool(s.shuffle),
        }
