"""Pins:1: six pins whose contents are JSON."""

from __future__ import annotations

import json

from ..errors import ID_NOT_FOUND, JSON_CORRUPT, DeviceError
from .base import Args, ArgType, EmulatedService, fmt_bool

PIN_MODES = ["radio", "playlist", "source", "tidal", "qobuz", "tunein", "calmradio"]


class PinsService(EmulatedService):
    """urn:av-openhome-org:service:Pins:1."""

    name = "Pins"
    version = 1

    def setup(self) -> None:
        """Declare the actions."""
        self.getter("GetDeviceMax", "DeviceMax", "DeviceMax")
        self.getter("GetAccountMax", "AccountMax", "AccountMax")
        self.getter("GetModes", "Modes", "Modes")
        self.getter("GetIdArray", "IdArray", "IdArray")
        self.getter("GetCloudConnected", "CloudConnected", "CloudConnected")
        self.add("ReadList", self._read_list, [("Ids", ArgType.STRING)], ("List",))
        self.add("InvokeId", self._invoke_id, [("Id", ArgType.UINT)])
        self.add("InvokeIndex", self._invoke_index, [("Index", ArgType.UINT)])

    def _read_list(self, args: Args) -> list[str]:
        try:
            ids = json.loads(args.str("Ids"))
        except ValueError:
            raise DeviceError(JSON_CORRUPT) from None
        if not isinstance(ids, list) or not all(
            isinstance(i, int) and not isinstance(i, bool) for i in ids
        ):
            raise DeviceError(JSON_CORRUPT)
        by_id = {pin.id: pin for pin in self.state.pins}
        missing = [i for i in ids if i not in by_id]
        if missing:
            raise DeviceError(ID_NOT_FOUND, f"Pin {missing[0]} not found")
        return [json.dumps([by_id[i].as_json() for i in ids], ensure_ascii=False)]

    def _invoke_id(self, args: Args) -> list[str]:
        self.device.invoke_pin(args.int("Id"))
        return []

    def _invoke_index(self, args: Args) -> list[str]:
        self.device.invoke_pin_index(args.int("Index"))
        return []

    def variables(self) -> dict[str, str]:
        """Every evented variable."""
        ids = [pin.id for pin in self.state.pins]
        return {
            "DeviceMax": str(len(ids)),
            "AccountMax": "0",
            "Modes": json.dumps(PIN_MODES),
            "IdArray": json.dumps(ids, separators=(",", ":")),
            "CloudConnected": fmt_bool(True),
        }
