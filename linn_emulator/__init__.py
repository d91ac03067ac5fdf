"""A standalone emulator of a Linn DSM speaking LPEC, for tests and benchmarks.

No Home Assistant imports; only the shared LPEC codec from custom_components.linn.lpec.
"""

from __future__ import annotations

from . import _lpec  # noqa: F401  (first: loads the codec without Home Assistant)
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
