"""Which service version each ACTION is sent with, and what the device refused.

Why the lowest version with the action, and where versions come from
(docs/protocol.md, "Service versions").
"""

from __future__ import annotations

from collections.abc import Mapping

from .services import Service

# (service, action) -> the first version of the service that has the action; 1 otherwise.
_FIRST_VERSION: dict[tuple[Service, str], int] = {
    (Service.PRODUCT, "SetSourceBySystemName"): 2,
    (Service.PRODUCT, "StandbyTransitioning"): 3,
    (Service.PRODUCT, "GetImageUri"): 4,
    (Service.VOLUME, "UnityGain"): 2,
    (Service.VOLUME, "VolumeOffset"): 3,
    (Service.VOLUME, "SetVolumeOffset"): 3,
    (Service.VOLUME, "Trim"): 3,
    (Service.VOLUME, "SetTrim"): 3,
    (Service.VOLUME, "SetVolumeNoUnmute"): 4,
    (Service.VOLUME, "VolumeIncNoUnmute"): 4,
    (Service.VOLUME, "VolumeDecNoUnmute"): 4,
    (Service.RADIO, "RefreshPresets"): 2,
    (Service.SENDER, "Enabled"): 2,
}

VERSION_NOT_SUPPORTED = 106
"""ohNet: the ACTION's version is above the service's."""
ACTION_NOT_IMPLEMENTED = 501
"""ohNet DviService::Invoke: the service the device implements has no such action."""
SERVICE_NOT_FOUND = 103
METHOD_NOT_SUPPORTED = 109
NOT_AVAILABLE_CODES = frozenset(
    {VERSION_NOT_SUPPORTED, ACTION_NOT_IMPLEMENTED, SERVICE_NOT_FOUND, METHOD_NOT_SUPPORTED}
)
"""ERROR codes that mean "this action, at this version, is not on this device"."""


def action_version(service: Service, action: str) -> int:
    """The lowest version of `service` that has `action`."""
    return _FIRST_VERSION.get((service, action), 1)


class ServiceVersions:
    """Which actions a device has, and the version to send each with.

    `declared` maps OpenHome service names ("Product") to the version the device
    declares; names this library does not use are ignored. Refusals are remembered
    until `clear_refusals` (a reconnect: it may be new firmware).
    """

    def __init__(self, declared: Mapping[str, int] | None = None) -> None:
        by_name = {service.short_name: service for service in Service}
        self.declared: dict[Service, int] = {
            by_name[name]: version
            for name, version in (declared or {}).items()
            if name in by_name and isinstance(version, int) and version >= 1
        }
        self._refused: set[tuple[Service, str]] = set()

    def available(self, service: Service, action: str) -> bool:
        """False once refused, or when the declared version is older than the action."""
        return (service, action) not in self._refused and not self.lacks(service, action)

    def lacks(self, service: Service, action: str) -> bool:
        """True when the device declares a version of `service` older than `action`."""
        declared = self.declared.get(service)
        return declared is not None and action_version(service, action) > declared

    def version(self, service: Service, action: str, requested: int | None = None) -> int:
        """`requested` (else the lowest version with `action`), never above the declared."""
        version = action_version(service, action) if requested is None else requested
        declared = self.declared.get(service)
        return version if declared is None else min(version, declared)

    def record_refusal(self, service: Service, action: str) -> None:
        """Remember that the device does not have `action`."""
        self._refused.add((service, action))

    def clear_refusals(self) -> None:
        """Forget every refusal (another device may answer at this address now)."""
        self._refused.clear()
