"""Audio format of what is playing: codec, bit depth, sample rate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from homeassistant.components.sensor import (
    SensorDeviceClass,
    SensorEntity,
    SensorEntityDescription,
)
from homeassistant.const import EntityCategory, UnitOfFrequency, UnitOfInformation
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from . import LinnConfigEntry
from .entity import LinnEntity
from .guard_sensors import AssistantCallsTodaySensor, PendingApprovalsSensor
from .helpers import normalize_udn
from .lpec import LinnDevice, Service
from .lpec.model import InfoState

PARALLEL_UPDATES = 0


@dataclass(frozen=True, kw_only=True)
class LinnSensorDescription(SensorEntityDescription):
    """A sensor read from the Info service."""

    value: Callable[[InfoState], str | int | None]


SENSORS: tuple[LinnSensorDescription, ...] = (
    LinnSensorDescription(
        key="codec",
        translation_key="codec",
        value=lambda info: info.codec_name,
    ),
    LinnSensorDescription(
        key="bit_depth",
        translation_key="bit_depth",
        entity_category=EntityCategory.DIAGNOSTIC,
        native_unit_of_measurement=UnitOfInformation.BITS,
        value=lambda info: info.bit_depth or None,
    ),
    LinnSensorDescription(
        key="sample_rate",
        translation_key="sample_rate",
        entity_category=EntityCategory.DIAGNOSTIC,
        device_class=SensorDeviceClass.FREQUENCY,
        native_unit_of_measurement=UnitOfFrequency.HERTZ,
        suggested_unit_of_measurement=UnitOfFrequency.KILOHERTZ,
        suggested_display_precision=1,
        value=lambda info: info.sample_rate or None,
    ),
)


async def async_setup_entry(
    hass: HomeAssistant,
    entry: LinnConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add the audio-format sensors and the guard's sensors for this player."""
    async_add_entities(LinnInfoSensor(entry.runtime_data, description) for description in SENSORS)
    udn = normalize_udn(entry.runtime_data.udn or "")
    async_add_entities([PendingApprovalsSensor(udn), AssistantCallsTodaySensor(udn)])


class LinnInfoSensor(LinnEntity, SensorEntity):
    """One field of the Info service."""

    entity_description: LinnSensorDescription
    relevant_services = frozenset({Service.INFO})

    def __init__(self, device: LinnDevice, description: LinnSensorDescription) -> None:
        """Bind the description."""
        super().__init__(device, description.key)
        self.entity_description = description

    @property
    def native_value(self) -> str | int | None:
        """The current value; None when nothing is playing."""
        return self.entity_description.value(self.device.state.info)
