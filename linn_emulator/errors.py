"""Error codes the emulator answers with.

LPEC protocol errors (Linn LPEC page, ohNet `DviServerLpec`):

* 101 Command not recognised (also the spurious first-command error)
* 102 Service not specified, 103 Service not found, 104 Version invalid,
  105 Version not specified, 106 Version not supported (requested > implemented),
  107 Method not specified, 108 Method execution exception (a bug in the emulator),
  109 Method not supported, 111 Device not found (not `Ds` or `MediaRenderer`)
* 501 Action not implemented: an action name the service (at the version the device
  implements) does not have, as ohNet `DviService::Invoke` answers
* 201 Bool, 202 String, 203 Uint, 204 Int, 205 Binary argument invalid
* 301 Argument list incomplete (too few), 302 Argument not quoted,
  303 Argument list too long (too many)
* 401 Already subscribed, 402 Client has too many subscriptions (16 per session),
  404 Subscription not found (UNSUBSCRIBE <id>), 405 Service not subscribed
  (UNSUBSCRIBE <device>/<service>), 406 Invalid XML escaping (an `&` that starts no
  entity or character reference)

Device-level (UPnP-style) failures chosen by the emulator:

* 800 Invalid source (unknown system name, name or index)
* 801 JsonCorrupt (Pins.ReadList argument is not a JSON list of integers)
* 802 Id not found (playlist id, radio id, pin id)
* 803 Value out of range (seek beyond the track, index out of range, balance/fade)
* 804 Playlist full (TracksMax reached)
* 805 Pin is empty (invoking a pin with nothing stored)
* 806 Action not available for the current source (e.g. Pause on Radio,
  SkipNext on an analog input: see the Transport Can* variables)
"""

from __future__ import annotations

from typing import Final

COMMAND_NOT_RECOGNISED: Final = 101
SERVICE_NOT_SPECIFIED: Final = 102
SERVICE_NOT_FOUND: Final = 103
VERSION_INVALID: Final = 104
VERSION_NOT_SPECIFIED: Final = 105
VERSION_NOT_SUPPORTED: Final = 106
METHOD_NOT_SPECIFIED: Final = 107
METHOD_EXECUTION_EXCEPTION: Final = 108
METHOD_NOT_SUPPORTED: Final = 109
DEVICE_NOT_FOUND: Final = 111
BOOL_INVALID: Final = 201
STRING_INVALID: Final = 202
UINT_INVALID: Final = 203
INT_INVALID: Final = 204
BINARY_INVALID: Final = 205
ARGUMENTS_INCOMPLETE: Final = 301
ARGUMENT_NOT_QUOTED: Final = 302
ARGUMENTS_TOO_MANY: Final = 303
ALREADY_SUBSCRIBED: Final = 401
TOO_MANY_SUBSCRIPTIONS: Final = 402
SUBSCRIPTION_NOT_FOUND: Final = 404
SERVICE_NOT_SUBSCRIBED: Final = 405
INVALID_XML_ESCAPING: Final = 406

ACTION_NOT_IMPLEMENTED: Final = 501
"""ohNet DviService::Invoke: no action of that name on the service the device implements."""
INVALID_SOURCE: Final = 800
JSON_CORRUPT: Final = 801
ID_NOT_FOUND: Final = 802
OUT_OF_RANGE: Final = 803
PLAYLIST_FULL: Final = 804
PIN_INDEX_OUT_OF_RANGE: Final = 801
"""ohPipeline ProviderPins (kCodeIndexOutOfRange), as the four below."""
PIN_ID_NOT_FOUND: Final = 802
PIN_MODE_NOT_SUPPORTED: Final = 803
"""An empty pin (its mode is empty) or a mode with no invoker (PinsManager::BeginInvoke)."""
PIN_NOTHING_TO_PLAY: Final = 805
NOT_AVAILABLE: Final = 806

DESCRIPTIONS: Final[dict[int, str]] = {
    101: "Command not recognised",
    102: "Service not specified",
    103: "Service not found",
    104: "Version invalid",
    105: "Version not specified",
    106: "Version not supported",
    107: "Method not specified",
    108: "Method execution exception",
    109: "Method not supported",
    110: "Invalid command terminator",
    111: "Device not found",
    201: "Bool argument invalid",
    501: "Action not implemented",
    202: "String argument invalid",
    203: "Uint argument invalid",
    204: "Int argument invalid",
    205: "Binary argument invalid",
    206: "Invalid escaping",
    301: "Argument list incomplete",
    302: "Argument not quoted",
    303: "Argument list too long",
    401: "Already subscribed",
    402: "Client has too many subscriptions",
    403: "Service has too many subscriptions",
    404: "Subscription not found",
    405: "Service not subscribed",
    406: "Invalid XML escaping",
    800: "Invalid source",
    801: "JsonCorrupt",
    802: "Id not found",
    803: "Value out of range",
    804: "Playlist full",
    805: "Pin is empty",
    806: "Action not available for the current source",
}


def describe(code: int) -> str:
    """Return the text sent with an error code."""
    return DESCRIPTIONS.get(code, "Error")


class DeviceError(Exception):
    """An action failed: the session answers `ERROR <code> "<description>"`."""

    def __init__(self, code: int, description: str | None = None) -> None:
        self.code = code
        self.description = description if description is not None else describe(code)
        super().__init__(f"{code} {self.description}")
