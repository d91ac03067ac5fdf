"""Receiver:1 and Sender:2: Songcast between emulators in one process."""

from __future__ import annotations

from xml.sax.saxutils import escape as xml_escape

from ..model import DIDL_CLOSE, DIDL_OPEN, PlaybackState, SourceType
from .base import Args, ArgType, EmulatedService, fmt_bool

SONGCAST_PROTOCOL_INFO = "ohz:*:*:*,ohm:*:*:*,ohu:*.*.*"


class ReceiverService(EmulatedService):
    """urn:av-openhome-org:service:Receiver:1."""

    name = "Receiver"
    version = 1

    def setup(self) -> None:
        """Declare the actions."""
        self.add("Play", self.call(self.device.receiver_play))
        self.add("Stop", self.call(self.device.receiver_stop))
        self.add(
            "SetSender", self._set_sender, [("Uri", ArgType.STRING), ("Metadata", ArgType.STRING)]
        )
        self.add(
            "Sender",
            lambda _a: [self.state.receiver_uri, self.state.receiver_metadata],
            outputs=("Uri", "Metadata"),
        )
        self.getter("ProtocolInfo", "Value", "ProtocolInfo")
        self.getter("TransportState", "Value", "TransportState")

    def _set_sender(self, args: Args) -> list[str]:
        self.device.receiver_set_sender(args.str("Uri"), args.str("Metadata"))
        return []

    def variables(self) -> dict[str, str]:
        """Every evented variable (only these four, as a DSM sends)."""
        s = self.state
        transport = self.device.transport_state_of(SourceType.RECEIVER)
        return {
            "Uri": s.receiver_uri,
            "Metadata": s.receiver_metadata,
            "TransportState": str(transport),
            "ProtocolInfo": SONGCAST_PROTOCOL_INFO,
        }


class SenderService(EmulatedService):
    """urn:av-openhome-org:service:Sender:2."""

    name = "Sender"
    version = 2

    def setup(self) -> None:
        """Declare the actions."""
        for name in ("PresentationUrl", "Metadata", "Audio", "Status", "Attributes"):
            self.getter(name, "Value", name)
        self.add("Status2", lambda _a: [self.variables()["Status"]], outputs=("Value",))
        self.add("Enabled", lambda _a: ["true"], outputs=("Value",))

    def metadata(self) -> str:
        """DIDL-Lite naming the room, with the ohz:// URI receivers join."""
        s = self.state
        return (
            f'{DIDL_OPEN}<item id="0" restricted="True">'
            f"<dc:title>{xml_escape(s.room)}</dc:title>"
            f'<res protocolInfo="ohz:*:*:u">{xml_escape(self.device.sender_uri)}</res>'
            "<upnp:albumArtURI>https://www.linn.co.uk/images/songcast.png</upnp:albumArtURI>"
            f"<upnp:class>object.item.audioItem</upnp:class></item>{DIDL_CLOSE}"
        )

    def variables(self) -> dict[str, str]:
        """Every evented variable."""
        playing = not self.state.standby and self.device.transport_state() is PlaybackState.PLAYING
        return {
            "PresentationUrl": "",
            "Metadata": self.metadata(),
            "Audio": fmt_bool(playing),
            "Status": "Enabled",
            "Attributes": "Info Time",
        }
