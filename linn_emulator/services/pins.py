"""Pins:1: six pins whose contents are JSON."""

from __future__ import annotations

import json

from ..errors import ID_NOT_FOUND, JSON_CORRUPT, PIN_MODE_NOT_SUPPORTED, DeviceError
from ..model import Pin
from ..quirks import Quirk
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
            found = [{**by_id[i].as_json(), "id": i} for i in ids if i in by_id]
            return [json.dumps(found, ensure_ascii=False)]
        missing = [i for i in ids if i not in by_id]
        if missing:
            raise DeviceError(ID_NOT_FOUND, f"Pin {missing[0]} not found")
        return [json.dumps([by_id[i].as_json() for i in ids], ensure_ascii=False)]

    def _invoke_id(self, args: Args) -> list[str]:
        pin_id = args.int("Id")
        if Quirk.PIN_SLOTS in self.state.quirks:
            pin = next((p for p in self.state.pins if self._slot_id(p) == pin_id), None)
            if pin is None:
                raise DeviceError(ID_NOT_FOUND, "Pin id not found")
            self._refuse_empty(pin)
        self.device.invoke_pin(pin_id)
        return []

    def _invoke_index(self, args: Args) -> list[str]:
        index = args.int("Index")
        if Quirk.PIN_SLOTS in self.state.quirks and 0 <= index < len(self.state.pins):
            self._refuse_empty(self.state.pins[index])
        self.device.invoke_pin_index(index)
        return []

    def _refuse_empty(self, pin: Pin) -> None:
        if pin.empty:  # BeginInvoke: an empty mode is PinModeNotSupported
            raise DeviceError(PIN_MODE_NOT_SUPPORTED, "Pin mode not supported")

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
