"""Radio:2: presets and arbitrary channels."""

from __future__ import annotations

from xml.sax.saxutils import escape as xml_escape

from ..model import SourceType
from ..quirks import Quirk
from .base import Args, ArgType, EmulatedService
from .playlist import id_array, parse_id_list, track_list

RADIO_SLOTS = 100
"""ohPipeline PresetDatabase::kMaxPresets: Radio IdArray always has this many slots."""
RADIO_PROTOCOL_INFO = (
    "http-get:*:audio/x-flac:*,http-get:*:audio/mpeg:*,http-get:*:audio/aac:*,"
    "http-get:*:audio/x-mpegurl:*,http-get:*:audio/x-scpls:*,http-get:*:application/ogg:*"
)


class RadioService(EmulatedService):
    """urn:av-openhome-org:service:Radio:2."""

    name = "Radio"
    version = 2

    def setup(self) -> None:
        """Declare the actions."""
        d = self.device
        self.add("Play", self.call(d.radio_play))
        self.add("Pause", self.call(self._stop))
        self.add("Stop", self.call(self._stop))
        self.add(
            "Channel",
            lambda _a: [self.state.radio_uri, self.state.radio_metadata],
            outputs=("Uri", "Metadata"),
        )
        self.add(
            "SetChannel",
            self._set_channel,
            [("Uri", ArgType.STRING), ("Metadata", ArgType.STRING)],
        )
        self.getter("TransportState", "Value", "TransportState")
        self.getter("Id", "Value", "Id")
        self.add("SetId", self._set_id, [("Value", ArgType.UINT), ("Uri", ArgType.STRING)])
        self.add("Read", self._read, [("Id", ArgType.UINT)], ("Metadata",))
        self.add("ReadList", self._read_list, [("IdList", ArgType.STRING)], ("ChannelList",))
        self.add(
            "IdArray",
            lambda _a: [str(self.state.radio_token), self.variables()["IdArray"]],
            outputs=("Token", "Array"),
        )
        self.add(
            "IdArrayChanged",
            lambda a: ["true" if a.int("Token") != self.state.radio_token else "false"],
            [("Token", ArgType.UINT)],
            ("Value",),
        )
        self.getter("ChannelsMax", "Value", "ChannelsMax")
        self.getter("ProtocolInfo", "Value", "ProtocolInfo")

    def _stop(self) -> None:
        if self.state.source.type is SourceType.RADIO:
            self.device.stop()

    def _set_channel(self, args: Args) -> list[str]:
        self.device.radio_set_channel(args.str("Uri"), args.str("Metadata"))
        return []

    def _set_id(self, args: Args) -> list[str]:
        self.device.radio_set_id(args.int("Value"), args.str("Uri"))
        return []

    def _read(self, args: Args) -> list[str]:
        return [self.device.radio_channel(args.int("Id")).metadata]

    def _read_list(self, args: Args) -> list[str]:
        by_id = {c.id: c for c in self.state.radio_channels}
        found = [
            (i, by_id[i].track.uri, by_id[i].track.didl())
            for i in parse_id_list(args.str("IdList"))
            if i in by_id
        ]
        if Quirk.RADIO_SLOTS in self.state.quirks:
            # ProviderRadio::ReadList: Id and Metadata only; the stream is the DIDL <res>.
            entries = "".join(
                f"<Entry><Id>{i}</Id><Metadata>{xml_escape(didl)}</Metadata></Entry>"
                for i, _uri, didl in found
            )
            return [f"<ChannelList>{entries}</ChannelList>"]
        return [track_list(found).replace("TrackList>", "ChannelList>")]

    def _id_array(self) -> str:
        ids = [c.id for c in self.state.radio_channels]
        if Quirk.RADIO_SLOTS in self.state.quirks:
            ids = (ids + [0] * RADIO_SLOTS)[:RADIO_SLOTS]
        return id_array(ids)

    def variables(self) -> dict[str, str]:
        """Every evented variable."""
        s = self.state
        transport = self.device.transport_state_of(SourceType.RADIO)
        return {
            "Uri": s.radio_uri,
            "Metadata": s.radio_metadata,
            "TransportState": str(transport),
            "Id": str(s.radio_id),
            "IdArray": self._id_array(),
            "ChannelsMax": str(s.channels_max),
            "ProtocolInfo": RADIO_PROTOCOL_INFO,
        }
