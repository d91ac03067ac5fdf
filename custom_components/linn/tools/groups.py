"""The Linn tools for groups: players joining another's Songcast stream, and leaving it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import probatio

from ..guard import InvalidArgument
from ..lpec import Service
from .tool_def import CallContext, ToolDef, control, player_field, player_hint


def _check_join(ctx: CallContext, arguments: Mapping[str, Any]) -> None:
    leader = ctx.player(arguments)
    if not leader.device.state.sender.uri:
        raise InvalidArgument("player is not offering a Songcast stream")
    names = arguments["members"]
    if len(set(names)) != len(names) or leader.name in names:
        raise InvalidArgument("members must be other players, each once")
    for name in names:
        member = ctx.player({"member": name}, "member")
        if Service.RECEIVER not in member.device.state.services:
            raise InvalidArgument("members must be players that can join")


async def _join(ctx: CallContext, arguments: Mapping[str, Any]) -> dict[str, Any]:
    sender = ctx.player(arguments).device.state.sender
    for name in arguments["members"]:
        await ctx.player({"member": name}, "member").device.songcast_join(
            sender.uri or "", sender.metadata
        )
    return {"done": True}


async def _unjoin(ctx: CallContext, arguments: Mapping[str, Any]) -> dict[str, Any]:
    await ctx.player(arguments).device.songcast_leave()
    return {"done": True}


# --- the tools ------------------------------------------------------------------------

JOIN = ToolDef(
    control("join", "group"),
    "Join players",
    "Make other Linn players play what this one plays (Songcast).",
    read_only=False,
    destructive=False,
    idempotent=True,
    fields=lambda facts: {
        **player_field(facts),
        probatio.Required("members"): probatio.All(
            [probatio.In(list(facts.players))],
            probatio.Length(min=1, max=max(1, len(facts.players) - 1)),
        ),
    },
    run=_join,
    hints=lambda facts: {
        **player_hint(facts),
        "members": "members must be other listed players, each once",
    },
    check=_check_join,
)
UNJOIN = ToolDef(
    control("unjoin", "group"),
    "Leave group",
    "Make a Linn player leave its group (back to its previous source).",
    read_only=False,
    destructive=False,
    idempotent=True,
    fields=player_field,
    run=_unjoin,
    hints=player_hint,
)
