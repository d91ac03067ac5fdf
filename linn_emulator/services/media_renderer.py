"""The MediaRenderer sub-device: UPnP AV RenderingControl:1 and AVTransport:1 (subset).

Both act on the same device state as the Ds services. InstanceID must be 0
(718 "Invalid InstanceID") and Channel "Master" (600 "Argument value invalid").
Evented state travels in `LastChange`, as UPnP AV does.
"""

from __future__ import annotations

from collections.abc import Callable
from xml.sax.saxutils import quoteattr

from ..errors import DeviceError
from ..model import PlaybackState, format_duration
from .base import Args, ArgType, EmulatedService, Handler

INVALID_INSTANCE_ID = 718
ARGUMENT_VALUE_INVALID = 600

_INSTANCE = ("InstanceID", ArgType.UINT)
_CHANNEL = ("Channel", ArgType.STRING)

_AV_STATES = {
    PlaybackState.PLAYING: "PLAYING",
    PlaybackState.PAUSED: "PAUSED_PLAYBACK",
    PlaybackState.STOPPED: "STOPPED",
    PlaybackState.BUFFERING: "TRANSITIONING",
    PlaybackState.WAITING: "TRANSITIONING",
}


def _check(args: Args, *, channel: bool = False) -> None:
    if args.int("InstanceID") != 0:
        raise DeviceError(INVALID_INSTANCE_ID, "Invalid InstanceID")
    if channel and args.str("Channel") != "Master":
        raise DeviceError(ARGUMENT_VALUE_INVALID, "Argument value invalid")


def _last_change(namespace: str, values: list[tuple[str, str, str | None]]) -> str:
    parts = [f'<Event xmlns="urn:schemas-upnp-org:metadata-1-0/{namespace}/"><InstanceID val="0">']
    for name, value, channel in values:
        channel_attr = f' channel="{channel}"' if channel else ""
        parts.append(f"<{name}{channel_attr} val={quoteattr(value)}/>")
    parts.append("</InstanceID></Event>")
    return "".join(parts)


class RenderingControlService(EmulatedService):
    """urn:schemas-upnp-org:service:RenderingControl:1 (volume and mute)."""

    name = "RenderingControl"
    version = 1
    device_name = "MediaRenderer"

    def setup(self) -> None:
        """Declare the actions."""
        self.add("GetVolume", self._get_volume, [_INSTANCE, _CHANNEL], ("CurrentVolume",))
        self.add(
            "SetVolume",
            self._set_volume,
            [_INSTANCE, _CHANNEL, ("DesiredVolume", ArgType.UINT)],
        )
        self.add("GetMute", self._get_mute, [_INSTANCE, _CHANNEL], ("CurrentMute",))
        self.add("SetMute", self._set_mute, [_INSTANCE, _CHANNEL, ("DesiredMute", ArgType.BOOL)])

    def _get_volume(self, args: Args) -> list[str]:
        _check(args, channel=True)
        return [str(self.state.volume)]

    def _set_volume(self, args: Args) -> list[str]:
        _check(args, channel=True)
        self.device.set_volume(args.int("DesiredVolume"), unmute=False)
        return []

    def _get_mute(self, args: Args) -> list[str]:
        _check(args, channel=True)
        return ["1" if self.state.mute else "0"]

    def _set_mute(self, args: Args) -> list[str]:
        _check(args, channel=True)
        self.device.set_mute(args.bool("DesiredMute"))
        return []

    def variables(self) -> dict[str, str]:
        """LastChange with Volume and Mute."""
        s = self.state
        return {
            "LastChange": _last_change(
                "RCS",
                [
                    ("Volume", str(s.volume), "Master"),
                    ("Mute", "1" if s.mute else "0", "Master"),
                ],
            )
        }


class AvTransportService(EmulatedService):
    """urn:schemas-upnp-org:service:AVTransport:1 (transport of the current source)."""

    name = "AVTransport"
    version = 1
    device_name = "MediaRenderer"

    def setup(self) -> None:
        """Declare the actions."""
        d = self.device
        self.add(
            "GetTransportInfo",
            self._transport_info,
            [_INSTANCE],
            ("CurrentTransportState", "CurrentTransportStatus", "CurrentSpeed"),
        )
        self.add(
            "GetPositionInfo",
            self._position_info,
            [_INSTANCE],
            (
                "Track",
                "TrackDuration",
                "TrackMetaData",
                "TrackURI",
                "RelTime",
                "AbsTime",
                "RelCount",
                "AbsCount",
            ),
        )
        self.add("Play", self._wrap(d.play), [_INSTANCE, ("Speed", ArgType.STRING)])
        self.add("Pause", self._wrap(d.pause), [_INSTANCE])
        self.add("Stop", self._wrap(d.stop), [_INSTANCE])
        self.add("Next", self._wrap(d.next), [_INSTANCE])
        self.add("Previous", self._wrap(d.previous), [_INSTANCE])

    def _wrap(self, action: Callable[[], object]) -> Handler:
        def handler(args: Args) -> list[str]:
            _check(args)
            action()
            return []

        return handler

    def _state(self) -> str:
        return _AV_STATES[self.device.transport_state()]

    def _transport_info(self, args: Args) -> list[str]:
        _check(args)
        return [self._state(), "OK", "1"]

    def _position_info(self, args: Args) -> list[str]:
        _check(args)
        now = self.device.now_playing()
        duration, seconds = self.device.position()
        rel = format_duration(seconds).removesuffix(".000")
        return [
            "1" if now.uri else "0",
            format_duration(duration).removesuffix(".000"),
            now.metadata,
            now.uri,
            rel,
            rel,
            "2147483647",
            "2147483647",
        ]

    def variables(self) -> dict[str, str]:
        """LastChange with the transport state and the current track."""
        now = self.device.now_playing()
        return {
            "LastChange": _last_change(
                "AVT",
                [
                    ("TransportState", self._state(), None),
                    ("CurrentTrackURI", now.uri, None),
                    ("CurrentTrackMetaData", now.metadata, None),
                ],
            )
        }
