"""Limited mode: Home Assistant's own local intents answer when the model cannot."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Final

from homeassistant.components import conversation
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import intent

from ..guard import OTHER_API_TOOLS, Policy
from ..service_gate import LIMITED
from ..tools.ha_adapter import DATA_GUARD
from .replies import Say, say

if TYPE_CHECKING:
    from hassil.recognize import RecognizeResult

_LOGGER = logging.getLogger(__name__)


READ_ONLY_INTENTS: Final = frozenset(
    {
        intent.INTENT_GET_STATE,
        intent.INTENT_GET_CURRENT_DATE,
        intent.INTENT_GET_CURRENT_TIME,
        intent.INTENT_GET_TEMPERATURE,
        intent.INTENT_TIMER_STATUS,
        intent.INTENT_NEVERMIND,
        intent.INTENT_RESPOND,
        "HassGetWeather",
    }
)
"""Local intents that only answer; an unidentified caller gets no other in limited mode."""


class Limited(Exception):
    """The model cannot answer this turn: use the local intents (or say why not).

    `local=False`: say why, with no local intents (a member over their share of the day
    budget must not reach them).
    """

    def __init__(self, prefix: Say | None = None, *, local: bool = True) -> None:
        super().__init__(prefix)
        self.prefix = prefix
        self.local = local


def _changes_state(result: RecognizeResult) -> bool:
    return result.intent.name not in READ_ONLY_INTENTS


def local_changes_allowed(hass: HomeAssistant, agent_id: str) -> bool:
    """Whether limited mode may run local intents that change something.

    Not when the owner turned Home Assistant's own tools ("Tools of other APIs") off
    for this assistant: the local intents are those tools.
    """
    guard = hass.data[DATA_GUARD].guard
    policy = guard.default_settings().policy(OTHER_API_TOOLS)
    if (agent := guard.agent_settings_for(agent_id)) is not None:
        policy = max(policy, agent.policies.get(OTHER_API_TOOLS, Policy.ALLOW))
    return policy is not Policy.DENY


async def async_local_reply(
    hass: HomeAssistant,
    user_input: conversation.ConversationInput,
    chat_log: conversation.ChatLog,
    prefix: str | None = None,
    *,
    identified: bool,
    changes: bool = True,
) -> intent.IntentResponse:
    """The utterance through the built-in intents; the speech says the mode is limited.

    `prefix` (why the mode is limited, e.g. a used-up budget) is spoken first. An
    unidentified caller (an anonymous satellite, an automation) gets only intents that
    answer, never one that changes something: with no user, nothing checks permissions.
    `changes=False` (the owner turned Home Assistant's own tools off for this assistant):
    only intents that answer, for anyone. A change to a Linn player passes the guard
    (service_gate), with this turn's user and the assistant's policies; one that needs a
    yes is refused (no question can be asked).
    """
    language = user_input.language
    refused: list[str] = []
    token = LIMITED.set(refused)
    try:
        local = await conversation.async_handle_intents(
            hass,
            user_input,
            chat_log,
            intent_filter=None if identified and changes else _changes_state,
        )
    except HomeAssistantError as err:
        _LOGGER.debug("Local intents failed: %s", err)
        local = None
    finally:
        LIMITED.reset(token)
    local_speech = ""
    if local is not None:
        local_speech = str(local.speech.get("plain", {}).get("speech", "")).strip()
    if refused:
        # the guard refused a change to a Linn player (service_gate): say why, not the
        # intent's generic error
        local_speech = " ".join(dict.fromkeys(refused))
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
