"""The OpenHome services this library subscribes to, by name and LPEC path."""

from __future__ import annotations

from enum import Enum


class Service(Enum):
    """An OpenHome service on the Ds sub-device; the value is its LPEC path.

    Not a str: mypy (strict equality) reports a service compared with a string, so
    `"Volume" in changed` is an error instead of a test that is never true.
    """

    value: str

    PRODUCT = "Ds/Product"
    VOLUME = "Ds/Volume"
    TRANSPORT = "Ds/Transport"
    INFO = "Ds/Info"
    TIME = "Ds/Time"
    PINS = "Ds/Pins"
    PLAYLIST = "Ds/Playlist"
    RADIO = "Ds/Radio"
    RECEIVER = "Ds/Receiver"
    SENDER = "Ds/Sender"
    UPDATE = "Ds/Update"

    @property
    def short_name(self) -> str:
        """'Product' for Ds/Product: the name for logs and diagnostics."""
        return self.value.partition("/")[2]


# Product first: it answers for the whole device and is the one every Linn has.
ALL_SERVICES: tuple[Service, ...] = tuple(Service)
