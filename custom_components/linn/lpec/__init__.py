"""LPEC: a client for the Linn Protocol for Eventing and Control.

A small asyncio library with no Home Assistant imports: the integration adapts it.
"""

from .device import AvailabilityListener, LinnDevice, StateListener
from .didl import TrackMetadata
from .errors import (
    LpecConnectionError,
    LpecDeviceError,
    LpecError,
    LpecInvalidArgumentError,
    LpecProtocolError,
    LpecTimeoutError,
    LpecUnsupportedError,
)
from .model import (
    DeviceState,
    InfoState,
    Pin,
    PinsState,
    PlaylistState,
    ProductState,
    RadioPreset,
    RadioState,
    ReceiverState,
    SenderState,
    TimeState,
    TransportState,
    VolumeState,
)
from .services import Service
from .session import LpecSession
from .sources import Source

__all__ = [
    "AvailabilityListener",
    "DeviceState",
    "InfoState",
    "LinnDevice",
    "LpecConnectionError",
    "LpecDeviceError",
    "LpecError",
    "LpecInvalidArgumentError",
    "LpecProtocolError",
    "LpecSession",
    "LpecTimeoutError",
    "LpecUnsupportedError",
    "Pin",
    "PinsState",
    "PlaylistState",
    "ProductState",
    "RadioPreset",
    "RadioState",
    "ReceiverState",
    "SenderState",
    "Service",
    "Source",
    "StateListener",
    "TimeState",
    "TrackMetadata",
    "TransportState",
    "VolumeState",
]
