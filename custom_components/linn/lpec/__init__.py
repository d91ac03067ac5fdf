"""LPEC: a client for the Linn Protocol for Eventing and Control (asyncio, no Home Assistant).

Usage, layers and what a command raises (docs/protocol.md, "The library").
"""

from .capabilities import Capability, PlaybackState, SourceType
from .device import AvailabilityListener, LinnDevice, StateListener
from .didl import TrackMetadata
from .errors import (
    LpecConnectionError,
    LpecDeviceError,
    LpecError,
    LpecInvalidArgumentError,
    LpecOutcomeUnknownError,
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
    UpdateState,
    VolumeState,
)
from .services import Service
from .session import LpecSession
from .software import SoftwareStatus
from .sources import Source

__all__ = [
    "AvailabilityListener",
    "Capability",
    "DeviceState",
    "InfoState",
    "LinnDevice",
    "LpecConnectionError",
    "LpecDeviceError",
    "LpecError",
    "LpecInvalidArgumentError",
    "LpecOutcomeUnknownError",
    "LpecProtocolError",
    "LpecSession",
    "LpecTimeoutError",
    "LpecUnsupportedError",
    "Pin",
    "PinsState",
    "PlaybackState",
    "PlaylistState",
    "ProductState",
    "RadioPreset",
    "RadioState",
    "ReceiverState",
    "SenderState",
    "Service",
    "SoftwareStatus",
    "Source",
    "SourceType",
    "StateListener",
    "TimeState",
    "TrackMetadata",
    "TransportState",
    "UpdateState",
    "VolumeState",
]
