"""Firmware update, from the Linn Update service."""

from __future__ import annotations

from typing import Any

from homeassistant.components.update import (
    UpdateDeviceClass,
    UpdateEntity,
    UpdateEntityFeature,
)
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from . import LinnConfigEntry
from .entity import LinnEntity, command
from .lpec import LinnDevice, Service

PARALLEL_UPDATES = 0


async def async_setup_entry(
    hass: HomeAssistant,
    entry: LinnConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add the firmware entity if the device has the Update service."""
    if Service.UPDATE in entry.runtime_data.state.services:
        async_add_entities([LinnFirmwareUpdate(entry.runtime_data)])


class LinnFirmwareUpdate(LinnEntity, UpdateEntity):
    """The streamer's firmware (Davaar): installed, available, install."""

    _attr_device_class = UpdateDeviceClass.FIRMWARE
    _attr_supported_features = UpdateEntityFeature.INSTALL
    relevant_services = frozenset({Service.UPDATE})

    def __init__(self, device: LinnDevice) -> None:
        """One per streamer."""
        super().__init__(device, "firmware")
        self._attr_translation_key = "firmware"

    @property
    def installed_version(self) -> str | None:
        """Firmware running now."""
        return self.device.state.update.software.current_version

    @property
    def latest_version(self) -> str | None:
        """Newest firmware the device can install."""
        return self.device.state.update.software.latest_version

    @property
    def release_summary(self) -> str | None:
        """The update's description."""
        return self.device.state.update.software.summary

    @property
    def release_url(self) -> str | None:
        """Linn's release notes."""
        return self.device.state.update.software.release_notes_url

    @command
    async def async_install(self, version: str | None, backup: bool, **kwargs: Any) -> None:
        """Install the available firmware; the device reboots and comes back."""
        await self.device.update_firmware()
