"""A standalone emulator of a Linn DSM speaking LPEC, for tests and benchmarks.

It uses the LPEC codec of custom_components.linn.lpec and nothing else of the integration.
(Importing that package runs the integration's __init__, which imports Home Assistant: the
emulator runs in the Home Assistant environment, where that is always available.)
"""

from __future__ import annotations

from .emulator import LinnEmulator
from .errors import DeviceError
from .model import DeviceState, NowPlaying, Pin, Source, SourceType, Track, TransportState

__all__ = [
    "DeviceError",
    "DeviceState",
    "LinnEmulator",
    "NowPlaying",
    "Pin",
    "Source",
    "SourceType",
    "Track",
    "TransportState",
]
