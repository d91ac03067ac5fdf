"""What a turn changed, said by the code when the turn ends before the model could say it.

A budget used up (or the model lost) after a tool ran must not hide that the change
happened: the user hears what ran, from the tools' own results.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

from homeassistant.components import conversation
from homeassistant.helpers import llm

from ..guard.phrases import language_code
from ..llm import PREFIX as TOOL_PREFIX

_WHAT: Final[Mapping[str, Mapping[str, str]]] = {
    "en": {
        "play": "playing",
        "play_pin": "pin {pin} playing",
        "play_radio_preset": "radio preset {preset} playing",
        "play_music": "playing the music found",
        "pause": "paused",
        "stop": "stopped",
        "next": "next track",
        "previous": "previous track",
        "set_volume": "volume {volume}",
        "change_volume": "volume {volume}",
        "mute": "mute {muted}",
        "select_source": "source {source}",
        "standby": "in standby",
        "wake": "switched on",
        "join": "grouped",
        "unjoin": "left its group",
        "set_shuffle": "shuffle {shuffle}",
        "set_repeat": "repeat {repeat}",
        "seek": "position changed",
    },
    "de": {
        "play": "Wiedergabe läuft",
        "play_pin": "Pin {pin} läuft",
        "play_radio_preset": "Radiosender {preset} läuft",
        "play_music": "die gefundene Musik läuft",
        "pause": "pausiert",
        "stop": "gestoppt",
        "next": "nächster Titel",
        "previous": "voriger Titel",
        "set_volume": "Lautstärke {volume}",
        "change_volume": "Lautstärke {volume}",
        "mute": "Stumm {muted}",
        "select_source": "Quelle {source}",
        "standby": "im Standby",
        "wake": "eingeschaltet",
        "join": "gruppiert",
        "unjoin": "aus der Gruppe genommen",
        "set_shuffle": "Zufall {shuffle}",
        "set_repeat": "Wiederholen {repeat}",
        "seek": "Position geändert",
    },
}
_ON_OFF: Final[Mapping[str, tuple[str, str]]] = {"en": ("on", "off"), "de": ("an", "aus")}
_OPENING: Final[Mapping[str, str]] = {"en": "Done: {changes}.", "de": "Erledigt: {changes}."}


def _base(language: str | None) -> str:
    base = language_code(language)
    return base if base in _WHAT else "en"


def changes_that_ran(content: Iterable[conversation.Content], language: str | None) -> str | None:
    """One sentence naming each change a tool reported done, or None when none ran.

    `content` is the turn's chat-log entries. A Linn tool is done when its result says
    `done`; another API's tool (an Assist intent) when its result is `action_done`.
    """
    lang = _base(language)
    calls: dict[str, llm.ToolInput] = {}
    changes: list[str] = []
    for item in content:
        if isinstance(item, conversation.AssistantContent):
            calls.update({call.id: call for call in item.tool_calls or []})
        elif isinstance(item, conversation.ToolResultContent) and not item.result.error:
            call = calls.get(item.tool_call_id)
            if call is not None and (change := _change(call, item.result.data, lang)):
                changes.append(change)
    if not changes:
        return None
    return _OPENING[lang].format(changes="; ".join(changes))


def _change(call: llm.ToolInput, result: Mapping[str, Any], lang: str) -> str | None:
    if not call.tool_name.startswith(TOOL_PREFIX):
        done = result.get("response_type") == "action_done"
        return call.tool_name.rpartition("__")[2] if done else None
    if result.get("done") is not True:
        return None
    name = call.tool_name.removeprefix(TOOL_PREFIX)
    template = _WHAT[lang].get(name)
    if template is None:
        return name.replace("_", " ")
    values = {**call.tool_args, **result}
    on, off = _ON_OFF[lang]
    fields = {
        key: (on if value else off) if isinstance(value, bool) else str(value)
        for key, value in values.items()
    }
    try:
        what = template.format(**fields)
    except KeyError:
        what = template.split(" {")[0]
    player = call.tool_args.get("player")
    return f"{player}: {what}" if isinstance(player, str) and player else what
