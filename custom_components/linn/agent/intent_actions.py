"""Home Assistant's intent tools as the guard's taint rule sees them.

Each built-in intent tool the Assist API of Home Assistant 2026.10 offers (its tool name:
the owning integration and the intent) has the kind of action a user's words must ask for
(guard/utterance.py ACTION_WORDS) and the arguments that name what it changes. After device
text was read in a turn, such a call runs only when the user asked for that kind of action
and named every target it gives. Tools not listed here (HassStartTimer, whose timer can
carry a command to run later; play_media, whose item may be a URL from the text; any
other API's tools) have no action kind and stay refused after device text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from homeassistant.helpers import llm

_ENTITY: Final = frozenset({"name", "area", "floor"})
"""The slots by which an entity intent picks what it changes."""
_TIMER: Final = frozenset({"name", "area"})
_LIST_ITEM: Final = frozenset({"name", "item"})
"""A to-do intent's list and item: text the device could supply must be the user's."""


@dataclass(frozen=True, slots=True)
class IntentAction:
    """What the guard needs of one intent tool."""

    action: str
    targets: frozenset[str]
    volume_field: str | None = None
    """The argument holding a volume 0-100 (it must follow the user's words)."""


INTENT_ACTIONS: Final[dict[str, IntentAction]] = {
    "intent__HassTurnOn": IntentAction("turn_on", _ENTITY),
    "intent__HassTurnOff": IntentAction("turn_off", _ENTITY),
    "intent__HassSetPosition": IntentAction("position", _ENTITY),
    "intent__HassStopMoving": IntentAction("stop", _ENTITY),
    "intent__HassCancelAllTimers": IntentAction("timer", _TIMER),
    "intent__HassCancelTimer": IntentAction("timer", _TIMER),
    "intent__HassPauseTimer": IntentAction("timer", _TIMER),
    "intent__HassUnpauseTimer": IntentAction("timer", _TIMER),
    "intent__HassIncreaseTimer": IntentAction("timer", _TIMER),
    "intent__HassDecreaseTimer": IntentAction("timer", _TIMER),
    "light__HassLightSet": IntentAction("light", _ENTITY),
    "climate__HassClimateSetTemperature": IntentAction("climate", _ENTITY),
    "fan__HassFanSetSpeed": IntentAction("fan", _ENTITY),
    "humidifier__HassHumidifierSetpoint": IntentAction("humidity", _ENTITY),
    "humidifier__HassHumidifierMode": IntentAction("humidity", _ENTITY),
    "media_player__HassMediaPause": IntentAction("pause", _ENTITY),
    "media_player__HassMediaUnpause": IntentAction("play", _ENTITY),
    "media_player__HassMediaNext": IntentAction("next", _ENTITY),
    "media_player__HassMediaPrevious": IntentAction("previous", _ENTITY),
    "media_player__HassMediaPlayerMute": IntentAction("mute", _ENTITY),
    "media_player__HassMediaPlayerUnmute": IntentAction("mute", _ENTITY),
    "media_player__HassSetVolume": IntentAction("volume", _ENTITY, "volume_level"),
    "media_player__HassSetVolumeRelative": IntentAction("volume", _ENTITY),
    "vacuum__HassVacuumStart": IntentAction("clean", _ENTITY),
    "vacuum__HassVacuumReturnToBase": IntentAction("clean", _ENTITY),
    "vacuum__HassVacuumCleanArea": IntentAction("clean", _ENTITY),
    "lawn_mower__HassLawnMowerStartMowing": IntentAction("clean", _ENTITY),
    "lawn_mower__HassLawnMowerDock": IntentAction("clean", _ENTITY),
    "todo__HassListAddItem": IntentAction("list", _LIST_ITEM),
    "todo__HassListCompleteItem": IntentAction("list", _LIST_ITEM),
    "todo__HassListRemoveItem": IntentAction("list", _LIST_ITEM),
}


def intent_action(tool: llm.Tool) -> IntentAction | None:
    """The entry of one of Home Assistant's own intent tools, None for any other tool.

    The name alone is not trusted: the tool must be Home Assistant's IntentTool for that
    very intent, offered by the integration its name says.
    """
    entry = INTENT_ACTIONS.get(tool.name)
    if entry is None or not isinstance(tool, llm.IntentTool):
        return None
    integration, _, intent_type = tool.name.partition("__")
    if tool.intent_type != intent_type or tool.integration != integration:
        return None
    return entry
