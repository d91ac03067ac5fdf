"""Sensors of the guard for one player: approvals waiting, and today's assistant calls."""

from __future__ import annotations

from homeassistant.components.media_player import DOMAIN as MEDIA_PLAYER_DOMAIN
from homeassistant.components.sensor import SensorEntity, SensorStateClass
from homeassistant.const import EntityCategory
from homeassistant.core import callback
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers.device_registry import DeviceInfo
from homeassistant.helpers.dispatcher import async_dispatcher_connect

from .approvals.flow import SIGNAL_GUARD_CHANGED
from .const import DOMAIN
from .tools.ha_adapter import DATA_GUARD


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
