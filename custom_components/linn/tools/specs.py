"""The Linn tools as the guard sees them: access, action kind, taint, timeout, logging."""

from __future__ import annotations

from ..guard.decisions import Access, Policy
from ..guard.policy import ToolSpec

DEVICE_TIMEOUT = 3.0
SEARCH_TIMEOUT = 10.0

_PLAYER = frozenset({"player"})

TOOL_SPECS: dict[str, ToolSpec] = {
    spec.name: spec
    for spec in (
        ToolSpec("get_state", Access.READ, reads_untrusted=True, logged_fields=_PLAYER),
        ToolSpec(
            "search_music",
            Access.READ,
            reads_untrusted=True,
            timeout=SEARCH_TIMEOUT,
            logged_fields=_PLAYER,  # the query is the user's words: not logged
        ),
        ToolSpec("play", Access.CONTROL, "play", logged_fields=_PLAYER),
        ToolSpec("pause", Access.CONTROL, "pause", logged_fields=_PLAYER),
        ToolSpec("stop", Access.CONTROL, "stop", logged_fields=_PLAYER),
        ToolSpec("next", Access.CONTROL, "next", logged_fields=_PLAYER),
        ToolSpec("previous", Access.CONTROL, "previous", logged_fields=_PLAYER),
        ToolSpec("set_volume", Access.CONTROL, "volume", logged_fields=_PLAYER | {"volume"}),
        ToolSpec("change_volume", Access.CONTROL, "volume", logged_fields=_PLAYER | {"change"}),
        ToolSpec("mute", Access.CONTROL, "mute", logged_fields=_PLAYER | {"muted"}),
        ToolSpec("select_source", Access.CONTROL, "source", logged_fields=_PLAYER | {"source"}),
        ToolSpec("play_pin", Access.CONTROL, "play", logged_fields=_PLAYER | {"pin"}),
        ToolSpec("play_radio_preset", Access.CONTROL, "play", logged_fields=_PLAYER | {"preset"}),
        ToolSpec(
            "play_music",
            Access.CONTROL,
            "play",
            timeout=SEARCH_TIMEOUT,
            logged_fields=_PLAYER | {"item"},
        ),
        ToolSpec("standby", Access.CONTROL, "standby", logged_fields=_PLAYER),
        ToolSpec("join", Access.CONTROL, "group", logged_fields=_PLAYER),
        ToolSpec("unjoin", Access.CONTROL, "group", logged_fields=_PLAYER),
        ToolSpec(
            "set_volume_limit",
            # anyone who may control the player may ask; an admin decides (min_policy), also
            # on an admin's own request
            Access.CONTROL,
            "limit",
            logged_fields=_PLAYER | {"limit"},
            min_policy=Policy.APPROVE,
        ),
        ToolSpec("wake", Access.CONTROL, "wake", logged_fields=_PLAYER),
        ToolSpec("set_shuffle", Access.CONTROL, "shuffle", logged_fields=_PLAYER | {"shuffle"}),
        ToolSpec("set_repeat", Access.CONTROL, "repeat", logged_fields=_PLAYER | {"repeat"}),
        ToolSpec("seek", Access.CONTROL, "seek", logged_fields=_PLAYER | {"position", "change"}),
    )
}
