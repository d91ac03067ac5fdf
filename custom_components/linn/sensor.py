"""Sensors: the audio format of what is playing, and the guard's for the streamer's player.

Audio format: codec, bit depth, sample rate. The guard's: approvals waiting, and today's
assistant calls.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from homeassistant.components.media_player import DOMAIN as MEDIA_PLAYER_DOMAIN
from homeassistant.components.sensor import (
    SensorDeviceClass,
    SensorEntity,
    SensorEntityDescription,
    SensorStateClass,
)
from homeassistant.const import EntityCategory, UnitOfFrequency, UnitOfInformation
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers.device_registry import DeviceInfo
from homeassistant.helpers.dispatcher import async_dispatcher_connect
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from . import LinnConfigEntry
from .approvals.flow import SIGNAL_GUARD_CHANGED
from .const import DOMAIN
from .entity import LinnEntity
from .helpers import normalize_udn
from .lpec import LinnDevice, Service
from .lpec.model import InfoState
from .tools.ha_adapter import DATA_GUARD

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


class GuardSensor(SensorEntity):
    """Updated whenever the guard writes an audit record; no polling."""

    _attr_has_entity_name = True
    _attr_should_poll = False
    _attr_entity_category = EntityCategory.DIAGNOSTIC
    _attr_state_class = SensorStateClass.MEASUREMENT

    def __init__(self, udn: str, key: str) -> None:
        """Belongs to the streamer's device; counts what targeted its media player."""
        self._udn = udn
        self._attr_unique_id = f"{udn}_{key}"
        self._attr_translation_key = key
        self._attr_device_info = DeviceInfo(identifiers={(DOMAIN, udn)})

    @property
    def player_entity_id(self) -> str | None:
        """The media player of this streamer."""
        return er.async_get(self.hass).async_get_entity_id(MEDIA_PLAYER_DOMAIN, DOMAIN, self._udn)

    async def async_added_to_hass(self) -> None:
        """Follow the guard."""
        self.async_on_remove(
            async_dispatcher_connect(self.hass, SIGNAL_GUARD_CHANGED, self._changed)
        )

    @callback
    def _changed(self) -> None:
        self.async_write_ha_state()


class PendingApprovalsSensor(GuardSensor):
    """How many requests for this player wait for an administrator: the count only."""

    def __init__(self, udn: str) -> None:
        """Key pending_approvals."""
        super().__init__(udn, "pending_approvals")

    @property
    def native_value(self) -> int:
        """How many are open."""
        entity_id = self.player_entity_id
        runtime = self.hass.data.get(DATA_GUARD)
        if runtime is None or entity_id is None:
            return 0
        return sum(entity_id in r.entity_ids for r in runtime.guard.pending.awaiting_approval())

    # No attributes: every user reads every state, so the request ids, tools and requesters
    # go only to the admins (their phones and the approvals card's websocket API).


class AssistantCallsTodaySensor(GuardSensor):
    """Today's budget ledger for this player: tool calls (the agent adds tokens and cost)."""

    _attr_state_class = SensorStateClass.TOTAL_INCREASING

    def __init__(self, udn: str) -> None:
        """Key assistant_calls_today."""
        super().__init__(udn, "assistant_calls_today")

    @property
    def native_value(self) -> int:
        """Tool calls that targeted this player today (every outcome)."""
        return int(self._counters().get("tool_calls", 0))

    @property
    def extra_state_attributes(self) -> dict[str, float]:
        """The other counters of today's ledger for this player."""
        return {k: v for k, v in self._counters().items() if k != "tool_calls"}

    def _counters(self) -> dict[str, float]:
        entity_id = self.player_entity_id
        runtime = self.hass.data.get(DATA_GUARD)
        if runtime is None or entity_id is None:
            return {}
        return runtime.guard.ledger.for_player(entity_id)
