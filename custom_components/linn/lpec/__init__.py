"""LPEC: a client for the Linn Protocol for Eventing and Control.

A small asyncio library with no Home Assistant imports: the integration adapts it.

    device = LinnDevice("192.168.1.20")
    await device.connect()              # LpecConnectionError / LpecTimeoutError
    device.state.product.room           # typed, immutable snapshots (model.py)
    remove = device.add_listener(lambda changed: print(changed))  # {Service.VOLUME}, ...
    device.add_availability_listener(lambda up: print("available" if up else "lost"))
    await device.set_volume(40)         # returns the value sent (clamped to VolumeLimit)
    await device.close()

Layers, bottom up: `framing` (messages framed by quotes: values may span lines),
`codec` (one message's grammar), `connection` (one TCP connection, one command in
flight), `session` (reconnect, keepalive, subscriptions), `reducers` + `model` (state
from events), `device` (commands). Every command completes or raises an
`LpecError`; none waits longer than its timeout. A command that did not run (never
written, refused with ERROR 111, or in flight when the device said BYEBYE) is sent on the
next session within its timeout; one cut off after it was sent may have run and raises
`LpecOutcomeUnknownError`; a request longer than the firmware reads (12000 bytes) raises
`LpecInvalidArgumentError` before anything is sent.
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
