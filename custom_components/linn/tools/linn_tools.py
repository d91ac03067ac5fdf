"""The Linn tools in the order the model sees them, and the guard's specs taken from them.

Each tool is defined once, in one ToolDef (tool_def.py) in the module of its purpose:
playback.py, volume.py, media.py, groups.py. The order here is the order of the tools in
every request to a model (and so of its prompt cache): change it only on purpose.
"""

from __future__ import annotations

from ..guard.decisions import Access
from ..guard.policy import ToolSpec
from . import groups, media, playback, volume
from .tool_def import ToolDef

TOOLS: tuple[ToolDef, ...] = (
    playback.GET_STATE,
    playback.PLAY,
    playback.PAUSE,
    playback.STOP,
    playback.NEXT,
    playback.PREVIOUS,
    volume.SET_VOLUME,
    volume.CHANGE_VOLUME,
    volume.MUTE,
    media.SELECT_SOURCE,
    media.PLAY_PIN,
    media.PLAY_RADIO_PRESET,
    media.SEARCH_MUSIC,
    media.PLAY_MUSIC,
    playback.STANDBY,
    groups.JOIN,
    groups.UNJOIN,
    volume.SET_VOLUME_LIMIT,
    playback.WAKE,
    playback.SET_SHUFFLE,
    playback.SET_REPEAT,
    playback.SEEK,
)
TOOLS_BY_NAME = {tool.name: tool for tool in TOOLS}

TOOL_SPECS: dict[str, ToolSpec] = {
    tool.name: tool.spec
    for tool in sorted(TOOLS, key=lambda tool: tool.spec.access is not Access.READ)
}
"""The Linn tools as the guard sees them (access, action kind, taint, timeout, logging): the
reads first, then the rest, each in TOOLS' order (the options form lists them so)."""
