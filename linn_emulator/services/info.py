"""Info:1 (now playing) and Time:1 (position)."""

from __future__ import annotations

from .base import Args, EmulatedService, fmt_bool


class InfoService(EmulatedService):
    """urn:av-openhome-org:service:Info:1."""

    name = "Info"
    version = 1

    def setup(self) -> None:
        """Declare the actions."""
        self.add(
            "Counters",
            lambda _a: [self._v(k) for k in ("TrackCount", "DetailsCount", "MetatextCount")],
            outputs=("TrackCount", "DetailsCount", "MetatextCount"),
        )
        self.add(
            "Track", lambda _a: [self._v("Uri"), self._v("Metadata")], outputs=("Uri", "Metadata")
        )
        details = ("Duration", "BitRate", "BitDepth", "SampleRate", "Lossless", "CodecName")
        self.add("Details", lambda _a: [self._v(k) for k in details], outputs=details)
        self.getter("Metatext", "Value", "Metatext")

    def _v(self, name: str) -> str:
        return self.variables()[name]

    def variables(self) -> dict[str, str]:
        """Every evented variable."""
        s = self.state
        now = self.device.now_playing()
        return {
            "TrackCount": str(s.track_count),
            "DetailsCount": str(s.details_count),
            "MetatextCount": str(s.metatext_count),
            "Uri": now.uri,
            "Metadata": now.metadata,
            "Duration": str(now.duration),
            "BitRate": str(now.bitrate),
            "BitDepth": str(now.bit_depth),
            "SampleRate": str(now.sample_rate),
            "Lossless": fmt_bool(now.lossless),
            "CodecName": now.codec,
            "Metatext": now.metatext,
        }


class TimeService(EmulatedService):
    """urn:av-openhome-org:service:Time:1."""

    name = "Time"
    version = 1

    def setup(self) -> None:
        """Declare the actions."""
        self.add("Time", self._time, outputs=("TrackCount", "Duration", "Seconds"))

    def _time(self, _args: Args) -> list[str]:
        v = self.variables()
        return [v["TrackCount"], v["Duration"], v["Seconds"]]

    def variables(self) -> dict[str, str]:
        """Every evented variable."""
        duration, seconds = self.device.position()
        return {
            "TrackCount": str(self.state.track_count),
            "Duration": str(duration),
            "Seconds": str(seconds),
        }
