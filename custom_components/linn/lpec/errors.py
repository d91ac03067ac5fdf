"""The one exception hierarchy of the LPEC library."""

from __future__ import annotations


class LpecError(Exception):
    """Base class of every error raised by this library."""


class LpecConnectionError(LpecError):
    """The TCP session could not be opened, or was lost before a command completed."""


class LpecOutcomeUnknownError(LpecConnectionError):
    """The connection ended after a command was sent and before its reply.

    The device reads a whole line before it acts on it (ohNet DviSessionLpec::Run), so the
    command may have run: it is not sent again, and the caller decides.
    """


class LpecTimeoutError(LpecError, TimeoutError):
    """The device did not answer in time."""


class LpecProtocolError(LpecError):
    """A line did not follow the LPEC grammar."""


class LpecDeviceError(LpecError):
    """The device answered ERROR: carries the LPEC (or UPnP) code and its text."""

    def __init__(self, code: int, description: str) -> None:
        super().__init__(f"LPEC error {code}: {description}")
        self.code = code
        self.description = description


class LpecInvalidArgumentError(LpecError, ValueError):
    """A command was given an argument the device cannot accept (checked before sending)."""


class LpecUnsupportedError(LpecError):
    """The device lacks the service a command needs."""
