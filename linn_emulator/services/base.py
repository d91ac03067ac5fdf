"""What every service has: a name and version, evented variables and typed actions."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
import re
from typing import TYPE_CHECKING, ClassVar

from ..errors import (
    ARGUMENTS_INCOMPLETE,
    ARGUMENTS_TOO_MANY,
    BINARY_INVALID,
    BOOL_INVALID,
    INT_INVALID,
    UINT_INVALID,
    DeviceError,
)

if TYPE_CHECKING:
    from ..device import Device
    from ..model import EmulatedDeviceState

_UINT_RE = re.compile(r"\+?[0-9]+")
_INT_RE = re.compile(r"[+-]?[0-9]+")
UINT_MAX = 2**32 - 1
INT_MIN = -(2**31)
INT_MAX = 2**31 - 1


class ArgType(StrEnum):
    """UPnP argument data types LPEC checks."""

    BOOL = "boolean"
    STRING = "string"
    UINT = "ui4"
    INT = "i4"
    BINARY = "bin.base64"


def fmt_bool(value: bool) -> str:
    """Booleans as they travel."""
    return "true" if value else "false"


type Value = bool | int | str
type Handler = Callable[[Args], Sequence[str]]


class Args:
    """In-arguments of one action, validated against the action's declaration."""

    def __init__(self, inputs: tuple[tuple[str, ArgType], ...], raw: Sequence[str]) -> None:
        if len(raw) < len(inputs):
            raise DeviceError(ARGUMENTS_INCOMPLETE)
        if len(raw) > len(inputs):
            raise DeviceError(ARGUMENTS_TOO_MANY)
        self._values: dict[str, Value] = {
            name: _convert(kind, text) for (name, kind), text in zip(inputs, raw, strict=True)
        }

    def bool(self, name: str) -> bool:
        """Return a boolean argument."""
        value = self._values[name]
        assert isinstance(value, bool)
        return value

    def int(self, name: str) -> int:
        """Return an int or uint argument."""
        value = self._values[name]
        assert isinstance(value, int)
        assert not isinstance(value, bool)
        return value

    def str(self, name: str) -> str:
        """Return a string (or base64) argument."""
        value = self._values[name]
        assert isinstance(value, str)
        return value


def _convert(kind: ArgType, text: str) -> Value:
    match kind:
        case ArgType.BOOL:
            lowered = text.strip().lower()
            if lowered in ("true", "1"):
                return True
            if lowered in ("false", "0"):
                return False
            raise DeviceError(BOOL_INVALID)
        case ArgType.UINT:
            if not _UINT_RE.fullmatch(text.strip()) or int(text) > UINT_MAX:
                raise DeviceError(UINT_INVALID)
            return int(text)
        case ArgType.INT:
            if not _INT_RE.fullmatch(text.strip()) or not INT_MIN <= int(text) <= INT_MAX:
                raise DeviceError(INT_INVALID)
            return int(text)
        case ArgType.BINARY:
            try:
                base64.b64decode(text, validate=True)
            except binascii.Error, ValueError:
                raise DeviceError(BINARY_INVALID) from None
            return text
        case ArgType.STRING:
            return text


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """An action: its in-arguments (name, type), out-argument names and handler."""

    name: str
    inputs: tuple[tuple[str, ArgType], ...]
    outputs: tuple[str, ...]
    handler: Handler

    def invoke(self, raw: Sequence[str]) -> list[str]:
        """Validate the arguments, run the handler, return the out-values in order."""
        out = list(self.handler(Args(self.inputs, raw)))
        assert len(out) == len(self.outputs), f"{self.name} returned {len(out)} values"
        return out


class EmulatedService:
    """Base of every service; subclasses declare actions in `setup()`."""

    name: ClassVar[str]
    version: ClassVar[int]
    device_name: ClassVar[str] = "Ds"

    def __init__(self, device: Device) -> None:
        self.device = device
        self.actions: dict[str, ActionSpec] = {}
        self.setup()

    @property
    def state(self) -> EmulatedDeviceState:
        """The device state."""
        return self.device.state

    def setup(self) -> None:
        """Declare the actions."""

    def variables(self) -> dict[str, str]:
        """Every evented variable, in a stable order."""
        raise NotImplementedError

    def add(
        self,
        name: str,
        handler: Handler,
        inputs: Sequence[tuple[str, ArgType]] = (),
        outputs: Sequence[str] = (),
    ) -> None:
        """Declare an action."""
        self.actions[name] = ActionSpec(name, tuple(inputs), tuple(outputs), handler)

    def getter(self, name: str, output: str, variable: str) -> None:
        """Declare an action returning one evented variable."""
        self.add(name, lambda _args: [self.variables()[variable]], (), (output,))

    def call(self, action: Callable[[], object]) -> Handler:
        """Adapt a no-argument device method into a handler with no out-values."""

        def handler(_args: Args) -> list[str]:
            action()
            return []

        return handler
