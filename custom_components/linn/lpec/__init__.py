"""LPEC: a client for the Linn Protocol for Eventing and Control.

A small asyncio library with no Home Assistant imports: the integration adapts it.
"""

from .errors import (
    LpecConnectionError,
    LpecDeviceError,
    LpecError,
    LpecInvalidArgumentError,
    LpecProtocolError,
    LpecTimeoutError,
    LpecUnsupportedError,
)

__all__ = [
    "LpecConnectionError",
    "LpecDeviceError",
    "LpecError",
    "LpecInvalidArgumentError",
    "LpecProtocolError",
    "LpecTimeoutError",
    "LpecUnsupportedError",
]
