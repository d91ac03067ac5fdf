"""A standalone emulator of a Linn DSM speaking LPEC, for tests and benchmarks.

It imports nothing from the integration (custom_components) and nothing from Home
Assistant: its wire layer (wire.py) is written from the protocol reference, so the
client's codec is tested against an independent implementation.
"""

from __future__ import annotations

from .emulator import LinnEmulator
from .errors import DeviceError
from .model import (
    EmulatedDeviceState,
    NowPlaying,
    Pin,
    PlaybackState,
    Source,
    SourceType,
    Track,
)
from .quirks import DOCUMENTED, OHNET, Quirk

__all__ = [
    "DOCUMENTED",
    "OHNET",
    "DeviceError",
    "EmulatedDeviceState",
    "LinnEmulator",
    "NowPlaying",
    "Pin",
    "PlaybackState",
    "Quirk",
    "Source",
    "SourceType",
    "Track",
]
