"""The device's volume limit, when the device lets it be set (Config Volume.Limit)."""

from __future__ import annotations

import logging

from homeassistant.components.number import NumberEntity, NumberMode
from homeassistant.const import EntityCategory
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import Unauthorized
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from . import LinnConfigEntry
from .entity import LinnEntity, command
from .lpec import LinnDevice, LpecError, Service

_LOGGER = logging.getLogger(__name__)

PARALLEL_UPDATES = 0


async def async_setup_entry(
    hass: HomeAssistant,
    entry: LinnConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add the volume limit if the device accepts it through its Config service."""
    device = entry.runtime_data
    try:
        settable = await device.volume_limit_settable()
    except LpecError as err:
        _LOGGER.warning(
            "%s: could not check whether the volume limit can be set: %s", device.host, err
        )
        return
    if settable:
        async_add_entities([LinnVolumeLimit(device)])


class LinnVolumeLimit(LinnEntity, NumberEntity):
    """The highest volume the device will play at, in device units."""

    _attr_entity_category = EntityCategory.CONFIG
    _attr_translation_key = "volume_limit"
    _attr_mode = NumberMode.SLIDER
    _attr_native_min_value = 0
    _attr_native_step = 1
    relevant_services = frozenset({Service.VOLUME})

    def __init__(self, device: LinnDevice) -> None:
        """One per streamer."""
        super().__init__(device, "volume_limit")

    def shown_key(self) -> object:
        """The limit and VolumeMax: a volume change alone leaves this entity as it is."""
        volume = self.device.state.volume
        return (volume.volume_limit, volume.volume_max)

    @property
    def native_max_value(self) -> float:
        """The device's VolumeMax."""
        return float(self.device.state.volume.volume_max or 100)

    @property
    def native_value(self) -> float | None:
        """The current VolumeLimit."""
        limit = self.device.state.volume.volume_limit
        return None if limit is None else float(limit)

    async def async_set_native_value(self, value: float) -> None:
        """Set the limit (the device lowers the volume if it is above).

        The limit is the ceiling the guarded tools enforce and only an admin's approval may
        lift through them, so a plain action may set it only for an admin or with no user
        behind it (an automation, which an admin wrote).
        """
        user_id = self._context.user_id if self._context else None

        if user_id is not None:
            user = await self.hass.auth.async_get_user(user_id)
            if user is None or not user.is_admin:
                raise Unauthorized(context=self._context, entity_id=self.entity_id)
        await self.async_write_limit(value)

    @command
    async def async_write_limit(self, value: float) -> None:
        """Send the limit to the device."""
        await self.device.set_volume_limit(round(value))
