"""The assistant's conversation entity: usable in any Assist pipeline."""

from __future__ import annotations

from typing import Literal, override

from homeassistant.components import conversation
from homeassistant.const import MATCH_ALL
from homeassistant.helpers.device_registry import DeviceEntryType, DeviceInfo

from ..const import DOMAIN
from .runtime import AssistantConfigEntry
from .turn import AssistantTurn


class AssistantEntity(conversation.ConversationEntity, conversation.AbstractConversationAgent):
    """Claude (or a compatible model) controlling the Linn players through the guard."""

    _attr_has_entity_name = True
    _attr_name = None
    _attr_supports_streaming = True
    _attr_supported_features = conversation.ConversationEntityFeature.CONTROL

    def __init__(self, entry: AssistantConfigEntry) -> None:
        """One entity per assistant entry, on a service device of its own."""
        self.entry = entry
        self._attr_unique_id = entry.entry_id
        self._attr_device_info = DeviceInfo(
            identifiers={(DOMAIN, entry.entry_id)},
            name=entry.title,
            manufacturer="Anthropic",
            model="Claude assistant",
            entry_type=DeviceEntryType.SERVICE,
        )

    @property
    @override
    def supported_languages(self) -> list[str] | Literal["*"]:
        """Any language the model speaks."""
        return MATCH_ALL

    @override
    async def _async_handle_message(
        self,
        user_input: conversation.ConversationInput,
        chat_log: conversation.ChatLog,
    ) -> conversation.ConversationResult:
        """One turn of the tool loop."""
        return await AssistantTurn(
            self.hass, self.entry, self.entity_id, user_input, chat_log
        ).async_run()
