"""Limited mode: Home Assistant's own local intents answer when the model cannot."""

from __future__ import annotations

import logging

from homeassistant.components import conversation
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import intent

from .replies import Say, say

_LOGGER = logging.getLogger(__name__)


async def async_local_reply(
    hass: HomeAssistant,
    user_input: conversation.ConversationInput,
    chat_log: conversation.ChatLog,
    prefix: str | None = None,
) -> intent.IntentResponse:
    """The utterance through the built-in intents; the speech says the mode is limited.

    `prefix` (why the mode is limited, e.g. a used-up budget) is spoken first.
    """
    language = user_input.language
    try:
        local = await conversation.async_handle_intents(hass, user_input, chat_log)
    except HomeAssistantError as err:
        _LOGGER.debug("Local intents failed: %s", err)
        local = None
    local_speech = ""
    if local is not None:
        local_speech = str(local.speech.get("plain", {}).get("speech", "")).strip()
    if local is not None and local_speech:
        speech = say(Say.LIMITED, language, reply=local_speech)
        response = local
    else:
        speech = say(Say.LIMITED_NO_MATCH, language)
        response = intent.IntentResponse(language=language)
    if prefix:
        speech = f"{prefix} {speech}"
    response.async_set_speech(speech)
    return response
