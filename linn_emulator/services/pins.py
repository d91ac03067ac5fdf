"""Pins:1: six pins whose contents are JSON."""

from __future__ import annotations

import json

from ..errors import ID_NOT_FOUND, JSON_CORRUPT, PIN_ID_NOT_FOUND, DeviceError
from ..model import Pin
from ..quirks import Quirk
from .base import Args, ArgType, EmulatedService, fmt_bool

PIN_MODES = ["radio", "playlist", "source", "tidal", "qobuz", "tunein", "calmradio"]


def _json(value: object) -> str:
    """JSON as ohPipeline's WriterJson writes it: no space after `,` or `:`."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


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

    def _slot_id(self, pin: Pin) -> int:
        """The id IdArray shows for a pin: 0 for an empty one with `pin_slots`."""
        return 0 if pin.empty and Quirk.PIN_SLOTS in self.state.quirks else pin.id

    def _read_list(self, args: Args) -> list[str]:
        try:
            ids = json.loads(args.str("Ids"))
        except ValueError:
            raise DeviceError(JSON_CORRUPT) from None
        if not isinstance(ids, list) or not all(
            isinstance(i, int) and not isinstance(i, bool) for i in ids
        ):
            raise DeviceError(JSON_CORRUPT)
        by_id: dict[int, Pin] = {}
        for pin in self.state.pins:
            by_id.setdefault(self._slot_id(pin), pin)
        if Quirk.PIN_SLOTS in self.state.quirks:
            # PinsManager::WriteJson skips an unknown id; id 0 is the first empty pin.
            # WriterJsonArray writes null for an empty array (WriteOnEmpty::eNull).
            found = [{**by_id[i].as_json(), "id": i} for i in ids if i in by_id]
            return [_json(found) if found else "null"]
        missing = [i for i in ids if i not in by_id]
        if missing:
            raise DeviceError(ID_NOT_FOUND, f"Pin {missing[0]} not found")
        return [_json([by_id[i].as_json() for i in ids])]

    def _invoke_id(self, args: Args) -> list[str]:
        pin_id = args.int("Id")
        if Quirk.PIN_SLOTS in self.state.quirks:
            # PinSet::IndexFromId: id 0 is the first empty pin (which BeginInvoke refuses)
            pin = next((p for p in self.state.pins if self._slot_id(p) == pin_id), None)
            if pin is None:
                raise DeviceError(PIN_ID_NOT_FOUND, "Pin id not found")
            pin_id = pin.id
        self.device.invoke_pin(pin_id)
        return []

    def _invoke_index(self, args: Args) -> list[str]:
        self.device.invoke_pin_index(args.int("Index"))
        return []

    def variables(self) -> dict[str, str]:
        """Every evented variable."""
        ids = [self._slot_id(pin) for pin in self.state.pins]
        return {
            "DeviceMax": str(len(ids)),
            "AccountMax": "0",
            "Modes": json.dumps(PIN_MODES),
            "IdArray": json.dumps(ids, separators=(",", ":")),
            "CloudConnected": fmt_bool(True),
        }
